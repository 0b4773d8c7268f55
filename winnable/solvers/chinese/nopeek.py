"""Chinese Solitaire: players who see only what a person sees (no peeking).

Why one module of about 800 lines: the three players and the game loop share the view (what a
player sees, the first section below), ``sampling`` falls back on ``strategy`` move by move, and
that no player reads a face-down card is checked against one file; split, each part would have
to agree on the view's layout across files.

What a player sees: the face-up cards, the foundations, how many face-down cards each pile has
and whether the stock is still there.  So it knows which cards it has not seen (all 52 minus the
face-up cards and the foundations), but not where they are among the face-down places and the
stock.  How that is enforced: the game loop (``play``) keeps the real position; after every move
``observe`` copies what is visible into the player's *view*, in which every face-down card reads
``HIDDEN`` (-1) and the deal (where the rules take the stock cards from) is all ``HIDDEN``.  The
players (``strategy_choice``, ``sampling_choice``, ``random_choice``) are given the view only;
the real position is read by the rules engine alone, when a move turns a card up.

A game ends when the foundations hold all 52 cards (``win``), or the player has no legal move or
declares itself stuck (``loss``; score = cards on the foundations):

* *Progress* is a card to a foundation, a face-down card turned up, or the stock dealt.  None can
  be undone, so a position can repeat only between two of them.  ``strategy`` and ``sampling``
  never make a move back to a position already reached since the last progress (positions that
  differ only by the order of interchangeable piles count as the same: piles 4-7, and all piles
  once the stock is dealt); they are stuck when no move is left that they are willing to make.
* Every player, ``random`` included, is stuck after ``patience`` moves in a row without progress
  (default 200).

``strategy`` follows the Strategy section of the source text ("turn face-down cards over as
soon as possible", "keep the foundations even", "make a space only when a king can use it",
"don't use the stock until you have to").  It plays a move of the first kind in this list that
exists, choosing among moves of that kind by the tie-breaks given, then by the order of the
rules' move list:

1. **Turn a face-down card over**: move the block that starts with a pile's lowest face-up card
   (onto a pile, or a king block into a space), or send that card to its foundation when it is
   the pile's only face-up card ("take a step into the unknown" rather than a mere foundation
   move).  Ties: the pile with the most face-down cards; a tableau move before a foundation
   move; the target with the fewest face-down cards; a pile before a space.
2. **Even foundation move**: a top card of rank r (ace = 1) goes up if both foundations of the
   other colour hold at least r - 2 cards, i.e. reach within one rank of the cards that could
   be built on it (aces and twos always).  Ties: the lowest rank.
3. **Plan**: the first move of a shortest sequence of at most ``lookahead`` moves (default 8)
   that show no card, after which a move of kind 1 or 2 exists.  The sequence is searched over
   the visible cards only (iterative deepening, at most 20,000 positions, none reached before
   since the last progress).  This is how a person looks for a way to turn a card over.
4. **Dig**: move a block from a pile with face-down cards, starting above its lowest face-up
   card, onto a pile with fewer face-down cards (a space counts as none).  Ties: the pile with
   the most face-down cards; the block leaving the fewest face-up cards above them; the target
   with the fewest face-down cards; a pile before a space.
5. **Make a space**: move a whole pile onto a pile without face-down cards, but only when a
   face-up card above face-down ones could then use the space (a king; in easy mode any card).
   Ties: the shortest pile.
6. **Stock**, once nothing above applies.
7. **Uneven foundation move**, only once the stock is dealt.  Ties: the lowest rank.

Otherwise it stops.  Not implemented: arranging piles 1-3 before the stock lands on them.

``sampling`` is hindsight optimisation with ``strategy`` as its default.  It keeps ``samples``
(K, default 5) *samples*: arrangements of the unseen cards drawn uniformly (a Fisher-Yates
shuffle of the unseen cards into the face-down places, pile by pile from the bottom, then the
stock) from the player's random stream, so each is consistent with what has been seen.  A sample
is searched with every card known by the thoughtful search (``winnable.solvers.chinese.search``)
under a node ``budget`` (default 2,000; in easy mode a strict win is looked for first with half
of it, as the ``thoughtful`` solver does).  At each decision:

1. No search when the choice is clear: with no move it is willing to make it stops, with one it
   plays it, and once the stock is dealt it plays a provably safe foundation move (pruning rule
   1 of the thoughtful solver: both foundations of the other colour hold every lower card).
2. New samples are drawn at the first decision and after every move that showed a card (a
   turn-up, the stock).  Between two such moves the samples stay consistent with what is seen,
   and a sample keeps the winning line found for it as long as play follows that line (no new
   search); a sample whose line went another way is searched again.
3. The samples *won* from the current position (a winning line found) judge the moves, taken in
   ``strategy``'s order of preference: a move is *proven lost* in a won sample when the search
   after it ends without a win and without running out of budget (the next move of the
   sample's own line is not searched: it is not lost there).  It plays the first move proven
   lost in at most half of the won samples, so ``strategy``'s choice unless most samples prove
   it losing; if every move is proven lost in more than half, the move proven lost in the
   fewest (the first in that order on ties).  A move is dropped as soon as it can no longer be
   chosen.
4. When no sample is won (or every move is proven lost in all of them), it plays as
   ``strategy`` does, without new searches until the next card is shown; if ``strategy`` would
   stop there, it first searches the samples once more with 16 times the budget (for the rest
   of that stretch) and plays as in 3 if any is won.
5. When at most one card is unseen there is one arrangement only: one sample, with K times the
   budget.

``nodes`` counts every node the searches spent.

``random`` plays a uniformly random legal move (the stock included) each turn, drawn from its
stream, until it has no legal move or ``patience`` moves pass without progress.

A game's random stream is its deal's play stream (``winnable.shuffle.play_stream``, a function
of the deal's cards), so every game replays exactly from its deal, typed in or numbered;
``strategy`` draws nothing from it.
"""

