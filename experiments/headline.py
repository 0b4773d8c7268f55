"""Write results/README.md, the results page: for each game its tables (from the committed
tables under results/, written by the experiment scripts) and its figures, each with a few
sentences of what it shows.  It links to results/NOTES.md, the notebook of what was tried and
measured, rather than repeating it.

Every number in a finding is taken from a table shown on the page, formatted as the table shows
it (a test checks it), and every comparison a finding makes is checked against the tables
here: if a rerun makes a finding false, this script stops and says which (``holds``).  Win
rates are computed again from the tables' counts (``winnable.stats.headline``), so a table
written by an earlier version, whose ``win_rate`` was wins / decided deals, shows the honest
figures; a run with a stratified estimate (``experiments/stratified.py``) is shown with it.
First, the tables written by the experiment scripts are brought to today's columns from their
committed CSVs (``refresh``; nothing is solved).  A table that is missing is left out with the
findings that need it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd

from winnable.report import markdown, recount, refresh_tables
from winnable.stats import headline, rate_of_row, rate_text
from winnable.stopping import scripts_stop_in_one_line

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TABLES = ["nineball/thoughtful.csv", "nineball/nopeek.csv", "addario/summary.csv",
          "chinese/thoughtful.csv", "chinese/stratified.csv", "chinese/nopeek.csv",
          "impossible/players.csv", "impossible/stratified.csv"]
RUN_KEYS = ["game", "solver", "variant", "deals", "numbering"]
SOURCE = '"roughly 33%" (Jonte) and 50.42% (Rasa, 179 of 355 games, easy mode in the mix)'


def refresh(results: Path) -> None:
    """The committed summary tables with today's columns, recomputed from their counts: those
    of ``write_tables`` (their Markdown table drawn again), and the CSVs of the custom ones."""
    from chinese_nopeek import nopeek_markdown_table
    from chinese_solvitaire import write_report as solvitaire_report
    stems = ["nineball/thoughtful", "nineball/nopeek", "addario/summary", "chinese/thoughtful",
             "chinese/pysol", "impossible/players",
             *(str(p.relative_to(results).with_suffix(""))
               for p in sorted((results / "impossible/grid").glob("*.csv")))]
    for stem in stems:
        if (results / f"{stem}.csv").exists():
            refresh_tables(results / stem)
    if (results / "chinese/nopeek.csv").exists():
        refresh_tables(results / "chinese/nopeek", nopeek_markdown_table)
    if (results / "impossible/variants_all.csv").exists():
        path = results / "impossible/variants_all.csv"
        recount(pd.read_csv(path)).to_csv(path, index=False)
    if (results / "chinese/solvitaire.csv").exists():
        deal_lists = {"undecided_ours_deals": str, "undecided_solvitaire_deals": str}
        solvitaire_report(pd.read_csv(results / "chinese/solvitaire.csv", dtype=deal_lists),
                          results / "chinese/solvitaire")


def headline_rows(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of the headline table, each run once, in the order the runs first appear: a
    run's row with a stratified estimate (a sample of its unknowns escalated) in place of the
    same run's row without one."""
    rows = pd.concat(frames, ignore_index=True)
    if "numbering" in rows.columns:
        rows["numbering"] = rows["numbering"].fillna("winnable")
    keys = [k for k in RUN_KEYS if k in rows.columns]
    size = rows["sample_size"].fillna(0) if "sample_size" in rows.columns else 0
    order = rows.groupby(keys, sort=False, dropna=False).ngroup()
    return (rows.assign(_run=order, _sample=size)
            .sort_values(["_run", "_sample"], ascending=[True, False], kind="stable")
            .drop_duplicates("_run").drop(columns=["_run", "_sample"]))


class Missing(Exception):
    """A table or a row a finding needs is not there: the finding is left out."""


class FindingFails(SystemExit):
    """A finding no longer holds for the tables: rewrite it here."""


def holds(condition: bool, finding: str) -> None:
    if not condition:
        raise FindingFails(f"experiments/headline.py: the finding {finding!r} does not hold "
                           "for the tables under results/ any more; rewrite it")


