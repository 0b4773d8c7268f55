"""Chinese Solitaire: ``hindsight``, a no-peek player that judges moves on samples of the unseen
cards.

It sees what a person sees (the view of ``nopeek``), and every sample it plays or searches is
an arrangement of the cards it has not seen, drawn as ``sampling`` draws them.  Option ``judge``
says how moves are judged on the samples:

* ``judge=3`` (the default, version 2): ``sampling``'s move (``strategy``'s unless most won
  samples prove it lost: ``nopeek.sampling_choice``, the same samples and searches), with
  *rollouts* where that rule is in doubt: when it vetoed ``strategy``'s move, its replacement
  and the next moves in ``strategy``'s order (``width`` moves in all, default
  ``DEFAULT_WIDTH``, the vetoed one left out); when it kept ``strategy``'s move but some won
  sample proves that move lost (*contested*), that move and the next ones (``width`` in all).
  The judged moves are played on every sample and followed by ``strategy`` (``rollout``);
  the move with the most won rollouts is played, ties going to the first judged (sampling's
  own), the first judged ``margin`` percent of the samples ahead (default 0).  A rollout's
  ``strategy`` searches its plan over at most ``rollout_plan`` positions (default 2,000, a
  tenth of the player's; it plays 61% of strict deals 1-300 at a quarter of the time), and
  once at most one card is unseen (nothing left to guess) the rollout ends with the
  thoughtful search of the sample at ``finish`` nodes (default 2,000): won if it finds a win,
  lost if it proves a loss, played on otherwise.
* ``judge=2``: the same, rollouts only where the veto acts.
* ``judge=1``: rollouts alone, at every decision: the first ``width`` moves in ``strategy``'s
  order, ``strategy``'s own ``margin`` percent ahead; no win anywhere: the most cards on the
  foundations over the samples.
* ``judge=0`` (version 1; ``margin=50`` was its default): the move that wins the most samples
  in searches with every card of the sample known, below.

Why rollouts: a line found with every card known may use cards the player cannot see
(strategy fusion), and judge 0 measured below ``sampling``; a rollout's ``strategy`` sees only
the sample's view, as the player would, so its wins are wins a no-peek player can have.  The
search that ends a rollout sees no hidden card either (at most one is unseen).

Judge 0.  Perfect-information Monte Carlo (hindsight optimisation; Bjarnason, Fern &
Tadepalli 2009 for Klondike).

Samples.  ``samples`` (K, default ``DEFAULT_SAMPLES``) arrangements of the unseen cards, drawn
exactly as the ``sampling`` player draws them (``nopeek._draw``: a Fisher-Yates shuffle of the
unseen cards into the face-down places, pile by pile from the bottom, then the stock, from the
game's random stream): at the first decision and after every move that showed a card (a
turn-up, the stock).  Between two such moves nothing new is seen, so the samples stay consistent
with the view and are kept, with what was learnt about them.  When at most one card is unseen
there is one arrangement only: one sample, with K times the budget.

A sample is *won* from the current position when the thoughtful search
(``nopeek.solve_sample``: ``winnable.solvers.chinese.search`` with every card of the sample
known, node ``budget`` per search, easy mode looking for a strict win first) found a winning
line, *lost* when it searched the whole space, *failed* when the budget ran out.  At each
decision:

1. No search when the choice is clear: no move left that it is willing to make (the moves that
   do not lead back to a position seen since the last progress, as for ``strategy`` and
   ``sampling``): it stops; one: it plays it; the stock dealt and a foundation move provably
   safe (pruning rule 1 of the thoughtful solver): it plays it.
2. Every sample not yet judged from here is searched (a sample keeps its winning line as long
   as play follows it, and the outcome found after the move played otherwise; so mostly only
   the samples drawn after a card was shown are searched).
3. Lost and failed samples say nothing about which move is better (lost: every move loses;
   failed: the search learnt nothing within its budget), so only the won samples vote.  The
   *candidates* are ``strategy``'s choice and the first move of each won sample's line, one per
   view they lead to (moves to interchangeable places are one candidate), in ``strategy``'s
   order of preference.  With one candidate, it is played (no search: the samples are unanimous
   and agree with the advice).
4. Otherwise each candidate gets a *score* over the won samples, in half-wins: 2 when the
   sample's line starts with it (no search), else the sample is searched after the move: 2 if
   won, 0 if proven lost, ``unknown`` if the search fails (default ``DEFAULT_UNKNOWN`` = 2: an
   undecided search counts as a win, so that only a proof of loss counts against a move; 1:
   half a win; 0: a loss).  ``strategy``'s move, when it is a candidate, starts ``margin``
   percent of the won samples ahead (version 1's default, ``margin=50``: with ``unknown`` = 2,
   another move is played only when strategy's is proven lost in more than half of the won
   samples beyond that move's own proofs of loss).  Candidates are scored in order, and a
   candidate stops being scored once it can no longer beat the best so far (ties go to the
   earlier one); so when ``strategy``'s move wins every won sample nothing else is searched.
   Why these defaults: the plain rule (unknown half, no margin) lost to ``sampling`` on strict
   deals 1-500 (69.8% against 73.2%): a small search that fails after ``strategy``'s move has
   mostly just run out of nodes, while the alternatives are the first moves of lines found with
   every card known, which use what the player cannot see; each step towards trusting only
   proofs of loss and ``strategy``'s advice measured better (results/NOTES.md).
5. *Close calls*: when the best two scores are within one sample and some of their samples
   failed, those samples are searched again with ``escalate`` times the budget (default
   ``DEFAULT_ESCALATE``; 1: never) and the scores recomputed.
6. It plays the candidate with the best score, the earliest in ``strategy``'s order on ties.
   Each won sample keeps what was found after that move: the rest of its line, or the line
   found after the move, or lost/failed (not searched again until a card is shown); a sample
   not searched after it is searched again at the next decision.
7. With no won sample it plays as ``strategy`` does, without new searches until a card is
   shown; if ``strategy`` would stop there, it first searches the samples once more with
   ``nopeek.LAST_TRY`` times the budget (as ``sampling`` does).

Why it never peeks: its inputs are the view (face-down cards ``HIDDEN``), the positions it has
seen since the last progress (views too), the game's random stream and what it computed from
those; a sample is built from the view and cards drawn from the list of unseen cards
(``nopeek.unseen_cards``, read off the view), never from the deal.  The real position is read
by ``nopeek.play`` alone, when a move turns a card up.  ``tests/test_chinese_nopeek.py`` plays
pairs of deals alike in every visible card and different underneath, with one random stream,
and checks that the moves agree until a shown card differs.

``nodes`` counts every node the searches spent, and every move a rollout played.  The state
lives in a tuple ``memory`` (``new_memory``): the ``sampling`` player's sampler (state, book,
lines, hidden cards, sample position); per won sample and candidate, the outcome, line length
and line after the candidate (judge 0); the rollouts' workspace.
"""

