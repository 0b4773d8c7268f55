"""Command line: a thin layer over the library API (``winnable.get_game``, ``solve_batch``,
``summarize``).

The module imports little (click, and the light ``winnable.games`` registry); each command
imports what it uses, so a Ctrl-C at any moment, even while Python loads numpy, ends the
program with a one-line message instead of a traceback.  It stays one module (about 600 lines)
because its commands share their options and helpers (``deal_options``, ``parse_options``) and
each is a few lines over the library: split, a reader would look for an option in several
files."""

from __future__ import annotations

import functools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from .errors import UserError
from .games import GAMES, LAST_DEAL, game_names, get_game
from .stopping import INTERRUPTED, one_line_on_stop
from .variants import VariantError

CONTEXT = {"help_option_names": ["-h", "--help"]}
game_option = click.option("--game", "-g", required=True, metavar="GAME",
                           help=f"one of: {', '.join(GAMES)}, or an installed plugin's "
                                "(`winnable games` lists them)")
variant_option = click.option("--variant", "-v", "variant", multiple=True, metavar="KEY=VALUE",
                              help="a rule flag (repeatable); `winnable games` lists them")
solver_option = click.option("--solver", "-s", default=None, metavar="SOLVER",
                             help="solver or player (default: the game's default)")
option_option = click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                             help="a solver option such as budget=1000000 (repeatable)")
numbering_option = click.option(
    "--numbering", default="winnable", show_default=True, metavar="NUMBERING",
    help="which deal a number is: winnable (the project's own) or pysol (PySolFC's game "
         "numbers, --game chinese)")


def parse_options(items: tuple[str, ...]) -> dict:
    options = {}
    for item in items:
        if "=" not in item:
            raise VariantError(f"option {item!r} is not key=value (e.g. budget=1000000)")
        key, value = item.split("=", 1)
        try:
            options[key.strip()] = int(value)
        except ValueError:
            try:
                options[key.strip()] = float(value)
            except ValueError:
                options[key.strip()] = value.strip()
    return options


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="winnable")
def cli():
    """winnable: how often can this solitaire be won, and how well can a player do?"""


@dataclass
class ChosenDeal:
    """The deal a command works on: the game, its cards under the rules given, how it was
    chosen (``seed``: its number; ``pysol``: PySolFC's game number as typed; both None for a
    deal typed in) and the rule flags."""

    game: Any
    cards: Any
    seed: int | None
    variant: tuple[str, ...]
    pysol: str | None = None

    def where(self) -> str:
        if self.pysol is not None:
            from .numbering import pysol_game
            return f"PySolFC {pysol_game(self.variant)} game {self.pysol}"
        return f"deal {self.seed}" if self.seed is not None else "the deal given"

    def as_options(self) -> str:
        """The options that choose this deal again, as typed on a command line."""
        if self.pysol is not None:
            chosen = f"--pysol {self.pysol}"
        elif self.seed is not None:
            chosen = f"--seed {self.seed}"
        else:
            chosen = f'--deal "{self.game.format_deal(self.cards)}"'
        return " ".join([f"--game {self.game.name}", chosen,
                         *(f"--variant {v}" for v in self.variant)])


def choose_deal(game: str, seed: int | None = None, deal_text: str | None = None,
                variant: tuple[str, ...] = (), pysol: str | None = None) -> ChosenDeal:
    """The one place where a command's deal is chosen: by number (``--seed``), by PySolFC's
    game number (``--pysol``, Chinese only) or written out (``--deal``), under the rule flags
    ``variant``; exactly one way must be given."""
    g = get_game(game)
    if [seed, deal_text, pysol].count(None) != 2:
        raise VariantError("give exactly one of --seed N, --pysol N or --deal \"...\"")
    if seed is not None and seed < 1:
        raise VariantError(f"--seed must be at least 1 (deal numbers start at 1), got {seed}")
    if seed is not None and seed > LAST_DEAL:
        raise VariantError(f"--seed must be at most {LAST_DEAL} (the last deal number), got "
                           f"{seed}")
    if pysol is not None:
        from .numbering import PYSOL, check_numbering, pysol_deal
        check_numbering(PYSOL, g.name)
        cards = pysol_deal(pysol, variant)
        pysol = pysol.strip()
    else:
        cards = g.deal(seed, variant) if seed is not None else g.parse_deal(deal_text, variant)
    return ChosenDeal(g, cards, seed, tuple(variant), pysol)