from __future__ import annotations

import numpy as np

from ... import shuffle
from ...jit import jit, kernel
from ...rules import chinese as R
from . import critical as C
from . import position as P
from . import search as CS
from ..table import LOSS, WIN, TranspositionTable, mix64, remember

STRATEGY, SAMPLING, RANDOM = 0, 1, 2
PLAYERS = {"strategy": STRATEGY, "sampling": SAMPLING, "random": RANDOM}
DEFAULT_SAMPLES = 5
DEFAULT_BUDGET = 2000
DEFAULT_LOOKAHEAD = 8
DEFAULT_PATIENCE = 200
DEFAULT_MEMORY_MB = 2
MAX_SAMPLES = 256
PLAN_NODES = 20_000
PLAN_TABLE = 1 << 16  # a power of two, at least twice PLAN_NODES
LAST_TRY = 16  # budget factor of the search made before giving up
HIDDEN = -1
MOVE_BITS = np.int64(0xFFFFFFFF)  # the move; solvers may tag the bits above
MAX_MOVES = 512
NEVER = np.int64(1) << 62  # strategy key of a move the strategy player would not make

# The game's settings, one int64 array.
EASY, SEQUENCE, LOOKAHEAD, SAMPLES, BUDGET, PATIENCE = range(6)
# The strategy's kinds of move, in order.
TURN_UP, EVEN, PLAN, DIG, SPACE, STOCK, UNEVEN = range(1, 8)
# A sample's status.  FAILED: no win within the budget; LOST: proven lost.
STALE, WON, FAILED, LOST = range(4)
# Sampler state, one int64 array: draw new samples at the next decision; no sample is won since
# the last draw; samples in play; table generation; budget factor.
SS_DRAW, SS_FAILED, SS_COUNT, SS_STAMP, SS_SCALE = range(5)
# The book, a row per sample: status, line length and moves of it played (the line from the
# current position); status and line length after the move being scored, and after the best
# move so far.
STATUS, LENGTH, POSITION, TRIAL, TRIAL_LENGTH, PENDING, PENDING_LENGTH = range(7)


# --- what the player sees --------------------------------------------------------------------

@jit
def observe(cards, length, down, found, misc, view):
    """Copy what is visible into the view: face-down cards read HIDDEN."""
    vc, vl, vd, vf, vm, _ = view
    for p in range(R.PILES):
        vl[p] = length[p]
        vd[p] = down[p]
        for h in range(length[p]):
            vc[p, h] = cards[p, h] if h >= down[p] else HIDDEN
    vf[:] = found
    vm[:] = misc


