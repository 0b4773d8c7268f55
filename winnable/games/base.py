"""The game contract: what every game provides to the runs, the command line, `winnable play`
and notebooks, declared and documented in one place.

A game is a subclass of ``Game`` in a module of its own, registered by one line in
``winnable.games.GAMES``.  ``Game``'s docstring lists what a subclass declares and which hooks
it may override (every other method is the same for all games); ``Table`` is what a deal in
play offers (``Game.table``), ``SolverRun`` what runs one solver over deals.  The contract test
(``tests/test_games_contract.py``) holds every game and solver to it, under every rule flag the
game declares, and ``tests/test_toy_game.py`` shows the least a game needs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol

import numpy as np

from .. import shuffle
from ..cards import CODES, parse_deal
from ..errors import UserError
from ..jit import jit
from ..numbering import LAST_DEAL, PYSOL, check_numbering, pysol_deals
from ..variants import Flag, Rules, VariantError, parse_rules


class Table(Protocol):
    """A deal in play under one rule set, as a person plays it (``Game.table``; each game's
    ``winnable.rules.<game>.Table``): what ``winnable.session`` and so `play`, `replay` and
    `verify` stand on.  A move is an int in the table's own encoding."""

    # True if the rules play a move for the player when it is the only legal one (Addario's
    # forced pairs); the session then plays it.
    forced_automatic: bool

    def legal(self) -> list[int]:
        """The legal moves here (none once the game is over)."""

    def parse(self, text: str) -> int:
        """A move written in the game's notation, checked to be legal here; an
        ``IllegalMove`` (one line: why not) otherwise."""

    def format(self, move: int) -> str:
        """The move in the game's notation, as ``winnable solve`` prints it."""

    def describe(self, move: int) -> str:
        """The cards the move moves, named, nothing hidden given away."""

    def play(self, move: int) -> str:
        """Play a legal move; what it did, with the cards named (e.g. a card turned up)."""

    def over(self) -> bool: ...

    def outcome(self) -> str:
        """``win``, ``loss`` (or ``unknown``) once the game is over."""

    def score(self) -> int: ...

    def board(self, peek: bool = False) -> str:
        """The table drawn as text; hidden cards hidden unless ``peek``."""


class SolverRun(Protocol):
    """How one solver solves deals (``SolverInfo.run``)."""

    def __call__(self, game: "Game", deals: np.ndarray, rules: Rules,
                 options: Mapping[str, Any], record_moves: bool) -> dict[str, Any]:
        """Solve each row of ``deals`` (card ids, top of the deck first) under ``rules`` with
        the solver's ``options`` (complete: defaults filled in, values checked); return the
        columns of ``Game.solve_deals``."""


@dataclass
class SolveResult:
    """One deal solved (``Game.solve``): the deal, the rules (``variant``), the solver, its
    outcome (``win``, ``loss`` or ``unknown``), score and line of play, the nodes searched and
    seconds taken, and the game's extra columns (``extra``).  ``to_dict`` gives it flat, as
    ``winnable solve --json`` prints it.

    Examples:
        >>> from winnable import get_game
        >>> result = get_game("nineball").solve(1)
        >>> result.outcome, result.score, result.moves[:2]
        ('win', 25, ['2H+7H', '9D'])
        >>> result.to_dict()["solver"]
        'thoughtful'
    """

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

    # The game that solved it (set by ``Game.solve``), for its pictures; not a field.
    _game: ClassVar[Any] = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(data.pop("extra"))
        return data

    def line_view(self, peek: bool = False):
        """The line of play stepped move by move (``winnable.pictures.LineView``); hidden cards
        face down unless ``peek``."""
        from ..session import replay_line
        game = self._game
        session, _ = replay_line(game, game.parse_deal(self.deal, self.variant), self.moves,
                                 self.variant, self.solver)
        where = f"deal {self.seed}" if self.seed is not None else "the deal given"
        return session.line_view(peek, f"{game.title}, {where} (rules: {self.variant}; solver "
                                       f"{self.solver}: {self.outcome}, score {self.score})")

    def _repr_html_(self) -> str:
        return self.line_view()._repr_html_()