from __future__ import annotations

import numpy as np

from ...jit import jit
from ...rules import chinese as R
from . import nopeek as NP
from . import search as CS

DEFAULT_SAMPLES = 5  # as sampling's, so the two play alike until they part
DEFAULT_BUDGET = 2000
DEFAULT_ESCALATE = 4
DEFAULT_UNKNOWN = 2  # half-wins an undecided search counts: a win (step 4)
DEFAULT_MARGIN = 0  # percent of the samples the first judged move starts ahead by
DEFAULT_JUDGE = 3  # sampling's veto, rollouts where it is contested
DEFAULT_WIDTH = 3  # moves judged by rollouts
DEFAULT_ROLLOUT_PLAN = 2000  # positions a rollout's plan may search
DEFAULT_FINISH = 2000  # budget of the search that ends a rollout once every card is seen
MAX_CHOICES = 8  # candidates scored at one decision at most (strategy's first)
UNSCORED = -1


@jit
def new_memory(samples, deal, cfg):
    """The player's memory: the sampler of ``nopeek`` and, per sample and candidate, the
    outcome after the candidate (UNSCORED: not searched), the line's length and the line; the
    candidates of the last decision; the rollouts' workspace (``new_rollouts``)."""
    k = max(samples, 1)
    trial = np.full((k, MAX_CHOICES), UNSCORED, dtype=np.int64)
    trial_length = np.zeros((k, MAX_CHOICES), dtype=np.int64)
    trial_lines = np.zeros((k, MAX_CHOICES, CS.MAX_DEPTH), dtype=np.int64)
    chosen = np.full(MAX_CHOICES, -1, dtype=np.int64)
    return (NP.new_sampler(samples, deal), trial, trial_length, trial_lines, chosen,
            new_rollouts(deal, cfg))