@jit
def new_view(deal):
    """(cards, length, down, found, misc, deal) as the player sees them."""
    return (np.full((R.PILES, R.CAPACITY), HIDDEN, dtype=np.int64),
            np.zeros(R.PILES, dtype=np.int64), np.zeros(R.PILES, dtype=np.int64),
            np.zeros(4, dtype=np.int64), np.zeros(2, dtype=np.int64),
            np.full(R.N_CARDS, HIDDEN, dtype=deal.dtype))


@kernel
def view_key(view):
    """64-bit key of the visible layout, blind to the order of interchangeable piles (4-7, and
    all once the stock is dealt), so moving a whole pile into a space makes no new position.
    Foundations and face-down counts cannot change between two progress moves, so the face-up
    cards say which position it is."""
    vc, vl, vd, vf, vm, _ = view
    key = np.uint64(0)
    for p in range(R.PILES):
        h = np.uint64(vd[p] + 1) * shuffle.GOLDEN
        for i in range(vd[p], vl[p]):
            h = mix64(h ^ np.uint64(vc[p, i] + 1))
        named = vm[R.STOCK_DEALT] == 0 and p < 3
        key += mix64(h ^ (np.uint64(p + 1 if named else 0) * shuffle.MIX1))
    return key


@kernel
def turns_up(vl, vd, move):
    """Does the move turn a face-down card up?"""
    kind, source, _, count = R.decode(move)
    return kind != R.STOCK and vd[source] > 0 and vl[source] - count == vd[source]


@kernel
def shows_card(vl, vd, move):
    return R.decode(move)[0] == R.STOCK or turns_up(vl, vd, move)


@kernel
def is_progress(vl, vd, move):
    return R.decode(move)[0] != R.TABLEAU or turns_up(vl, vd, move)


@kernel
def top(vc, vl, p):
    return vc[p, vl[p] - 1]


@kernel
def other_colour_found(card, vf):
    """Cards on the lower of the two foundations of the other colour."""
    if R.red(card):
        return min(vf[0], vf[3])
    return min(vf[1], vf[2])


@kernel
def apply(view, move):
    vc, vl, vd, vf, vm, blind = view
    return R.apply_move(vc, vl, vd, vf, vm, blind, move)


@kernel
def undo(view, move, token):
    vc, vl, vd, vf, vm, _ = view
    R.undo_move(vc, vl, vd, vf, vm, move, token)


@kernel
def legal(view, cfg, out):
    vc, vl, vd, vf, vm, _ = view
    return R.legal_moves(vc, vl, vd, vf, vm, cfg[EASY] != 0, cfg[SEQUENCE] != 0, out)


@kernel
def leads_back(view, move, visited, nvisited):
    """Would this move (no progress) reach a position seen since the last progress?"""
    if is_progress(view[1], view[2], move):
        return False
    token = apply(view, move)
    key = view_key(view)
    undo(view, move, token)
    for i in range(nvisited):
        if visited[i] == key:
            return True
    return False


@kernel
def candidates(view, cfg, visited, nvisited, out):
    """The legal moves that do not lead back to a position already seen."""
    n = legal(view, cfg, out)
    k = 0
    for i in range(n):
        if not leads_back(view, out[i], visited, nvisited):
            out[k] = out[i]
            k += 1
    return k


# --- strategy --------------------------------------------------------------------------------

@kernel
def _key(kind, a, b, c, index):
    return (((kind * 100 + a) * 100 + b) * 100 + c) * 1000 + index


@kernel
def _immediate_kind(view, move):
    """Kind TURN_UP, EVEN or DIG of a move (0 if none), with its tie-break numbers."""
    vc, vl, vd, vf, _, _ = view
    kind, source, target, count = R.decode(move)
    if kind == R.STOCK:
        return 0, 0, 0, 0
    if turns_up(vl, vd, move):
        if kind == R.FOUNDATION:
            return TURN_UP, 63 - vd[source], 1, 0
        return TURN_UP, 63 - vd[source], 0, 2 * vd[target] + (vl[target] == 0)
    if kind == R.FOUNDATION:
        card = top(vc, vl, source)
        if other_colour_found(card, vf) >= R.rank(card) - 1:
            return EVEN, R.rank(card), 0, 0
        return 0, 0, 0, 0
    height = vl[source] - count
    if vd[source] > 0 and height > vd[source] and vd[target] < vd[source]:
        return DIG, 63 - vd[source], height - vd[source], 2 * vd[target] + (vl[target] == 0)
    return 0, 0, 0, 0


