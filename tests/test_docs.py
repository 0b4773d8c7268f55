"""docs/ (issue 41): the command reference covers every command and option of `winnable --help`
and `solve-batch --help` (it is generated from the click definitions by mkdocs-click blocks in
docs/cli.md; here, which blocks exist and what they cover), every page is in the nav of
mkdocs.yml, links between pages lead somewhere, and a win rate quoted in docs/ is one of the
results tables'.  `mkdocs build --strict` (CI, after these tests) checks the rendering."""

import importlib
import re
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from winnable.cli import cli, solve_batch_command

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CLI_PAGE = DOCS / "cli.md"
# The programs pyproject.toml installs, and the click command each one runs (winnable.cli.main,
# solve_batch_main).
PROGRAMS = {"winnable": cli, "solve-batch": solve_batch_command}


def click_blocks() -> list[dict]:
    """The ``::: mkdocs-click`` blocks of docs/cli.md with their options."""
    blocks, current = [], None
    for line in CLI_PAGE.read_text().splitlines():
        if line.startswith("::: mkdocs-click"):
            current = {}
            blocks.append(current)
        elif current is not None and (m := re.match(r"\s+:(\w+):\s*(.*)", line)):
            current[m.group(1)] = m.group(2).strip()
        else:
            current = None
    return blocks


def tree(prog: str, command: click.Command):
    """(command path, command) of a command and every subcommand, as mkdocs-click walks them."""
    yield prog, command
    for name, sub in getattr(command, "commands", {}).items():
        if not sub.hidden:
            yield from tree(f"{prog} {name}", sub)


def documented() -> dict[str, click.Command]:
    found = {}
    for block in click_blocks():
        command = getattr(importlib.import_module(block["module"]), block["command"])
        found.update(tree(block.get("prog_name") or command.name, command))
    return found


def test_pyproject_installs_the_programs_the_reference_documents():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert set(scripts) == set(PROGRAMS)
    assert {b.get("prog_name") for b in click_blocks()} == set(PROGRAMS)


def test_every_command_of_the_help_has_its_section():
    help_text = CliRunner().invoke(cli, ["--help"]).output
    listed = re.findall(r"^  (\w[\w-]*) ", help_text.split("Commands:")[1], re.M)
    assert listed and set(listed) == set(cli.commands)
    paths = documented()
    for prog, command in PROGRAMS.items():
        assert [p for p, _ in tree(prog, command) if p not in paths] == []
        assert all(paths[p] is c for p, c in tree(prog, command))
    for name in listed:
        assert f"winnable {name}" in paths


def test_every_option_is_in_the_generated_reference():
    """mkdocs-click renders each block as the build does; every option of every command, and
    every command's heading, is in it (skipped where the docs extra is not installed)."""
    docs = pytest.importorskip("mkdocs_click._docs")
    text = "\n".join(
        line for block in click_blocks()
        for line in docs.make_command_docs(
            block.get("prog_name"), getattr(importlib.import_module(block["module"]),
                                            block["command"]),
            depth=int(block.get("depth", 0)), has_attr_list=True))
    for prog, command in PROGRAMS.items():
        for path, sub in tree(prog, command):
            heading = re.search(rf"^#+ {re.escape(path)} {{", text, re.M)
            assert heading, path
            section = text[heading.end():]
            following = re.search(r"^#+ ", section, re.M)
            section = section[:following.start()] if following else section
            for param in sub.params:
                if isinstance(param, click.Option) and not param.hidden:
                    for opt in param.opts:
                        assert re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", section), \
                            (path, opt)


def nav_pages() -> list[str]:
    return re.findall(r":\s*([\w/-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)


def test_every_page_is_in_the_nav_and_every_link_leads_somewhere():
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(nav_pages()) == pages
    for page in DOCS.rglob("*.md"):
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" not in target:
                assert (page.parent / target).exists(), (page.name, target)


RATE = re.compile(r"\d+\.\d{3}% (?:to \d+\.\d{3}% \((?:bounds|estimate)\) )?\[\d+\.\d{3}, "
                  r"\d+\.\d{3}\]")


def test_win_rates_quoted_in_the_docs_are_the_results_tables():
    """Every rate the docs quote is in a committed table: results/, or an example game's own
    results/ (examples/golf's sweep, quoted by docs/adding-a-game.md)."""
    tables = " ".join(p.read_text() for p in [*(ROOT / "results").rglob("*.md"),
                                              *(ROOT / "examples").glob("*/results/*.md")])
    for page in [*DOCS.rglob("*.md"), ROOT / "README.md"]:
        for rate in RATE.findall(page.read_text()):
            assert rate in tables, (page.name, rate)
