"""Every notebook's code runs against the current library (cells executed in order, as a
script, in a scratch folder, with a non-interactive plotting backend)."""

import json
import os
from pathlib import Path

import matplotlib
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path, monkeypatch):
    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    cells = json.loads(path.read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    exec(compile(code, str(path), "exec"), {"__name__": "__notebook__"})
    assert os.path.isdir("runs")
