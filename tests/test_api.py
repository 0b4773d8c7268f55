"""The public API (``winnable.__all__``, issue 59): every public name has a docstring with an
example, and every example runs: the docstrings' (doctest) and the Python blocks of each page
of the API reference (docs/api/), each page's blocks run in order in a fresh folder."""

import ast
import doctest
import inspect
import re
from pathlib import Path

import pytest

import winnable
from winnable.stats import Summaries, summarize

ROOT = Path(__file__).resolve().parent.parent
API_PAGES = sorted((ROOT / "docs" / "api").glob("*.md"))
PUBLIC = [name for name in winnable.__all__ if name != "__version__"]


def attribute_docstring(module, name: str) -> str | None:
    """The string right after ``name = ...`` in the module's source (a constant's docstring, as
    mkdocstrings reads it)."""
    body = ast.parse(inspect.getsource(module)).body
    for statement, following in zip(body, body[1:]):
        if (isinstance(statement, ast.Assign)
                and any(getattr(t, "id", None) == name for t in statement.targets)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)):
            return inspect.cleandoc(following.value.value)
    return None


def docstring(name: str) -> str:
    obj = getattr(winnable, name)
    if inspect.ismodule(obj) or inspect.isclass(obj) or callable(obj):
        return inspect.getdoc(obj) or ""
    return attribute_docstring(winnable.games, name) or ""


def test_the_public_api_is_what_all_declares():
    assert len(PUBLIC) == len(set(PUBLIC))
    for name in PUBLIC:
        assert getattr(winnable, name) is not None, name
    assert set(dir(winnable)) >= set(winnable.__all__)


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_has_a_docstring_with_an_example(name):
    text = docstring(name)
    assert len(text.split()) >= 8, f"{name}: no docstring to speak of"
    assert re.search(r"^Examples:\n\s+>>> ", text, re.M), f"{name}: no example"


@pytest.mark.parametrize("name", PUBLIC)
def test_every_docstring_example_runs(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # examples write runs/, plots/, sweeps/ here
    parser = doctest.DocTestParser()
    test = parser.get_doctest(docstring(name), {}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, f"{name}: see the output above"


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", page.read_text(), re.M | re.S)


def test_every_area_has_its_page():
    names = {p.stem for p in API_PAGES}
    assert {"index", "games", "deal", "batches", "resolve", "runs", "statistics",
            "figures"} <= names
    for page in API_PAGES:
        if page.stem != "index":
            assert python_blocks(page), f"{page.name} has no example"
            assert "::: winnable" in page.read_text(), f"{page.name} documents nothing"


@pytest.mark.parametrize("page", API_PAGES, ids=[p.name for p in API_PAGES])
def test_the_examples_of_each_page_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__main__"}
    for block in python_blocks(page):
        exec(compile(block, str(page), "exec"), namespace)


def test_summaries_print_as_a_table_not_a_list_of_objects():
    import pandas as pd
    rows = pd.DataFrame({"game": "nineball", "solver": "thoughtful", "variant": "default",
                         "seed": [1, 2, 3], "outcome": ["win", "win", "loss"],
                         "score": [25, 25, 10]})
    summaries = summarize(rows)
    assert isinstance(summaries, Summaries) and isinstance(summaries, list)
    shown = repr(summaries)
    assert "Summary(" not in shown and "66.667% [20.766, 93.851]" in shown
    assert shown.splitlines()[0].split()[:4] == ["game", "solver", "rules", "deals"]
    assert str(summaries).startswith("nineball | solver thoughtful | rules default")
    assert "<table" in summaries._repr_html_()
    assert repr(summaries[0]).startswith("<Summary nineball | thoughtful | default: 66.667%")
