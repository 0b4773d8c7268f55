"""The uniform face every game shows to the batch engine, the CLI and notebooks."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

import numpy as np
from numba import njit

from .. import shuffle
from ..cards import CODES, parse_deal
from ..variants import Flag, Rules, VariantError, parse_rules

OUTCOMES = ("win", "loss", "unknown")


@dataclass
class SolveResult:
    game: str
    seed: int | None
    deal: str
    variant: str
    solver: str
    outcome: str
    score: int
    moves: list[str]
    nodes: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(data.pop("extra"))
        return data


@dataclass(frozen=True)
class SolverInfo:
    name: str
    help: str
    # Options this solver takes beyond the rules (name -> default), e.g. a node budget.
    options: Mapping[str, Any] = field(default_factory=dict)


class Game:
    """One solitaire: its deck, deals, rule flags and solvers.

    Subclasses set the class attributes and implement ``solve_deals`` (and ``layout``).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[np.ndarray]          # canonical order, ascending card id
    flags: ClassVar[Mapping[str, Flag]]
    solvers: ClassVar[Mapping[str, SolverInfo]]
    default_solver: ClassVar[str]
    # Extra per-deal columns that solve_deals returns, beyond the standard ones.
    extra_columns: ClassVar[tuple[str, ...]] = ()
    # Bumped whenever a change to the engine could change any stored result.  A change that
    # can alter one solver's results only bumps that solver in ``solver_versions`` instead, so
    # stored runs of the other solvers stay usable.  Stored runs record the version of their
    # solver (``engine_version``) and a run of another version is refused, not mixed in.
    rules_version: ClassVar[int] = 1
    solver_versions: ClassVar[Mapping[str, int]] = {}
    # Deals per batch task: small enough to lose little when interrupted, large enough that
    # task overhead does not show.
    batch_chunk: ClassVar[int] = 1000
    # Per-deal numeric columns whose means (with intervals) the summary reports.
    summary_means: ClassVar[tuple[str, ...]] = ()
    # Deals `winnable bench` times by default.
    bench_deals: ClassVar[int] = 2000

    # The module in winnable/rules/ that says what the game is; its NAME, TITLE, DECK and
    # FLAGS become the class's name, title, deck and flags.
    rules_module: ClassVar[Any] = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        module = cls.rules_module
        if module is not None:
            cls.name, cls.title, cls.deck, cls.flags = (module.NAME, module.TITLE, module.DECK,
                                                         module.FLAGS)

    def __init__(self):
        self.salt = shuffle.game_salt(self.name)
        self._codes = np.array(CODES)

    # --- deals -----------------------------------------------------------------------------
    def deal(self, n: int) -> np.ndarray:
        """Deal number ``n`` (n >= 1): card ids, top of the deck first."""
        if n < 1:
            raise VariantError(f"deal numbers start at 1, got {n}")
        return shuffle.deal(self.deck, self.salt, n)

    def deals(self, seeds: Sequence[int]) -> np.ndarray:
        seeds = np.asarray(seeds, dtype=np.int64)
        out = np.empty((len(seeds), len(self.deck)), dtype=self.deck.dtype)
        _deal_rows(out, self.deck, np.uint64(self.salt), seeds)
        return out

    def parse_deal(self, text: str) -> np.ndarray:
        return parse_deal(text, self.deck, self.name)

    def format_deal(self, cards: Iterable[int]) -> str:
        return " ".join(self._codes[np.asarray(cards, dtype=np.int64)])

    def format_deals(self, deals: np.ndarray) -> list[str]:
        """``format_deal`` of each row, built as one block of text (every card code has two
        characters): each card becomes its code and a space, and the last space of each row
        a line break to split on."""
        n, width = deals.shape
        if width == 0:
            return [""] * n
        text = _SPACED_CODES[deals].view(np.uint8).reshape(n, 3 * width)
        text[:, -1] = ord("\n")
        return text.tobytes().decode("ascii").split("\n")[:n]

    def layout(self, cards: np.ndarray) -> str:
        return self.format_deal(cards)

    # --- rules and solvers -----------------------------------------------------------------
    def rules(self, variant: Iterable[str] | Mapping[str, Any] | None = None) -> Rules:
        return parse_rules(self.name, self.flags, variant)

    def check_solver(self, solver: str | None) -> str:
        solver = solver or self.default_solver
        if solver not in self.solvers:
            raise VariantError(
                f"unknown solver {solver!r} for {self.name}: choose one of {', '.join(self.solvers)}"
            )
        return solver

    def solver_options(self, solver: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The solver's options with defaults filled in; unknown ones are refused."""
        known = dict(self.solvers[solver].options)
        for key, value in (options or {}).items():
            if value is None:
                continue
            if key not in known:
                raise VariantError(
                    f"option {key!r} does not apply to {self.name} solver {solver}"
                    + (f" (it takes {', '.join(known)})" if known else "")
                )
            known[key] = value
        return known

    def solve_deals(self, deals: np.ndarray, rules: Rules, solver: str,
                    options: Mapping[str, Any], seeds: np.ndarray | None = None) -> dict[str, Any]:
        """Solve each row of ``deals``; return columns ``outcome, score, moves, nodes, seconds``
        plus ``extra_columns`` (lists or arrays, one entry per deal; ``moves`` is a list of
        lists of move strings).  ``seeds`` (the deal numbers, when known) matter only to games
        that draw random numbers during play."""
        raise NotImplementedError

    def implies(self, stricter: Rules, looser: Rules) -> bool:
        """True if every move legal under ``stricter`` is legal under ``looser`` (so a deal won
        under the first is won under the second, and one lost under the second is lost under
        the first).  Games without such an order say False."""
        return False

    def chunk_size(self, solver: str) -> int:
        """Deals per batch task for this solver."""
        return self.batch_chunk

    def solve(self, deal: np.ndarray | str | int, variant=None, solver: str | None = None,
              **options: Any) -> SolveResult:
        """Solve one deal, given as its number, its text or its card ids."""
        seed = None
        if isinstance(deal, (int, np.integer)):
            seed = int(deal)
            cards = self.deal(seed)
        elif isinstance(deal, str):
            cards = self.parse_deal(deal)
        else:
            cards = np.asarray(deal, dtype=self.deck.dtype)
        rules = self.rules(variant)
        solver = self.check_solver(solver)
        opts = self.solver_options(solver, options)
        columns = self.solve_deals(cards[None, :], rules, solver, opts,
                                   None if seed is None else np.array([seed], dtype=np.int64))
        extra = {k: _scalar(columns[k][0]) for k in self.extra_columns}
        return SolveResult(
            game=self.name, seed=seed, deal=self.format_deal(cards), variant=rules.label,
            solver=solver, outcome=str(columns["outcome"][0]), score=int(columns["score"][0]),
            moves=list(columns["moves"][0]), nodes=int(columns["nodes"][0]),
            seconds=float(columns["seconds"][0]), extra=extra,
        )

    def engine_version(self, solver: str) -> int:
        """The version of the rules and of ``solver`` that stored runs are checked against."""
        return max(self.rules_version, self.solver_versions.get(solver, 0))

    def solve_seeds(self, seeds: Sequence[int], variant=None, solver: str | None = None,
                    options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Columns for a run of deal numbers (what one batch chunk computes)."""
        seeds = np.asarray(seeds, dtype=np.int64)
        rules = self.rules(variant)
        solver = self.check_solver(solver)
        opts = self.solver_options(solver, options)
        deals = self.deals(seeds)
        columns = self.solve_deals(deals, rules, solver, opts, seeds)
        columns["seed"] = seeds
        columns["deal"] = self.format_deals(deals)
        return columns


def timed_columns(deals: np.ndarray, search: Callable[[np.ndarray], tuple],
                  describe: Callable[[np.ndarray, Any], list[str]]) -> dict[str, Any]:
    """The standard columns for deals solved one at a time.  ``search(deal)`` returns
    (outcome, score, nodes, line) and is what ``seconds`` measures; ``describe(deal, line)``
    turns the line into move strings afterwards."""
    n = len(deals)
    outcome = np.empty(n, dtype=object)
    scores = np.empty(n, dtype=np.int16)
    nodes = np.empty(n, dtype=np.int64)
    seconds = np.empty(n, dtype=np.float64)
    moves: list[list[str]] = []
    for k in range(n):
        start = time.perf_counter()
        outcome[k], scores[k], nodes[k], line = search(deals[k])
        seconds[k] = time.perf_counter() - start
        moves.append(describe(deals[k], line))
    return {"outcome": outcome, "score": scores, "moves": moves, "nodes": nodes,
            "seconds": seconds}


# Each card's code followed by a space, as bytes (one row per card id).
assert all(len(c) == 2 for c in CODES), "format_deals takes every card code to be 2 characters"
_SPACED_CODES = np.array([(c + " ").encode("ascii") for c in CODES], dtype="S3")


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


@njit(cache=True)
def _deal_rows(out, deck, salt, seeds):
    for k in range(seeds.shape[0]):
        shuffle.deal_into(out[k], deck, salt, np.uint64(seeds[k]))