class Page:
    """The tables under results/ as the page reads them."""

    def __init__(self, results: Path):
        self.results = results

    def csv(self, name: str) -> pd.DataFrame:
        path = self.results / name
        if not path.exists():
            raise Missing(name)
        return pd.read_csv(path)

    def md(self, name: str) -> tuple[str, list[str]]:
        """A Markdown table file's title and its tables (each the text of its ``|`` lines)."""
        path = self.results / name
        if not path.exists():
            raise Missing(name)
        title, tables, current = "", [], []
        for line in path.read_text().splitlines() + [""]:
            if line.startswith("# ") and not title:
                title = line[2:].strip()
            if line.startswith("|"):
                current.append(line)
            elif current:
                tables.append("\n".join(current) + "\n")
                current = []
        return title, tables


def pick(rows: pd.DataFrame, **keys) -> pd.Series:
    mask = pd.Series(True, index=rows.index)
    for key, value in keys.items():
        mask &= rows[key] == value
    if not mask.any():
        raise Missing(str(keys))
    return rows[mask].iloc[0]


def rate(row: pd.Series) -> str:
    """A run's win rate as its table shows it."""
    return rate_text(rate_of_row(row))


def low(row: pd.Series) -> float:
    return rate_of_row(row).low


def high(row: pd.Series) -> float:
    return rate_of_row(row).high


def point(row: pd.Series) -> float:
    return rate_of_row(row).least


def run_table(rows: pd.DataFrame, means: list[str] | None = None) -> str:
    table = headline(rows.reset_index(drop=True), means or ())
    return markdown(table, {c: c for c in table.columns})


def sample_table(rows: pd.DataFrame) -> str:
    """Runs with a stratified estimate: the sample of their unknown deals and the estimate."""
    shown = pd.DataFrame({
        "game": rows["game"], "solver": rows["solver"], "rules": rows["variant"],
        "deals": rows["deals"].map(lambda n: f"{n:,}"),
        "unknown at the defaults": rows["sample_stratum"].map(lambda n: f"{n:,}"),
        "sampled: won / lost / still unknown": [
            f"{int(r.sample_size):,}: {int(r.sample_wins)} / {int(r.sample_losses)} / "
            f"{int(r.sample_unknowns)}" for r in rows.itertuples()],
        "win rate (95% CI)": [rate(r) for _, r in rows.iterrows()]})
    return markdown(shown, {c: c for c in shown.columns})


def block(title: str, table: str, findings: str, source: tuple[str, str] | None = None) -> str:
    """A table under its heading, with its findings; ``source``: the table file it is taken
    from and that file's title."""
    origin = f"From `{source[0]}`: {source[1]}.\n\n" if source else ""
    return f"### {title}\n\n{origin}{table}\n{findings.strip()}\n\n"


def findings_or_nothing(write) -> str:
    try:
        return write()
    except Missing:
        return ""


# ---------------------------------------------------------------------------------------------
# Nineball Solitaire

def nineball_runs(page: Page) -> str:
    rows = pd.concat([page.csv("nineball/thoughtful.csv"), page.csv("nineball/nopeek.csv")],
                     ignore_index=True)
    table = run_table(rows)

    def findings():
        t, t1 = (pick(rows, solver="thoughtful", variant=v)
                 for v in ("default", "kitchen_per_group=1"))
        w, w1 = (pick(rows, solver="nopeek-win", variant=v)
                 for v in ("default", "kitchen_per_group=1"))
        s = pick(rows, solver="nopeek-score", variant="default")
        holds(low(t1) < low(t) and high(t1) < low(t), "the kitchen rule matters")
        holds(point(t) - point(w) < point(t1) - point(w1) and point(w) < point(t),
              "not peeking costs more with one kitchen card per group")
        return (
            f"With every card known the rack can be cleared in {rate(t)} of deals under the rule "
            f"as written, and in {rate(t1)} with one kitchen card per group "
            "(`kitchen_per_group=1`), the reading under which the text's worked example is "
            "consistent; the solver is exact, so no deal is unknown. The exact optimal player "
            f"who sees only what a person sees (`nopeek-win`) clears {rate(w)} and {rate(w1)}: "
            "not seeing the face-down kitchen cards costs little under the rule as written, "
            "more when a group may use one kitchen card. Its expected score (`nopeek-score`, "
            f"mean {s.mean_score:.3f}) is close to the optimum with every card known "
            f"({t.mean_score:.3f}).")
    return block("Every solver under both kitchen rules", table, findings_or_nothing(findings))