@jit
def new_rollouts(deal, cfg):
    """What a rollout plays with: its own view, positions seen, move buffers and settings (the
    player's, with the plan capped at ``ROLLOUT_PLAN`` positions)."""
    rcfg = cfg.copy()
    rcfg[NP.PLAN_CAP] = cfg[NP.ROLLOUT_PLAN]
    return (NP.new_view(deal), np.empty(2 * cfg[NP.PATIENCE] + 4, dtype=np.uint64),
            (np.empty(NP.MAX_MOVES, dtype=np.int64), np.empty(NP.MAX_MOVES, dtype=np.int64),
             np.empty(NP.MAX_MOVES, dtype=np.int64)), rcfg)


@jit
def _all_seen(down, misc):
    """At most one card unseen: nothing left to guess."""
    hidden = 0 if misc[R.STOCK_DEALT] else 3
    for p in range(R.PILES):
        hidden += down[p]
    return hidden <= 1


@jit
def rollout(sample, first, visited, nvisited, ws, finish, state, searcher):
    """Play ``first`` and then ``strategy`` (with the rollout settings) on the sample, as the
    game loop would: the strategy player sees the sample's view only.  Returns (cards on the
    foundations at the end, moves played)."""
    rview, rvisited, rbuffers, rcfg = ws
    cards, length, down, found, misc, deal = sample
    NP.observe(cards, length, down, found, misc, rview)
    nv = min(nvisited, rvisited.shape[0] // 2)  # the latest positions (hints after long lines)
    rvisited[:nv] = visited[nvisited - nv:nvisited]
    idle = nv - 1
    move = first
    steps = 0
    while True:
        progress = NP.is_progress(rview[1], rview[2], move)
        R.apply_move(cards, length, down, found, misc, deal, move)
        steps += 1
        if misc[R.SCORE] == R.N_CARDS:
            break
        if finish > 0 and _all_seen(down, misc):
            # Nothing hidden any more: the player knows the position, and a search that finds
            # a win (or proves a loss) tells what it can do from here.
            outcome, nodes, _ = NP.solve_sample(sample, rcfg, finish, state, searcher)
            if outcome == NP.WON:
                return R.N_CARDS, steps + nodes
            if outcome == NP.LOST:
                return misc[R.SCORE], steps + nodes
            finish = 0
        NP.observe(cards, length, down, found, misc, rview)
        if progress:
            idle = 0
            nv = 0
        else:
            idle += 1
            if idle >= rcfg[NP.PATIENCE] or nv >= rvisited.shape[0]:
                break
        rvisited[nv] = NP.view_key(rview)
        nv += 1
        move = NP.strategy_choice(rview, rcfg, rvisited, nv, rbuffers)
        if move < 0:
            break
    return misc[R.SCORE], steps


@jit
def _rollout_among(view, cfg, visited, nvisited, cand, m, first_ahead, memory, searcher):
    """Each of the m moves ``cand`` is played on every sample and followed by ``strategy``
    (``rollout``); returns (index of the move with the most wins, moves and nodes spent).
    ``first_ahead``: the first move starts ``margin`` percent of the samples ahead (dropped if
    it wins no sample); ties go to the earlier move; no win anywhere: the most cards on the
    foundations in total.  The first move returns at once when it wins every sample."""
    sampler = memory[0]
    ws = memory[5]
    state, book, lines, hidden, sample = sampler
    count = state[NP.SS_COUNT]
    spent = 0
    best = 0
    best_value = -1
    best_total = -1
    any_win = False
    for j in range(m):
        bonus = cfg[NP.MARGIN] * count if j == 0 and first_ahead else 0
        wins = 0
        total = 0
        done = True
        for k in range(count):
            NP.fill_sample(view, hidden[k], sample)
            score, steps = rollout(sample, cand[j], visited, nvisited, ws, cfg[NP.FINISH],
                                   state, searcher)
            spent += steps
            wins += score == R.N_CARDS
            total += score
            if any_win and 100 * (wins + count - 1 - k) + bonus <= best_value:
                done = False
                break
        if j == 0 and wins == count:
            return 0, spent
        if j == 0 and wins == 0:
            bonus = 0
        if not done:
            continue
        value = 100 * wins + bonus
        if wins > 0 and not any_win:
            any_win = True
            best, best_value, best_total = j, value, total
        elif any_win and value > best_value:
            best, best_value, best_total = j, value, total
        elif not any_win and total > best_total:
            best, best_value, best_total = j, value, total
    return best, spent


@jit
def _rollout_move(view, cfg, visited, nvisited, buffers, memory, searcher):
    """Rollout judge (``judge=1``): the first ``width`` moves in strategy's order, judged by
    ``_rollout_among`` (strategy's own move, when it has one, ``margin`` percent ahead).
    Returns (move, moves and nodes spent in rollouts)."""
    moves, keys, scratch = buffers
    n = NP.candidates(view, cfg, visited, nvisited, moves)
    NP.strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch)
    order = np.argsort(keys[:n], kind="mergesort")
    m = min(n, max(cfg[NP.WIDTH], 1))
    cand = np.empty(m, dtype=np.int64)
    for j in range(m):
        cand[j] = moves[order[j]]
    best, spent = _rollout_among(view, cfg, visited, nvisited, cand, m,
                                 keys[order[0]] < NP.NEVER, memory, searcher)
    return cand[best], spent


