"""Chinese Solitaire: the thoughtful solver's driver (every card known).

One deal is decided by, in turn (each step only while the deal is still undecided):

1. **Searches** (``chinese_search.search``) within a node budget: searches of ``restart`` times
   the Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, ...) nodes, each in another move order, until the
   budget is spent.  Wins hide in a heavy tail of bad move orders, which restarts escape, and
   Luby's sequence is within a logarithmic factor of the best restart schedule for any
   distribution of search lengths.  The transposition table keeps what a search proved lost for
   the next ones (see ``winnable.solvers.table``), so a restart never searches a proven-lost
   subtree again: a loss costs about one complete search, however it is cut into restarts.  In
   easy mode a strict win is looked for first with half the budget
   (``chinese_search.strict_first_pass``).
2. **The occupation test** (``chinese_losses.occupation_dead_end``), a stronger and costlier
   loss proof than the one the search uses at every node.
3. **The strategy player** (``chinese_nopeek``, the player who sees only face-up cards): a
   game it wins is a legal winning line.
4. **Random playouts** (``random_walks``): ``walks`` playouts at the default budget, in
   proportion to the budget otherwise, so the budget bounds all the work.

A deal is ``win`` when a winning line is found (returned, and replayed by the tests), ``loss``
when a search covered the whole reachable space or a loss test fired, and ``unknown`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..jit import kernel
from ..rules import chinese as R
from ..shuffle import GOLDEN, MIX1, game_salt, play_stream
from . import chinese_position as P
from . import chinese_search as CS
from .chinese_losses import occupation_dead_end
from .table import LOSS, UNKNOWN, WIN, TranspositionTable, mix64

DEFAULT_BUDGET = 200_000
DEFAULT_RESTART = 2_000  # nodes per search before restarting in another move order
DEFAULT_MEMORY_MB = 64
DEFAULT_WALKS = 300  # random playouts tried on a deal the searches leave unknown
WALK_STEPS = 250  # moves per playout at most (won lines are about 130-160 moves)
WALK_GREEDY = 128  # out of 256: how often a playout takes the best-looking move


@dataclass(frozen=True)
class Settings:
    budget: int = DEFAULT_BUDGET
    restart: int = DEFAULT_RESTART
    memory_mb: float = DEFAULT_MEMORY_MB
    prune: bool = True
    strategy: bool = True
    walks: int = DEFAULT_WALKS
    occupation: bool = True
    classes: bool = True


class Thoughtful:
    """The thoughtful solver with its buffers, for one rule set (reused for many deals)."""

    def __init__(self, easy: bool, sequence_blocks: bool, settings: Settings = Settings()):
        self.easy = easy
        self.sequence = sequence_blocks
        self.settings = settings
        self.table = TranspositionTable(settings.memory_mb)
        self.workspace = CS.new_workspace()
        self.rules = CS.ALL if settings.prune else 0
        if not settings.classes:
            self.rules &= ~(CS.CLASSES | CS.MERGE)
        self.status = np.zeros(R.N_CARDS, dtype=np.int64)
        self.occupant = np.zeros(2 * R.N_CARDS, dtype=np.int64)
        self._strategy = None

    # --- the steps -------------------------------------------------------------------------

    def searches(self, deal: np.ndarray, easy: bool, budget: int, start=None):
        """Step 1 for one rule set, from the deal or from ``start`` (the rules' state arrays
        of a position of it).  Returns (outcome, best score, nodes, line)."""
        s = self.settings
        self.table.begin_deal()
        pos = P.new_position(deal) if start is None else P.from_state(*start, deal)
        rules = self.rules
        spent = best = 0
        jitter = 0
        while spent < budget:
            size = budget - spent
            if s.restart > 0:
                size = min(size, s.restart * luby(jitter + 1))
            stamp = self.table.begin_search()
            outcome, score, nodes, length = CS.search(
                pos, easy, self.sequence, rules, size, self.table.keys, self.table.stamps,
                self.table.deal_first, stamp, self.workspace, jitter)
            spent += nodes
            best = max(best, score)
            if outcome != UNKNOWN or nodes == 0:
                return outcome, best, spent, self.workspace.line[:length].copy()
            jitter += 1
        return UNKNOWN, best, spent, self.workspace.line[:0].copy()

    def strategy_win(self, deal: np.ndarray):
        """The no-peek strategy player's game: its moves if it wins, else None.  It finds some
        wins that the searches' move orders miss within the budget."""
        from . import chinese_nopeek as NP  # the player uses this solver: imported when needed
        if self._strategy is None:
            rules = {"easy": self.easy, "blocks": "sequence" if self.sequence else "any"}
            self._strategy = NP.Player(rules, "strategy", {"patience": NP.DEFAULT_PATIENCE})
        # The strategy player draws nothing from its random stream and never searches.
        won, _, _, moves = self._strategy.play(deal, np.zeros(1, dtype=np.uint64))
        return moves if won else None

    def solve(self, deal: np.ndarray, start=None):
        """Decide one deal, or the position ``start`` of it (the rules' state arrays: cards,
        length, down, found, misc), where steps 3 and 4 (which play from the deal) are left
        out.  Returns (outcome code, best score, nodes, line of moves)."""
        s = self.settings
        deal = np.asarray(deal, dtype=np.int8)
        budget = s.budget
        spent = 0
        for i in range(2):
            easy, size = CS.strict_first_pass(self.easy, i, budget, spent)
            if size < 0:
                continue
            outcome, score, nodes, line = self.searches(deal, easy, size, start)
            spent += nodes
            if outcome == WIN:
                return WIN, score, spent, line
        if outcome != UNKNOWN:
            return outcome, score, spent, line
        pos = P.new_position(deal) if start is None else P.from_state(*start, deal)
        if s.prune and s.occupation and occupation_dead_end(
                pos.cards, pos.length, pos.down, pos.found, pos.misc, deal,
                pos.where, self.easy, self.status, self.occupant):
            return LOSS, score, spent, line[:0]
        if s.strategy and start is None:
            won = self.strategy_win(deal)
            if won is not None:
                return WIN, R.N_CARDS, spent, won
            walks = s.walks * budget // DEFAULT_BUDGET
            if walks > 0:
                ws = self.workspace
                won, length, _ = random_walks(P.new_position(deal), self.easy, self.sequence,
                                              walks, WALK_STEPS, walk_seed(deal), WALK_GREEDY,
                                              ws.moves, ws.worth, ws.status, ws.line)
                if won:
                    return WIN, R.N_CARDS, spent, ws.line[:length].copy()
        return UNKNOWN, score, spent, line[:0]


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby's restart sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