def nineball_means(page: Page) -> str:
    rows = page.csv("nineball/nopeek.csv")
    names = ["win_probability", "thoughtful_win", "expected_score", "thoughtful_score"]
    table = headline(rows, names)
    keep = ["solver", "rules", "deals", *(f"mean {n} (95% CI)" for n in names)]
    table = markdown(table[keep], {c: c for c in keep})

    def findings():
        w, w1 = (pick(rows, solver="nopeek-win", variant=v)
                 for v in ("default", "kitchen_per_group=1"))
        cell = lambda r, n: f"{r[f'mean_{n}']:.4f}"  # noqa: E731
        holds(w.mean_win_probability < w.mean_thoughtful_win, "the no-peek chance is lower")
        return (
            "Per deal, the no-peek players' exact chance of clearing the rack given what they "
            "see at the start, averaged over the face-down cards, beside the optimum of the same "
            f"deals with every card known: {cell(w, 'win_probability')} against "
            f"{cell(w, 'thoughtful_win')} under the rule as written, "
            f"{cell(w1, 'win_probability')} against {cell(w1, 'thoughtful_win')} with one "
            "kitchen card per group. The mean chance is the no-peek win rate with a narrower "
            "interval than the games played, since the chance of the face-down cards is "
            "averaged out exactly.")
    return block("Without peeking: exact probabilities and expected scores", table,
                 findings_or_nothing(findings))


# ---------------------------------------------------------------------------------------------
# Solitario di Addario

def addario_runs(page: Page) -> str:
    rows = page.csv("addario/summary.csv")
    table = run_table(rows)

    def findings():
        f, t, n = (pick(rows, solver=s, variant="default") for s in ("first", "thoughtful",
                                                                      "nopeek"))
        tv = pick(rows, solver="thoughtful", variant="column_free_equal=1")
        holds(high(f) < low(n) and high(n) < low(t), "first < nopeek < thoughtful")
        holds(point(t) - point(n) > point(n) - point(f), "most of the gap is the deck order")
        holds(low(tv) > high(t), "the variant helps thoughtful")
        return (
            f"The game is rarely won: {rate(f)} of deals played as written (`first`), {rate(t)} "
            f"with the best choice of pairs and every card known (`thoughtful`). A player who "
            f"sees only the table (`nopeek`) wins {rate(n)}: choosing pairs well helps, but most "
            "of what `thoughtful` gains needs the order of the deck, which no player sees. In "
            f"the author's variant (`column_free_equal=1`) `thoughtful` wins {rate(tv)}: column "
            "and free pairs in one tier give the player more choices.")
    return block("Every solver under both tier rules", table, findings_or_nothing(findings))


# ---------------------------------------------------------------------------------------------
# Chinese Solitaire

def chinese_thoughtful(page: Page) -> str:
    rows = page.csv("chinese/thoughtful.csv")
    table = run_table(rows)

    def findings():
        s, e = (pick(rows, variant=v) for v in ("default", "easy=1"))
        return (
            f"With every card known, {rate(s)} of strict deals (kings only into spaces) can be "
            f"won at the default budget, {int(s.unknowns):,} of {int(s.deals):,} left "
            f"undecided; in easy mode (any card into a space) {rate(e)}. The bounds count the "
            "undecided deals lost, then won; the share of decided deals won is not the rate, "
            "because the undecided deals are the hard ones (next table).")
    return block("With every card known", table, findings_or_nothing(findings))