@jit
def _veto_then_rollouts(view, cfg, rng, visited, nvisited, buffers, memory, searcher):
    """Judge 2: ``sampling``'s move; when it vetoed ``strategy``'s (most won samples prove it
    lost), its replacement and the next moves in strategy's order (``width`` in all, the
    vetoed move left out) are judged by rollouts, the replacement ``margin`` percent ahead."""
    sampler = memory[0]
    state, book, lines, hidden, sample = sampler
    move, spent = NP.sampling_choice(view, cfg, rng, visited, nvisited, buffers, sampler,
                                     searcher)
    moves, keys, scratch = buffers
    n = NP.candidates(view, cfg, visited, nvisited, moves)
    if move < 0 or n <= 2:
        return move, spent
    NP.strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch)
    order = np.argsort(keys[:n], kind="mergesort")
    first = moves[order[0]]
    if keys[order[0]] >= NP.NEVER:
        return move, spent
    if first == move:
        # Judge 3: strategy's move kept, but proven lost in some won sample: contested, so it
        # and the next moves in strategy's order are judged by rollouts, it ``margin`` ahead.
        contested = 0
        for k in range(state[NP.SS_COUNT]):
            contested += book[k, NP.STATUS] == NP.WON and book[k, NP.PENDING] == NP.LOST
        if cfg[NP.JUDGE] < 3 or contested == 0:
            return move, spent
        m = min(n, max(cfg[NP.WIDTH], 1))
        cand = np.empty(m, dtype=np.int64)
        for j in range(m):
            cand[j] = moves[order[j]]
        best, more = _rollout_among(view, cfg, visited, nvisited, cand, m, True, memory,
                                    searcher)
        if best != 0:
            book[:, NP.PENDING] = NP.STALE
        return cand[best], spent + more
    m = min(n - 1, max(cfg[NP.WIDTH], 1))
    cand = np.empty(m, dtype=np.int64)
    cand[0] = move
    j = 1
    for i in order:
        if j < m and moves[i] != first and moves[i] != move:
            cand[j] = moves[i]
            j += 1
    best, more = _rollout_among(view, cfg, visited, nvisited, cand, j, True, memory, searcher)
    if best != 0:
        book[:, NP.PENDING] = NP.STALE  # the won samples are searched again after it
    return cand[best], spent + more