@kernel
def _space_user(view, easy):
    """Is there a face-up card above face-down ones that could use a space (a king; in easy
    mode any card)?"""
    vc, vl, vd, _, _, _ = view
    for p in range(R.PILES):
        if vd[p] > 0:
            for h in range(vd[p], vl[p]):
                if easy or R.rank(vc[p, h]) == R.KING:
                    return True
    return False


@kernel
def _goal(view, cfg, scratch):
    """Is there a move of kind TURN_UP or EVEN?"""
    n = legal(view, cfg, scratch)
    for i in range(n):
        if 0 < _immediate_kind(view, scratch[i])[0] <= EVEN:
            return True
    return False


@kernel
def _plan_moves(view, cfg, out):
    """Moves a plan may use: those that show no card."""
    n = legal(view, cfg, out)
    k = 0
    for i in range(n):
        if not shows_card(view[1], view[2], out[i]):
            out[k] = out[i]
            k += 1
    return k


@jit
def plan(view, cfg, visited, nvisited, scratch):
    """The first move of a shortest sequence of at most cfg[LOOKAHEAD] moves that show no card,
    after which a move of kind TURN_UP or EVEN exists (iterative deepening over the view, at
    most PLAN_NODES positions); -1 if none."""
    depth_limit = max(cfg[LOOKAHEAD], 1)
    stack = np.empty((depth_limit, MAX_MOVES), dtype=np.int64)
    count = np.zeros(depth_limit, dtype=np.int64)
    nxt = np.zeros(depth_limit, dtype=np.int64)
    token = np.zeros(depth_limit, dtype=np.int64)
    path = np.zeros(depth_limit, dtype=np.int64)
    table = np.zeros(PLAN_TABLE, dtype=np.uint64)
    nodes = 0
    for limit in range(1, depth_limit + 1):
        table[:] = 0
        remember(table, view_key(view))
        depth = 0
        count[0] = _plan_moves(view, cfg, stack[0])
        nxt[0] = 0
        while depth >= 0:
            if nxt[depth] >= count[depth]:
                depth -= 1
                if depth >= 0:
                    undo(view, path[depth], token[depth])
                continue
            move = stack[depth, nxt[depth]]
            nxt[depth] += 1
            if nodes >= PLAN_NODES or leads_back(view, move, visited, nvisited):
                continue
            token[depth] = apply(view, move)
            path[depth] = move
            nodes += 1
            if not remember(table, view_key(view)):
                undo(view, move, token[depth])
                continue
            if _goal(view, cfg, scratch):
                for d in range(depth, -1, -1):
                    undo(view, path[d], token[d])
                return path[0]
            if depth + 1 < limit:
                depth += 1
                count[depth] = _plan_moves(view, cfg, stack[depth])
                nxt[depth] = 0
            else:
                undo(view, move, token[depth])
        if nodes >= PLAN_NODES:
            break
    return -1


@jit
def strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch):
    """The strategy player's preference for each of the n moves (lower first; NEVER: it would
    not make it)."""
    vc, vl, vd, _, vm, _ = view
    user = _space_user(view, cfg[EASY] != 0)
    best = NEVER
    for i in range(n):
        move = moves[i]
        kind, source, target, count = R.decode(move)
        immediate, a, b, c = _immediate_kind(view, move)
        keys[i] = NEVER
        if immediate > 0:
            keys[i] = _key(immediate, a, b, c, i)
        elif kind == R.STOCK:
            keys[i] = _key(STOCK, 0, 0, 0, i)
        elif kind == R.FOUNDATION and vm[R.STOCK_DEALT] == 1:
            keys[i] = _key(UNEVEN, R.rank(top(vc, vl, source)), 0, 0, i)
        elif kind == R.TABLEAU and count == vl[source] and vd[target] == 0 and user:
            keys[i] = _key(SPACE, min(count, 99), 0, 0, i)
        best = min(best, keys[i])
    if best >= _key(PLAN, 0, 0, 0, 0):
        first = plan(view, cfg, visited, nvisited, scratch)
        for i in range(n):
            if moves[i] == first:
                keys[i] = _key(PLAN, 0, 0, 0, i)