def chinese_sample(page: Page) -> str:
    rows = page.csv("chinese/stratified.csv")
    table = sample_table(rows)

    def findings():
        s, e = (pick(rows, variant=v) for v in ("default", "easy=1"))
        plain = pick(page.csv("chinese/thoughtful.csv"), variant="default")
        won, lost = int(s.sample_wins), int(s.sample_losses)
        holds(won / (won + lost) < rate_of_row(plain).decided_share,
              "the sampled unknowns are won less often than the decided deals")
        holds(rate_of_row(s).low > max(0.3300, 0.5042), "the low end is above the source")
        return (
            f"A seeded sample of {int(s.sample_size):,} of the {int(s.sample_stratum):,} strict "
            "deals left undecided, solved again with far larger budgets "
            f"(`chinese/stratified.md` gives the commands), gave {won} wins, {lost} losses and "
            f"{int(s.sample_unknowns)} still undecided: the undecided deals are won far less "
            "often than the decided ones. The stratified estimate counts the decided deals and "
            f"estimates the others from the sample: {rate(s)} of strict deals, {rate(e)} in easy "
            f"mode. Even its low end is far above the source's {SOURCE}: those are people's "
            "play, who see only the face-up cards, to be read against the players below.")
    return block("The undecided deals, estimated from a sample", table,
                 findings_or_nothing(findings))


def chinese_nopeek(page: Page) -> str:
    title, tables = page.md("chinese/nopeek.md")
    rows = page.csv("chinese/nopeek.csv")

    def findings():
        players = rows[rows.solver != "thoughtful"]
        best = {v: max((r for _, r in players[players.variant == v].iterrows()), key=point)
                for v in ("default", "easy=1")}
        strategy, random = (pick(rows, solver=p, variant="default")
                            for p in ("strategy", "random"))
        holds(all(not (low(r) <= x <= high(r)) for _, r in players.iterrows()
                  for x in (0.33, 0.5042)), "no player's interval holds 33% or 50.42%")
        holds(low(random) > 0 and high(random) < 0.33 < low(strategy),
              "careful players above the source, random below")
        holds(best["default"].solver == best["easy=1"].solver, "one best player in both modes")
        b = best["default"]
        return (
            f"On the same {int(b.deals):,} deals, the best player who sees only the face-up "
            f"cards, `{b.solver}`, wins {rate(b)} of strict deals and {rate(best['easy=1'])} in "
            f"easy mode; `strategy` (the text's own advice, played consistently) {rate(strategy)}"
            f", a random player {rate(random)}. Neither 33% nor 50.42% lies inside any player's "
            "interval: careful players win far more than the source reports, a random one far "
            "less. No deal a player without peeking wins is one the thoughtful solver proves "
            "lost (`chinese/nopeek_paired.csv` crosses every player's outcomes with "
            "thoughtful's).")
    return block("Without peeking, against the source's figures", tables[0],
                 findings_or_nothing(findings), ("chinese/nopeek.md", title))


def chinese_ladder(page: Page) -> str:
    title, tables = page.md("chinese/ladder.md")
    steps = page.csv("chinese/ladder.csv")

    def findings():
        first, last = steps.iloc[0], steps.iloc[-1]
        holds(last["unknown left"] > 0 and steps.iloc[1:]["wins"].sum() > 0,
              "larger budgets settle some, not all")
        cost = steps["s per deal settled"].dropna().tolist()
        holds(cost == sorted(cost), "each step costs more per deal it settles")
        return (
            f"Larger budgets settle the undecided strict deals slowly: of the "
            f"{int(first['unknown left'])} unknown at the defaults, a beam search and larger "
            f"budgets, up to `{last['options']}`, leave {int(last['unknown left'])} undecided, "
            "each step costing more per deal it settles (`docs/resolve.md`: raise `memory_mb` "
            "with the budget).")
    return block("The undecided strict deals under larger budgets", tables[0],
                 findings_or_nothing(findings), ("chinese/ladder.md", title))


def chinese_pysol(page: Page) -> str:
    title, tables = page.md("chinese/pysol.md")
    rows = page.csv("chinese/pysol.csv")

    def findings():
        ours = page.csv("chinese/nopeek.csv")
        pairs = [(pick(rows, solver=s, variant=v), pick(ours, solver=s, variant=v))
                 for s in ("thoughtful", "sampling") for v in ("default", "easy=1")]
        holds(all(low(a) <= high(b) and low(b) <= high(a) for a, b in pairs),
              "PySolFC's games agree with ours")
        t, s = (pick(rows, solver=p, variant="default") for p in ("thoughtful", "sampling"))
        return (
            f"PySolFC's games give the picture ours give: with every card known {rate(t)} of "
            f"strict games, `sampling` {rate(s)}, every interval overlapping ours in both modes "
            "(both numberings are uniform shuffles of the deck). `winnable solve --game chinese --pysol "
            "N` solves the game PySolFC shows as number N.")
    return block("PySolFC's game numbers", tables[0], findings_or_nothing(findings),
                 ("chinese/pysol.md", title))