@jit
def _score_one(view, cfg, budget, memory, searcher, k, c):
    """Search won sample k after candidate c (unless its line starts with it).  Returns the
    nodes spent."""
    sampler, trial, trial_length, trial_lines, chosen, _ = memory
    state, book, lines, hidden, sample = sampler
    move = chosen[c]
    if NP.next_move(lines, book, k) == move:
        trial[k, c] = NP.WON
        return 0
    NP.fill_sample(view, hidden[k], sample)
    cards, length, down, found, misc, deal = sample
    R.apply_move(cards, length, down, found, misc, deal, move)
    outcome, nodes, n = NP.solve_sample(sample, cfg, budget, state, searcher)
    trial[k, c] = outcome
    trial_length[k, c] = n
    trial_lines[k, c, :n] = searcher[2].line[:n] & NP.MOVE_BITS
    return nodes


@jit
def _value(trial, k, c, unknown):
    """Half-wins of sample k after candidate c: won 2, failed (unknown) ``unknown``, lost 0."""
    t = trial[k, c]
    return 2 if t == NP.WON else (unknown if t == NP.FAILED else 0)


@jit
def _candidates(view, moves, keys, n, strategy, memory):
    """Fill ``chosen`` with the candidates (strategy's choice, then the won lines' first moves,
    one per resulting view, in strategy's order); returns how many."""
    sampler, trial, trial_length, trial_lines, chosen, _ = memory
    state, book, lines, hidden, sample = sampler
    pick = np.zeros(n, dtype=np.bool_)
    if strategy >= 0:
        pick[strategy] = True
    for k in range(state[NP.SS_COUNT]):
        if book[k, NP.STATUS] == NP.WON:
            move = NP.next_move(lines, book, k)
            for i in range(n):
                if moves[i] == move:
                    pick[i] = True
    seen = np.zeros(MAX_CHOICES, dtype=np.uint64)
    count = 0
    for i in np.argsort(keys[:n], kind="mergesort"):
        if not pick[i] or count == MAX_CHOICES:
            continue
        token = NP.apply(view, moves[i])
        key = NP.view_key(view)
        NP.undo(view, moves[i], token)
        fresh = True
        for j in range(count):
            fresh &= seen[j] != key
        if fresh:
            seen[count] = key
            chosen[count] = moves[i]
            count += 1
    return count


@jit
def _score(trial, c, won_rows, nwon, unknown):
    """Half-wins of candidate c over the won samples (every one scored)."""
    score = 0
    for j in range(nwon):
        score += _value(trial, won_rows[j], c, unknown)
    return score


@jit
def _hindsight_move(view, cfg, visited, nvisited, buffers, memory, searcher):
    """Steps 2-6 of the module's docstring: (move or -1 if no sample is won, nodes spent)."""
    moves, keys, scratch = buffers
    sampler, trial, trial_length, trial_lines, chosen, _ = memory
    state, book, lines, hidden, sample = sampler
    n = NP.candidates(view, cfg, visited, nvisited, moves)
    budget = cfg[NP.BUDGET] * (1 if state[NP.SS_COUNT] > 1 else cfg[NP.SAMPLES]) \
        * state[NP.SS_SCALE]
    spent = 0
    won_rows = np.empty(state[NP.SS_COUNT], dtype=np.int64)
    nwon = 0
    for k in range(state[NP.SS_COUNT]):
        if book[k, NP.STATUS] == NP.STALE:
            spent += NP._search_sample(view, cfg, budget, sampler, searcher, k, -1, 0,
                                       NP.STATUS, NP.LENGTH)
            book[k, NP.POSITION] = 0
        if book[k, NP.STATUS] == NP.WON:
            won_rows[nwon] = k
            nwon += 1
    trial[:, :] = UNSCORED
    chosen[:] = -1
    if nwon == 0:
        return -1, spent
    NP.strategy_keys(view, cfg, visited, nvisited, moves, n, keys, scratch)
    first = np.argmin(keys[:n])
    count = _candidates(view, moves, keys, n, first if keys[first] < NP.NEVER else -1, memory)
    if count <= 1:
        # One candidate; or none: strategy would stop and every won line goes back to a
        # position seen since the last progress.
        return chosen[0], spent
    # Score candidate by candidate; one is dropped (score -1) as soon as it cannot beat the
    # best so far, which it could then only tie, and ties go to the earlier candidate.
    # Strategy's move, when it is a candidate (the first), starts ``margin`` percent of the won
    # samples ahead (in half-wins).
    unknown = cfg[NP.UNKNOWN]
    bonus = 0
    if chosen[0] == moves[first] and keys[first] < NP.NEVER:
        bonus = cfg[NP.MARGIN] * 2 * nwon // 100
    scores = np.full(count, -1, dtype=np.int64)
    top = -1
    for c in range(count):
        score = 2 * nwon + (bonus if c == 0 else 0)
        for j in range(nwon):
            k = won_rows[j]
            spent += _score_one(view, cfg, budget, memory, searcher, k, c)
            score -= 2 - _value(trial, k, c, unknown)
            if score <= top:
                break
        if score > top:
            scores[c] = score
            top = score
    best = np.argmax(scores)
    second = -1
    for c in range(count):
        if c != best:
            second = max(second, scores[c])
    if cfg[NP.ESCALATE] > 1 and second >= 0 and top - second <= 2:
        # A close call: the failed searches of the leading candidates once more, deeper.
        for c in range(count):
            if scores[c] < second:
                continue
            for j in range(nwon):
                k = won_rows[j]
                if trial[k, c] == NP.FAILED:
                    spent += _score_one(view, cfg, budget * cfg[NP.ESCALATE], memory,
                                        searcher, k, c)
            scores[c] = _score(trial, c, won_rows, nwon, unknown) + (bonus if c == 0 else 0)
        best = np.argmax(scores)
    return chosen[best], spent