def deal_options(fn):
    """The options that choose a deal (--game, --seed N | --pysol N | --deal "...",
    --variant K=V), for every command that works on one deal; the command receives ``chosen``
    (a ``ChosenDeal``, from ``choose_deal``) instead of them."""
    @functools.wraps(fn)
    def command(*args, game, seed, deal_text, pysol, variant, **kwargs):
        return fn(*args, chosen=choose_deal(game, seed, deal_text, variant, pysol), **kwargs)

    for decorator in reversed([
            game_option,
            click.option("--seed", type=int, default=None, help="deal number (1, 2, ...)"),
            click.option("--deal", "deal_text", default=None,
                         help='the deck order, top card first, e.g. "AH 2D 9H ..."'),
            click.option("--pysol", default=None, metavar="N",
                         help="PySolFC's game number N (or msN), --game chinese: Chinese "
                              "Discipline, with easy=1 Chinese Solitaire"),
            variant_option]):
        command = decorator(command)
    return command


@cli.command()
@deal_options
@solver_option
@option_option
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--html", "html_file", type=click.Path(path_type=Path, dir_okay=False),
              default=None, help="also write the line as a page that replays it move by move "
                                 "(one self-contained HTML file)")
@click.option("--peek", "--reveal", "peek", is_flag=True,
              help="with --html: show the hidden cards too (face up, shaded)")
def solve(chosen, solver, options, as_json, html_file, peek):
    """Solve one deal and show the layout, outcome, score and line of play, each move with the
    cards it moves (JSON: ``moves`` and ``described``)."""
    from .session import replay_line
    g, cards, variant, seed = chosen.game, chosen.cards, chosen.variant, chosen.seed
    solver = g.check_solver(solver)
    options = g.solver_options(solver, parse_options(options))
    for note in g.option_notes(solver, options):
        click.echo(note, err=True)
    g.warm_up(variant, solver, options)  # compiled before the clock starts
    # The cards alone fix the game, random players included: a deal typed in plays the same.
    result = g.solve(cards, variant, solver, **options)
    result.seed = seed
    session, steps = replay_line(g, cards, result.moves, variant, result.solver)
    if html_file is not None:
        _write_page(session, html_file, peek, f"{g.title}, {chosen.where()} (rules: "
                    f"{result.variant}; solver {result.solver}: {result.outcome}, score "
                    f"{result.score})")
    if as_json:
        data = result.to_dict()
        data["described"] = [f"{step.move}  {step.described}" for step in steps]
        data["rules"] = g.rules(variant).as_text()
        if chosen.pysol is not None:
            data["pysol"] = int(chosen.pysol) if chosen.pysol.isdigit() else chosen.pysol
        click.echo(json.dumps(data))
        return
    click.echo(f"{g.title}, {chosen.where()} (rules: {result.variant}; solver: "
               f"{result.solver})")
    click.echo(g.layout(cards))
    click.echo(f"deal: {result.deal}")
    click.echo(f"outcome: {result.outcome}   score: {result.score}")
    for key, value in result.extra.items():
        if value == "":
            continue  # a text column with nothing to say for this deal (a won deal's proof)
        click.echo(f"{key}: {round(value, 4) if isinstance(value, float) else value}")
    click.echo(f"line of play ({len(result.moves)} moves):" if result.moves else "no moves")
    for step in steps:
        click.echo(f"  {step.number:3}. {step.move}  {step.described}")
    click.echo(f"{result.nodes:,} nodes in {1000 * result.seconds:.2f} ms")