def chinese_catalogue(page: Page) -> str:
    title, tables = page.md("chinese/catalogue.md")

    def findings():
        lines = [line for line in tables[0].splitlines()[2:]]
        row = next(line for line in lines if "| winnable | strict |" in line)
        cells = [c.strip() for c in row.strip("|").split("|")]
        easy, hard, expert, _, lost, unknown = cells[2:8]
        return (
            f"Of our strict deals, `strategy` wins {easy} (`easy`), {hard} more need `sampling` "
            f"(`hard`), {expert} are won only with every card known (`expert`), {lost} are "
            f"proven lost and {unknown} undecided. `winnable deals --difficulty expert` lists "
            "them, with their cards.")
    return block("Deals per difficulty grade", tables[0], findings_or_nothing(findings),
                 ("chinese/catalogue.md", title))


def chinese_solvitaire(page: Page) -> str:
    title, tables = page.md("chinese/solvitaire.md")
    rows = page.csv("chinese/solvitaire.csv")

    def findings():
        holds((rows["disagreements"] == 0).all(), "no disagreement with Solvitaire")
        first = rows["first"] if "first" in rows else pd.Series(1, index=rows.index)
        setting = (rows["winnable"] if "winnable" in rows
                   else pd.Series("default settings", index=rows.index))
        default = setting == "default settings"
        holds((rows["time_ratio"][default] < 1).all(), "faster than Solvitaire")

        def shares(which):
            return "; ".join(
                f"{rule.removeprefix('blocks=sequence ')}, deals {f:,}-{f + n - 1:,}: {round(r, 3)}"
                for rule, f, n, r in zip(rows["rules"][which], first[which],
                                         rows["deals"][which], rows["time_ratio"][which]))

        more = rows["undecided_ours"] > rows["undecided_solvitaire"]
        text = ("On the rules both solvers play (`blocks=sequence`: only built runs move "
                "together), the verdicts agree on every deal both decide; on those deals "
                "winnable's thoughtful solver at its defaults needs this share of Solvitaire's "
                f"summed solver time: {shares(default)}."
                + (" At its default budget it leaves more deals undecided than Solvitaire does "
                   "within its time limit." if more[default].any() else ""))
        for step in dict.fromkeys(setting[~default]):
            which = setting == step
            text += (f" With its unknown deals solved again (`winnable resolve`, options "
                     f"`{step.removeprefix('then resolve ')}`; both searches of a re-solved "
                     "deal counted) it leaves "
                     + ("more deals undecided than Solvitaire in some range and rules"
                        if more[which].any() else
                        "no more deals undecided than Solvitaire in any range and rules")
                     + f", and needs this share of Solvitaire's summed time: {shares(which)}.")
        return text
    return block("Beside Solvitaire", tables[0], findings_or_nothing(findings),
                 ("chinese/solvitaire.md", title))


# ---------------------------------------------------------------------------------------------
# Impossible

def impossible_players(page: Page) -> str:
    rows = page.csv("impossible/players.csv")
    table = run_table(rows)

    def findings():
        r, g, la, h = (pick(rows, solver=p) for p in ("random", "greedy", "lookahead",
                                                       "halving"))
        t = pick(rows, solver="thoughtful")
        holds(high(r) < low(g) and high(g) < low(la) and high(la) < low(h),
              "random < greedy < lookahead < halving")
        holds(low(t) > 0.95, "thoughtful wins more than 95% at its defaults")
        proven = ("it proves none lost" if int(t.losses) == 0 else
                  f"it proves {int(t.losses):,} lost")
        return (
            "A player who cannot see the deck rarely wins: `random` "
            f"{rate(r)}, `greedy` {rate(g)}, `lookahead` (rollouts finished by greedy) "
            f"{rate(la)}, `halving` (the same rollouts spent by sequential halving) {rate(h)}, "
            "each interval clear of the next. `thoughtful` knows the deck and every future "
            f"reshuffle: at its defaults it wins {rate(t)}; its search can prove a loss, "
            f"{proven}, and leaves {int(t.unknowns)} unknown (next table).")
    return block("Players under the default rules", table, findings_or_nothing(findings))