@jit
def strategy_choice(view, cfg, visited, nvisited, buffers):
    moves, keys, scratch = buffers
    n = candidates(view, cfg, visited, nvisited, moves)
    if n == 0:
        return -1
    strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch)
    best = np.argmin(keys[:n])
    return moves[best] if keys[best] < NEVER else -1


# --- random ----------------------------------------------------------------------------------

@jit
def random_choice(view, cfg, rng, moves):
    n = legal(view, cfg, moves)
    return moves[shuffle.uniform_below(rng, n)] if n > 0 else -1


# --- sampling --------------------------------------------------------------------------------

@jit
def solve_sample(sample, cfg, budget, state, searcher):
    """The one place that calls the thoughtful solver: search a sample from its position.
    Returns (WON, LOST or FAILED, nodes, line length); the line is left in the searcher's line
    buffer.  Easy mode looks for a strict win first (``search.strict_first_pass``).
    ``state[SS_STAMP]`` is the table generation, advanced here (each search is a deal of its
    own to the table)."""
    cards, length, down, found, misc, deal = sample
    keys, stamps, workspace, pos, model = searcher
    spent = 0
    result = LOSS
    for i in range(2):
        easy, size = CS.strict_first_pass(cfg[EASY] != 0, i, budget, spent)
        if size < 0:
            continue
        state[SS_STAMP] += 1
        if state[SS_STAMP] >= 2**31 - 1:
            stamps[:] = 0
            state[SS_STAMP] = 1
        P.assign(pos, cards, length, down, found, misc, deal)
        result, _, nodes, n = CS.search(
            pos, easy, cfg[SEQUENCE] != 0, CS.ALL & ~CS.CRITICAL, size, keys, stamps,
            state[SS_STAMP], state[SS_STAMP], workspace, model, 0)
        spent += nodes
        if result == WIN:
            return WON, spent, n
    return (LOST if result == LOSS else FAILED), spent, 0


@jit
def unseen_cards(view, out):
    """The cards not seen (neither face up nor on a foundation), ascending; returns the count."""
    vc, vl, vd, vf, _, _ = view
    seen = np.zeros(R.N_CARDS, dtype=np.bool_)
    for p in range(R.PILES):
        for h in range(vd[p], vl[p]):
            seen[vc[p, h]] = True
    for s in range(4):
        for r in range(vf[s]):
            seen[s * 13 + r] = True
    n = 0
    for c in range(R.N_CARDS):
        if not seen[c]:
            out[n] = c
            n += 1
    return n


@jit
def fill_sample(view, hidden, sample):
    """Set the sample's position: the view, with its hidden places filled from ``hidden``
    (face-down places pile by pile from the bottom, then the stock)."""
    vc, vl, vd, vf, vm, _ = view
    cards, length, down, found, misc, deal = sample
    k = 0
    for p in range(R.PILES):
        length[p] = vl[p]
        down[p] = vd[p]
        for h in range(vl[p]):
            if h < vd[p]:
                cards[p, h] = hidden[k]
                k += 1
            else:
                cards[p, h] = vc[p, h]
    found[:] = vf
    misc[:] = vm
    if vm[R.STOCK_DEALT] == 0:
        for j in range(3):
            deal[R.STOCK_FIRST + j] = hidden[k]
            k += 1


@jit
def safe_foundation(view, moves, n):
    """Index of a foundation move pruning rule 1 of the thoughtful solver proves safe (the stock
    is dealt and both foundations of the other colour hold every lower card), else -1."""
    vc, vl, _, vf, vm, _ = view
    if vm[R.STOCK_DEALT] == 0:
        return -1
    for i in range(n):
        kind, source, _, _ = R.decode(moves[i])
        if kind == R.FOUNDATION:
            card = top(vc, vl, source)
            if other_colour_found(card, vf) >= R.rank(card):
                return i
    return -1


