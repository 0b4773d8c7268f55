"""The critical-path tests' own speed (issue 56): h^3 and h^2 on the start positions of deals,
CPU time after compilation, and a digest of their verdicts.

    python experiments/chinese_critical_speed.py --first 1 --n 60 [--easy]

To set two versions side by side, run it with each version's package first on the path, e.g. a
worktree of the old commit:

    git worktree add ../old 66ee6c5
    PYTHONPATH=../old python experiments/chinese_critical_speed.py --n 60
    python experiments/chinese_critical_speed.py --n 60

Each prints the seconds of h^3 and of h^2 summed over the deals, how many each proves lost, and a
digest of the verdicts deal by deal (equal digests: the same verdict on every deal).  h^3 runs
on a strict deal's start once a deal in the thoughtful driver; h^2 at the nodes of the searches
(the deal's start is where its model is largest).
"""

import argparse
import hashlib
import time

from winnable.games import get_game
from winnable.solvers.chinese import critical as C
from winnable.solvers.chinese import position as P


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--easy", action="store_true")
    args = parser.parse_args()
    game = get_game("chinese")
    variant = {"easy": "1"} if args.easy else None
    buffers = None
    spent3 = spent2 = 0.0
    verdicts = []
    for timed, seed in [(False, args.first)] + [(True, s) for s in range(args.first,
                                                                        args.first + args.n)]:
        pos = P.new_position(game.deal(seed, variant))
        model = C.build(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal,
                        args.easy)
        buffers = C.triples_for(model, buffers)
        start = time.process_time()
        lost3 = C.dead3(model, buffers, pos.cards, pos.length, pos.down, pos.found, pos.misc)
        middle = time.process_time()
        lost2 = C.dead(model, pos.cards, pos.length, pos.down, pos.found, pos.misc)
        end = time.process_time()
        if timed:  # the first call compiles or loads the kernels
            spent3 += middle - start
            spent2 += end - middle
            verdicts.append((seed, bool(lost3), bool(lost2)))
    digest = hashlib.sha1(repr(verdicts).encode()).hexdigest()[:12]
    rules = "easy" if args.easy else "strict"
    print(f"{rules} deals {args.first}-{args.first + args.n - 1}: h^3 {spent3:.3f} s "
          f"({sum(v[1] for v in verdicts)} lost), h^2 {1e3 * spent2:.1f} ms "
          f"({sum(v[2] for v in verdicts)} lost); verdicts digest {digest}")


if __name__ == "__main__":
    main()
