"""The package's modules import one another without a circle: the import graph (every import
written in the source, at the top of a module or inside a function) has no cycle, and the modules
that once formed one, ``winnable.numbering`` and ``winnable.games``, import in either order."""

import ast
import subprocess
import sys
from pathlib import Path

import winnable

PACKAGE = Path(winnable.__file__).resolve().parent


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``from X import name`` counts as importing
    ``X.name`` where that is a module, else ``X``)."""
    known = modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: from the module's package, up level - 1
                    base = ".".join(here[:len(here) - node.level + 1]
                                    + ([node.module] if node.module else []))
                else:
                    base = node.module
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                           for alias in node.names]
            else:
                continue
            for target in targets:
                while target and target not in known:  # `import a.b.c` of a name inside c
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_has_no_circle():
    graph = import_graph()
    assert "winnable.games.nineball" in graph and "winnable.runs.batch" in graph
    assert "winnable.numbering" in graph["winnable.games.base"]  # the graph sees imports
    assert cycles(graph) == []


def test_a_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_numbering_and_each_game_module_import_in_either_order():
    games = sorted(name for name in modules() if name.startswith("winnable.games"))
    assert "winnable.games.chinese" in games and "winnable.games.base" in games
    pairs = [(first, second) for game in games
             for first, second in (("winnable.numbering", game), (game, "winnable.numbering"))]
    procs = [subprocess.Popen([sys.executable, "-c", f"import {first}; import {second}"],
                              stderr=subprocess.PIPE, text=True) for first, second in pairs]
    failed = [(pair, proc.communicate()[1][-300:]) for pair, proc in zip(pairs, procs)
              if proc.wait() != 0]
    assert failed == []