def impossible_sample(page: Page) -> str:
    rows = page.csv("impossible/stratified.csv")
    table = sample_table(rows)

    def findings():
        t = pick(rows, solver="thoughtful")
        holds(int(t.sample_losses) == 0, "no sampled deal lost")
        holds(high(t) - low(t) <= 0.03, "the estimate is at most 3 points wide")
        return (
            f"A seeded sample of {int(t.sample_size):,} of the {int(t.sample_stratum):,} deals "
            f"`thoughtful` left unknown, searched again with a larger budget, gave "
            f"{int(t.sample_wins)} wins, {int(t.sample_losses)} losses and "
            f"{int(t.sample_unknowns)} still unknown: the stratified estimate is {rate(t)}. A "
            "player who knows the future wins almost every deal; a player who does not, almost "
            "none.")
    return block("The thoughtful bound, estimated from a sample", table,
                 findings_or_nothing(findings))


def impossible_paired(page: Page) -> str:
    title, tables = page.md("impossible/paired.md")
    text = "".join(f"{t}\n" for t in tables)
    findings = (
        "Each pair of players on the same games: the games won by one and not the other, and the "
        "difference of their win rates with its 95% interval from those games alone. Every "
        "difference is positive and its interval clear of zero: each idea adds wins on the same "
        "deals, not only on average.")

    def check():
        cells = [line.split("|") for t in tables for line in t.splitlines()[2:]]
        diffs = [c for row in cells for c in row if "points" in c]
        holds(diffs and all(d.strip().startswith("+") and d.split("[")[1].startswith("+")
                            for d in diffs), "every paired difference is positive")
    check()
    return block("Players against each other, game by game", text, findings,
                 ("impossible/paired.md", title))


def rate_of_cell(cell: str) -> tuple[float, float]:
    """The 95% interval of a win rate as a table cell shows it, in percent: ``100.000%
    [99.808, 100.000]`` -> (99.808, 100.0)."""
    low_text, high_text = cell.split("[")[1].rstrip("]").split(",")
    return float(low_text), float(high_text)


def impossible_variants(page: Page) -> str:
    title, tables = page.md("impossible/variants.md")
    rows = page.csv("impossible/variants.csv")

    def findings():
        best = rows.iloc[[float(c.split("%")[0]) for c in rows["win rate (95% CI)"]].index(
            max(float(c.split("%")[0]) for c in rows["win rate (95% CI)"]))]
        holds(best["fifteen"] == "unlimited" and best["new_pile_penalty"] == "beyond_nine",
              "unlimited fifteen with beyond_nine is the easiest")
        others = rows.drop(best.name)
        holds(all(float(c.split("%")[0]) < 1 for c in others["win rate (95% CI)"]),
              "every other rule set stays under 1%")
        bounds = [rate_of_cell(c) for c in rows["thoughtful bound (95% CI)"]]
        holds(all(h - lo <= 3 for lo, h in bounds),
              "every thoughtful bound is at most 3 points wide")
        lowest = min(lo for lo, _ in bounds)
        cell = rows["thoughtful bound (95% CI)"].iloc[[lo for lo, _ in bounds].index(lowest)]
        return (
            "The rules matter. With `fifteen=unlimited` and `new_pile_penalty=beyond_nine`, "
            f"`{best['best player']}` wins {best['win rate (95% CI)']} of "
            f"{best['games']} games: reaching fifteen points then lets a player clear the table; "
            "under every other rule set the best player stays under one game in a hundred. "
            "The thoughtful bound says something under every rule set: its search leaves few "
            "deals unknown, those are searched again with a larger budget, and every bound is "
            f"at most 3 points wide, the lowest {cell}: a player who knows the future wins "
            "almost every deal whatever the rules.")
    return block("Rule variants", tables[0], findings_or_nothing(findings),
                 ("impossible/variants.md", title))