def _line_source(moves: str | None, moves_file: Path | None, required: bool) -> list[str] | None:
    """The moves given with --moves or --moves-file (None: neither)."""
    from .session import read_moves
    if moves is not None and moves_file is not None:
        raise UserError("give --moves or --moves-file, not both")
    if moves_file is not None:
        try:
            return read_moves(moves_file.read_text())
        except OSError as exc:
            raise UserError(f"cannot read --moves-file {moves_file}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise UserError(f"--moves-file {moves_file} is not a text file") from None
    if moves is not None:
        return read_moves(moves)
    if required:
        raise UserError("give the line to check with --moves \"...\" or --moves-file F")
    return None


moves_option = click.option("--moves", default=None, metavar='"M1 M2 ..."',
                            help="a line of play: moves separated by spaces, as `solve` prints "
                                 "them (or its numbered lines, or its --json)")
moves_file_option = click.option("--moves-file", type=click.Path(path_type=Path, dir_okay=False),
                                 default=None, help="a file holding the line (`play`'s save, a "
                                 "batch row's moves, `replay` or `solve` output)")
line_player_option = click.option(
    "--solver", "-s", default=None, metavar="SOLVER",
    help="whose line it is: Impossible's random and lookahead players draw from the deal's "
         "play stream, and their lines replay only with their draws (default: a person)")


@cli.command()
@deal_options
@moves_option
@moves_file_option
@click.option("--solver", "-s", default=None, metavar="SOLVER",
              help="the solver whose line is shown (default: thoughtful where the game has "
                   "it); with --moves, whose line it is (see `verify --help`)")
@option_option
@click.option("--boards", is_flag=True, help="print the position after each move")
@click.option("--peek", "--reveal", "peek", is_flag=True,
              help="with --boards or --html: show the hidden cards too")
@click.option("--html", "html_file", type=click.Path(path_type=Path, dir_okay=False),
              default=None, help="also write the line as a page that replays it move by move "
                                 "(one self-contained HTML file)")
def replay(chosen, moves, moves_file, solver, options, boards, peek, html_file):
    """Show a line of play move by move with the cards named: the solver's line, or the one
    given with --moves."""
    g, cards, variant = chosen.game, chosen.cards, chosen.variant
    line = _line_source(moves, moves_file, required=False)
    if line is None:
        solver = g.check_solver(solver or ("thoughtful" if "thoughtful" in g.solvers else None))
        result = g.solve(cards, variant, solver, **g.solver_options(solver,
                                                                     parse_options(options)))
        line, who = result.moves, f"solver {solver}: {result.outcome}, score {result.score}"
    else:
        if options:
            raise UserError("--option applies to the solver's line, not to a line given")
        if solver is not None:
            solver = g.check_solver(solver)
        who = "the line given"
    from .errors import IllegalMove
    from .session import Session
    heading = f"{g.title}, {chosen.where()} (rules: {g.rules(variant).label}; {who})"
    click.echo(heading)
    session = Session(g, cards, variant, solver, forced=False)
    if boards:
        click.echo(_indented(session.board(peek)))
    for number, move in enumerate(line, start=1):
        try:
            steps = session.play(move)
        except IllegalMove as exc:
            raise IllegalMove(f"move {number} ({move}) is illegal: {exc}") from None
        for step in steps:
            click.echo(step.text())
        if boards:
            click.echo(_indented(session.board(peek)))
    click.echo(_ending(session))
    if html_file is not None:
        _write_page(session, html_file, peek, heading)


def _write_page(session, path: Path, peek: bool, title: str) -> None:
    """The line played in ``session`` as a page that replays it (``--html``); the note that
    says where goes to stderr, so that stdout stays what it was."""
    session.line_view(peek, title).save(path)
    click.echo(f"wrote {path}: the line move by move (open it in a browser; the arrow keys "
               "step)", err=True)


@cli.command()
@deal_options
@click.option("--peek", is_flag=True, help="show the hidden cards (face-down cards, stock, deck)")
@click.option("--warn", is_flag=True, help="flag at once every move that turns a winnable "
              "position into a lost one (the thoughtful solver after every move)")
@click.option("--budget", type=click.IntRange(min=1), default=None,
              help="search nodes for best, check, solve and --warn (default: the game's, "
                   "about a second of search); past it the answer is unknown")
def play(chosen, peek, warn, budget):
    """Play a deal in the terminal, one command a line (typed, or piped in): a move in the
    game's notation, moves, hint, best, check [--warn], solve, undo, board, save FILE,
    show [FILE], help, quit.  Hidden cards stay hidden unless --peek."""
    from .session import Session
    from .terminal import play as play_in_terminal
    g = chosen.game
    session = Session(g, chosen.cards, chosen.variant)
    click.echo(f"{g.title}, {chosen.where()} (rules: {session.rules.label}); `help` lists the "
               "commands")
    play_in_terminal(session, chosen.as_options(), peek, warn, budget)


def _indented(text: str) -> str:
    return "\n".join("    " + row for row in text.splitlines())


def _ending(session) -> str:
    if session.over:
        return f"outcome: {session.outcome}   score: {session.score}"
    return f"the game goes on (the line stops before its end); score so far: {session.score}"


@cli.command()
@deal_options
@moves_option
@moves_file_option
@line_player_option
def verify(chosen, moves, moves_file, solver):
    """Check a line of play against the rules: every move legal prints the outcome and score
    reached (exit 0); otherwise the first illegal move, its number and why (exit 1)."""
    from .session import verify_line
    g = chosen.game
    line = _line_source(moves, moves_file, required=True)
    if solver is not None:
        solver = g.check_solver(solver)
    verdict = verify_line(g, chosen.cards, line, chosen.variant, solver)
    click.echo(verdict.text())
    if not verdict.ok:
        click.get_current_context().exit(1)


def batch_command(fn):
    decorators = [
        click.command(context_settings=CONTEXT),
        game_option,
        click.option("--n", "n", type=int, required=True, help="number of deals"),
        click.option("--start", type=int, default=1, show_default=True, help="first deal number"),
        numbering_option,
        variant_option,
        solver_option,
        option_option,
        click.option("--workers", "-w", type=int, default=None,
                     help="worker processes (default: all cores; not with --scheduler)"),
        click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="Parquet file (default runs/<game>_<solver>[_<rules>].parquet); "
                          "rerunning resumes"),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="run on a Dask distributed cluster (pip install "
                          "'winnable[cluster]') instead of local processes"),
        click.option("--chunk", type=int, default=None,
                     help="deals per task (default: game-specific)"),
        click.option("--json", "as_json", is_flag=True,
                     help="print the summary as a JSON list (keys: docs/batch.md, Summary keys); the "
                          "line saying where the deals are stored goes to stderr"),
        click.option("--quiet", "-q", is_flag=True, help="no progress bar"),
    ]
    for decorator in reversed(decorators):
        fn = decorator(fn)
    return fn


