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