WALK_SALT = game_salt("chinese")


def walk_seed(deal: np.ndarray) -> np.uint64:
    """The random playouts' seed: the deal's play stream (``winnable.shuffle.play_stream``), a
    function of the deal alone, so results repeat."""
    return play_stream(np.uint64(WALK_SALT), np.asarray(deal, dtype=np.int64))[0]


@kernel
def random_walks(pos, easy, sequence_blocks, walks, steps, seed, greedy, moves, worth, status,
                 line):
    """Random playouts, a way to find wins the depth-first search misses (its move orders
    share one heuristic; wins of some deals lie where none of them look).  ``walks`` times,
    from the deal of ``pos``, play up to ``steps`` moves, each drawn among the legal moves (a
    safe move to foundation alone when there is one, empty piles as the search's reduction 2
    allows) whose position ``dead_end`` does not call lost: with probability ``greedy``/256 the
    one of best worth (ties and near ties broken at random), else uniformly.  A won playout is
    a legal winning line.  Returns (won, line length, moves played); a won line is written to
    ``line``."""
    rng = mix64(np.uint64(seed) * GOLDEN + MIX1)
    nodes = 0
    for walk in range(walks):
        P.redeal(pos)
        for step in range(steps):
            k = CS.all_moves(pos, easy, sequence_blocks, CS.ALL, moves)
            for i in range(k):
                if CS.safe_up(pos, moves[i]):
                    moves[0] = moves[i]
                    k = 1
                    break
            rng = mix64(rng + GOLDEN)
            best_first = np.int64(rng % np.uint64(256)) < greedy
            if best_first:
                for i in range(k):
                    rng = mix64(rng + GOLDEN)
                    worth[i] = CS.worth(pos, moves[i]) * CS.JITTER_SCALE + np.int64(
                        rng % np.uint64(CS.JITTER_RANGE))
            played = False
            while k > 0:
                # Draw a candidate; a move into a dead end is dropped and another drawn.
                j = 0
                if best_first:
                    for i in range(1, k):
                        if worth[i] > worth[j]:
                            j = i
                else:
                    rng = mix64(rng + GOLDEN)
                    j = np.int64(rng % np.uint64(k))
                move = moves[j]
                token = P.play(pos, move)
                nodes += 1
                line[step] = move
                if pos.misc[R.SCORE] == R.N_CARDS:
                    return True, step + 1, nodes
                if not CS.lost_at_sight(pos, easy, status):
                    played = True
                    break
                P.unplay(pos, move, token)
                k -= 1
                moves[j] = moves[k]
                worth[j] = worth[k]
            if not played:
                break
    return False, 0, nodes