@jit
def new_sampler(samples, deal):
    """The sampling player's memory: state, book, lines (from the current position, after the
    move being scored, after the best move), the hidden cards of each sample, and the arrays a
    sample's position is built in."""
    k = max(samples, 1)
    state = np.zeros(5, dtype=np.int64)
    state[SS_DRAW] = 1
    book = np.zeros((k, 7), dtype=np.int64)
    lines = np.zeros((3, k, CS.MAX_DEPTH), dtype=np.int64)
    hidden = np.empty((k, R.N_CARDS), dtype=np.int64)
    sample = (np.zeros((R.PILES, R.CAPACITY), dtype=np.int64), np.zeros(R.PILES, dtype=np.int64),
              np.zeros(R.PILES, dtype=np.int64), np.zeros(4, dtype=np.int64),
              np.zeros(2, dtype=np.int64), np.full(R.N_CARDS, HIDDEN, dtype=deal.dtype))
    return state, book, lines, hidden, sample


@jit
def _search_sample(view, cfg, budget, sampler, searcher, k, move, which, status, length):
    """Search sample k from the current position, after ``move`` if it is >= 0; the outcome
    goes to the book's column ``status``, a won line to ``lines[which, k]``.  Returns the
    nodes spent."""
    state, book, lines, hidden, sample = sampler
    fill_sample(view, hidden[k], sample)
    if move >= 0:
        cards, lengths, down, found, misc, deal = sample
        R.apply_move(cards, lengths, down, found, misc, deal, move)
    outcome, nodes, n = solve_sample(sample, cfg, budget, state, searcher)
    book[k, status] = outcome
    book[k, length] = n
    lines[which, k, :n] = searcher[2].line[:n] & MOVE_BITS
    return nodes


@jit
def next_move(lines, book, k):
    """The next move of sample k's line (-1 once it is played out)."""
    return lines[0, k, book[k, POSITION]] if book[k, POSITION] < book[k, LENGTH] else -1


@jit
def _draw(view, cfg, rng, state, book, hidden):
    state[SS_DRAW] = 0
    state[SS_FAILED] = 0
    state[SS_SCALE] = 1
    unseen = np.empty(R.N_CARDS, dtype=np.int64)
    count = unseen_cards(view, unseen)
    state[SS_COUNT] = cfg[SAMPLES] if count > 1 else 1
    for k in range(state[SS_COUNT]):
        hidden[k, :count] = unseen[:count]
        shuffle.shuffle_in_place(hidden[k, :count], rng)
        book[k, STATUS] = STALE


@jit
def _sampled_move(view, cfg, visited, nvisited, buffers, sampler, searcher):
    """The move the won samples choose (-1 if no sample is won, or if every move is proven
    lost in all of them), and the nodes spent."""
    moves, keys, scratch = buffers
    state, book, lines, hidden, sample = sampler
    n = candidates(view, cfg, visited, nvisited, moves)
    budget = cfg[BUDGET] * (1 if state[SS_COUNT] > 1 else cfg[SAMPLES]) * state[SS_SCALE]
    spent = 0
    won = 0
    for k in range(state[SS_COUNT]):
        if book[k, STATUS] == STALE:
            spent += _search_sample(view, cfg, budget, sampler, searcher, k, -1, 0, STATUS,
                                    LENGTH)
            book[k, STATUS] = min(book[k, STATUS], FAILED)
            book[k, POSITION] = 0
        won += book[k, STATUS] == WON
    if won == 0:
        return -1, spent
    strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch)
    # The first move in strategy's order proven lost in at most half of the won samples; if
    # there is none, the move proven lost in the fewest (-1 if every move is lost in all).
    best = -1
    best_lost = won
    for i in np.argsort(keys[:n], kind="mergesort"):
        move = moves[i]
        lost = 0
        book[:, TRIAL] = STALE
        for k in range(state[SS_COUNT]):
            if book[k, STATUS] != WON or next_move(lines, book, k) == move:
                continue
            spent += _search_sample(view, cfg, budget, sampler, searcher, k, move, 1, TRIAL,
                                    TRIAL_LENGTH)
            lost += book[k, TRIAL] == LOST
            if 2 * lost > won and lost >= best_lost:
                break
        if lost < best_lost or 2 * lost <= won:
            best = move
            best_lost = lost
            for k in range(state[SS_COUNT]):
                book[k, PENDING] = book[k, TRIAL]
                book[k, PENDING_LENGTH] = book[k, TRIAL_LENGTH]
                if book[k, TRIAL] == WON:
                    lines[2, k, :book[k, TRIAL_LENGTH]] = lines[1, k, :book[k, TRIAL_LENGTH]]
            if 2 * lost <= won:
                break
    return best, spent