@dataclass(frozen=True)
class OptionLimits:
    """The whole numbers a solver option accepts: ``low`` to ``high`` (None: no upper bound)."""

    low: int
    high: int | None = None
    unit: str = ""

    def bounds(self) -> str:
        if self.high is None:
            return f"at least {self.low:,}"
        if (self.low, self.high) == (0, 1):
            return "1 or 0: on or off"
        return f"{self.low:,} to {self.high:,}"

    def expected(self) -> str:
        return f"a whole number, {self.bounds()}" + (f" ({self.unit})" if self.unit else "")

    def describe(self) -> str:
        return self.bounds() + (f"; {self.unit}" if self.unit else "")

    def parse(self, value: Any) -> int:
        """The option's value as an int; ValueError if it is not one this option accepts."""
        if isinstance(value, str):
            value = value.strip()
            number = int(value) if value.lstrip("+-").isdigit() else float(value)
        elif isinstance(value, (bool, int, np.integer, float, np.floating)):
            number = value
        else:
            raise ValueError
        if number != number or number in (float("inf"), float("-inf")) or number != int(number):
            raise ValueError
        number = int(number)
        if number < self.low or (self.high is not None and number > self.high):
            raise ValueError
        return number


@dataclass(frozen=True)
class ChoiceLimits:
    """A solver option that takes one of a few words (``choices``)."""

    choices: tuple[str, ...]
    unit: str = ""

    def bounds(self) -> str:
        return "one of " + ", ".join(self.choices)

    expected = describe = bounds

    def parse(self, value: Any) -> str:
        """The option's value; ValueError if it is not one of the choices."""
        if not isinstance(value, str) or value.strip() not in self.choices:
            raise ValueError
        return value.strip()


@dataclass(frozen=True)
class Option:
    """A solver option: its default and the values it accepts."""

    default: Any
    limits: OptionLimits | ChoiceLimits


@dataclass(frozen=True)
class SolverInfo:
    """One row of a game's table of solvers (``solver_table``)."""

    name: str
    help: str
    run: SolverRun  # solves deals: the columns of ``Game.solve_deals``
    # Options this solver takes beyond the rules, e.g. a node budget: name -> Option.
    options: Mapping[str, Option] = field(default_factory=dict)
    # Deals per batch task (None: the game's ``batch_chunk``).
    chunk: int | None = None
    # Whether it can stop at its budget with a deal ``unknown`` (what `winnable resolve`
    # escalates and ``resolve --sample`` samples).
    undecided: bool = False

    @property
    def defaults(self) -> dict[str, Any]:
        """Each option's default."""
        return {name: option.default for name, option in self.options.items()}


def solver_table(*solvers: SolverInfo) -> dict[str, SolverInfo]:
    """A game's solvers by name, the default first."""
    return {info.name: info for info in solvers}


