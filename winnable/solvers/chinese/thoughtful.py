"""Chinese Solitaire: the thoughtful solver's driver (every card known).

One deal is decided by these steps, each only while the deal is still undecided:

1. **Searches** (``search.search``) within a node budget: searches of ``restart`` times
   the Luby sequence (1, 1, 2, 1, 1, 2, 4, 1, ...) nodes, each in another move order, until the
   budget is spent.  Wins hide in a heavy tail of bad move orders, which restarts escape, and
   Luby's sequence is within a logarithmic factor of the best restart schedule for any
   distribution of search lengths.  The transposition table keeps what a search proved lost for
   the next ones (see ``winnable.solvers.table``), so a restart never searches a proven-lost
   subtree again: a loss costs about one complete search, however it is cut into restarts.  In
   easy mode a strict win is looked for first with half the budget
   (``search.strict_first_pass``).
2. **The occupation test** (``losses.occupation_dead_end``), a stronger and costlier
   loss proof than the one the search uses at every node, then (strict rules) **the triples
   test** h^3 (``critical.dead3``, options ``learn`` and ``triples``): the critical-path test
   over conjunctions of three facts, which sees conflicts of three things (two cards wanting
   one place while a third waits under one of them) that h^2 in the searches cannot.  It costs
   0.05-0.2 s on a strict deal, so it runs here, once a deal, and not in the searches.  In easy
   mode its model is larger (any card may go to a space) and it costs about a second, more than
   the rest of the budget of most easy deals that reach this step, which are won later: there
   it runs only on a deal still undecided when the whole budget is spent.
3. **A beam search** (``beam``, only with the option ``beam`` > 0, the beam's width:
   off by default): breadth first, the ``beam`` best positions of each layer.  It finds wins
   that need an unusual opening, which the searches' move orders put off (deal 16, strict: won
   with ``beam=100`` in about 0.2 s, unknown to the searches at 1,000,000 nodes).
4. **The strategy player** (``nopeek``, the player who sees only face-up cards): a
   game it wins is a legal winning line.
5. **Random playouts** (``random_walks``): ``walks`` playouts at the default budget, in
   proportion to the budget otherwise, so the budget bounds all the work.

Steps 2-5 do not wait for the whole budget: they run once the searches have spent a quarter of
it (``FALLBACK_SHARE``), between two restarts, and the searches then go on with the rest.  A
deal still undecided at the end gets nothing more.  The order changes no verdict: the searches
are the same restarts of the same sizes in the same order with the same table (steps 2-5 read
none of them and write nothing they read), each step's verdict is sound on its own, and a deal
is decided exactly when one of the steps decides it.  It only saves time: a deal that steps 3-5
win (at the defaults steps 4-5: about one deal in a hundred, strict) no longer waits for the whole budget first, which was
a fifth of all the time of a strict run.  (Runs of version 5 made with the old order have the
same verdicts; their ``nodes`` and ``moves`` differ where a step 4-5 win came first.)

A deal is ``win`` when a winning line is found (returned, and replayed by the tests), ``loss``
when a search covered the whole reachable space or a loss test fired, and ``unknown`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...jit import kernel
from ...rules import chinese as R
from ...shuffle import GOLDEN, MIX1, game_salt, play_stream
from . import beam as B
from . import critical as C
from . import position as P
from . import search as CS
from .losses import occupation_dead_end
from ..table import LOSS, UNKNOWN, WIN, TranspositionTable, mix64

DEFAULT_BUDGET = 200_000
DEFAULT_RESTART = 2_000  # nodes per search before restarting in another move order
DEFAULT_MEMORY_MB = 64
DEFAULT_LEARN_AFTER = 1024
DEFAULT_WALKS = 300  # random playouts tried on a deal the searches leave unknown
BEAM_MEMORY_MB = 16  # the beam's own table of positions met (about 800,000 entries)
WALK_STEPS = 250  # moves per playout at most (won lines are about 130-160 moves)
WALK_GREEDY = 128  # out of 256: how often a playout takes the best-looking move
FALLBACK_SHARE = 4  # steps 2-5 run once the searches have spent budget / FALLBACK_SHARE
LEARN_FROM = DEFAULT_RESTART  # nodes spent on a deal before the critical-path test is used


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
    members: bool = True  # reduction 8 (``search.MEMBERS``): a searched class's members in the table
    beam: int = 0  # the beam search's width; 0: no beam search
    learn: bool = True  # the critical-path tests (``critical``): h^2 in the searches, h^3
    triples: bool = True  # h^3 (``critical.dead3``) in step 2; only with ``learn``
    learn_after: int = DEFAULT_LEARN_AFTER  # nodes below a node before the test runs on it


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
            self.rules &= ~(CS.CLASSES | CS.MERGE | CS.MEMBERS)
        if not settings.members:
            self.rules &= ~CS.MEMBERS
        if not settings.learn:
            self.rules &= ~CS.CRITICAL
        self.status = np.zeros(R.N_CARDS, dtype=np.int64)
        self.occupant = np.zeros(2 * R.N_CARDS, dtype=np.int64)
        self._strategy = None
        self._triples = None  # h^3's buffers, made when first needed
        self.probe = None  # a ``search.Probe`` the searches count into (measurement only)
        if settings.beam > 0:
            self.beam = B.new_beam(settings.beam)
            self.beam_table = TranspositionTable(BEAM_MEMORY_MB)

    # --- the steps -------------------------------------------------------------------------

    def strategy_win(self, deal: np.ndarray):
        """The no-peek strategy player's game: its moves if it wins, else None.  It finds some
        wins that the searches' move orders miss within the budget."""
        from . import nopeek as NP  # the player uses this solver: imported when needed
        if self._strategy is None:
            rules = {"easy": self.easy, "blocks": "sequence" if self.sequence else "any"}
            self._strategy = NP.Player(rules, "strategy", {"patience": NP.DEFAULT_PATIENCE})
        # The strategy player draws nothing from its random stream and never searches.
        won, _, _, moves = self._strategy.play(deal, np.zeros(1, dtype=np.uint64))
        return moves if won else None

    def triples_on(self) -> bool:
        s = self.settings
        return s.prune and s.learn and s.triples

    def triples_dead(self, pos, easy=None) -> bool:
        """Step 2's second test: h^3 over the critical-path model of ``pos`` (for the solver's
        rules, or ``easy``'s)."""
        model = C.build(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal,
                        self.easy if easy is None else easy)
        self._triples = C.triples_for(model, self._triples)
        return C.dead3(model, self._triples, pos.cards, pos.length, pos.down, pos.found,
                       pos.misc)

    def beam_win(self, pos):
        """Step 3 from ``pos`` (left as it was; the beam keeps its own table): its winning
        line, or None."""
        table = self.beam_table
        table.begin_deal()
        outcome, _, _, length = B.beam_search(pos, self.easy, self.sequence, self.settings.beam,
                                              self.beam, table.keys, table.stamps,
                                              table.deal_first, table.begin_search())
        return self.beam.line[:length].copy() if outcome == WIN else None

    def fallback(self, deal: np.ndarray, budget: int, start=None):
        """Steps 2-5, from the deal or (steps 2 and 3 alone: the others play from the deal)
        from the position ``start``.  Returns (outcome, line): ``LOSS`` with no line, ``WIN``
        with its line, or ``UNKNOWN``."""
        s = self.settings
        none = np.zeros(0, dtype=np.int64)
        pos = _position(deal, start)
        if s.prune and s.occupation and occupation_dead_end(
                pos.cards, pos.length, pos.down, pos.found, pos.misc, deal, pos.where,
                self.easy, self.status, self.occupant):
            return LOSS, none
        if not self.easy and self.triples_on() and self.triples_dead(pos):
            return LOSS, none
        if s.beam > 0:
            won = self.beam_win(pos)
            if won is not None:
                return WIN, won
        if not s.strategy or start is not None:
            return UNKNOWN, none
        won = self.strategy_win(deal)
        if won is not None:
            return WIN, won
        walks = s.walks * budget // DEFAULT_BUDGET
        if walks > 0:
            ws = self.workspace
            won, length, _ = random_walks(pos, self.easy, self.sequence, walks, WALK_STEPS,
                                          walk_seed(deal), WALK_GREEDY, ws.moves, ws.worth,
                                          ws.line)
            if won:
                return WIN, ws.line[:length].copy()
        return UNKNOWN, none

    def warm_up(self, deal: np.ndarray) -> None:
        """Compile (or load from Numba's cache) the steps after the searches, which few deals
        reach, by running each once on ``deal`` (the beam search only when it is on)."""
        deal = np.asarray(deal, dtype=np.int8)
        pos = _position(deal)
        occupation_dead_end(pos.cards, pos.length, pos.down, pos.found, pos.misc, deal,
                            pos.where, self.easy, self.status, self.occupant)
        if self.settings.strategy:
            self.strategy_win(deal)
        if self.triples_on():
            # The same kernels on strict's model (smaller than easy's) of a late position: h^3
            # at a deal's start costs about 0.1 s, which every worker of every batch would pay.
            self.triples_dead(_late_position(deal), easy=False)
        if self.settings.beam > 0:
            self.beam_win(pos)
        ws = self.workspace
        random_walks(pos, self.easy, self.sequence, 1, WALK_STEPS, walk_seed(deal), WALK_GREEDY,
                     ws.moves, ws.worth, ws.line)

    def solve(self, deal: np.ndarray, start=None):
        """Decide one deal, or the position ``start`` of it (the rules' state arrays: cards,
        length, down, found, misc), where steps 3 and 4 (which play from the deal) are left
        out.  Returns (outcome code, score, nodes, line of moves): a win's line, or for a deal
        not won the line to the most cards up that the searches met, and the score that line
        reaches (every score comes with its line)."""
        deal = np.asarray(deal, dtype=np.int8)
        budget = self.settings.budget
        fallback_at = budget // FALLBACK_SHARE
        fell_back = False
        spent = 0
        score, best = _start_score(start), np.zeros(0, dtype=np.int64)
        for i in range(2):
            easy, size = CS.strict_first_pass(self.easy, i, budget, spent)
            if size < 0:
                continue
            run = _Searches(self, deal, easy, size, start)
            if not fell_back:
                run.go(fallback_at - spent)
                if run.outcome == UNKNOWN and spent + run.spent >= fallback_at:
                    fell_back = True
                    outcome, line = self.fallback(deal, budget, start)
                    if outcome == WIN:
                        return WIN, R.N_CARDS, spent + run.spent, line
                    if outcome == LOSS:
                        if run.best > score:
                            score, best = run.best, run.best_line
                        return LOSS, score, spent + run.spent, best
            run.go(size)
            spent += run.spent
            if run.outcome == WIN:
                return WIN, R.N_CARDS, spent, run.line
            if run.best > score:
                score, best = run.best, run.best_line
        if run.outcome != UNKNOWN:
            return run.outcome, score, spent, best
        if not fell_back:  # the searches ended early (nothing left to search) undecided
            outcome, line = self.fallback(deal, budget, start)
            if outcome == WIN:
                return WIN, R.N_CARDS, spent, line
            if outcome == LOSS:
                return LOSS, score, spent, best
        if self.easy and self.triples_on() and self.triples_dead(_position(deal, start)):
            return LOSS, score, spent, best
        return UNKNOWN, score, spent, best