# ---------------------------------------------------------------------------------------------
# Figures, per game: (file, caption, what it shows); drawn by experiments/<game>.py.

FIGURES = {
    "Nineball Solitaire": [
        ("nineball/winrate.png", "win rate of every solver and rule set, with its 95% interval",
         "The two kitchen rules separate every solver; under each, the no-peek players sit "
         "just below `thoughtful`."),
        ("nineball/paired_rules.png", "the same deals under the default rule and one kitchen "
         "card per group (thoughtful)",
         "No deal is won with one kitchen card per group and lost under the rule as written: "
         "every group of the first is legal under the second."),
        ("nineball/paired_nopeek.png", "the no-peek player (`nopeek-win`) against thoughtful on "
         "the same deals, one kitchen card per group",
         "The deals the no-peek player loses and `thoughtful` wins are those where the "
         "face-down cards lead it astray; a deal `thoughtful` loses, no player wins."),
        ("nineball/nopeek_means.png", "no peeking against thoughtful: the exact probability of "
         "clearing the rack and the expected score, mean per deal",
         "The means of the table above, with their intervals."),
        ("nineball/scores.png", "score distributions (thoughtful)",
         "A cleared rack always outscores a stuck game by more than ten points, so the "
         "scores fall in two groups."),
    ],
    "Solitario di Addario": [
        ("addario/winrate.png", "win rate of every solver and tier rule, with its 95% interval",
         "`first` and `nopeek` close together, `thoughtful` above both, under either tier rule."),
        ("addario/paired_rules.png", "the same deals under the default tiers and the author's "
         "variant (thoughtful)",
         "No deal is won under the default tiers and lost in the variant: every line of the "
         "first is a line of the second."),
        ("addario/paired_nopeek.png", "the no-peek player against thoughtful on the same deals",
         "Most deals are lost by both; a deal won without seeing the deck is won by "
         "`thoughtful` too."),
        ("addario/scores.png", "score distributions (default tiers)",
         "Scores are even (cards leave in pairs); a win discards all forty cards."),
    ],
    "Chinese Solitaire": [
        ("chinese/winrate.png", "thoughtful win rate, strict and easy, with its 95% interval",
         "Drawn from the runs at the default budget: the strict bar spans the bounds; the "
         "stratified estimate above narrows it."),
        ("chinese/paired_rules.png", "strict against easy on the same deals (thoughtful)",
         "No deal is won in strict mode and lost in easy mode: every strict move is legal in "
         "easy mode."),
        ("chinese/nopeek_winrate.png", "every no-peek player beside thoughtful",
         "The no-peek players in both modes beside `thoughtful`'s bounds."),
        ("chinese/nopeek_paired_sampling.png", "the best no-peek player (`sampling`) against "
         "thoughtful on the same deals (strict)",
         "Every deal `sampling` wins is won with every card known; the difference is the deals "
         "whose face-down cards it could not guess."),
        ("chinese/scores.png", "score distributions (thoughtful)",
         "A win puts every card on the foundations; lost and undecided deals spread below it."),
        ("chinese/nopeek_scores.png", "score distributions of every player (strict)",
         "Every player's scores on the same strict deals."),
    ],
    "Impossible": [
        ("impossible/winrate.png", "win rate of each player under the default rules "
         "(thoughtful's bound in `impossible/players.md`)",
         "The players who cannot see the deck, each interval clear of the next."),
        ("impossible/variants_greedy.png", "greedy's win rate under every fifteen rule and "
         "new-pile penalty", "`greedy` under each rule set."),
        ("impossible/variants_lookahead.png", "lookahead's win rate under every rule set",
         "`lookahead` under each rule set: the unlimited fifteen rule with the `beyond_nine` "
         "penalty stands out."),
        ("impossible/variants_thoughtful.png", "the thoughtful bound under every rule set "
         "(unknown deals counted both ways)",
         "The thoughtful bounds: almost every deal won under every rule set."),
        ("impossible/variants_random.png", "random's win rate under every rule set",
         "The random player under each rule set."),
        ("impossible/means.png", "piles picked up, new piles and decisions per game",
         "How the players' games differ: piles picked up, new piles, decisions."),
        ("impossible/scores.png", "score distributions",
         "Scores at the end of each game; `impossible/players.md` counts the games lost with "
         "the score at 0 and with the deck empty."),
    ],
}

