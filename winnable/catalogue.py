"""`winnable deals`: a catalogue of deals by difficulty, built from stored runs of the same deals.

Each game grades a deal from the verdicts of its solvers on that deal (``GRADINGS``; docs/deals.md
lists them).  A grade needs some solvers' verdicts; where one of them is missing the grade says
so (``ungraded``, or Chinese ``hard-or-expert`` when only ``sampling`` is missing) instead of
guessing.  ``catalogue`` returns one row per deal: its number (in the runs' numbering), its
grade, its verdict (``outcome``: won, lost or not decided, as far as the runs prove it), each
solver's outcome and the deal's cards; ``solve_missing`` first runs, over a range of deals, the
solvers a grading needs (resumable batches).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .runs.batch import solve_batch
from .runs.read import read_run_file, read_runs
from .runs.spec import BatchError, RunSpec, default_out
from .games import get_game
from .numbering import WINNABLE

UNGRADED = "ungraded"


@dataclass(frozen=True)
class Grading:
    """How one game grades a deal: ``grades`` (name, meaning), easiest first; ``grade`` and
    ``outcome`` map the table of verdicts (one row per deal, a column per solver holding its
    outcome, NaN where it has none; plus ``extras``) to a grade and a verdict per deal."""

    solvers: tuple[str, ...]  # the solvers the grades use (what --solve runs)
    grades: tuple[tuple[str, str], ...]
    grade: Callable[[pd.DataFrame], np.ndarray]
    outcome: Callable[[pd.DataFrame], np.ndarray]
    # Extra per-deal columns the grade reads -> the solver whose rows carry it (None: any).
    extras: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.grades)


def _col(v: pd.DataFrame, name: str) -> pd.Series:
    return v[name] if name in v.columns else pd.Series(np.nan, index=v.index, dtype=object)


def _select(v: pd.DataFrame, cases: list[tuple[pd.Series, str]], default: str = UNGRADED
            ) -> np.ndarray:
    return np.select([c.to_numpy(dtype=bool) for c, _ in cases], [g for _, g in cases],
                     default).astype(object)


def _verdict(v: pd.DataFrame, exact: str, players: Iterable[str]) -> np.ndarray:
    """The exact solver's outcome; a player's win proves a win too (every player's line is a
    legal line with every card known); nothing known: unknown."""
    won = (_col(v, exact) == "win")
    for p in players:
        won |= _col(v, p) == "win"
    return _select(v, [(won, "win"), (_col(v, exact) == "loss", "loss")], "unknown")


def _chinese_grade(v):
    t, s, p, r = (_col(v, k) for k in ("thoughtful", "strategy", "sampling", "random"))
    other = (p == "win") | (r == "win")
    return _select(v, [
        (s == "win", "easy"),
        (other & (s == "loss"), "hard"),
        (other, UNGRADED),  # won without peeking, but strategy was not run: easy or hard
        (t == "loss", "lost"),
        (t == "unknown", "unknown"),
        ((t == "win") & (s == "loss") & (p == "loss"), "expert"),
        ((t == "win") & (s == "loss") & p.isna(), "hard-or-expert"),
    ])


def _ladder(v, steps):
    """The cases "the first solver of ``steps`` to win where each before it lost" (solver,
    grade), and where every one of them lost."""
    cases, lost = [], pd.Series(True, index=v.index)
    for solver, grade in steps:
        outcome = _col(v, solver)
        cases.append((lost & (outcome == "win"), grade))
        lost &= outcome == "loss"
    return cases, lost


def _addario_grade(v):
    t = _col(v, "thoughtful")
    cases, lost = _ladder(v, (("first", "easy"), ("nopeek", "medium")))
    return _select(v, cases + [(lost & (t == "win"), "hard"), (t == "loss", "lost"),
                               (lost & (t == "unknown"), "unknown")])


def _nineball_outcome(v):
    t = _col(v, "thoughtful")
    known = _col(v, "thoughtful_win")
    won = (t == "win") | (known == 1)
    lost = (t == "loss") | (known == 0)
    return _select(v, [(won, "win"), (lost, "loss")], "unknown")


def _nineball_grade(v):
    verdict = pd.Series(_nineball_outcome(v), index=v.index)
    p = pd.to_numeric(_col(v, "win_probability"), errors="coerce")
    won = verdict == "win"
    return _select(v, [
        (verdict == "loss", "lost"),
        (won & (p >= 0.8), "easy"),
        (won & (p >= 0.5), "medium"),
        (won & (p >= 0), "hard"),
    ])


def _impossible_grade(v):
    cases, lost = _ladder(v, (("greedy", "easy"), ("lookahead", "medium"), ("random", "lucky")))
    return _select(v, cases + [(lost, "unwon")])


def _any_win(v):
    won = np.zeros(len(v), dtype=bool)
    for name in ("greedy", "lookahead", "random"):
        won |= (_col(v, name) == "win").to_numpy()
    return np.where(won, "win", "unknown").astype(object)


GRADINGS: dict[str, Grading] = {
    "chinese": Grading(
        ("thoughtful", "strategy", "sampling"),
        (("easy", "the no-peek strategy player won it"),
         ("hard", "strategy lost it, the sampling (or random) player won it"),
         ("expert", "winnable (thoughtful won it), but no no-peek player won it"),
         ("hard-or-expert", "winnable, strategy lost it, sampling was not run"),
         ("lost", "thoughtful proved it lost"),
         ("unknown", "thoughtful did not decide it within its budget, no player won it"),
         (UNGRADED, "a verdict the grade needs is missing")),
        _chinese_grade, lambda v: _verdict(v, "thoughtful", ("strategy", "sampling", "random"))),
    "addario": Grading(
        ("first", "nopeek", "thoughtful"),
        (("easy", "played as dealt (first) it is won"),
         ("medium", "first loses it, the player who cannot see the deck (nopeek) wins it"),
         ("hard", "only choosing pairs with the deck known (thoughtful) wins it"),
         ("lost", "no choice of pairs wins it (thoughtful)"),
         ("unknown", "thoughtful did not decide it within its budget, no player won it"),
         (UNGRADED, "a verdict the grade needs is missing")),
        _addario_grade, lambda v: _verdict(v, "thoughtful", ("first", "nopeek"))),
    "nineball": Grading(
        ("nopeek-win",),
        (("easy", "winnable; the optimal no-peek player clears it with probability >= 0.8"),
         ("medium", "winnable; that probability is 0.5 to 0.8"),
         ("hard", "winnable; that probability is below 0.5"),
         ("lost", "the rack cannot be cleared even with every card known"),
         (UNGRADED, "nopeek-win was not run (or thoughtful, for the verdict)")),
        _nineball_grade, _nineball_outcome,
        {"win_probability": "nopeek-win", "thoughtful_win": None}),
    "impossible": Grading(
        ("greedy", "lookahead", "random"),
        (("easy", "the greedy player won it"),
         ("medium", "greedy lost it, the lookahead player won it"),
         ("lucky", "only the random player won it"),
         ("unwon", "no player won it (not proof of a loss: no Impossible solver proves one)"),
         (UNGRADED, "a player's result is missing")),
        _impossible_grade, _any_win),
}


@dataclass(frozen=True)
class Selection:
    """Which stored deals a catalogue lists: one game, one rule set, one numbering, a range."""

    game: str
    variant: str | None = None  # a rules label; None: the one rule set the runs hold
    numbering: str | None = None  # None: the one numbering the runs hold
    start: int | None = None  # None: the first deal the runs hold
    n: int | None = None  # deals from start on; None: all


def _one(rows: pd.DataFrame, column: str, asked, what: str, option: str) -> pd.DataFrame:
    if asked is not None:
        rows = rows[rows[column] == asked]
        if rows.empty:
            raise BatchError(f"the runs given hold no deals with {what} {asked!r}")
        return rows
    values = sorted(rows[column].unique())
    if len(values) > 1:
        raise BatchError(f"the runs given hold several {what}s ({', '.join(values)}): choose one "
                         f"with {option}")
    return rows


def catalogue_rows(files: Iterable[str | os.PathLike], sel: Selection) -> pd.DataFrame:
    """The stored rows a catalogue uses: of ``sel``'s game, rules, numbering and range."""
    g = get_game(sel.game)
    grading = GRADINGS[g.name]
    extra = [c for c in grading.extras if c in g.extra_columns]
    rows = read_runs(files, columns=["deal", *extra])
    other = sorted(set(rows["game"]) - {g.name})
    if other:
        raise BatchError(f"the runs given hold {', '.join(other)} deals, not only {g.name}: give "
                         f"only runs of --game {g.name}")
    variant = None if sel.variant is None else g.rules(sel.variant).label
    rows = _one(rows, "variant", variant, "rule set", "--variant")
    rows = _one(rows, "numbering", sel.numbering, "numbering", "--numbering")
    options = rows.groupby("solver")["options"].unique()
    twice = options[options.map(len) > 1]
    if len(twice):
        raise BatchError(f"the runs given hold solver {twice.index[0]} with different options "
                         f"({' / '.join(o or 'none' for o in twice.iloc[0])}): give one of them")
    start = sel.start if sel.start is not None else int(rows["seed"].min())
    rows = rows[rows["seed"] >= start]
    if sel.n is not None:
        rows = rows[rows["seed"] < start + sel.n]
    if rows.empty:
        raise BatchError("the runs given hold no deals in the range asked (--start, --n)")
    return rows