def physical_memory_mb() -> int:
    """This machine's memory in MB (the most a memory option may ask for)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (ValueError, OSError, AttributeError):
        return 2**20


class Game:
    """One solitaire: its deck, deals, rule flags and solvers, and how a deal is played.

    A game declares (class attributes):

    * ``name``, ``title``, ``deck`` (card ids in canonical order, ascending) and ``flags`` (its
      rule flags, ``winnable.variants``): given directly, or through ``rules_module``, the module
      in ``winnable/rules/`` that says what the game is (its ``NAME``, ``TITLE``, ``DECK``,
      ``FLAGS``; its ``Table`` is the game in play).
    * ``solvers``: ``solver_table(SolverInfo(...), ...)``, the first the default: each solver's
      name, help, ``run`` (a ``SolverRun``), options (``Option``: default and limits), deals per
      batch task, and whether it can leave a deal ``unknown`` (what `winnable resolve`
      escalates).

    and may declare, beside their defaults below: the columns (``extra_columns`` beyond the
    standard ones, ``column_names``, ``summary_means``, ``batch_moves``), the versions stored
    runs are checked against (``rules_version``, ``solver_versions``), the batch and benchmark
    sizes (``batch_chunk``, ``bench_deals``, ``bench_counts``) and for `winnable play` the
    player whose move ``hint`` gives (``hint_player``), the thoughtful solver's budget on a
    position (``position_budget``) and an example of its moves (``move_example``).

    Hooks a game may override (each documented where it is defined; the defaults suit a game
    without the feature):

    * rules: ``rules`` (flags parsed), ``deck_for`` (a rule may leave cards out), ``implies``
      (one rule set's wins are another's);
    * deals: ``parse_deal``, ``format_deal`` and ``layout`` (the deal drawn as text);
    * solvers: ``option_notes`` (advice on legal but wasteful options), ``warm_up`` (what a
      batch compiles before its workers start);
    * play: ``table`` (the deal in play: a ``Table``; default ``rules_module.Table``), ``hint``
      and ``solve_position`` (advice in a position: ``winnable.session.Advice``), ``scene``
      (the table laid out for a picture: ``winnable.pictures``).

    Everything else (deals by number, solving, options checked, versions) is the same for every
    game and is not overridden.  ``winnable deals`` grades deals by ``catalogue.GRADINGS``, where
    a game may add its grading.

    A game in a package of its own (docs/adding-a-game.md) names, in ``reference``, a
    plain-Python replay of a line written apart from its engine, which the contract test
    (tests/test_games_contract.py) checks every solver's lines against.

    Examples:
        >>> from winnable import get_game
        >>> game = get_game("addario")
        >>> game.title, list(game.flags), game.default_solver
        ('Solitario di Addario (Ballo delle Coppie)', ['column_free_equal'], 'first')
        >>> len(game.deal(7)), game.solve(7, solver="thoughtful").outcome
        (40, 'loss')
    """

    name: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[np.ndarray]          # canonical order, ascending card id
    flags: ClassVar[Mapping[str, Flag]]
    solvers: ClassVar[Mapping[str, SolverInfo]]  # ``solver_table``: the first is the default
    default_solver: ClassVar[str]       # set from ``solvers``
    # The module in winnable/rules/ that says what the game is; its NAME, TITLE, DECK and
    # FLAGS become the class's name, title, deck and flags, its Table the game in play.
    rules_module: ClassVar[Any] = None
    # A plugin game's plain-Python reference, "module:function": replay(game, result, rules)
    # -> the score the line of ``result`` (a SolveResult) reaches, by rules written apart from
    # the engine (the built-in games' references are in tests/reference/).
    reference: ClassVar[str] = ""

    # --- columns -----------------------------------------------------------------------------
    # Extra per-deal columns that solve_deals returns, beyond the standard ones: numbers, flags,
    # or text (Impossible's proof of a loss; "" where there is nothing to say).
    extra_columns: ClassVar[tuple[str, ...]] = ()
    # Readable names of the extra columns (figures and tables; default: the column's name).
    column_names: ClassVar[Mapping[str, str]] = {}
    # Per-deal numeric columns whose means (with intervals) the summary reports.
    summary_means: ClassVar[tuple[str, ...]] = ()
    # Whether a batch stores each game's moves (False: only `winnable solve` shows them).
    batch_moves: ClassVar[bool] = True

    # --- versions ----------------------------------------------------------------------------
    # Bumped whenever a change to the engine could change any stored result.  A change that
    # can alter one solver's results only bumps that solver in ``solver_versions`` instead, so
    # stored runs of the other solvers stay usable.  Stored runs record the version of their
    # solver (``engine_version``) and a run of another version is refused, not mixed in.
    rules_version: ClassVar[int] = 1
    solver_versions: ClassVar[Mapping[str, int]] = {}

    # --- sizes -------------------------------------------------------------------------------
    # Deals per batch task: small enough to lose little when interrupted, large enough that
    # task overhead does not show.
    batch_chunk: ClassVar[int] = 1000
    # Deals `winnable bench` times by default, and for the solvers named in ``bench_counts``.
    bench_deals: ClassVar[int] = 2000
    bench_counts: ClassVar[Mapping[str, int]] = {}

    # --- playing a deal (winnable.session, `winnable play`) ----------------------------------
    # The best player that sees only what a person sees, whose move `hint` gives; and the
    # thoughtful solver's budget on a position by default, about a second of search (None: it
    # needs none).
    hint_player: ClassVar[str] = ""
    position_budget: ClassVar[int | None] = None
    # Moves as `winnable solve` writes them, for `play`'s help (e.g. "t3-t5x2, t1-f, stock").
    move_example: ClassVar[str] = ""

    DECLARED = ("name", "title", "deck", "flags", "solvers")  # what every game must declare

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        module = cls.rules_module
        if module is not None:
            cls.name, cls.title, cls.deck, cls.flags = (module.NAME, module.TITLE, module.DECK,
                                                         module.FLAGS)
        if "solvers" in cls.__dict__:
            cls.default_solver = next(iter(cls.solvers))
        missing = [a for a in cls.DECLARED if not hasattr(cls, a)]
        if missing:
            raise TypeError(f"game {cls.__name__} does not declare {', '.join(missing)} "
                            "(see winnable.games.base.Game)")

    def __init__(self):
        self.salt = shuffle.game_salt(self.name)
        self._codes = np.array(CODES)
        self._warm: set[tuple] = set()

    # --- deals -----------------------------------------------------------------------------
    def deck_for(self, rules: Rules) -> np.ndarray:
        """The cards a game under ``rules`` is played with, in canonical order (a rule may
        leave some of the deck out, e.g. Impossible's jokers)."""
        return self.deck

    def deal(self, n: int, variant=None) -> np.ndarray:
        """Deal number ``n`` (n >= 1) under the rules ``variant``: card ids, top of the deck
        first (the cards the rules leave out are taken out of the full deal)."""
        check_deal_number(n)
        return self._restrict(shuffle.deal(self.deck, self.salt, n)[None, :], variant)[0]

    def deals(self, seeds: Sequence[int], variant=None, numbering: str | None = None
              ) -> np.ndarray:
        """Deals ``seeds`` (one row each) in ``numbering`` (``winnable.numbering``; default the
        project's own)."""
        if check_numbering(numbering, self.name) == PYSOL:
            return pysol_deals(seeds, variant)
        seeds = np.asarray(seeds, dtype=np.int64)
        out = np.empty((len(seeds), len(self.deck)), dtype=self.deck.dtype)
        _deal_rows(out, self.deck, np.uint64(self.salt), seeds)
        return self._restrict(out, variant)

    def _restrict(self, deals: np.ndarray, variant) -> np.ndarray:
        deck = self.deck_for(self.rules(variant))
        if len(deck) == len(self.deck):
            return deals
        return deals[np.isin(deals, deck)].reshape(len(deals), len(deck))

    def parse_deal(self, text: str, variant=None) -> np.ndarray:
        """A deal written as its card codes, checked to hold each card of the rules' deck
        once."""
        rules = self.rules(variant)
        deck = self.deck_for(rules)
        where = self.name if rules.label == "default" else f"{self.name} ({rules.label})"
        return parse_deal(text, deck, where)

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

    # --- a deal in play (winnable.session) -------------------------------------------------
    def table(self, cards: np.ndarray, rules: Rules, player: str | None = None) -> Table:
        """The game in progress from its deal (the rules module's ``Table``); ``player``: the
        player whose line is replayed, where its draws from the play stream matter."""
        return self.rules_module.Table(cards, rules, player)

    def scene(self, table: Table, peek: bool = False):
        """The table laid out for a picture (a ``winnable.pictures.Scene``: each card where it
        lies, ``hidden`` where the player would not see its face).  ``peek``: the picture will
        show the hidden cards, so a game may spread them out to be read.  The default draws
        the text board (``table.board``); a game lays out its own cards."""
        from ..pictures import Scene
        return Scene(text=table.board(peek))

    def hint(self, session):
        """The move ``hint_player`` makes in the session's position (an ``Advice``)."""
        raise UserError(f"{self.name} has no player to give hints")

    def solve_position(self, session, budget: int | None = None):
        """The thoughtful solver on the session's position (an ``Advice``: outcome, line)."""
        raise UserError(f"{self.name} has no solver for a position")

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

    def solver_options(self, solver: str, options: Mapping[str, Any] | None) -> dict[str, int]:
        """The solver's options with defaults filled in; unknown options and values outside
        their limits are refused."""
        info = self.solvers[solver]
        known = info.defaults
        for key, value in (options or {}).items():
            if value is None:
                continue
            if key not in known:
                takes = (f"it takes {', '.join(known)}" if known else "it takes no options")
                raise VariantError(f"option {key!r} does not apply to {self.name} solver "
                                   f"{solver} ({takes})")
            limits = info.options[key].limits
            try:
                known[key] = limits.parse(value)
            except (ValueError, TypeError, OverflowError):
                raise VariantError(f"bad value {value!r} for option {key} of {self.name} solver "
                                   f"{solver}: expected {limits.expected()}") from None
        return known

    def option_notes(self, solver: str, options: Mapping[str, Any]) -> list[str]:
        """One-line advice on a solver's filled-in options that are legal but likely to waste
        the run (e.g. a table too small for the budget); the commands print it before they
        start.  Games without such advice say nothing."""
        return []

    def solve_deals(self, deals: np.ndarray, rules: Rules, solver: str,
                    options: Mapping[str, Any], record_moves: bool = True) -> dict[str, Any]:
        """Solve each row of ``deals``; return columns ``outcome, score, moves, nodes, seconds``
        plus ``extra_columns`` (lists or arrays, one entry per deal; ``moves`` is a list of
        lists of move strings, empty where ``record_moves`` is False and the game leaves them
        out).  A game is a function of its deal (and rules, solver, options) alone."""
        solver = self.check_solver(solver)
        return self.solvers[solver].run(self, deals, rules, self.solver_options(solver, options),
                                        record_moves)

    def implies(self, stricter: Rules, looser: Rules) -> bool:
        """True if every move legal under ``stricter`` is legal under ``looser`` (so a deal won
        under the first is won under the second, and one lost under the second is lost under
        the first).  Games without such an order say False."""
        return False

    def chunk_size(self, solver: str) -> int:
        """Deals per batch task for this solver."""
        return self.solvers[self.check_solver(solver)].chunk or self.batch_chunk

    def solve(self, deal: np.ndarray | str | int, variant=None, solver: str | None = None,
              **options: Any) -> SolveResult:
        """Solve one deal, given as its number, its text or its card ids; the moves are always
        recorded."""
        seed = None
        rules = self.rules(variant)
        if isinstance(deal, (int, np.integer)):
            seed = int(deal)
            cards = self.deal(seed, rules)
        elif isinstance(deal, str):
            cards = self.parse_deal(deal, rules)
        else:
            cards = np.asarray(deal, dtype=self.deck.dtype)
        solver = self.check_solver(solver)
        opts = self.solver_options(solver, options)
        columns = self.solve_deals(cards[None, :], rules, solver, opts)
        extra = {k: _scalar(columns[k][0]) for k in self.extra_columns}
        result = SolveResult(
            game=self.name, seed=seed, deal=self.format_deal(cards), variant=rules.label,
            solver=solver, outcome=str(columns["outcome"][0]), score=int(columns["score"][0]),
            moves=list(columns["moves"][0]), nodes=int(columns["nodes"][0]),
            seconds=float(columns["seconds"][0]), extra=extra,
        )
        result._game = self
        return result

    def warm_up(self, variant=None, solver: str | None = None,
                options: Mapping[str, Any] | None = None) -> None:
        """Compile (or load from Numba's cache) what solving under these rules with this solver
        uses, by solving deal 1 once, unless this process has done so already."""
        if not self.is_warm(variant, solver, options):
            self.solve_seeds(np.array([1]), variant, solver, options)
            self._warm.add(self._warm_key(variant, solver, options))

    def is_warm(self, variant=None, solver: str | None = None,
                options: Mapping[str, Any] | None = None) -> bool:
        return self._warm_key(variant, solver, options) in self._warm

    def _warm_key(self, variant, solver, options) -> tuple:
        solver = self.check_solver(solver)
        options = self.solver_options(solver, options)
        return self.rules(variant).label, solver, tuple(sorted(options.items()))

    def engine_version(self, solver: str) -> int:
        """The version of the rules and of ``solver`` that stored runs are checked against."""
        return max(self.rules_version, self.solver_versions.get(solver, 0))

    def solve_seeds(self, seeds: Sequence[int], variant=None, solver: str | None = None,
                    options: Mapping[str, Any] | None = None,
                    numbering: str | None = None) -> dict[str, Any]:
        """Columns for a run of deal numbers (what one batch chunk computes), numbered by
        ``numbering`` (default the project's own)."""
        seeds = np.asarray(seeds, dtype=np.int64)
        rules = self.rules(variant)
        solver = self.check_solver(solver)
        opts = self.solver_options(solver, options)
        deals = self.deals(seeds, rules, numbering)
        columns = self.solve_deals(deals, rules, solver, opts, record_moves=self.batch_moves)
        columns["seed"] = seeds
        columns["deal"] = self.format_deals(deals)
        return columns


def check_deal_number(n: int) -> None:
    if not 1 <= n <= LAST_DEAL:
        raise VariantError(f"deal numbers run from 1 to {LAST_DEAL}, got {n}")


# Each card's code followed by a space, as bytes (one row per card id).
assert all(len(c) == 2 for c in CODES), "format_deals takes every card code to be 2 characters"
_SPACED_CODES = np.array([(c + " ").encode("ascii") for c in CODES], dtype="S3")


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


@jit
def _deal_rows(out, deck, salt, seeds):
    for k in range(seeds.shape[0]):
        shuffle.deal_into(out[k], deck, salt, np.uint64(seeds[k]))
