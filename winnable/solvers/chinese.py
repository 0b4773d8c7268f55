"""Chinese Solitaire: the thoughtful solver (every card known).

Depth-first search with apply/undo over the compact state of ``winnable.rules.chinese``, and a
transposition table of the positions already reached (128-bit fingerprints; a table of fixed
size set by ``memory_mb``; when a probe window is full the home slot is overwritten, which
costs only repeated work, never a wrong answer: a position is skipped only if it is on the
current path or was searched completely without a win).  A deal is ``win`` when a winning line
is found (it is returned and replayed by the tests), ``loss`` when the whole reachable space was
searched without one, and ``unknown`` when the node budget or the depth cap ran out first.

Pruning (all switched off by ``prune=False``; the tests check on random deals that the results
agree with and without it):

1. Safe moves to foundation, once the stock has been dealt.  A top card c of rank r may go up at
   once, as the only move tried, if both foundations of the other colour hold every card below
   rank r.  Proof: take any winning line from the position; play c up first, then the same
   line with every move of c alone dropped and c removed from every block it is part of.
   (i) No card can ever be put on c: the cards that build on c (the other colour, rank r-1)
   are all on foundations and never come back, and the stock, the only other way a card lands
   on a pile, is gone.  So c stays the top card of whatever pile it is in, every block that
   contains c has c as its top card, and removing c from a block leaves the block's bottom card,
   its legality (also for ``blocks=sequence``: a run minus its top card is a run) and its
   target unchanged.  (ii) A pile that c alone occupies is, without c, empty, which accepts
   everything a pile topped by c accepts (nothing, by (i)) and more.  (iii) Foundations of other
   suits are untouched and c's own suit only gains.  So every move of the line stays legal and
   the line still wins.  Before the stock is dealt this fails (the stock may land on c, and c
   may then carry that card somewhere no other card could), so no move is forced then.
2. Equivalent spaces: a block that may go to a space is tried on one empty pile per class of
   interchangeable piles (all piles once the stock is dealt; piles 4-7 before, since the stock
   lands on piles 1, 2, 3 by name), and a whole pile is not moved to a space of its own class
   (that only renames piles).
3. Symmetric positions: the fingerprint ignores the order of interchangeable piles (the same
   classes), so positions that differ only by the naming of such piles are searched once.
4. Parent swaps: a block whose bottom card x is built on the card y under it (one rank lower,
   other colour) is moved off y (onto the twin of y, or a space in easy mode) only if the next
   move uses y: y to its foundation, a card that builds on y (with the cards on it) onto y, or
   a block holding y onto the pile the block went to; before the stock is dealt, the stock or
   another parent swap may come first.  Argument (postponing the swap): in a winning line, y
   must go up, so some later move uses y; play the swap just before the first such move
   instead.  The moves in between stay legal with the block still on y: a move onto the
   block's top card or of part of the block is the same move from y's pile; a move of the whole
   block from its new place is a move straight off y (a shorter line); a block holding y carries
   the block along (its target is not the block's pile, or the move would be a use; this third
   kind of use was missing before, and a test shows it is generated), and the swap is then made
   from y's new place; a block taken from the target pile at or below its old top card t leaves
   t a top, as nothing could be put on t while the block covered it; y is face up, so no card
   turns; with ``blocks=sequence`` a block holding y with the block on it is still a run (x is
   built on y).  Only the stock sees which of y and t is a top, hence its exception.  Not
   written out: that postponing terminates when one move uses two freed cards at once (a block
   holding y put onto a card freed by a later swap); a broader version of this rule (any move
   off a face-up card must be followed by a use of it) failed the plain-search comparison on
   exactly such a line, so the tests' comparison with the plain search on positions searched
   completely is what stands behind this rule.

Move order: moves that turn a face-down card, then moves to foundation, then other tableau
moves, then the stock.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import chinese as R
from .memo import Generation

MAX_DEPTH = 1024
MAX_MOVES = 512
PROBE = 16
ENTRY_BYTES = 20
DEFAULT_BUDGET = 100_000
DEFAULT_RESTART = 2_000  # nodes per search before restarting in another move order
DEFAULT_MEMORY_MB = 64
DEFAULT_WALKS = 300  # random playouts tried on a deal the search leaves unknown
WALK_STEPS = 250  # moves per playout at most (won lines are about 130-160 moves)
WALK_GREEDY = 128  # out of 256: how often a playout takes the best-looking move

LOSS, WIN, UNKNOWN = 0, 1, 2
SWAP = 1 << 32  # tag of a parent swap (see pruning rule 4)
JITTER_SCALE = 16
JITTER_RANGE = 48  # a restart's order may swap moves up to three worth points apart

M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def table_entries(memory_mb: float) -> int:
    entries = 1 << 10
    while entries * 2 * ENTRY_BYTES <= memory_mb * 2**20:
        entries *= 2
    return entries


class Scratch:
    def __init__(self, memory_mb: float = DEFAULT_MEMORY_MB):
        entries = table_entries(memory_mb)
        self.table_a = np.zeros(entries, dtype=np.uint64)
        self.table_b = np.zeros(entries, dtype=np.uint64)
        self.generation = Generation(entries)
        self.table_stamp = self.generation.stamps
        self.line = np.zeros(MAX_DEPTH, dtype=np.int64)

    def next_stamp(self) -> int:
        return self.generation.next()


@njit(cache=True)
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def interchangeable(p, stock_dealt):
    """Piles whose names no longer matter: all once the stock is dealt, 4-7 before."""
    return stock_dealt or p >= 3


@njit(cache=True)
def fingerprint(cards, length, down, misc, symmetric, freed, onto=-1):
    a = np.uint64(misc[0]) * GOLDEN
    b = np.uint64(misc[0] + 7) * M1
    if freed >= 0:
        # A position that must use the freed card next is a different search node, named by
        # the freed card and the top card of the pile the block went to (the moves allowed
        # next depend on both).
        y = np.uint64(cards[freed, length[freed] - 1] + 1
                      + 64 * (cards[onto, length[onto] - 1] + 1))
        a ^= _mix(y * M2)
        b ^= _mix(y * GOLDEN + M1)
    for p in range(R.PILES):
        h1 = np.uint64(down[p] + 1) * GOLDEN
        h2 = np.uint64(down[p] + 3) * M2
        for i in range(length[p]):
            c = np.uint64(cards[p, i] + 1)
            h1 = _mix(h1 ^ c)
            h2 = _mix(h2 + c * GOLDEN)
        if symmetric and interchangeable(p, misc[0] == 1):
            a += _mix(h1 ^ M2)
            b += _mix(h2 ^ M1)
        else:
            a += _mix(h1 ^ (np.uint64(p + 1) * M1))
            b += _mix(h2 ^ (np.uint64(p + 1) * GOLDEN))
    return a, b


@njit(cache=True)
def seen_before(a, b, table_a, table_b, table_stamp, stamp):
    """True if the fingerprint is in the table; otherwise records it and returns False."""
    mask = table_a.shape[0] - 1
    home = np.int64(a & np.uint64(mask))
    for probe in range(PROBE):
        j = (home + probe) & mask
        if table_stamp[j] != stamp:
            table_a[j] = a
            table_b[j] = b
            table_stamp[j] = stamp
            return False
        if table_a[j] == a and table_b[j] == b:
            return True
    table_a[home] = a
    table_b[home] = b
    table_stamp[home] = stamp
    return False


@njit(cache=True)
def safe_to_foundation(card, found):
    r = R.rank(card)
    if R.red(card):
        return found[0] >= r and found[3] >= r
    return found[1] >= r and found[2] >= r


@njit(cache=True)
def _add_block_moves(cards, length, down, misc, p, low, high, easy, sequence_blocks, prune,
                     out, n, swaps_only=False):
    """Tableau moves of pile p from heights low..high-1, with the space rules of the pruning."""
    stock_dealt = misc[0] == 1
    for h in range(low, high):
        for q in range(R.PILES):
            if not R.can_move(cards, length, down, p, h, q, easy, sequence_blocks):
                continue
            if prune and length[q] == 0:
                if interchangeable(q, stock_dealt):
                    # Only the first empty pile of the class, and never a whole pile to a space
                    # of its own class.
                    first = True
                    for r in range(3 if not stock_dealt else 0, q):
                        if length[r] == 0 and r != p:
                            first = False
                    if not first:
                        continue
                    if h == 0 and interchangeable(p, stock_dealt):
                        continue
            move = R.encode(R.TABLEAU, p, q, length[p] - h)
            if prune and h > down[p] and R.builds_on(cards[p, h], cards[p, h - 1]):
                move |= SWAP
            elif swaps_only:
                continue
            out[n] = move
            n += 1
    return n


@njit(cache=True)
def twin(card):
    """The other card of the same rank and colour."""
    return (3 - R.suit(card)) * 13 + R.rank(card)


@njit(cache=True)
def uses_of(cards, length, down, found, easy, sequence_blocks, p, q, out):
    """After a parent swap took a block from the top card y of pile p to pile q: the moves that
    use y (y to its foundation; the other card that builds on y, with the cards on it, onto y;
    a block holding y onto pile q, which the block could not do had it stayed on y)."""
    n = 0
    for h in range(down[p], length[p]):
        if R.can_move(cards, length, down, p, h, q, easy, sequence_blocks):
            out[n] = R.encode(R.TABLEAU, p, q, length[p] - h)
            n += 1
    if R.can_found(cards, length, found, p):
        out[n] = R.encode(R.FOUNDATION, p, 0, 1)
        n += 1
    y = cards[p, length[p] - 1]
    for r in range(R.PILES):
        for h in range(down[r], length[r]):
            if R.builds_on(cards[r, h], y) and R.can_move(cards, length, down, r, h, p, easy,
                                                           sequence_blocks):
                out[n] = R.encode(R.TABLEAU, r, p, length[r] - h)
                n += 1
    return n


EXPOSED, FACE_UP, UP, LEFT = 1, 2, 4, 8  # what dead_end may derive of a card


@njit(cache=True)
def _can_take(cards, length, status, p, h, t):
    """May card t ever be a top that the card at height h of pile p can go onto?  A t lying
    above it in the same pile must first be parted from it: some card between them (t
    included) must leave the card under it, taking t along in its block or leaving t."""
    if status[t] & EXPOSED == 0:
        return False
    parted = False
    for i in range(h + 1, length[p]):
        parted = parted or status[cards[p, i]] & LEFT != 0
        if cards[p, i] == t:
            return parted
    return True


@njit(cache=True)
def dead_end(cards, length, down, found, misc, deal, easy, status):
    """True if some card can provably never reach its foundation (so the position is lost).

    A least fixpoint of necessary conditions, over the position as it stands (``status`` is a
    work array of 52 entries).  Each condition names events that must happen before the event
    it guards, so every event of any actual continuation is derived here (induction on time),
    and a card never derived ``up`` never reaches its foundation:

    * exposed(c): c becomes the top of a pile.  True for tops and for stock cards (they land on
      top); otherwise the card y now directly on c must leave it first (no card can be put on
      c before c is a top), so exposed(c) needs leaves(y).
    * leaves(y): y is taken off the card under it: y must be face up (face up now, or exposed
      since) and go to its foundation (up(y)), or onto a card one rank higher of the other
      colour that is a top at the time (exposed), or into a space (a king, any card in easy
      mode) once a space can exist.
    * up(c): c reaches its foundation: exposed(c), and up of the card below it in its suit.
    * space: some pile empties: its bottom card leaves (to the foundation or onto a higher
      card; a space cannot be used before the first one exists).
    * A card t lying above y in y's own pile can take y only after some card between them (t
      included) has left the card under it (t may travel in a block it does not start).
    Cards on the foundations count as up and are never exposed (they can take no card).
    """
    for c in range(R.N_CARDS):
        status[c] = 0
    for s in range(4):
        for r in range(found[s]):
            status[s * 13 + r] = UP
    space = False
    for p in range(R.PILES):
        if length[p] == 0:
            space = True
            continue
        for h in range(down[p], length[p]):
            status[cards[p, h]] |= FACE_UP
        status[cards[p, length[p] - 1]] |= EXPOSED
    if misc[0] == 0:
        for i in range(R.STOCK_FIRST, R.N_CARDS):
            status[deal[i]] |= EXPOSED | FACE_UP
    changed = True
    while changed:
        changed = False
        for p in range(R.PILES):
            for h in range(length[p]):
                # leaves(y), for y on a card (h > 0) or at the bottom of its pile (h == 0).
                y = cards[p, h]
                if status[y] & FACE_UP == 0:
                    continue
                if (status[cards[p, h - 1]] & EXPOSED != 0) if h > 0 else space:
                    continue  # nothing new to learn from y
                leaves = status[y] & UP != 0
                if not leaves and R.rank(y) < R.KING:
                    t = (R.rank(y) + 1) + (0 if R.red(y) else 13)
                    leaves = (_can_take(cards, length, status, p, h, t)
                              or _can_take(cards, length, status, p, h, twin(t)))
                if not leaves and h > 0 and space and (easy or R.rank(y) == R.KING):
                    leaves = True
                if leaves:
                    status[y] |= LEFT
                    if h > 0:
                        c = cards[p, h - 1]
                        if status[c] & EXPOSED == 0:
                            status[c] |= EXPOSED | FACE_UP
                            changed = True
                    elif not space:
                        space = True
                        changed = True
        for s in range(4):
            for r in range(13):
                c = s * 13 + r
                if status[c] & UP:
                    continue
                if status[c] & EXPOSED and (r == 0 or status[c - 1] & UP):
                    status[c] |= UP
                    changed = True
                else:
                    break
    for c in range(R.N_CARDS):
        if status[c] & UP == 0:
            return True
    return False


@njit(cache=True)
def _derive(cards, length, down, found, misc, deal, easy, status, held_p, held_h, occupant):
    """The fixpoint of ``dead_end``, with two additions used by ``occupation_dead_end``:

    * the card at height ``held_h`` of pile ``held_p`` (if ``held_p`` >= 0) never leaves the
      card under it (so the fixpoint holds every event that can happen before it first does);
    * ``occupant[2 t + k]`` (k = 0, 1; -1 if none) are cards y known to sit on t at some moment
      before t goes up: up(t) then also needs that y can leave t (up(y), the other card t' of
      t's rank and colour exposed, or a space and y a king or easy mode).

    Fills ``status``; returns True if a space can arise."""
    for c in range(R.N_CARDS):
        status[c] = 0
    for s in range(4):
        for r in range(found[s]):
            status[s * 13 + r] = UP
    space = False
    for p in range(R.PILES):
        if length[p] == 0:
            space = True
            continue
        for h in range(down[p], length[p]):
            status[cards[p, h]] |= FACE_UP
        status[cards[p, length[p] - 1]] |= EXPOSED
    if misc[0] == 0:
        for i in range(R.STOCK_FIRST, R.N_CARDS):
            status[deal[i]] |= EXPOSED | FACE_UP
    changed = True
    while changed:
        changed = False
        for p in range(R.PILES):
            for h in range(length[p]):
                if p == held_p and h == held_h:
                    continue
                y = cards[p, h]
                if status[y] & FACE_UP == 0:
                    continue
                if (status[cards[p, h - 1]] & EXPOSED != 0) if h > 0 else space:
                    continue
                leaves = status[y] & UP != 0
                if not leaves and R.rank(y) < R.KING:
                    t = (R.rank(y) + 1) + (0 if R.red(y) else 13)
                    leaves = (_can_take(cards, length, status, p, h, t)
                              or _can_take(cards, length, status, p, h, twin(t)))
                if not leaves and h > 0 and space and (easy or R.rank(y) == R.KING):
                    leaves = True
                if leaves:
                    status[y] |= LEFT
                    if h > 0:
                        c = cards[p, h - 1]
                        if status[c] & EXPOSED == 0:
                            status[c] |= EXPOSED | FACE_UP
                            changed = True
                    elif not space:
                        space = True
                        changed = True
        for s in range(4):
            for r in range(13):
                c = s * 13 + r
                if status[c] & UP:
                    continue
                if status[c] & EXPOSED and (r == 0 or status[c - 1] & UP):
                    free = True
                    for k in range(2):
                        y = occupant[2 * c + k]
                        if y >= 0 and not (status[y] & UP
                                           or status[twin(c)] & EXPOSED
                                           or (space and (easy or R.rank(y) == R.KING))):
                            free = False
                    if not free:
                        break
                    status[c] |= UP
                    changed = True
                else:
                    break
    return space


@njit(cache=True)
def _lost(cards, length, down, found, misc, deal, easy, status, occupant):
    _derive(cards, length, down, found, misc, deal, easy, status, -1, -1, occupant)
    for c in range(R.N_CARDS):
        if status[c] & UP == 0:
            return True
    return False


@njit(cache=True)
def _occupy(occupant, y, t):
    for k in range(2):
        if occupant[2 * t + k] < 0:
            occupant[2 * t + k] = y
            return


@njit(cache=True)
def occupation_dead_end(cards, length, down, found, misc, deal, easy, status, occupant,
                        probe=True):
    """True if the position is provably lost: ``dead_end`` made aware that a card put on
    another covers it.  Costlier (up to three fixpoints per card lying on a card, repeated while
    new facts appear), so the search never calls it; the thoughtful driver tries it once on a
    deal the search leaves unknown.  ``status`` (52) and ``occupant`` (104) are work arrays.

    ``dead_end`` is monotone: it cannot see that a card y put on t (one rank higher, other
    colour) blocks t until y leaves again.  Facts of the form "in every winning line, y sits
    on t at some moment before t goes to its foundation" (an occupation (y, t)) are derived as
    follows, and each one adds a premise to up(t) in the fixpoint (``_derive``).

    (a) Held card.  Let y lie on a card c (height >= 1).  In a win c goes up, so it becomes a
        top, so y is taken off c at some first moment D (to its foundation, or with the cards
        on it onto another pile; c carrying y along in a block does not take y off c).  Every
        event before D is derived by the fixpoint in which y is never taken off c: take the
        earliest event before D that is not; its necessary conditions are earlier events, all
        derived, and none of the rules it needs is the one switched off (y leaving c), so the
        fixpoint derives it, a contradiction.  At D, y goes up (then up(y) is derived, as
        exposed(y) and up of its predecessor happened before D), or onto a card it builds on
        (one of t, t', the two cards one rank higher of the other colour), which is a top just
        before D (``_can_take`` holds, by the argument in ``dead_end``), or into a space (easy
        mode only: a king builds on nothing and is skipped).  So if that fixpoint derives none
        of them, the position is lost; if it derives only t, then in every win y is put on t at
        D, while t is still on the tableau: an occupation (y, t).
    (b) Probing.  If it derives both t and t' (and neither up(y) nor a usable space), suppose
        y is first put on t: then (y, t) holds in that win.  If the fixpoint with (y, t) added
        (and the occupations known so far) derives some card never up, no win puts y first on
        t, so every win puts it first on t': (y, t') holds.  If both suppositions fail, the
        position is lost.
    (c) Occupation premise.  Given (y, t) for every win: before t goes up it must be a top, so
        y leaves t before then: y goes up, or onto t' (which is a top at that moment, so
        exposed(t') happened earlier), or (easy mode) into a space that exists then.  So up(t)
        needs up(y), exposed(t') or (easy and a space), all earlier events.  With this premise
        every rule of the fixpoint is still a necessary condition of its event in every win,
        so the induction of ``dead_end`` still shows that every event of any win is derived,
        and a card never derived up proves the position lost.  The held fixpoints of (a) and
        (b) may use the occupations already known: they are facts about every win, and the
        events before D belong to a win.
    Occupations are collected until none is new; the position is lost when a fixpoint with
    them leaves a card never up, or when (a) or (b) above finds no way for some y to leave.
    The tests compare it with the plain search on positions small enough to search completely.
    """
    for i in range(2 * R.N_CARDS):
        occupant[i] = -1
    trial = np.empty(2 * R.N_CARDS, dtype=np.int64)
    placed = np.zeros(R.N_CARDS, dtype=np.bool_)
    changed = True
    while changed:
        changed = False
        if _lost(cards, length, down, found, misc, deal, easy, status, occupant):
            return True
        for p in range(R.PILES):
            for h in range(1, length[p]):
                y = cards[p, h]
                if R.rank(y) == R.KING or placed[y]:
                    continue
                space = _derive(cards, length, down, found, misc, deal, easy, status, p, h,
                                occupant)
                if status[y] & UP:
                    continue  # y may go up first
                if space and easy:
                    continue
                t = (R.rank(y) + 1) + (0 if R.red(y) else 13)
                a = _can_take(cards, length, status, p, h, t)
                b = _can_take(cards, length, status, p, h, twin(t))
                if not a and not b:
                    return True  # y can never leave the card under it
                if a and b:
                    if not probe:
                        continue
                    trial[:] = occupant
                    _occupy(trial, y, t)
                    a = not _lost(cards, length, down, found, misc, deal, easy, status, trial)
                    trial[:] = occupant
                    _occupy(trial, y, twin(t))
                    b = not _lost(cards, length, down, found, misc, deal, easy, status, trial)
                    if not a and not b:
                        return True
                    if a and b:
                        continue
                _occupy(occupant, y, t if a else twin(t))
                placed[y] = True
                changed = True
    return False


@njit(cache=True)
def ordered_moves(cards, length, down, found, misc, easy, sequence_blocks, prune, freed, onto,
                  out):
    if freed >= 0:
        n = uses_of(cards, length, down, found, easy, sequence_blocks, freed, onto, out)
        if misc[0] == 0:
            # Before the stock: the stock, or another parent swap, may come first.
            for p in range(R.PILES):
                n = _add_block_moves(cards, length, down, misc, p, down[p] + 1, length[p],
                                     easy, sequence_blocks, prune, out, n, True)
            out[n] = R.encode(R.STOCK, 0, 0, 3)
            n += 1
        return n
    if prune and misc[0] == 1:
        for p in range(R.PILES):
            if R.can_found(cards, length, found, p) and safe_to_foundation(
                    cards[p, length[p] - 1], found):
                out[0] = R.encode(R.FOUNDATION, p, 0, 1)
                return 1
    n = 0
    for p in range(R.PILES):
        if down[p] > 0:
            n = _add_block_moves(cards, length, down, misc, p, down[p], down[p] + 1, easy,
                                 sequence_blocks, prune, out, n)
    for p in range(R.PILES):
        if R.can_found(cards, length, found, p):
            out[n] = R.encode(R.FOUNDATION, p, 0, 1)
            n += 1
    for p in range(R.PILES):
        low = down[p] + 1 if down[p] > 0 else 0
        n = _add_block_moves(cards, length, down, misc, p, low, length[p], easy,
                             sequence_blocks, prune, out, n)
    if misc[0] == 0:
        out[n] = R.encode(R.STOCK, 0, 0, 3)
        n += 1
    return n


@njit(cache=True)
def evaluate(cards, length, down, misc):
    """Heuristic worth of a position, for move ordering only (higher first)."""
    score = 4 * misc[1]
    for p in range(R.PILES):
        score -= 6 * down[p]
        if length[p] == 0:
            score += 2
        for h in range(down[p] + 1, length[p]):
            if not R.builds_on(cards[p, h], cards[p, h - 1]):
                score -= 1
    return score


@njit(cache=True)
def sort_by_worth(cards, length, down, found, misc, deal, moves, n, worth, jitter):
    """Best first; ``jitter`` > 0 perturbs the order (a different order per value), for
    restarts."""
    for i in range(n):
        token = R.apply_move(cards, length, down, found, misc, deal, moves[i])
        worth[i] = evaluate(cards, length, down, misc) * JITTER_SCALE
        if jitter > 0:
            noise = _mix(np.uint64(moves[i] & 0xFFFFFFFF) * GOLDEN + np.uint64(jitter) * M1
                         + np.uint64(misc[1] + 64 * length[0]))
            worth[i] += np.int64(noise % np.uint64(JITTER_RANGE))
        R.undo_move(cards, length, down, found, misc, moves[i], token)
    for i in range(1, n):  # stable insertion sort, best first
        m = moves[i]
        w = worth[i]
        j = i
        while j > 0 and worth[j - 1] < w:
            moves[j] = moves[j - 1]
            worth[j] = worth[j - 1]
            j -= 1
        moves[j] = m
        worth[j] = w


@njit(cache=True)
def thoughtful(deal, easy, sequence_blocks, prune, budget, table_a, table_b, table_stamp,
               stamp, line, jitter=0):
    """Returns (outcome, best score, nodes, line length); a won line is written to ``line``."""
    cards, length, down, found, misc = R.new_state(deal)
    return search(deal, cards, length, down, found, misc, easy, sequence_blocks, prune, budget,
                  table_a, table_b, table_stamp, stamp, line, jitter)


@njit(cache=True)
def search(deal, cards, length, down, found, misc, easy, sequence_blocks, prune, budget,
           table_a, table_b, table_stamp, stamp, line, jitter=0):
    """The search from any position (the state arrays are restored on return)."""
    if misc[1] == R.N_CARDS:
        return WIN, misc[1], 0, 0
    moves = np.empty((MAX_DEPTH, MAX_MOVES), dtype=np.int64)
    count = np.zeros(MAX_DEPTH, dtype=np.int64)
    nxt = np.zeros(MAX_DEPTH, dtype=np.int64)
    token = np.zeros(MAX_DEPTH, dtype=np.int64)
    worth = np.zeros(MAX_MOVES, dtype=np.int64)
    status = np.zeros(R.N_CARDS, dtype=np.int64)
    if prune and dead_end(cards, length, down, found, misc, deal, easy, status):
        return LOSS, misc[1], 0, 0
    a, b = fingerprint(cards, length, down, misc, prune, -1)
    seen_before(a, b, table_a, table_b, table_stamp, stamp)
    count[0] = ordered_moves(cards, length, down, found, misc, easy, sequence_blocks, prune, -1,
                             -1, moves[0])
    best = misc[1]
    nodes = 0
    complete = True
    depth = 0
    while depth >= 0:
        if nxt[depth] < count[depth]:
            if nodes >= budget:
                complete = False
                for d in range(depth - 1, -1, -1):
                    R.undo_move(cards, length, down, found, misc, line[d], token[d])
                break
            move = moves[depth, nxt[depth]]
            nxt[depth] += 1
            token[depth] = R.apply_move(cards, length, down, found, misc, deal, move)
            line[depth] = move
            nodes += 1
            if misc[1] > best:
                best = misc[1]
                if best == R.N_CARDS:
                    for d in range(depth, -1, -1):
                        R.undo_move(cards, length, down, found, misc, line[d], token[d])
                    return WIN, best, nodes, depth + 1
            freed = ((move >> 16) & 255) if move & SWAP else -1
            onto = (move >> 8) & 255
            a, b = fingerprint(cards, length, down, misc, prune, freed, onto)
            if (seen_before(a, b, table_a, table_b, table_stamp, stamp) or depth + 1 >= MAX_DEPTH
                    or (prune and dead_end(cards, length, down, found, misc, deal, easy,
                                           status))):
                if depth + 1 >= MAX_DEPTH:
                    complete = False
                R.undo_move(cards, length, down, found, misc, move, token[depth])
                continue
            depth += 1
            nxt[depth] = 0
            count[depth] = ordered_moves(cards, length, down, found, misc, easy,
                                         sequence_blocks, prune, freed, onto, moves[depth])
            if count[depth] > 1:
                sort_by_worth(cards, length, down, found, misc, deal, moves[depth],
                              count[depth], worth, jitter)
        else:
            depth -= 1
            if depth >= 0:
                R.undo_move(cards, length, down, found, misc, line[depth], token[depth])
    return (LOSS if complete else UNKNOWN), best, nodes, 0


@njit(cache=True)
def random_walks(deal, easy, sequence_blocks, walks, steps, seed, line, greedy=0):
    """Random playouts, a way to find wins the depth-first search misses (its move orders
    share one heuristic; wins of some deals lie where none of them look).  ``walks`` times,
    from the deal, play up to ``steps`` moves, each drawn among the moves of the pruned move
    generator (``ordered_moves``; any legal move, so a won playout is a legal winning line)
    whose position ``dead_end`` does not call lost: with probability ``greedy``/256 the one of
    best ``evaluate`` worth (ties and near ties broken at random), else uniformly.  Returns
    (won, line length, moves played); a won line is written to ``line``."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    worth = np.empty(MAX_MOVES, dtype=np.int64)
    status = np.zeros(R.N_CARDS, dtype=np.int64)
    rng = _mix(np.uint64(seed) * GOLDEN + M1)
    nodes = 0
    for walk in range(walks):
        cards, length, down, found, misc = R.new_state(deal)
        for step in range(steps):
            k = ordered_moves(cards, length, down, found, misc, easy, sequence_blocks, True, -1,
                              -1, moves)
            rng = _mix(rng + GOLDEN)
            best_first = np.int64(rng % np.uint64(256)) < greedy
            for i in range(k):
                moves[i] &= 0xFFFFFFFF
                if best_first:
                    token = R.apply_move(cards, length, down, found, misc, deal, moves[i])
                    rng = _mix(rng + GOLDEN)
                    worth[i] = evaluate(cards, length, down, misc) * JITTER_SCALE + np.int64(
                        rng % np.uint64(JITTER_RANGE))
                    R.undo_move(cards, length, down, found, misc, moves[i], token)
            played = False
            while k > 0:
                # Draw a candidate; a move into a dead end is dropped and another drawn.
                j = 0
                if best_first:
                    for i in range(1, k):
                        if worth[i] > worth[j]:
                            j = i
                else:
                    rng = _mix(rng + GOLDEN)
                    j = np.int64(rng % np.uint64(k))
                move = moves[j]
                token = R.apply_move(cards, length, down, found, misc, deal, move)
                nodes += 1
                line[step] = move
                if misc[1] == R.N_CARDS:
                    return True, step + 1, nodes
                if not dead_end(cards, length, down, found, misc, deal, easy, status):
                    played = True
                    break
                R.undo_move(cards, length, down, found, misc, move, token)
                k -= 1
                moves[j] = moves[k]
                worth[j] = worth[k]
            if not played:
                break
    return False, 0, nodes