def catalogue(rows: pd.DataFrame, game: str) -> pd.DataFrame:
    """One row per deal of ``rows`` (stored rows of one game, rule set and numbering): seed,
    numbering, grade, outcome, each solver's outcome, the grading's extra columns, deal."""
    grading = GRADINGS[get_game(game).name]
    table = rows.pivot_table(index="seed", columns="solver", values="outcome",
                             aggfunc="first")
    table.columns.name = None
    for column, solver in grading.extras.items():
        if column in rows.columns:
            source = rows if solver is None else rows[rows["solver"] == solver]
            table[column] = source.groupby("seed")[column].first()
    cards = rows.groupby("seed")["deal"].first()
    out = pd.DataFrame({"seed": table.index.to_numpy(),
                        "numbering": rows["numbering"].iloc[0],
                        "grade": grading.grade(table), "outcome": grading.outcome(table)})
    shown = [s for s in grading.solvers if s in table.columns]
    shown += sorted(c for c in table.columns if c not in shown)
    for column in shown:
        out[column] = table[column].to_numpy()
    out["deal"] = cards.reindex(table.index).to_numpy()
    return out


def filter_catalogue(table: pd.DataFrame, game: str, outcome: str | None = None,
                     difficulty: str | None = None, limit: int | None = None) -> pd.DataFrame:
    """The deals of a catalogue with that verdict and grade (a one-line error for a grade the
    game does not have), at most ``limit`` of them."""
    if difficulty is not None:
        names = GRADINGS[get_game(game).name].names
        if difficulty not in names:
            raise BatchError(f"unknown --difficulty {difficulty!r} for {game}: choose one of "
                             f"{', '.join(names)}")
        table = table[table["grade"] == difficulty]
    if outcome is not None:
        table = table[table["outcome"] == outcome]
    return table.head(limit) if limit is not None else table