def run_batch(game, n, start, numbering, variant, solver, options, workers, out, scheduler,
              chunk, as_json, quiet):
    """Solve deals START..START+N-1 in parallel, store one row per deal, print the summary."""
    from .runs.batch import solve_batch
    from .stats import summarize
    with one_line_on_stop():
        df = solve_batch(game, n=n, start=start, variant=variant, solver=solver,
                         workers=workers, out=out, options=parse_options(options),
                         chunk_size=chunk, progress=not quiet, scheduler=scheduler,
                         numbering=numbering)
    summaries = summarize(df, get_game(game).summary_means)
    if as_json:
        from .runs.summary import summary_json
        click.echo(summary_json(summaries))
    for summary in [] if as_json else summaries:
        click.echo(summary.text())
    solved = df.attrs["solved"]
    click.echo(f"deals stored in {df.attrs['path']} ({solved:,} solved now, {n - solved:,} "
               "already there)", err=as_json)


@batch_command
def batch(**kwargs):
    """Solve deals START..START+N-1 in parallel, store one row per deal, print the summary
    (same as solve-batch)."""
    run_batch(**kwargs)


cli.add_command(batch, "batch")
solve_batch_command = batch_command(run_batch)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@option_option
@click.option("--workers", "-w", type=int, default=None,
              help="worker processes (default: all cores; not with --scheduler)")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="run on a Dask distributed cluster instead of local processes")
@click.option("--chunk", type=int, default=None, help="deals per task (default 4)")
@click.option("--sample", type=int, default=None, metavar="K",
              help="escalate only a seeded uniform random sample of K of the unknown deals, "
                   "for the stratified estimate of the win rate (docs/resolve.md, Estimating "
                   "the win rate from a sample)")