@jit
def hindsight_choice(view, cfg, rng, visited, nvisited, buffers, memory, searcher):
    """Returns (move or -1, nodes searched)."""
    if cfg[NP.JUDGE] >= 2:
        return _veto_then_rollouts(view, cfg, rng, visited, nvisited, buffers, memory, searcher)
    moves = buffers[0]
    sampler = memory[0]
    state, book, lines, hidden, sample = sampler
    n = NP.candidates(view, cfg, visited, nvisited, moves)
    memory[4][:] = -1
    if n <= 1:
        return (moves[0] if n == 1 else -1), 0
    safe = NP.safe_foundation(view, moves, n)
    if safe >= 0:
        return moves[safe], 0
    if state[NP.SS_DRAW]:
        NP._draw(view, cfg, rng, state, book, hidden)
    if cfg[NP.JUDGE] == 1:
        return _rollout_move(view, cfg, visited, nvisited, buffers, memory, searcher)
    move, spent = _hindsight_move(view, cfg, visited, nvisited, buffers, memory, searcher)
    if move >= 0:
        return move, spent
    move = NP.strategy_choice(view, cfg, visited, nvisited, buffers)
    if move < 0 and state[NP.SS_SCALE] == 1:
        # Rather than stop: the same samples once more, with a larger budget.
        state[NP.SS_SCALE] = NP.LAST_TRY
        for k in range(state[NP.SS_COUNT]):
            book[k, NP.STATUS] = NP.STALE
        move, more = _hindsight_move(view, cfg, visited, nvisited, buffers, memory, searcher)
        spent += more
    return move, spent


@jit
def hindsight_after(move, shown, memory, judge):
    """After a move: new samples once a card was shown; else each won sample keeps the rest of
    its line, or what was found after the move, or is searched again (step 6)."""
    sampler, trial, trial_length, trial_lines, chosen, _ = memory
    state, book, lines, hidden, sample = sampler
    if judge >= 2:
        NP.sampling_after(move, shown, sampler)
        return
    if shown:
        state[NP.SS_DRAW] = 1
        return
    c = -1
    for j in range(MAX_CHOICES):
        if chosen[j] == move:
            c = j
    for k in range(state[NP.SS_COUNT]):
        if book[k, NP.STATUS] != NP.WON:
            continue
        if NP.next_move(lines, book, k) == move:
            book[k, NP.POSITION] += 1
        elif c >= 0 and trial[k, c] == NP.WON:
            book[k, NP.LENGTH] = trial_length[k, c]
            lines[0, k, :trial_length[k, c]] = trial_lines[k, c, :trial_length[k, c]]
            book[k, NP.POSITION] = 0
        elif c >= 0 and trial[k, c] != UNSCORED:
            book[k, NP.STATUS] = trial[k, c]
        else:
            book[k, NP.STATUS] = NP.STALE