def _start_score(start=None) -> int:
    """The cards on the foundations at the start: none in a deal, ``misc[SCORE]`` in the
    position ``start`` (the rules' state arrays)."""
    return 0 if start is None else int(start[4][R.SCORE])


def _position(deal: np.ndarray, start=None):
    """The search position of the deal, or of its position ``start`` (the rules' state
    arrays)."""
    return P.new_position(deal) if start is None else P.from_state(*start, deal)


def _late_position(deal: np.ndarray, first_rank: int = 8):
    """A small position of the types of any other: the deal with its cards below
    ``first_rank`` on the foundations and the stock dealt, the rest in their deal order (face
    down where the deal has them, the top of each pile face up)."""
    cards, length, down, found, misc = R.new_state(deal)
    stock = [int(c) for c in deal[R.STOCK_FIRST:]]
    piles = [[int(c) for c in cards[p, :length[p]]] for p in range(R.PILES)]
    for p, card in enumerate(stock):
        piles[p].append(card)
    for p, pile in enumerate(piles):
        kept = [c for c in pile if R.rank(c) >= first_rank]
        down[p] = min(int(down[p]), sum(R.rank(c) >= first_rank for c in pile[:down[p]]),
                      max(len(kept) - 1, 0))
        length[p] = len(kept)
        cards[p, :len(kept)] = kept
    found[:] = first_rank
    misc[R.STOCK_DEALT] = 1
    misc[R.SCORE] = 4 * first_rank
    return P.from_state(cards, length, down, found, misc, np.asarray(deal, dtype=np.int8))


