"""Chinese Solitaire: the thoughtful search (every card known).

Depth-first search with play/unplay over ``position`` and a transposition table
(``winnable.solvers.table``).  A deal is won when a line reaching 52 cards on the foundations is
found (it is returned and replayed by the tests), lost when the whole reachable space was
searched without one, and ``unknown`` when the node budget (successors played) or the depth cap
ran out first.

Reductions.  Each is a bit of ``rules`` (``ALL``: every one; 0: the plain search), each has the
argument below, and the tests compare the search without each of them (and without any) with
the search using all of them, and with the plain-Python reference search, on positions searched
completely.

1. ``SAFE_UP``, safe moves to foundation, once the stock has been dealt.  A top card c of rank r
   may go up at once, as the only successor, if both foundations of the other colour hold every
   card below rank r.  Proof: take any winning line from the position; play c up first, then
   the same line with every move of c alone dropped and c removed from every block it is part
   of.  (i) No card can ever be put on c: the cards that build on c (the other colour, rank
   r-1) are all on foundations and never come back, and the stock, the only other way a card
   lands on a pile, is gone.  So c stays the top card of whatever pile it is in, every block
   that contains c has c as its top card, and removing c from a block leaves the block's bottom
   card, its legality (also for ``blocks=sequence``: a run minus its top card is a run) and its
   target unchanged.  (ii) A pile that c alone occupies is, without c, empty, which accepts
   everything a pile topped by c accepts (nothing, by (i)) and more.  (iii) Foundations of
   other suits are untouched and c's own suit only gains.  So every move of the line stays
   legal and the line still wins.  Before the stock is dealt this fails (the stock may land on
   c, and c may then carry that card somewhere no other card could), so no move is forced then.
2. ``SPACES``, equivalent spaces: a block that may go to a space is tried on one empty pile per
   class of interchangeable piles (all piles once the stock is dealt; piles 4-7 before, since
   the stock lands on piles 1, 2, 3 by name), and a whole pile is not moved to a space of its
   own class.  Such piles differ only by their names, which no rule reads.
3. ``SYMMETRY``: the fingerprint ignores the order of interchangeable piles (the same classes;
   see ``position``), so positions that differ only by the naming of such piles are one
   node.
4. ``CLASSES``, positions joined by reversible moves are one node.  A class move
   (``is_reversible``) can be taken back at once, so from the position after it the position
   before it is reachable and the other way round: every position reachable from one is
   reachable from the other, and one is won if and only if the other is.  Hence so is every
   position of a *class* (the positions joined to each other by class moves).  A node of the
   search is a class: the position it is entered in is brought to a canonical form by class
   moves (``normalise``), the fingerprint of that form is the node's key, and its successors
   are the moves that are not class moves of every member of the class (``expand`` enumerates
   the members).  Every line of the game is a line of class moves and other moves, so every
   position reachable from the class is reachable from a successor; the search stays complete.
   In strict mode the class moves are the parent swaps, and every other move turns a card face
   up, puts a card up, deals the stock, takes a card off one it does not build on, or empties a
   pile, none of which can be undone: the graph of classes has no cycles, so a node searched to
   the end is lost whatever line reached it, and the table keeps it so for every restart.
   Completeness needs every member: a class is enumerated up to ``MAX_MEMBERS`` positions (and
   ``MAX_PATH`` class moves from the node's position; the members of the classes on the line
   share a pool of ``MEMBER_POOL``).  A class larger than that is searched only in part (its
   class moves past the bound are kept as ordinary moves, which may lead back into it), so the
   node is not marked lost and the search can end ``unknown``, never ``loss``
   (``ws.cut`` counts such classes).  Until 2026-12-02 the bound was 64 members and such a
   class was taken as searched: a loss could rest on members never looked at (mended: the
   same verdicts on strict deals 1-3,000, easy 1-400 and ``blocks=sequence easy=1`` 1-300).
5. ``MERGE``: within a class, a move legal both in a member and in a member one class move away
   that ``expand`` met before is tried in the latter only.  The two positions after it are one
   class move apart as well (proved case by case in ``expand``), so they are won together.  The
   stock is never merged: it lands on different cards.
6. ``DEAD_END``: a position that ``losses.dead_end`` proves lost is not searched.
7. ``CRITICAL``: a node that the critical-path test h^2 (``critical.dead``, its argument is in
   that module) proves lost is not searched further: the test runs on the node's position
   (its class's canonical member, which is won exactly when every member is) once
   ``learn_after`` successors have been played below the node (0: as it is entered), at most
   once a node.  Such a node is lost whatever line reached it, so it is marked ``LOST`` even
   where its search so far leaned on the current line.  The test costs about 30 times a node,
   which ``learn_after`` bounds: a subtree too small to pay for it is never tested.
8. ``MEMBERS``: once a node is searched, every member of its class that ``expand_rest``
   enumerated goes into the table with the node's state (``LOST``, or ``VISITED`` for this
   search).  Every member is won exactly when the class is (reduction 4), so a later node
   entered at any member (the canonical form of ``normalise`` is that of the position it starts
   from: in easy mode a class may be entered at many forms) is the same node, already searched.
   ``LOST`` and ``ON_PATH`` entries are never overwritten.  Without it, the classes of
   ``blocks=sequence easy=1`` (thousands of members) were enumerated again from each form they
   were entered at: on deal 1179, 18.6 million members enumerated in the first 1,000,000 nodes,
   18.2 million of them in classes enumerated before.

The table (``winnable.solvers.table``): a node is marked ``LOST`` once searched to the end
without a win, unless it met a node on the current line (a cycle, possible in easy mode and in
the plain search) or a node that did: then ``VISITED``, valid within this search only.

Counters (``ws.searched``, accumulated; the caller resets them): the classes searched to the
end, and those below which a face-down card turned (a move of the search turned one while the
class was on the line).  The others are *barren*: with cards still face down they are lost, and
``experiments/chinese_barren.py`` reads these counts to bound what proving such subtrees lost at
their roots could save.  Class moves never turn a card (the block's bottom card lies on a face-up
card, or the whole pile moves), so only the successors' own moves are looked at.

Move order: successors best first by ``_worth`` (how much ``evaluate`` would gain: cards up,
face-down cards turned, spaces made, cards taken off cards they do not build on), ties in the
order of generation; a restart (``jitter`` > 0) perturbs the worths by up to three points.

The module stays whole (about 970 lines, 90 of them this docstring): its kernels share one
workspace (``Workspace``) and one move encoding, and the reductions argued above are carried out
by the move generation, the classes (``normalise``, ``expand``) and the search loop together, so
each argument is read against the code below it rather than across files.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import inline_kernel, kernel
from ...rules import chinese as R
from ...shuffle import GOLDEN, MIX1
from . import position as P
from . import critical as C
from .losses import dead_end, twin
from ..table import (LOSS, LOST, ON_PATH, UNKNOWN, VISITED, WIN, mix64, tt_find, tt_offer,
                    tt_prefetch, tt_set_state, tt_state, tt_store)

SAFE_UP, SPACES, SYMMETRY, CLASSES, MERGE, DEAD_END, CRITICAL, MEMBERS = 1, 2, 4, 8, 16, 32, 64, 128
ALL = SAFE_UP | SPACES | SYMMETRY | CLASSES | MERGE | DEAD_END | CRITICAL | MEMBERS
REDUCTIONS = {"safe_up": SAFE_UP, "spaces": SPACES, "symmetry": SYMMETRY, "classes": CLASSES,
              "merge": MERGE, "dead_end": DEAD_END, "critical": CRITICAL,
              "members": MEMBERS}

MAX_DEPTH = 1024       # nodes on a line at most (more: that line is cut, the search unknown)
MAX_MOVES = 512        # legal moves of one position at most
MAX_MEMBERS = 1 << 16  # positions of one class enumerated at most (more: the search is incomplete)
MEMBER_POOL = 1 << 20  # members of the classes of all the nodes on the line at most (alike)
MAX_PATH = 24          # class moves from a node's position to a member of its class at most
MERGE_MEMBERS = 64     # members whose moves later members may merge into (one bit each)
FIRST_INDEX = 64  # slots of a class's member index at first (doubled as the class grows)
MAX_SUCCESSORS = 1024  # successors of one node at most
MAX_PLAYED = 8 * MAX_DEPTH
MOVE_NAMES = R.N_CARDS << 8
TRUNCATED = np.int64(1) << 32  # a class move kept as an ordinary move (the class overflowed)
JITTER_SCALE = 16
JITTER_RANGE = 48  # a restart's order may swap moves up to three worth points apart
CAP = P.CAPACITY
AHEAD = 4  # table buckets asked for ahead of their use (``_mark_members``)


class Workspace(NamedTuple):
    """Buffers of the search (allocated once per worker, reused for every deal)."""
    succ_move: np.ndarray     # int64[MAX_DEPTH, MAX_SUCCESSORS]: each node's successors
    succ_member: np.ndarray   # int64[MAX_DEPTH, MAX_SUCCESSORS]: the member each is played in
                              # (its index in the pool, -1 for the node's own position)
    worth: np.ndarray         # int64[MAX_SUCCESSORS]
    count: np.ndarray         # int64[MAX_DEPTH]
    nxt: np.ndarray           # int64[MAX_DEPTH]
    slot: np.ndarray          # int64[MAX_DEPTH]: table slot of each node on the line
    leaning: np.ndarray       # bool[MAX_DEPTH]: the node's result leans on the current line
    rest: np.ndarray          # bool[MAX_DEPTH]: the node's other class members are still to come
    first: np.ndarray         # int64[MAX_DEPTH, MAX_MOVES]: the class moves of the node's position
    first_count: np.ndarray   # int64[MAX_DEPTH, 2]: its successors and class moves
    pool_parent: np.ndarray   # int32[MEMBER_POOL]: the member a member was reached from
    pool_move: np.ndarray     # int32[MEMBER_POOL]: the class move that reached it
    pool_len: np.ndarray      # int32[MEMBER_POOL]: class moves from the node's position
    pool_key: np.ndarray      # uint64[MEMBER_POOL, 2]: its fingerprint (reduction 8)
    pool_end: np.ndarray      # int64[MAX_DEPTH]: the pool used by the nodes of the line so far
    mem_slot: np.ndarray      # int64[2 * MAX_MEMBERS]: member index + 1 by key (open addressing)
    mem_slot_stamp: np.ndarray  # int64[2 * MAX_MEMBERS]: the index generation that wrote it
    chain: np.ndarray         # int64[MAX_PATH]: a member's path, last move first
    cut: np.ndarray           # int64[1]: classes of this search larger than the buffers
    mem_key: np.ndarray       # uint64[MAX_MEMBERS, 2]
    mem_freed: np.ndarray     # int64[MAX_MEMBERS]: the card its parent swap freed, or -1
    marks: np.ndarray         # uint64[MOVE_NAMES]: members where a move (by its cards) is legal
    mark_stamp: np.ndarray    # int64[MOVE_NAMES]: the expansion that wrote the marks
    expansions: np.ndarray    # int64[2]: expansions so far (the current mark stamp), and
                              # member index generations so far (``_member_slot``)
    moves: np.ndarray         # int64[MAX_MOVES]: one position's moves
    played: np.ndarray        # int64[MAX_PLAYED]: every move of the current line
    tokens: np.ndarray        # int64[MAX_PLAYED]
    segment: np.ndarray       # int64[MAX_DEPTH + 1]: where each node's moves start in played
    line: np.ndarray          # int64[MAX_PLAYED]: a won line on return
    best_line: np.ndarray     # int64[MAX_PLAYED]: a line to the most cards up the search met
    best_length: np.ndarray   # int64[1]: its length (0: the start had the most)
    turned: np.ndarray        # bool[MAX_DEPTH]: a face-down card turned below the node so far
    searched: np.ndarray      # int64[2]: classes searched to the end, and those of them below
                              # which a face-down card turned (accumulated: the caller resets)
    entered: np.ndarray       # int64[MAX_DEPTH]: nodes spent when the node was entered
    tested: np.ndarray        # bool[MAX_DEPTH]: the critical-path test ran on the node
    proven: np.ndarray        # bool[MAX_DEPTH]: the critical-path test proved the node lost
    critical: np.ndarray      # int64[2]: critical-path tests run, and nodes they proved lost



class Probe(NamedTuple):
    """Where a search spends its nodes, for measurement only (``search(..., probe=Probe)``;
    ``experiments/chinese_hard_phases.py``).  Without a probe (the default) Numba prunes every
    branch that reads it, so the searches of the solver compile to the same code as before.

    A position's *phase* is (stock dealt?, face-down cards left), coded ``phase_code``; the
    *end game* is the phase (dealt, 0): every card known and no stock left.  A *region root* is
    a node of the search whose phase is not its parent's (or the search's own start): below it,
    down to the next roots, no card turns and the stock is not dealt.  Counters accumulate
    over searches (the caller zeroes them)."""
    played: np.ndarray    # int64[2, FACE_DOWN + 1]: successors played, by the phase reached
    entered: np.ndarray   # int64[2, FACE_DOWN + 1]: nodes entered (new to this search's table)
    skipped: np.ndarray   # int64[3, 2, FACE_DOWN + 1]: successors not entered, by phase: the
                          # table holds them LOST, holds them otherwise, ``dead_end`` cut them
    enclosing: np.ndarray  # int64[MAX_DEPTH]: the record of the region root above or at the
                           # node of that depth, or -1 (past the records)
    records: np.ndarray   # int64[n, 6]: per region root entered: its depth, its key's first
                          # word, nodes played below it, its final state (-1: left open), the
                          # deepest node below it in its region (relative), its phase code
    keys: np.ndarray      # uint64[m]: the first key word of every end-game node entered
    count: np.ndarray     # int64[2]: records and keys written (past the arrays: counted only)


FACE_DOWN = 18  # face-down cards in a deal (3 + 4 + 5 + 6)


def new_probe(records: int = 1 << 21, keys: int = 1 << 22) -> Probe:
    z = np.zeros
    return Probe(z((2, FACE_DOWN + 1), np.int64), z((2, FACE_DOWN + 1), np.int64),
                 z((3, 2, FACE_DOWN + 1), np.int64), np.full(MAX_DEPTH, -1, np.int64),
                 z((records, 6), np.int64), z(keys, np.uint64), z(2, np.int64))


@kernel
def _phase(pos):
    down = 0
    for p in range(R.PILES):
        down += pos.down[p]
    return pos.misc[R.STOCK_DEALT], down


def phase_code(dealt, down):
    """A phase as one number (``Probe.records``' last column)."""
    return dealt * (FACE_DOWN + 1) + down


@kernel
def _probe_enter(probe, pos, depth, nodes):
    """Node ``depth`` entered: count it, and open a record if it is a region root."""
    dealt, down = _phase(pos)
    code = dealt * (FACE_DOWN + 1) + down
    probe.entered[dealt, down] += 1
    if dealt == 1 and down == 0:
        k = probe.count[1]
        if k < probe.keys.shape[0]:
            probe.keys[k] = pos.key[0]
        probe.count[1] = k + 1
    above = probe.enclosing[depth - 1] if depth > 0 else -1
    if depth > 0 and (above < 0 or probe.records[above, 5] == code):
        probe.enclosing[depth] = above
        if above >= 0:
            probe.records[above, 4] = max(probe.records[above, 4],
                                          depth - probe.records[above, 0])
        return
    r = probe.count[0]
    probe.count[0] = r + 1
    probe.enclosing[depth] = r if r < probe.records.shape[0] else -1
    if r < probe.records.shape[0]:
        probe.records[r, 0] = depth
        probe.records[r, 1] = np.int64(pos.key[0])
        probe.records[r, 2] = -nodes
        probe.records[r, 3] = -1
        probe.records[r, 4] = 0
        probe.records[r, 5] = code


@kernel
def _probe_leave(probe, depth, nodes, state):
    """Node ``depth`` searched to the end with ``state``: close its record if it is a root."""
    r = probe.enclosing[depth]
    if r >= 0 and probe.records[r, 0] == depth:
        probe.records[r, 2] += nodes
        probe.records[r, 3] = state


@kernel
def _probe_close(probe, depth, nodes):
    """The search stopped (won, or out of budget) with nodes 0..``depth`` on the line: their
    records stay open (state -1) with the nodes played below them so far."""
    for d in range(depth + 1):
        r = probe.enclosing[d]
        if r >= 0 and probe.records[r, 0] == d:
            probe.records[r, 2] += nodes


def new_workspace(max_members: int = MAX_MEMBERS, pool: int = MEMBER_POOL) -> Workspace:
    """The buffers; ``max_members`` (a power of two) bounds the members of one class and
    ``pool`` those of the classes on the line (the tests make them small to reach them)."""
    z = np.zeros
    slots = 2 * max_members
    return Workspace(
        z((MAX_DEPTH, MAX_SUCCESSORS), np.int64), z((MAX_DEPTH, MAX_SUCCESSORS), np.int64),
        z(MAX_SUCCESSORS, np.int64), z(MAX_DEPTH, np.int64), z(MAX_DEPTH, np.int64),
        z(MAX_DEPTH, np.int64), z(MAX_DEPTH, np.bool_), z(MAX_DEPTH, np.bool_),
        z((MAX_DEPTH, MAX_MOVES), np.int64), z((MAX_DEPTH, 2), np.int64),
        z(pool, np.int32), z(pool, np.int32), z(pool, np.int32), z((pool, 2), np.uint64),
        z(MAX_DEPTH, np.int64),
        z(slots, np.int64), z(slots, np.int64),
        z(MAX_PATH, np.int64), z(1, np.int64),
        z((max_members, 2), np.uint64), z(max_members, np.int64),
        z(MOVE_NAMES, np.uint64), z(MOVE_NAMES, np.int64), z(2, np.int64), z(MAX_MOVES, np.int64),
        z(MAX_PLAYED, np.int64), z(MAX_PLAYED, np.int64), z(MAX_DEPTH + 1, np.int64),
        z(MAX_PLAYED, np.int64), z(MAX_PLAYED, np.int64), z(1, np.int64),
        z(MAX_DEPTH, np.bool_), z(2, np.int64),
        z(MAX_DEPTH, np.int64), z(MAX_DEPTH, np.bool_), z(MAX_DEPTH, np.bool_), z(2, np.int64))


# --- cards and piles ---------------------------------------------------------------------

@kernel
def strict_first_pass(easy, i, budget, spent):
    """Pass ``i`` (0, then 1) of the policy every caller of ``search`` follows: in easy mode a
    strict win is looked for first with half the budget (every strict line is legal in easy
    mode, and the strict space is far smaller), then the easy rules get what is left.  Returns
    (search with easy rules?, nodes for the pass), nodes -1 if there is no such pass.  A strict
    loss says nothing of easy mode: only a strict win ends the policy early."""
    if i == 0:
        return False, budget // 2 if easy else -1
    return easy, budget - spent


@kernel
def interchangeable(p, stock_dealt):
    """Piles whose names no longer matter: all once the stock is dealt, 4-7 before."""
    return stock_dealt or p >= P.NAMED_BEFORE_STOCK


@kernel
def safe_to_foundation(card, found):
    """Reduction 1's test: both foundations of the other colour hold every lower card."""
    r = R.rank(card)
    if R.red(card):
        return found[0] >= r and found[3] >= r
    return found[1] >= r and found[2] >= r


@kernel
def built(pos, p, h):
    """Is the card at height h of pile p face up on a card it builds on?"""
    return h > pos.down[p] and R.builds_on(pos.cards[p, h], pos.cards[p, h - 1])


@kernel
def _may_move(pos, p, h, sequence_blocks):
    """May the block of pile p from height h move at all (face up; a run if required)?"""
    if h < pos.down[p] or h >= pos.length[p]:
        return False
    return not sequence_blocks or h >= R.sequence_start(pos.cards, pos.length, pos.down, p)


# --- move generation -----------------------------------------------------------------------

@kernel
def _space_allowed(pos, p, h, q, rules):
    """May the block of pile p from height h go to the empty pile q under reduction 2?"""
    stock_dealt = pos.misc[R.STOCK_DEALT] == 1
    if rules & SPACES == 0 or not interchangeable(q, stock_dealt):
        return True
    for r in range(0 if stock_dealt else P.NAMED_BEFORE_STOCK, q):
        if pos.length[r] == 0 and r != p:
            return False
    return not (h == 0 and interchangeable(p, stock_dealt))


@kernel
def _space_move(pos, p, h, q, sequence_blocks, rules, out, n):
    if p != q and _may_move(pos, p, h, sequence_blocks) and _space_allowed(pos, p, h, q, rules):
        out[n] = R.encode(R.TABLEAU, p, q, pos.length[p] - h)
        n += 1
    return n


@kernel
def _space_moves(pos, easy, sequence_blocks, rules, out, n):
    """Moves of blocks into empty piles (kings only unless ``easy``)."""
    for q in range(R.PILES):
        if pos.length[q] != 0:
            continue
        if easy:
            for p in range(R.PILES):
                for h in range(pos.down[p], pos.length[p]):
                    n = _space_move(pos, p, h, q, sequence_blocks, rules, out, n)
        else:
            for s in range(4):
                at = pos.where[s * 13 + R.KING]
                if at >= 0:
                    n = _space_move(pos, at // CAP, at % CAP, q, sequence_blocks, rules, out, n)
    return n


@kernel
def moves_onto_tops(pos, sequence_blocks, out, n):
    """The tableau moves onto the top cards of piles (found from the two cards that build on
    each top)."""
    for q in range(R.PILES):
        if pos.length[q] == 0:
            continue
        y = pos.cards[q, pos.length[q] - 1]
        for k in range(2):
            w = R.builder(y, k)
            if w < 0:
                break
            at = pos.where[w]
            if at < 0:
                continue
            p = at // CAP
            h = at % CAP
            if p != q and _may_move(pos, p, h, sequence_blocks):
                out[n] = R.encode(R.TABLEAU, p, q, pos.length[p] - h)
                n += 1
    return n


@kernel
def all_moves(pos, easy, sequence_blocks, rules, out):
    """Every legal move (empty piles as reduction 2 allows when it is on)."""
    n = moves_onto_tops(pos, sequence_blocks, out, 0)
    n = _space_moves(pos, easy, sequence_blocks, rules, out, n)
    for p in range(R.PILES):
        n = _foundation_move(pos, p, out, n)
    return _stock_move(pos, out, n)


@kernel
def _foundation_move(pos, p, out, n):
    """Append pile p's top to its foundation if legal; returns the new count."""
    if R.can_found(pos.cards, pos.length, pos.found, p):
        out[n] = R.encode(R.FOUNDATION, p, 0, 1)
        n += 1
    return n


@kernel
def _stock_move(pos, out, n):
    """Append the stock deal if the stock is still there; returns the new count."""
    if pos.misc[R.STOCK_DEALT] == 0:
        out[n] = R.encode(R.STOCK, 0, 0, 3)
        n += 1
    return n


@kernel
def safe_up(pos, move):
    """Is the move a safe move to foundation (reduction 1)?"""
    if (move >> 24) & 255 != R.FOUNDATION or pos.misc[R.STOCK_DEALT] != 1:
        return False
    p = (move >> 16) & 255
    return safe_to_foundation(pos.cards[p, pos.length[p] - 1], pos.found)


@kernel
def worth(pos, move):
    """How much ``evaluate`` gains by the move (it orders moves; the sum is never needed)."""
    kind = (move >> 24) & 255
    p = (move >> 16) & 255
    if kind == R.STOCK:
        gain = 0
        for q in range(3):
            if pos.length[q] == 0:
                gain -= 2
            elif not R.builds_on(pos.deal[R.STOCK_FIRST + q], pos.cards[q, pos.length[q] - 1]):
                gain -= 1
        return gain
    h = pos.length[p] - (move & 255)
    gain = 4 if kind == R.FOUNDATION else 0
    if h > 0 and h == pos.down[p]:
        gain += 6
    if h == 0:
        gain += 2
    if h > pos.down[p] and not R.builds_on(pos.cards[p, h], pos.cards[p, h - 1]):
        gain += 1
    if kind == R.TABLEAU and pos.length[(move >> 8) & 255] == 0:
        gain -= 2
    return gain


@kernel
def evaluate(pos):
    """Heuristic worth of a position (4 a card up, -6 a face-down card, 2 a space, -1 a face-up
    card on one it does not build on), for move ordering only."""
    score = 4 * pos.misc[R.SCORE]
    for p in range(R.PILES):
        score -= 6 * pos.down[p]
        if pos.length[p] == 0:
            score += 2
        for h in range(pos.down[p] + 1, pos.length[p]):
            if not R.builds_on(pos.cards[p, h], pos.cards[p, h - 1]):
                score -= 1
    return score


@kernel
def jitter_noise(pos, move, jitter):
    """A restart's perturbation of a move's worth, a function of the move, the position it
    leads to (its score and the height of pile 1) and the restart."""
    kind = (move >> 24) & 255
    p = (move >> 16) & 255
    score = pos.misc[R.SCORE] + (1 if kind == R.FOUNDATION else 0)
    first = pos.length[0]
    if kind == R.STOCK:
        first += 1
    elif p == 0:
        first -= move & 255 if kind == R.TABLEAU else 1
    elif kind == R.TABLEAU and (move >> 8) & 255 == 0:
        first += move & 255
    noise = mix64(np.uint64(move & 0xFFFFFFFF) * GOLDEN + np.uint64(jitter) * MIX1
                  + np.uint64(score + 64 * first))
    return np.int64(noise % np.uint64(JITTER_RANGE))


# --- classes ---------------------------------------------------------------------------------

@kernel
def is_reversible(pos, move, easy):
    """Can the move be taken back at once (a class move, reduction 4)?

    * A parent swap: a block whose bottom card x is built on the card y under it (one rank
      lower, other colour) moved onto the twin of y (the other card of y's rank and colour).
      Afterwards y is a top and x builds on it, so the block can go back.
    * A whole pile moved into a space (kings only in strict mode): it can go back into the
      space it left.
    * In easy mode: a block built on the card under it moved into a space (it can go back onto
      that card), and a whole pile moved onto a card it builds on (it can go back into the
      space it left: any card may go to a space).
    """
    if (move >> 24) & 255 != R.TABLEAU:
        return False
    p = (move >> 16) & 255
    h = pos.length[p] - (move & 255)
    target_empty = pos.length[(move >> 8) & 255] == 0
    if h == 0:
        return target_empty or easy
    return built(pos, p, h) and (easy or not target_empty)


@inline_kernel
def _canonical_parent(pos, p, h, sequence_blocks):
    """The pile of the card the block of pile p from height h is built on in the canonical
    form, or -1 to leave it (see ``normalise``)."""
    x = pos.cards[p, h]
    if h > 0:
        if h <= pos.down[p] or not R.builds_on(x, pos.cards[p, h - 1]):
            return -1
        limit = pos.cards[p, h - 1]
    else:
        limit = R.N_CARDS
    best = -1
    for k in range(2):
        y = R.parent(x, k)
        if y < 0 or y >= limit:
            continue
        at = pos.where[y]
        if at < 0:
            continue
        q = at // CAP
        if q != p and at % CAP == pos.length[q] - 1:
            limit = y
            best = q
    if best >= 0 and not _may_move(pos, p, h, sequence_blocks):
        return -1
    return best


@inline_kernel
def _flip(pos, p, h, sequence_blocks, played, tokens, n):
    """If the block of pile p from height h is not on its canonical parent, move it there
    (appended to ``played``).  Returns (new length of ``played``, piles touched as a mask)."""
    q = _canonical_parent(pos, p, h, sequence_blocks)
    if q < 0:
        return n, 0
    move = R.encode(R.TABLEAU, p, q, pos.length[p] - h)
    tokens[n] = P.play(pos, move)
    played[n] = move
    return n + 1, (1 << p) | (1 << q)


@kernel
def _moved_piles(played, start, n):
    mask = 0
    for i in range(start, n):
        m = played[i]
        mask |= 1 << ((m >> 16) & 255)
        if (m >> 24) & 255 == R.TABLEAU:
            mask |= 1 << ((m >> 8) & 255)
        elif (m >> 24) & 255 == R.STOCK:
            mask |= 7
    return mask


@kernel
def normalise(pos, easy, sequence_blocks, played, tokens, n, start=-1):
    """Bring the position to the canonical form of its class by class moves: a block built on
    card a whose twin b is a top of another pile goes onto b when b has the smaller card id; in
    easy mode a whole pile whose bottom card builds on a top of another pile goes onto it (the
    one of smaller id).  Each move lowers the number of nonempty piles, or keeps it and lowers
    the sum of the ids of the cards that blocks are built on, so this ends.  The moves are
    appended to ``played`` (tokens in ``tokens``) from index n; returns the new length.

    ``start`` >= 0 says that the position was canonical before the moves ``played[start:n]``:
    then only what they changed is looked at (a block in a pile they touched; the block on the
    twin of a top of such a pile; in easy mode a pile whose bottom card builds on such a top),
    which finds every block off its canonical parent, since any other was off it before."""
    dirty = 127 if start < 0 else _moved_piles(played, start, n)
    while dirty:
        piles = dirty
        dirty = 0
        for p in range(R.PILES):
            if piles >> p & 1 == 0:
                continue
            h = 0 if easy and pos.down[p] == 0 else pos.down[p] + 1
            while h < pos.length[p] and dirty == 0:
                n, dirty = _flip(pos, p, h, sequence_blocks, played, tokens, n)
                h += 1
            if dirty:
                break
            if pos.length[p] == 0:
                continue
            t = pos.cards[p, pos.length[p] - 1]
            at = pos.where[twin(t)]
            if at >= 0 and at % CAP + 1 < pos.length[at // CAP]:
                n, dirty = _flip(pos, at // CAP, at % CAP + 1, sequence_blocks, played, tokens,
                                 n)
                if dirty:
                    break
            if easy:
                for k in range(2):
                    w = R.builder(t, k)
                    if w >= 0 and pos.where[w] >= 0 and pos.where[w] % CAP == 0:
                        n, dirty = _flip(pos, pos.where[w] // CAP, 0, sequence_blocks, played,
                                         tokens, n)
                        if dirty:
                            break
                if dirty:
                    break
        if dirty:
            dirty |= piles  # what was left unlooked at in this round
    return n


@kernel
def card_move(pos, move):
    """A move named by its cards rather than its piles (the same in every position where it is
    legal): the moving card and its target card (52 + pile for a space, 63 for its foundation),
    below ``MOVE_NAMES``; -1 for the stock."""
    kind = (move >> 24) & 255
    if kind == R.STOCK:
        return -1
    p = (move >> 16) & 255
    v = pos.cards[p, pos.length[p] - (move & 255)]
    if kind == R.FOUNDATION:
        return (v << 8) | 63
    q = (move >> 8) & 255
    t = pos.cards[q, pos.length[q] - 1] if pos.length[q] > 0 else 52 + q
    return (v << 8) | t


@kernel
def unplay_to(pos, played, tokens, n, start):
    """Take back ``played[start:n]`` (last first); returns ``start``."""
    for i in range(n - 1, start - 1, -1):
        P.unplay(pos, played[i], tokens[i])
    return start


@kernel
def _member_moves(pos, easy, sequence_blocks, rules, freed, out):
    """The moves of a class member worth looking at: all of them, or (with reduction 5), for a
    member reached by a parent swap that freed card a (``freed`` >= 0), those that may not be
    legal in the member it was reached from: onto a top (onto a, and the blocks carrying a onto
    the swapped block, are among them), a to its foundation, the stock.  Every other move legal
    here is legal there (see ``expand``)."""
    if freed < 0 or rules & MERGE == 0:
        return all_moves(pos, easy, sequence_blocks, rules, out)
    n = moves_onto_tops(pos, sequence_blocks, out, 0)
    at = pos.where[freed]
    if at >= 0:
        n = _foundation_move(pos, at // CAP, out, n)
    return _stock_move(pos, out, n)


@kernel
def _add_successor(pos, ws, depth, count, member, move, jitter):
    if count >= MAX_SUCCESSORS:
        return count
    ws.succ_move[depth, count] = move
    ws.succ_member[depth, count] = member
    w = worth(pos, move) * JITTER_SCALE
    if jitter > 0:
        w += jitter_noise(pos, move, jitter)
    ws.worth[count] = w
    return count + 1


@inline_kernel
def _member_slot(ws, a, b, index, mask):
    """The slot of the member keyed (a, b) in the member index of generation ``index`` and
    ``mask`` + 1 slots, or the empty slot where it goes (the caller tells them apart by
    ``ws.mem_slot_stamp``).  The index is kept at most half full, so a probe is short; the
    first word of a key is already a mixed hash."""
    j = np.int64(a & np.uint64(mask))
    while ws.mem_slot_stamp[j] == index:
        m = ws.mem_slot[j] - 1
        if ws.mem_key[m, 0] == a and ws.mem_key[m, 1] == b:
            return j
        j = (j + 1) & mask
    return j


@kernel
def _index_member(ws, m, index, mask):
    """Enter member m (its key in ``ws.mem_key``) into the member index."""
    j = _member_slot(ws, ws.mem_key[m, 0], ws.mem_key[m, 1], index, mask)
    ws.mem_slot_stamp[j] = index
    ws.mem_slot[j] = m + 1


@kernel
def _new_index(ws, members, mask):
    """A new generation of the member index with ``mask`` + 1 slots, holding the first
    ``members`` members; returns the generation."""
    index = ws.expansions[1] + 1
    ws.expansions[1] = index
    for m in range(members):
        _index_member(ws, m, index, mask)
    return index


@inline_kernel
def _play_member(pos, ws, member, played, tokens, n):
    """Play the class moves from the node's position to ``member`` (a pool index, -1 for the
    position itself); returns the new length of ``played``."""
    if member < 0:
        return n
    length = ws.pool_len[member]
    m = member
    for s in range(length):
        ws.chain[s] = ws.pool_move[m]
        m = ws.pool_parent[m]
    for s in range(length - 1, -1, -1):
        tokens[n] = P.play(pos, ws.chain[s])
        played[n] = ws.chain[s]
        n += 1
    return n


@inline_kernel
def _walk_to_member(pos, ws, at, member, top):
    """From member ``at`` (pool indices; ``ws.played[:top]`` ends with the class moves that
    lead to it) to ``member``: the moves of ``at``'s path below the two paths' meeting point
    are taken back and those of ``member``'s path played.  Returns the new ``top``.  (The
    members of a class are visited breadth first, so consecutive ones mostly share all of
    their path but its last move.)"""
    depth_at = ws.pool_len[at]
    depth_to = ws.pool_len[member]
    s = 0
    while depth_to > depth_at:
        ws.chain[s] = ws.pool_move[member]
        s += 1
        member = ws.pool_parent[member]
        depth_to -= 1
    while depth_at > depth_to:
        top -= 1
        P.unplay(pos, ws.played[top], ws.tokens[top])
        at = ws.pool_parent[at]
        depth_at -= 1
    while at != member:
        top -= 1
        P.unplay(pos, ws.played[top], ws.tokens[top])
        at = ws.pool_parent[at]
        ws.chain[s] = ws.pool_move[member]
        s += 1
        member = ws.pool_parent[member]
    for j in range(s - 1, -1, -1):
        ws.tokens[top] = P.play(pos, ws.chain[j])
        ws.played[top] = ws.chain[j]
        top += 1
    return top


@kernel
def _sort_successors(ws, depth, count):
    """Best first; ties keep the order of generation."""
    for a in range(1, count):
        m = ws.succ_move[depth, a]
        e = ws.succ_member[depth, a]
        w = ws.worth[a]
        b = a
        while b > 0 and ws.worth[b - 1] < w:
            ws.succ_move[depth, b] = ws.succ_move[depth, b - 1]
            ws.succ_member[depth, b] = ws.succ_member[depth, b - 1]
            ws.worth[b] = ws.worth[b - 1]
            b -= 1
        ws.succ_move[depth, b] = m
        ws.succ_member[depth, b] = e
        ws.worth[b] = w


@kernel
def expand(pos, easy, sequence_blocks, rules, ws, depth, jitter):
    """The first successors of the node of ``pos``: the moves of ``pos`` itself that are not
    class moves (all of them without reduction 4), or, with reduction 1, a safe move to
    foundation alone.  Sets ``ws.rest[depth]`` when the node's class has other members, whose
    moves ``expand_rest`` gives once these are searched (a win is usually found before).
    Returns the count, successors sorted best first."""
    k = all_moves(pos, easy, sequence_blocks, rules, ws.moves)
    ws.pool_end[depth] = ws.pool_end[depth - 1] if depth > 0 else 0
    count = 0
    reversible = 0
    for j in range(k):
        move = ws.moves[j]
        if rules & SAFE_UP and safe_up(pos, move):
            ws.succ_move[depth, 0] = move
            ws.succ_member[depth, 0] = -1
            ws.rest[depth] = False
            return 1
        if rules & CLASSES and is_reversible(pos, move, easy):
            ws.first[depth, reversible] = move
            reversible += 1
        else:
            count = _add_successor(pos, ws, depth, count, -1, move, jitter)
    ws.rest[depth] = reversible > 0
    ws.first_count[depth, 0] = count
    ws.first_count[depth, 1] = reversible
    _sort_successors(ws, depth, count)
    return count


@kernel
def expand_rest(pos, easy, sequence_blocks, rules, ws, depth, n, jitter):
    """The other successors of the node of ``pos`` (reduction 4), after those of ``expand``:
    the members of the class (``pos`` and every position reached from it by class moves) are
    enumerated breadth first, and every move of a member other than ``pos`` that is not a class
    move is a successor (member, move), unless merged by reduction 5; with reduction 1, a safe
    move to foundation in a member is the only one.  ``n`` is the length of ``ws.played``
    (members are reached by playing and taking back moves after it).  Returns the count, sorted
    best first.

    Reduction 5: a move m legal both in a member M' and in a member M met before it with
    M' = r(M) for a class move r is kept in M only; m(M') is then r(m(M)) (r is legal in m(M)),
    or m(M') = m(M).  Proof, for r a parent swap taking block B (bottom card x) from a to its
    twin b (b a top of another pile), by the kind of m (the other class moves are alike: a
    space plays the part of b, or a pile that holds B alone that of a):
    * a card c up: c is a top in both, so c is not a or b; if c is B's top card, B minus c is
      still swappable (or c = x and both results are equal); else m does not touch B, a, b.
    * a block starting at v onto a top t (t is neither a nor b, which are covered in M resp.
      M'): v in B, above x: the same cards move, B keeps x on a (M) or b (M'); v = x is a swap
      itself; v at or below a in a's pile: in M it carries B too (t is not B's top, the same
      pile in M), and afterwards B can go from a, now in t's pile, onto b; v at or below b in
      b's pile: in M' it carries B (t is not B's top), and B can go from a onto b in its new
      pile; v elsewhere onto B's top: B grows by the same cards in both, and the grown block
      (a run if the moved one was) can go onto b; any other v does not touch B, a, b.
    * a block into a space: as onto a top (v = x: both leave a and b tops and B in the space).
    The stock is never merged: it lands on the tops of piles 1-3, which r changes.  A member
    reached by a swap that freed card a differs from the member it was reached from only around
    a and B, so its only moves that may not be legal there are onto a top (onto a, or blocks
    carrying a onto B's top), a to its foundation and the stock (``_member_moves``).  Chains
    of merged moves end in a member where the move is kept (each step goes to a member met
    earlier), and each step joins positions won together, so the successors still reach every
    class a member's move reaches.
    """
    count = 0
    cut = False
    stamp = ws.expansions[0] + 1
    ws.expansions[0] = stamp
    members = 1
    base = ws.pool_end[depth]
    room = min(ws.mem_key.shape[0], ws.pool_len.shape[0] - base)
    if room < 1:
        ws.cut[0] += 1  # the pool is full: the class's other members are not searched
        return 0
    ws.pool_len[base] = 0
    # Members are told apart by their resting hash relative to this one (0), the XOR of the
    # changes of the class moves that reach them (``P.resting_change``: the same for every
    # path), and get their keys when visited.
    ws.mem_key[0, 0] = np.uint64(0)
    ws.mem_key[0, 1] = np.uint64(0)
    mask = min(FIRST_INDEX, ws.mem_slot.shape[0]) - 1
    index = _new_index(ws, 1, mask)
    ws.pool_key[base, 0] = pos.key[0]
    ws.pool_key[base, 1] = pos.key[1]
    ws.mem_freed[0] = -1
    i = 0
    top = n  # the members are visited in turn: ``ws.played[n:top]`` leads to member ``at``
    at = base
    while i < members:
        top = _walk_to_member(pos, ws, at, base + i, top)
        at = base + i
        ws.pool_key[base + i, 0] = pos.key[0]
        ws.pool_key[base + i, 1] = pos.key[1]
        if i == 0:
            # The moves ``expand`` found, still in this node's buffers.
            k = 0
            for j in range(ws.first_count[depth, 0]):
                ws.moves[k] = ws.succ_move[depth, j]
                k += 1
            for j in range(ws.first_count[depth, 1]):
                ws.moves[k] = ws.first[depth, j]
                k += 1
        else:
            k = _member_moves(pos, easy, sequence_blocks, rules, ws.mem_freed[i], ws.moves)
        # Pass 1: class moves, which find the members next to this one.  The move back to the
        # member this one was reached from leads there (class moves are taken back exactly):
        # it is not played.
        near = np.uint64(0)
        back = -1
        if i > 0:
            last = ws.pool_move[base + i]
            back = R.encode(R.TABLEAU, (last >> 8) & 255, (last >> 16) & 255, last & 255)
        for j in range(k):
            move = ws.moves[j]
            if i > 0 and rules & SAFE_UP and safe_up(pos, move):
                ws.succ_move[depth, 0] = move
                ws.succ_member[depth, 0] = base + i
                ws.pool_end[depth] = base + members
                for later in range(i + 1, members):  # the keys of the members not visited
                    top = _walk_to_member(pos, ws, at, base + later, top)
                    at = base + later
                    ws.pool_key[at, 0] = pos.key[0]
                    ws.pool_key[at, 1] = pos.key[1]
                unplay_to(pos, ws.played, ws.tokens, top, n)
                return 1
            if not is_reversible(pos, move, easy):
                continue
            if move == back:
                reached_from = ws.pool_parent[base + i] - base
                if reached_from < MERGE_MEMBERS:
                    near |= np.uint64(1) << np.uint64(reached_from)
                continue
            # The neighbour's resting hash, without playing the move.
            a, b = P.resting_change(pos, move)
            a ^= ws.mem_key[i, 0]
            b ^= ws.mem_key[i, 1]
            slot = _member_slot(ws, a, b, index, mask)
            m = ws.mem_slot[slot] - 1 if ws.mem_slot_stamp[slot] == index else -1
            if m < 0 and members < room and ws.pool_len[base + i] < MAX_PATH:
                m = members
                ws.mem_key[m, 0] = a
                ws.mem_key[m, 1] = b
                if 2 * (m + 1) > mask + 1:  # kept at most half full
                    mask = 2 * mask + 1
                    index = _new_index(ws, m + 1, mask)
                else:
                    ws.mem_slot_stamp[slot] = index
                    ws.mem_slot[slot] = m + 1
                # The card the move uncovers, if it leaves a card behind and lands on one.
                source = (move >> 16) & 255
                left = pos.length[source] - (move & 255)
                plain_swap = left > 0 and pos.length[(move >> 8) & 255] > 0
                ws.mem_freed[m] = pos.cards[source, left - 1] if plain_swap else -1
                ws.pool_parent[base + m] = base + i
                ws.pool_move[base + m] = move
                ws.pool_len[base + m] = ws.pool_len[base + i] + 1
                members += 1
            if m < 0:
                # The class is larger than the buffers: the move stays an ordinary one.
                ws.moves[j] = move | TRUNCATED
                cut = True
            elif m < i and m < MERGE_MEMBERS:
                near |= np.uint64(1) << np.uint64(m)
        # Pass 2: the other moves (those of ``pos`` itself were given by ``expand``), unless
        # legal in a member next to this one met before.
        bit = np.uint64(1) << np.uint64(i) if i < MERGE_MEMBERS else np.uint64(0)
        for j in range(k):
            move = ws.moves[j]
            truncated = move & TRUNCATED != 0
            move &= 0xFFFFFFFF
            if not truncated and is_reversible(pos, move, easy):
                continue
            if rules & MERGE:
                name = card_move(pos, move)
                if name >= 0:
                    if ws.mark_stamp[name] != stamp:
                        ws.mark_stamp[name] = stamp
                        ws.marks[name] = np.uint64(0)
                    earlier = ws.marks[name] & near
                    ws.marks[name] |= bit
                    if earlier != 0:
                        continue
            if i > 0 or truncated:
                count = _add_successor(pos, ws, depth, count, base + i if i > 0 else -1,
                                       move, jitter)
        i += 1
    unplay_to(pos, ws.played, ws.tokens, top, n)
    ws.pool_end[depth] = base + members
    if cut:
        ws.cut[0] += 1
    _sort_successors(ws, depth, count)
    return count


@kernel
def _mark_members(keys, stamps, ws, depth, state, deal_first, stamp, own_stored):
    """Reduction 8: every member of the node's class that ``expand_rest`` enumerated goes into
    the table with the node's final ``state`` (``tt_offer``: an entry already ``LOST`` or
    ``ON_PATH`` is left as it is).  The first member is the node's own position, skipped when
    ``own_stored`` (its slot already holds ``state``)."""
    first = ws.pool_end[depth - 1] if depth > 0 else 0
    end = ws.pool_end[depth]
    # The buckets are random places of a large table: each is asked for ``AHEAD`` members
    # before it is written, so that the cache misses overlap.
    for m in range(first, min(first + AHEAD, end)):
        tt_prefetch(keys, stamps, ws.pool_key[m, 0])
    for m in range(first + 1 if own_stored else first, end):
        if m + AHEAD < end:
            tt_prefetch(keys, stamps, ws.pool_key[m + AHEAD, 0])
        tt_offer(keys, stamps, ws.pool_key[m, 0], ws.pool_key[m, 1], state, deal_first, stamp)


# --- the search ------------------------------------------------------------------------------

@kernel
def lost_at_sight(pos, easy):
    return dead_end(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal, pos.where,
                    easy)


@kernel
def critical_dead(pos, model):
    return C.dead(model, pos.cards, pos.length, pos.down, pos.found, pos.misc)


@kernel
def search(pos, easy, sequence_blocks, rules, budget, keys, stamps, deal_first, stamp, ws,
           model, learn_after, jitter=0, probe=None):
    """Search from ``pos`` (restored on return) with the reductions of ``rules``.  Returns
    (outcome, best score, successors played, line length); a won line is left in ``ws.line``,
    and a line that reaches the best score in ``ws.best_line[:ws.best_length[0]]`` (every
    move of the search's line is a legal move, class moves included).  ``probe``: a ``Probe``
    to count where the nodes go (measurement only), or None."""
    ws.best_length[0] = 0
    if pos.misc[R.SCORE] == R.N_CARDS:
        return WIN, pos.misc[R.SCORE], 0, 0
    if rules & DEAD_END and lost_at_sight(pos, easy):
        return LOSS, pos.misc[R.SCORE], 0, 0
    critical = rules & CRITICAL != 0
    symmetric = pos.symmetric[0]
    if (rules & SYMMETRY != 0) != symmetric:
        P.set_symmetry(pos, rules & SYMMETRY != 0)
    classes = rules & CLASSES != 0
    n = normalise(pos, easy, sequence_blocks, ws.played, ws.tokens, 0) if classes else 0
    found = tt_find(keys, stamps, pos.key[0], pos.key[1], deal_first, stamp)
    if found >= 0 and tt_state(keys, stamps, found, deal_first, stamp) == LOST:
        unplay_to(pos, ws.played, ws.tokens, n, 0)
        P.set_symmetry(pos, symmetric)
        return LOSS, pos.misc[R.SCORE], 0, 0
    ws.slot[0] = tt_store(keys, stamps, pos.key[0], pos.key[1], ON_PATH, deal_first, stamp)
    ws.leaning[0] = False
    ws.turned[0] = False
    ws.entered[0] = 0
    ws.tested[0] = False
    ws.proven[0] = False
    ws.segment[0] = n
    ws.count[0] = expand(pos, easy, sequence_blocks, rules, ws, 0, jitter)
    ws.nxt[0] = 0
    if probe is not None:
        _probe_enter(probe, pos, 0, 0)
    best = pos.misc[R.SCORE]
    nodes = 0
    outcome = LOSS
    length = 0
    depth = 0
    while depth >= 0:
        if critical and not ws.tested[depth] and nodes - ws.entered[depth] >= learn_after:
            ws.tested[depth] = True
            ws.critical[0] += 1
            if critical_dead(pos, model):
                ws.critical[1] += 1
                ws.proven[depth] = True
                ws.nxt[depth] = ws.count[depth]
                ws.rest[depth] = False
        if ws.nxt[depth] < ws.count[depth]:
            if nodes >= budget:
                unplay_to(pos, ws.played, ws.tokens, ws.segment[depth], 0)
                outcome = UNKNOWN
                break
            i = ws.nxt[depth]
            ws.nxt[depth] += 1
            start = ws.segment[depth]
            member = ws.succ_member[depth, i]
            n = _play_member(pos, ws, member, ws.played, ws.tokens, start)
            ws.tokens[n] = P.play(pos, ws.succ_move[depth, i])
            if ws.tokens[n] & 1:
                ws.turned[depth] = True
            ws.played[n] = ws.succ_move[depth, i]
            n += 1
            nodes += 1
            if probe is not None:
                dealt, down = _phase(pos)
                probe.played[dealt, down] += 1
            if pos.misc[R.SCORE] > best:
                best = pos.misc[R.SCORE]
                for j in range(n):
                    ws.best_line[j] = ws.played[j]
                ws.best_length[0] = n
                if best == R.N_CARDS:
                    for j in range(n):
                        ws.line[j] = ws.played[j]
                    unplay_to(pos, ws.played, ws.tokens, n, 0)
                    outcome = WIN
                    length = n
                    break
            if classes:
                n = normalise(pos, easy, sequence_blocks, ws.played, ws.tokens, n, start)
            seen = tt_find(keys, stamps, pos.key[0], pos.key[1], deal_first, stamp)
            skip = False
            if seen >= 0:
                skip = True
                # A move back into the node's own class is no successor at all.
                if (seen != ws.slot[depth]
                        and tt_state(keys, stamps, seen, deal_first, stamp) != LOST):
                    ws.leaning[depth] = True
            elif depth + 1 >= MAX_DEPTH or n + 2 * MAX_PATH + 16 >= MAX_PLAYED:
                skip = True
                outcome = UNKNOWN  # the line is cut: the search cannot be complete
                ws.leaning[depth] = True
            elif rules & DEAD_END and lost_at_sight(pos, easy):
                skip = True
                tt_store(keys, stamps, pos.key[0], pos.key[1], LOST, deal_first, stamp)
            if skip:
                if probe is not None:
                    dealt, down = _phase(pos)
                    why = 2 if seen < 0 else (
                        0 if tt_state(keys, stamps, seen, deal_first, stamp) == LOST else 1)
                    probe.skipped[why, dealt, down] += 1
                unplay_to(pos, ws.played, ws.tokens, n, start)
                continue
            depth += 1
            ws.segment[depth] = n
            ws.slot[depth] = tt_store(keys, stamps, pos.key[0], pos.key[1], ON_PATH, deal_first,
                                      stamp)
            ws.leaning[depth] = False
            ws.turned[depth] = False
            ws.entered[depth] = nodes
            ws.tested[depth] = False
            ws.proven[depth] = False
            ws.nxt[depth] = 0
            ws.count[depth] = expand(pos, easy, sequence_blocks, rules, ws, depth, jitter)
            if probe is not None:
                _probe_enter(probe, pos, depth, nodes)
        elif ws.rest[depth]:
            ws.rest[depth] = False
            ws.nxt[depth] = 0
            cut = ws.cut[0]
            ws.count[depth] = expand_rest(pos, easy, sequence_blocks, rules, ws, depth,
                                          ws.segment[depth], jitter)
            if ws.cut[0] != cut:
                # Members beyond the buffers are searched only through their class moves
                # kept as ordinary moves, which may lead back into the class: the node's
                # search is not complete.
                outcome = UNKNOWN
                ws.leaning[depth] = True
        else:
            s = ws.slot[depth]
            if ws.proven[depth]:
                ws.leaning[depth] = False  # lost whatever the line: the test reads the node only
            state = VISITED if ws.leaning[depth] else LOST
            if s >= 0:
                tt_set_state(keys, stamps, s, state, stamp)
            if probe is not None:
                _probe_leave(probe, depth, nodes, state)
            if rules & MEMBERS:
                _mark_members(keys, stamps, ws, depth, state, deal_first, stamp, s >= 0)
            if depth > 0 and ws.leaning[depth]:
                ws.leaning[depth - 1] = True
            ws.searched[0] += 1
            if ws.turned[depth]:
                ws.searched[1] += 1
                if depth > 0:
                    ws.turned[depth - 1] = True
            depth -= 1
            if depth >= 0:
                unplay_to(pos, ws.played, ws.tokens, ws.segment[depth + 1], ws.segment[depth])
            else:
                unplay_to(pos, ws.played, ws.tokens, ws.segment[0], 0)
    if probe is not None and depth >= 0:
        _probe_close(probe, depth, nodes)
    P.set_symmetry(pos, symmetric)
    return outcome, best, nodes, length