@click.option("--seed", type=int, default=1, show_default=True,
              help="with --sample: which sample (the same run and seed, the same deals)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
def resolve(files, options, workers, scheduler, chunk, sample, seed, quiet):
    """Solve the unknown deals of stored runs again with other solver options (e.g.
    --option budget=10000000) and write the answers into the same files.

    Decided rows are never changed; re-solved rows record the step and the options that
    produced them (columns step, options), and `winnable summary` reports what each
    escalation settled.  Interrupted (Ctrl-C, SIGTERM, SIGHUP), it resumes when rerun with the
    same options.  With --sample K, a seeded sample of K unknown deals is escalated and the
    summary that follows gives the stratified estimate of the win rate; the same command with
    a larger budget escalates the same sample's deals still unknown.
    """
    from .runs.resolve import resolve_file
    from .runs.summary import summary_texts
    opts = parse_options(options)
    with one_line_on_stop():
        for path in files:
            click.echo(resolve_file(path, opts, workers=workers, scheduler=scheduler,
                                    chunk=chunk, progress=not quiet, sample=sample,
                                    seed=seed).text())
            if sample is not None:
                click.echo(summary_texts([path]))


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--csv", "as_csv", is_flag=True, help="print one CSV row per run instead")
@click.option("--json", "as_json", is_flag=True,
              help="print a JSON list, one object per run (keys: docs/batch.md, Summary keys)")
def summary(files, as_csv, as_json):
    """Print the summary of saved runs (one block per game, solver and rules)."""
    from .runs.summary import summarized_runs, summary_json, summary_texts
    if as_csv and as_json:
        raise UserError("give --csv or --json, not both")
    if as_csv or as_json:
        summaries = summarized_runs(files)[0]
        if as_json:
            click.echo(summary_json(summaries))
            return
        import pandas as pd
        table = pd.DataFrame([s.as_row() for s in summaries])
        click.echo(table.to_csv(index=False, float_format="%.6g"), nl=False)
        return
    click.echo(summary_texts(files))


@cli.command()
@game_option
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--outcome", type=click.Choice(["win", "loss", "unknown"]), default=None,
              help="only deals with this verdict")
@click.option("--difficulty", default=None, metavar="GRADE",
              help="only deals of this grade (docs/deals.md lists each game's grades)")
@click.option("--start", type=int, default=None, help="first deal number of the range")
@click.option("--n", "n", type=int, default=None, help="deals in the range (from --start)")
@click.option("--limit", type=int, default=None, help="list at most this many deals")
@click.option("--numbering", default=None, metavar="NUMBERING",
              help="winnable or pysol (PySolFC's game numbers, --game chinese)")
@variant_option
@click.option("--solve", is_flag=True,
              help="first run the solvers the grades need over --start..--start+--n-1 "
                   "(resumable batches; into the FILE holding each solver's run, else "
                   "runs/<game>_<solver>...parquet)")
@click.option("--workers", "-w", type=int, default=None, help="worker processes for --solve")
@click.option("--csv", "as_csv", is_flag=True, help="print CSV (with each deal's cards)")
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
def deals(game, files, outcome, difficulty, start, n, limit, numbering, variant, solve,
          workers, as_csv, quiet):
    """List deals of stored runs (FILE...) with each solver's verdict and a difficulty grade,
    e.g. PySolFC games that are winnable but hard:

    \b
      winnable deals --game chinese --numbering pysol --start 1 --n 1000 \\
          --difficulty expert --solve
    """
    from .catalogue import (Selection, catalogue, catalogue_rows, filter_catalogue,
                            grade_counts, number_header, solve_missing)
    g = get_game(game)
    for name, value in (("--n", n), ("--start", start), ("--limit", limit)):
        if value is not None and value < 1:
            raise VariantError(f"{name} must be at least 1, got {value}")
    if solve:
        if n is None:
            raise VariantError("--solve needs the range to solve: --n N (and --start S, "
                               "default 1)")
        start = start or 1
        with one_line_on_stop():
            files = solve_missing(files, g.name, start, n, variant or None, numbering, workers,
                                  progress=not quiet)
    elif not files:
        raise VariantError("give run files (.parquet), or --solve with --n N to solve the deals "
                           "first")
    rows = catalogue_rows(files, Selection(g.name, variant or None, numbering, start, n))
    table = catalogue(rows, g.name)
    shown = filter_catalogue(table, g.name, outcome, difficulty, limit)
    if as_csv:
        click.echo(shown.to_csv(index=False), nl=False)
        return
    header = number_header(table["numbering"].iloc[0])
    listed = shown.drop(columns=["numbering", "deal"]).rename(columns={"seed": header})
    click.echo(listed.to_string(index=False, na_rep="-") if len(listed) else "no deals match")
    counts = ", ".join(f"{k} {v:,}" for k, v in grade_counts(table, g.name).items() if v)
    click.echo(f"{len(shown):,} of {len(table):,} deals listed "
               f"({header}s {table['seed'].min()}-{table['seed'].max()}: {counts})")


@cli.command()
@game_option
@variant_option
@solver_option
@option_option
@click.option("--n", "n", type=int, default=None, help="deals to time (default: game-specific)")
@click.option("--workers", "-w", type=int, default=None,
              help="also time a whole batch with this many workers")
def bench(game, variant, solver, options, n, workers):
    """Print deals/second and nodes/second on this machine (one core, after compilation)."""
    from .bench import run_bench
    for line in run_bench(game, variant, solver, parse_options(options), n, workers):
        click.echo(line)