def solve_missing(files: Iterable[str | os.PathLike], game: str, start: int, n: int,
                  variant=None, numbering: str | None = None, workers: int | None = None,
                  progress: bool = True) -> list[Path]:
    """Run each solver the game's grading needs over deals start..start+n-1 (one resumable
    batch each): into the file given that holds that solver's run of these rules and this
    numbering, else into its default file (``runs/<game>_<solver>...parquet``).  Returns every
    file to read: those given and those solved into."""
    g = get_game(game)
    files = [Path(f) for f in files]
    specs = {path: read_run_file(path, columns=["seed"])[0] for path in files}
    # Rules and numbering not given: those of the files, where they hold one.
    if variant is None and len({s.variant for s in specs.values()}) == 1:
        variant = next(iter(specs.values())).variant
    if numbering is None and len({s.numbering for s in specs.values()}) == 1:
        numbering = next(iter(specs.values())).numbering
    wanted = RunSpec.make(g.name, variant, None, None, numbering)
    held: dict[str, Path] = {}
    for path, spec in specs.items():
        if (spec.game, spec.variant, spec.numbering) == (g.name, wanted.variant,
                                                         wanted.numbering):
            held.setdefault(spec.solver, path)
    out = list(files)
    for solver in GRADINGS[g.name].solvers:
        path = held.get(solver)
        if path is not None:
            options = dict(specs[path].options)
        else:
            options = None
            path = default_out(RunSpec.make(g.name, wanted.variant, solver, None,
                                            wanted.numbering))
            out.append(path)
        solve_batch(g.name, n=n, start=start, variant=wanted.variant, solver=solver,
                    options=options, workers=workers, out=path, progress=progress,
                    numbering=wanted.numbering)
    return list(dict.fromkeys(out))


def grade_counts(table: pd.DataFrame, game: str) -> dict[str, int]:
    """Deals per grade, in the grading's order (every grade, zeros included)."""
    counts = table["grade"].value_counts()
    return {name: int(counts.get(name, 0)) for name in GRADINGS[get_game(game).name].names}


def number_header(numbering: str) -> str:
    return "deal" if numbering == WINNABLE else f"{numbering} game"