@jit
def sampling_choice(view, cfg, rng, visited, nvisited, buffers, sampler, searcher):
    """Returns (move or -1, nodes searched)."""
    moves = buffers[0]
    state, book, lines, hidden, sample = sampler
    book[:, PENDING] = STALE
    n = candidates(view, cfg, visited, nvisited, moves)
    if n <= 1:
        return (moves[0] if n == 1 else -1), 0
    safe = safe_foundation(view, moves, n)
    if safe >= 0:
        return moves[safe], 0
    if state[SS_DRAW]:
        _draw(view, cfg, rng, state, book, hidden)
    spent = 0
    if not state[SS_FAILED]:
        best, spent = _sampled_move(view, cfg, visited, nvisited, buffers, sampler, searcher)
        if best >= 0:
            return best, spent
        state[SS_FAILED] = 1
    move = strategy_choice(view, cfg, visited, nvisited, buffers)
    if move < 0 and state[SS_SCALE] == 1:
        # Rather than stop: the same samples once more, with a larger budget.
        state[SS_SCALE] = LAST_TRY
        book[:, STATUS] = STALE
        move, more = _sampled_move(view, cfg, visited, nvisited, buffers, sampler, searcher)
        spent += more
        state[SS_FAILED] = move < 0
    return move, spent


@jit
def sampling_after(move, shown, sampler):
    """After a move: a won sample keeps a line that went on with it (or the one found after it);
    new samples are drawn once a card has been shown."""
    state, book, lines, hidden, sample = sampler
    if shown:
        state[SS_DRAW] = 1
        return
    for k in range(state[SS_COUNT]):
        if book[k, STATUS] != WON:
            continue
        if next_move(lines, book, k) == move:
            book[k, POSITION] += 1
        elif book[k, PENDING] == WON:
            book[k, LENGTH] = book[k, PENDING_LENGTH]
            lines[0, k, :book[k, LENGTH]] = lines[2, k, :book[k, LENGTH]]
            book[k, POSITION] = 0
        else:
            # Searched after this move without a win: the same search would fail again.  Not
            # searched after it: search again.
            book[k, STATUS] = min(book[k, PENDING], FAILED)


# --- the game --------------------------------------------------------------------------------

@jit
def play(deal, player, cfg, rng, record, searcher, stamp):
    """One game.  ``searcher`` is (table keys, table stamps, search workspace, search position)
    for the sampling player's searches.  Returns (won, score, moves recorded, nodes, table
    generation)."""
    cards, length, down, found, misc = R.new_state(deal)
    view = new_view(deal)
    observe(cards, length, down, found, misc, view)
    buffers = (np.empty(MAX_MOVES, dtype=np.int64), np.empty(MAX_MOVES, dtype=np.int64),
               np.empty(MAX_MOVES, dtype=np.int64))
    visited = np.empty(cfg[PATIENCE] + 2, dtype=np.uint64)
    visited[0] = view_key(view)
    nvisited = 1
    sampler = new_sampler(cfg[SAMPLES] if player == SAMPLING else 1, deal)
    sampler[0][SS_STAMP] = stamp
    nodes = 0
    n = 0
    idle = 0
    while misc[R.SCORE] < R.N_CARDS and n < record.shape[0]:
        if player == RANDOM:
            move = random_choice(view, cfg, rng, buffers[0])
        elif player == STRATEGY:
            move = strategy_choice(view, cfg, visited, nvisited, buffers)
        else:
            move, spent = sampling_choice(view, cfg, rng, visited, nvisited, buffers, sampler,
                                          searcher)
            nodes += spent
        if move < 0:
            break
        shown = shows_card(view[1], view[2], move)
        progress = is_progress(view[1], view[2], move)
        R.apply_move(cards, length, down, found, misc, deal, move)
        record[n] = move
        n += 1
        observe(cards, length, down, found, misc, view)
        if player == SAMPLING:
            sampling_after(move, shown, sampler)
        if progress:
            idle = 0
            nvisited = 0
        else:
            idle += 1
            if idle >= cfg[PATIENCE]:
                break
        visited[nvisited] = view_key(view)
        nvisited += 1
    return misc[R.SCORE] == R.N_CARDS, misc[R.SCORE], n, nodes, sampler[0][SS_STAMP]