@cli.command()
def games():
    """List the games, their solvers and rule flags."""
    for name in game_names():
        g = get_game(name)
        click.echo(f"{name}: {g.title}")
        click.echo("  solvers: " + ", ".join(
            f"{s}{' (default)' if s == g.default_solver else ''}" for s in g.solvers))
        for info in g.solvers.values():
            if info.options:
                click.echo(f"  --solver {info.name} options: " + "; ".join(
                    f"{k}={option.default} ({option.limits.describe()})"
                    for k, option in info.options.items()))
        for flag in g.flags.values():
            click.echo(f"  --variant {flag.name}=... (default {flag.format(flag.default)}; "
                       f"{flag.expected}): {flag.help}")


# The kinds of `winnable.plot.KINDS`, named here so that the CLI starts without matplotlib.
PLOT_KINDS = ("winrate", "scores", "paired", "running", "effort", "means")


@cli.command()
@click.argument("kind", type=click.Choice(PLOT_KINDS), metavar="KIND")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", default=None, metavar="PATH",
              help="file name without extension (writes PATH.png and PATH.svg), or a directory "
                   "(ending in /) for KIND_<run names>.png/.svg; default: plots/")
def plot(kind, files, out):
    """Draw a figure of saved runs (Parquet files from `batch`) as PNG and SVG.

    \b
    KIND is one of:
      winrate  win rate of each run with its 95% interval
      scores   score distribution of each run
      paired   two runs on the same deals: outcome under one against the other
      running  running win rate and its 95% interval as deals accumulate
      effort   solver effort per deal: nodes and seconds (log-scale ECDF)
      means    mean per deal of the game's extra columns (e.g. win probability)

    FILES are run files, or tables of summaries (.csv: `summary --csv`, a results
    table such as results/impossible/players.csv), which draw winrate and means.
    """
    from .plot import plot_files
    for path in plot_files(kind, files, out):
        click.echo(f"wrote {path}")


@cli.command()
@game_option
@click.option("--n", "n", type=int, required=True, help="deals per rule set")
@click.option("--grid", "grid", multiple=True, required=True, metavar="KEY=V1,V2",
              help="a rule flag and the values to sweep (repeatable: every combination is "
                   "run); when a value holds commas, separate values with |, e.g. "
                   "--grid 'targets=9,19|9'")
@variant_option
@solver_option
@option_option
@click.option("--start", type=int, default=1, show_default=True, help="first deal number")
@click.option("--workers", "-w", type=int, default=None,
              help="worker processes (default: all cores)")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="where tables, figure and runs go (default "
                   "runs/sweeps/<game>_<solver>_by_<grid keys>/); rerunning resumes")
@click.option("--quiet", "-q", is_flag=True, help="no progress bars")
def sweep(game, n, grid, variant, solver, options, start, workers, out_dir, quiet):
    """Solve the same deals under every combination of rule flags and compare: one table of
    win rates (CSV, Markdown), one of paired differences, one figure (PNG, SVG).

    Values of a --grid are separated by commas, or by | when a value itself holds commas
    (quote it for the shell). Deals START..START+N-1 are solved under each rule set into
    OUT_DIR/runs/ (one Parquet file each, resumable like `batch`).

    \b
    Examples:
      winnable sweep --game nineball --n 100000 --grid kitchen_per_group=1,2,3 \\
          --grid 'targets=9,19|9'
    """
    from .runs.sweep import parse_grid, sweep as run_sweep
    with one_line_on_stop():
        result = run_sweep(game, n, parse_grid(grid), start=start, variant=variant,
                           solver=solver, options=parse_options(options), workers=workers,
                           out_dir=out_dir, progress=not quiet)
    for rules, count in result.solved.items():
        click.echo(f"{rules}: {count:,} deals solved now, {n - count:,} already stored")
    click.echo()
    click.echo((result.out_dir / "summary.md").read_text())
    for path in result.files + result.runs:
        click.echo(f"wrote {path}")


def _run(command, name: str = "winnable") -> None:
    try:
        rc = command.main(standalone_mode=False, prog_name=name)
    except UserError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        sys.exit(INTERRUPTED)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    sys.exit(rc if isinstance(rc, int) else 0)


def main() -> None:
    _run(cli, "winnable")


def solve_batch_main() -> None:
    _run(solve_batch_command, "solve-batch")