NO_MODEL = C.no_model()


class _Searches:
    """Step 1 for one rule set, resumable: ``go(n)`` runs restarts while fewer than ``n`` nodes
    are spent and the deal is undecided.  A restart started is never cut short by ``n`` (its
    size depends on the budget alone), so searches paused and resumed are the very searches of
    one uninterrupted run."""

    def __init__(self, solver: Thoughtful, deal: np.ndarray, easy: bool, budget: int,
                 start=None):
        self.solver, self.easy, self.budget = solver, easy, budget
        solver.table.begin_deal()
        self.pos = _position(deal, start)
        self.model = None  # the critical-path test's model, built when first needed
        self.spent = self.jitter = 0
        self.best = _start_score(start)  # the most cards up met, and a line that reaches it
        self.best_line = np.zeros(0, dtype=np.int64)
        self.outcome = UNKNOWN
        self.line = np.zeros(0, dtype=np.int64)
        self.finished = False

    def go(self, until: int):
        solver, s = self.solver, self.solver.settings
        table, ws = solver.table, solver.workspace
        while not self.finished and self.spent < min(until, self.budget):
            size = self.budget - self.spent
            if s.restart > 0:
                size = min(size, s.restart * luby(self.jitter + 1))
            rules, model = self._prover()
            if self.finished:
                break
            stamp = table.begin_search()
            probe = () if solver.probe is None else (solver.probe,)
            outcome, score, nodes, length = CS.search(
                self.pos, self.easy, solver.sequence, rules, size, table.keys, table.stamps,
                table.deal_first, stamp, ws, model, s.learn_after, self.jitter, *probe)
            self.spent += nodes
            if score > self.best:
                self.best = score
                self.best_line = ws.best_line[:ws.best_length[0]].copy()
            if outcome != UNKNOWN or nodes == 0:
                self.outcome = outcome
                self.line = ws.line[:length].copy()
                self.finished = True
            self.jitter += 1
        if self.spent >= self.budget:
            self.finished = True

    def _prover(self):
        """The search's reductions and the critical-path test's model for the next search.  The
        model is built (about 0.2 ms strict, 2.4 ms easy) only for a deal that the searches
        have not decided within ``LEARN_FROM`` nodes (or that gets one search only): most deals
        are decided sooner, and the searches before that go without the test.  When it is
        built, the test runs on the start position, which may decide the deal at once."""
        solver = self.solver
        if not solver.rules & CS.CRITICAL or (self.spent < LEARN_FROM
                                              and solver.settings.restart > 0):
            return solver.rules & ~CS.CRITICAL, NO_MODEL
        if self.model is None:
            pos = self.pos
            self.model = C.build(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal,
                                 self.easy)
            # The deal's own position first, once (the searches test only the nodes below it).
            if C.dead(self.model, pos.cards, pos.length, pos.down, pos.found, pos.misc):
                self.outcome = LOSS
                self.finished = True
        return solver.rules, self.model


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
def random_walks(pos, easy, sequence_blocks, walks, steps, seed, greedy, moves, worth, line):
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
                if not CS.lost_at_sight(pos, easy):
                    played = True
                    break
                P.unplay(pos, move, token)
                k -= 1
                moves[j] = moves[k]
                worth[j] = worth[k]
            if not played:
                break
    return False, 0, nodes