@jit
def choice_after(deal, line, player, cfg, rng, searcher, stamp):
    """The player's move after the moves ``line`` of ``deal`` (-1: it stops), as in ``play``:
    it remembers the positions seen since the last progress; the sampling player draws fresh
    samples here.  Returns (move, nodes, table generation)."""
    cards, length, down, found, misc = R.new_state(deal)
    view = new_view(deal)
    observe(cards, length, down, found, misc, view)
    buffers = (np.empty(MAX_MOVES, dtype=np.int64), np.empty(MAX_MOVES, dtype=np.int64),
               np.empty(MAX_MOVES, dtype=np.int64))
    visited = np.empty(line.shape[0] + 2, dtype=np.uint64)
    visited[0] = view_key(view)
    nvisited = 1
    for move in line:
        progress = is_progress(view[1], view[2], move)
        R.apply_move(cards, length, down, found, misc, deal, move)
        observe(cards, length, down, found, misc, view)
        if progress:
            nvisited = 0
        visited[nvisited] = view_key(view)
        nvisited += 1
    sampler = new_sampler(cfg[SAMPLES] if player == SAMPLING else 1, deal)
    sampler[0][SS_STAMP] = stamp
    if player == RANDOM:
        return random_choice(view, cfg, rng, buffers[0]), 0, stamp
    if player == STRATEGY:
        return strategy_choice(view, cfg, visited, nvisited, buffers), 0, stamp
    move, spent = sampling_choice(view, cfg, rng, visited, nvisited, buffers, sampler, searcher)
    return move, spent, sampler[0][SS_STAMP]


def new_searcher(memory_mb):
    """What ``play`` searches with, and the table behind it (whose generation counter the
    caller keeps between games)."""
    table = TranspositionTable(memory_mb)
    pos = P.new_position(np.arange(R.N_CARDS, dtype=np.int8))
    return (table.keys, table.stamps, CS.new_workspace(), pos, C.no_model()), table


def configure(rules, options):
    """A player's settings array for ``play`` and the buffer its moves are recorded in."""
    cfg = np.zeros(6, dtype=np.int64)
    cfg[EASY] = bool(rules["easy"])
    cfg[SEQUENCE] = rules["blocks"] == "sequence"
    cfg[LOOKAHEAD] = int(options.get("lookahead", DEFAULT_LOOKAHEAD))
    cfg[SAMPLES] = int(options.get("samples", 1))
    cfg[BUDGET] = int(options.get("budget", 0))
    cfg[PATIENCE] = max(1, int(options["patience"]))
    if not 1 <= cfg[SAMPLES] <= MAX_SAMPLES:
        raise ValueError(f"samples must be 1..{MAX_SAMPLES}, got {cfg[SAMPLES]}")
    # At most 74 progress moves (52 to foundations, 21 turn-ups, the stock), each after fewer
    # than `patience` others.
    record = np.empty(75 * (cfg[PATIENCE] + 1), dtype=np.int64)
    return cfg, record


class Player:
    """A no-peek player (``PLAYERS``) with its buffers and search table, for one rule set and
    options, reused for many games."""

    def __init__(self, rules, solver, options):
        self.cfg, self.record = configure(rules, options)
        self.player = PLAYERS[solver]
        self.searcher, self.table = new_searcher(
            float(options.get("memory_mb", DEFAULT_MEMORY_MB)))

    def play(self, deal, rng):
        """One game of the deal with random stream ``rng``: (won, score, nodes, moves).

        The game's stream should be its deal's play stream: it hashes the whole deal,
        face-down cards included, and a pseudo-random number tells the player nothing about
        them."""
        won, score, n, nodes, stamp = play(deal, self.player, self.cfg, rng, self.record,
                                           self.searcher, self.table.generation.current)
        self.table.generation.current = int(stamp)
        return bool(won), int(score), int(nodes), self.record[:n].copy()

    def choose(self, deal, line, rng):
        """The player's move after ``line`` (move codes) of ``deal``: (move or -1, nodes)."""
        move, nodes, stamp = choice_after(deal, np.asarray(line, dtype=np.int64), self.player,
                                          self.cfg, rng, self.searcher,
                                          self.table.generation.current)
        self.table.generation.current = int(stamp)
        return int(move), int(nodes)
