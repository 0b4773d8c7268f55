"""The package's Numba caches are dropped when any of its source changes (winnable.jit)."""

from winnable.jit import drop_stale_caches


def test_caches_are_dropped_when_any_source_file_changes(tmp_path):
    (tmp_path / "callee.py").write_text("X = 1\n")
    (tmp_path / "caller.py").write_text("Y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()

    def cached():
        for name in ("caller.f-1.py311.nbi", "caller.f-1.py311.1.nbc"):
            (cache / name).write_bytes(b"machine code")

    cached()
    assert drop_stale_caches(tmp_path) == 2  # no record of the source they were built from
    cached()
    assert drop_stale_caches(tmp_path) == 0  # same source: kept
    (tmp_path / "callee.py").write_text("X = 3\n")  # only the other file changed
    assert drop_stale_caches(tmp_path) == 2
    assert not list(cache.glob("*.nb?"))
    assert drop_stale_caches(tmp_path) == 0


def test_every_compiled_function_goes_through_winnable_jit():
    """No module of the package compiles with Numba's own decorators: the stale-cache guard and
    the choice of reference counting have one door (winnable/jit.py)."""
    import ast
    from pathlib import Path

    import winnable
    package = Path(winnable.__file__).parent
    direct = {"njit", "jit", "vectorize", "guvectorize", "cfunc", "generated_jit", "stencil"}
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "jit.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "numba":
                found += [f"{path.relative_to(package)}: from numba import {a.name}"
                          for a in node.names if a.name in direct]
            elif (isinstance(node, ast.Attribute) and node.attr in direct
                  and isinstance(node.value, ast.Name) and node.value.id in ("numba", "nb")):
                found.append(f"{path.relative_to(package)}: numba.{node.attr}")
    assert not found, found
