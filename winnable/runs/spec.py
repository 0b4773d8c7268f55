"""What a run is and where its files are: ``RunSpec`` (the identity that makes two rows
comparable) and the names of a run's files and folders."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..games import get_game
from ..numbering import WINNABLE, check_numbering


class BatchError(UserError):
    """A batch cannot run as asked (the message is one line for the user)."""


@dataclass(frozen=True)
class RunSpec:
    """What makes two rows comparable: the same game, solver, rules and solver options, and
    the numbering that says which deal each seed is (``winnable.numbering``)."""

    game: str
    solver: str
    variant: str
    options: tuple[tuple[str, Any], ...]
    engine_version: int  # stored under its first name, "rules_version"
    numbering: str = WINNABLE  # stored only when it is another (runs of earlier versions)

    @classmethod
    def make(cls, game: str, variant=None, solver: str | None = None,
             options: Mapping[str, Any] | None = None,
             numbering: str | None = None) -> "RunSpec":
        g = get_game(game)
        solver = g.check_solver(solver)
        rules = g.rules(variant)
        opts = g.solver_options(solver, options)
        return cls(g.name, solver, rules.label, tuple(sorted(opts.items())),
                   g.engine_version(solver), check_numbering(numbering, g.name))

    def to_json(self) -> str:
        d = {"game": self.game, "solver": self.solver, "variant": self.variant,
             "options": dict(self.options), "rules_version": self.engine_version}
        if self.numbering != WINNABLE:
            d["numbering"] = self.numbering
        return json.dumps(d, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> "RunSpec":
        """The stored identity; an option the solver gained after the run was stored counts
        with its default, which is the behaviour the run had (a solver option that changes
        what a run gives at its default comes with a new solver version)."""
        d = json.loads(text)
        options = dict(d["options"])
        try:
            for key, value in get_game(d["game"]).solvers[d["solver"]].defaults.items():
                options.setdefault(key, value)
        except (KeyError, ValueError):
            pass  # a game or solver this version does not know: compared as stored
        return cls(d["game"], d["solver"], d["variant"], tuple(sorted(options.items())),
                   d["rules_version"], d.get("numbering", WINNABLE))

    def describe(self, version: bool = True) -> str:
        opts = options_text(self.options)
        return (f"game {self.game}, solver {self.solver}, rules '{self.variant}'"
                + (f", options {opts}" if opts else "")
                + f", numbering {self.numbering}"
                + (f", engine version {self.engine_version}" if version else ""))

    def changed_options(self) -> tuple[tuple[str, Any], ...]:
        """The solver options that differ from the solver's defaults."""
        defaults = get_game(self.game).solvers[self.solver].defaults
        return tuple((k, v) for k, v in self.options if defaults.get(k) != v)

    def slug(self, every_option: bool = False) -> str:
        """``<game>_<solver>[_<rules>][_<options changed>][_<numbering>]``, e.g.
        ``nineball_thoughtful_kitchen_per_group-1``, ``chinese_thoughtful_pysol``
        (``every_option``: the names of earlier versions, which listed every option)."""
        parts = [self.game, self.solver]
        if self.variant != "default":
            parts.append(self.variant.replace(" ", "_").replace("=", "-").replace(",", "+"))
        options = self.options if every_option else self.changed_options()
        parts += [f"{k}-{v}" for k, v in options]
        if self.numbering != WINNABLE:
            parts.append(self.numbering)
        return "_".join(parts)


def options_text(options: Sequence[tuple[str, object]]) -> str:
    """(key, value) pairs as ``key=value`` words: a run's solver options (``RunSpec.options``),
    a sweep's rule values."""
    return " ".join(f"{k}={v}" for k, v in options)


# --- where a run's files are ----------------------------------------------------------------------

def run_path(directory: str | os.PathLike, spec: RunSpec, suffix: str = "") -> Path:
    """``<directory>/<slug><suffix>.parquet``; a run stored under the name earlier versions gave
    it (every option in the name) keeps its name, so it resumes."""
    path = Path(directory) / f"{spec.slug()}{suffix}.parquet"
    legacy = Path(directory) / f"{spec.slug(every_option=True)}{suffix}.parquet"
    if legacy != path and not _has_rows(path) and _has_rows(legacy):
        return legacy
    return path


def _has_rows(out: Path) -> bool:
    return out.exists() or parts_dir(out).exists()


def default_out(spec: RunSpec) -> Path:
    return run_path("runs", spec)


def run_file(spec: RunSpec, n: int, runs_dir: str | os.PathLike = "runs") -> Path:
    """Where the experiment scripts (``experiments/``) and the notebooks keep deals 1..n of a
    run: ``<runs_dir>/<slug>_n<n>.parquet``, so a notebook run with an experiment's N reuses
    its per-deal rows."""
    return run_path(runs_dir, spec, f"_n{n}")


def parts_dir(out: Path) -> Path:
    """Where a batch writes its finished chunks until they are merged into ``out``."""
    return out.with_name(out.name + ".parts")


def set_aside_dir(out: Path) -> Path:
    """Where parts that cannot be used are moved (kept for a look, never read again)."""
    return out.with_name(out.name + ".bad")


def resolve_dir(path: Path) -> Path:
    """Where an escalation of a run file (``winnable resolve``) writes its finished chunks."""
    return path.with_name(path.name + ".resolve")
