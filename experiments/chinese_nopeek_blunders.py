"""Chinese Solitaire, issue 39: where does the no-peek `sampling` player lose the deals that
the thoughtful solver wins?

For each deal of the range that `sampling` loses, the positions along its game are solved
with every card known (the thoughtful solver, from the position: ``Thoughtful.solve(deal,
start)``); the *blunder* is the move after the last position proven won (found by bisection:
a position after a lost one is lost, so once the real position stops being won it stays so,
budget failures aside). Each blunder is printed with what the player knew at that moment
(cards still unseen, the stock dealt or not), the kind of move it was in the strategy's terms
(turn-up, even foundation, plan, dig, space, stock, uneven foundation, or none), and how many
of the legal moves there keep the real position won: a blunder with many winning
alternatives is a choice the samples could inform, one with a single winning move among many
is close to a coin toss for any player who cannot see.

Run: ``python experiments/chinese_nopeek_blunders.py --first 1 --n 300 [--easy]``.
A summary by kind and by stage follows the rows.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from winnable.games import get_game  # noqa: E402
from winnable.rules import chinese as R  # noqa: E402
from winnable.shuffle import play_stream  # noqa: E402
from winnable.solvers.chinese import nopeek as NP  # noqa: E402
from winnable.solvers.chinese import thoughtful as T  # noqa: E402
from winnable.solvers.table import LOSS, WIN  # noqa: E402

KINDS = {0: "none", NP.TURN_UP: "turn-up", NP.EVEN: "even", NP.PLAN: "plan", NP.DIG: "dig",
         NP.SPACE: "space", NP.STOCK: "stock", NP.UNEVEN: "uneven"}


def state_after(deal, line):
    cards, length, down, found, misc = R.new_state(deal)
    for move in line:
        R.apply_move(cards, length, down, found, misc, deal, int(move))
    return cards, length, down, found, misc


def outcome_after(solver, deal, line):
    return int(solver.solve(deal, state_after(deal, line))[0])


def strategy_kind(deal, line, easy, move):
    """The strategy's kind of ``move`` after ``line`` (its key's leading digit)."""
    cards, length, down, found, misc = state_after(deal, line)
    view = NP.new_view(deal)
    NP.observe(cards, length, down, found, misc, view)
    cfg = np.zeros(6, dtype=np.int64)
    cfg[NP.EASY] = easy
    cfg[NP.LOOKAHEAD] = NP.DEFAULT_LOOKAHEAD
    moves = np.empty(NP.MAX_MOVES, dtype=np.int64)
    n = NP.legal(view, cfg, moves)
    keys = np.empty(NP.MAX_MOVES, dtype=np.int64)
    scratch = np.empty(NP.MAX_MOVES, dtype=np.int64)
    visited = np.zeros(1, dtype=np.uint64)  # the plan may revisit: a diagnostic, not the game
    NP.strategy_keys(view, cfg, visited, 0, moves, n, keys, scratch)
    for i in range(n):
        if moves[i] == move:
            key = keys[i]
            return 0 if key >= NP.NEVER else int(key // 10**9), moves[:n].copy()
    return 0, moves[:n].copy()


def sample_verdicts(deal, line, move, samples, budgets, seed):
    """What samples of the unseen cards say at the blunder: for each budget, how many of
    ``samples`` arrangements consistent with the view are won from the position, and how many
    of those won are proven lost after ``move``."""
    cards, length, down, found, misc = state_after(deal, line)
    view = NP.new_view(deal)
    NP.observe(cards, length, down, found, misc, view)
    unseen = np.empty(R.N_CARDS, dtype=np.int64)
    count = NP.unseen_cards(view, unseen)
    rng = np.random.default_rng(seed)
    arrangements = [rng.permutation(unseen[:count]) for _ in range(samples)]
    out = []
    for budget, solver in budgets:
        won = lost_after = 0
        for hidden in arrangements:
            sample = NP.new_sampler(1, deal)[4]
            NP.fill_sample(view, hidden, sample)
            s_cards, s_length, s_down, s_found, s_misc, s_deal = sample
            start = (s_cards.copy(), s_length.copy(), s_down.copy(), s_found.copy(),
                     s_misc.copy())
            if int(solver.solve(s_deal.astype(np.int8), start)[0]) != WIN:
                continue
            won += 1
            R.apply_move(*start, s_deal, move)
            lost_after += int(solver.solve(s_deal.astype(np.int8), start)[0]) == LOSS
        out.append((budget, won, lost_after))
    return out


def unseen_after(deal, line):
    cards, length, down, found, misc = state_after(deal, line)
    hidden = int(down.sum()) + (3 if misc[R.STOCK_DEALT] == 0 else 0)
    return hidden, bool(misc[R.STOCK_DEALT])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--easy", action="store_true")
    ap.add_argument("--budget", type=int, default=T.DEFAULT_BUDGET,
                    help="thoughtful budget for each position")
    ap.add_argument("--samples", type=int, default=0,
                    help="at each blunder, solve this many samples of the unseen cards at "
                    "budgets 2,000 and 100,000 (0: none)")
    args = ap.parse_args()
    game = get_game("chinese")
    rules = game.rules({"easy": 1} if args.easy else None)
    player = NP.Player(rules, "sampling", game.solvers["sampling"].defaults)
    solver = T.Thoughtful(args.easy, False, T.Settings(budget=args.budget))
    sample_solvers = [(b, T.Thoughtful(args.easy, False, T.Settings(budget=b)))
                      for b in (2000, 100_000)]
    rows = []
    said = collections.Counter()
    started = time.process_time()
    losses = won_deals = 0
    for seed in range(args.first, args.first + args.n):
        deal = game.deal(seed, rules)
        won, score, _, line = player.play(deal, play_stream(np.uint64(game.salt), deal))
        if won:
            continue
        losses += 1
        if outcome_after(solver, deal, line[:0]) != WIN:
            continue
        won_deals += 1
        low, high = 0, len(line)  # position `low` is won; `high` is not (the game's end)
        while high - low > 1:
            mid = (low + high) // 2
            if outcome_after(solver, deal, line[:mid]) == WIN:
                low = mid
            else:
                high = mid
        move = int(line[low])
        kind, legal = strategy_kind(deal, line[:low], args.easy, move)
        winning = sum(outcome_after(solver, deal, np.append(line[:low], m)) == WIN
                      for m in legal)
        after = outcome_after(solver, deal, line[:low + 1])
        unseen, dealt = unseen_after(deal, line[:low])
        rows.append((seed, low, len(line), R.format_move(move), KINDS.get(kind, str(kind)),
                     unseen, dealt, len(legal), winning, "lost" if after == LOSS else "unknown"))
        print(f"deal {seed}: move {low + 1} of {len(line)} {R.format_move(move)} ({rows[-1][4]}),"
              f" {unseen} unseen, stock {'dealt' if dealt else 'not dealt'}, {winning} of "
              f"{len(legal)} legal moves keep it won; after it: {rows[-1][9]}", flush=True)
        if args.samples:
            verdicts = sample_verdicts(deal, line[:low], move, args.samples, sample_solvers,
                                       seed)
            print("    samples won / of them lost after the move: " + ", ".join(
                f"budget {b:,}: {w}/{lost}" for b, w, lost in verdicts), flush=True)
            for b, w, lost in verdicts:
                said[(b, "no sample won" if w == 0 else
                      "most won samples prove it lost" if 2 * lost > w else
                      "some prove it lost" if lost else "none proves it lost")] += 1
    print(f"\n{args.n} deals from {args.first} ({'easy' if args.easy else 'strict'}): sampling "
          f"lost {losses}, {won_deals} of them won by thoughtful; {time.process_time() - started:.0f}"
          " s CPU")
    by_kind = collections.Counter(r[4] for r in rows)
    print("blunders by kind:", dict(by_kind.most_common()))
    stage = collections.Counter(("stock dealt" if r[6] else "stock not dealt",
                                 "unseen>=10" if r[5] >= 10 else "unseen<10") for r in rows)
    print("by stage:", dict(stage))
    print("winning alternatives (1 / 2-3 / 4+):",
          sum(r[8] == 1 for r in rows), sum(2 <= r[8] <= 3 for r in rows),
          sum(r[8] >= 4 for r in rows))
    for key in sorted(said):
        print(f"samples at budget {key[0]:,}: {key[1]}: {said[key]}")


if __name__ == "__main__":
    main()