SECTIONS = {
    "Nineball Solitaire": [nineball_runs, nineball_means],
    "Solitario di Addario": [addario_runs],
    "Chinese Solitaire": [chinese_thoughtful, chinese_sample, chinese_nopeek, chinese_ladder,
                          chinese_pysol, chinese_catalogue, chinese_solvitaire],
    "Impossible": [impossible_players, impossible_sample, impossible_paired,
                   impossible_variants],
}

# Further tables, listed (file, what it holds).
MORE = [
    ("chinese/effort.csv", "nodes and seconds per deal of the thoughtful runs (median, `p99`, "
     "maximum, mean)"),
    ("chinese/versions_strict.md", "an earlier version of the thoughtful solver against "
     "the current one on the same strict deals (`versions_easy.md`: easy)"),
    ("chinese/barren.md", "what proving barren subtrees lost could save on the undecided "
     "strict deals"),
    ("chinese/reductions.md", "persistent sets and the twin abstraction, measured on positions "
     "searched completely"),
    ("chinese/nopeek_paired.csv", "every no-peek player's outcome beside thoughtful's, deal by "
     "deal"),
    ("chinese/nopeek_effort.md", "the `sampling` player with more samples a decision, each "
     "effort paired against the default one on the same deals"),
    ("chinese/catalogue_winnable.csv", "the grade of each of our first Chinese deals "
     "(`catalogue_pysol.csv`: PySolFC's)"),
    ("impossible/ideas.md", "what each idea of the rollout players gains"),
    ("impossible/variants_all.csv", "every player under every rule set (`impossible/grid/`: "
     "one table each)"),
]

INTRO = """# Results

What `winnable` found for each game: the tables the experiment scripts wrote under `results/`
(`python experiments/<game>.py`; each row ends with the command that reproduces it) and their
figures, with what each shows. Per-deal data stays out of git (`runs/`). The notebook of what
was tried, measured and decided along the way, and why, is [NOTES.md](NOTES.md).

A win rate is a share of all N deals with its 95% interval (Wilson's). Where deals are
`unknown` (not decided within the solver's budget) the table gives the pair of bounds
(`(bounds)`: every unknown lost, every unknown won) with the interval around the pair; where a
sample of the unknowns was escalated, the stratified estimate (`(estimate)`); never wins /
decided deals, which the hard unknown deals bias upwards. A mean score over a run with unknowns
is a lower bound. How each figure is computed: `docs/statistics.md`. This page is written by
`python experiments/headline.py` from the committed tables.
"""


def figures(results: Path, game: str) -> str:
    shown = [(f, caption, what) for f, caption, what in FIGURES[game] if (results / f).exists()]
    if not shown:
        return ""
    return "### Figures\n\nEach is also an SVG beside it; its caption gives N, the rules and " \
        "the solver of every run.\n\n" + "".join(
            f"![{caption}]({f})\n\n*{caption[0].upper() + caption[1:]}.* {what}\n\n"
            for f, caption, what in shown)


def page_text(results: Path) -> str:
    page = Page(results)
    text = INTRO
    for game, sections in SECTIONS.items():
        parts = []
        for write in sections:
            try:
                parts.append(write(page))
            except Missing:
                continue
        body = "".join(parts) + figures(results, game)
        if body:
            text += f"\n## {game}\n\n{body}"
    more = [(f, what) for f, what in MORE if (results / f).exists()]
    if more:
        text += "\n## More tables\n\n" + "".join(f"- `{f}`: {what}.\n" for f, what in more)
    return text.rstrip("\n") + "\n"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results-dir", default=str(RESULTS))
    results = Path(parser.parse_args().results_dir)
    scripts_stop_in_one_line()
    refresh(results)
    text = page_text(results)
    (results / "README.md").write_text(text)
    print(text)
