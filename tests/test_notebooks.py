"""Every notebook in notebooks/ runs, cell by cell in a Jupyter kernel (nbclient), against the
current library, on small data: the values of SMALL are set in a cell inserted right after the
notebook's cell tagged ``parameters`` (as papermill does), and the runs go to a scratch folder."""

import os
from pathlib import Path

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT = 900  # seconds; a cold Numba cache compiles the kernels within a cell

# Small data for each notebook (every notebook also gets RUNS = "runs": its scratch folder).
SMALL = {
    "nineball": {"N": 300, "NOPEEK_N": 100},
    "addario": {"N": 1000},
    "chinese": {"N": 10, "BUDGET": 5000},
    "impossible": {"N": 1000, "LOOKAHEAD_N": 20, "SWEEP_N": 300, "SWEEP_LOOKAHEAD_N": 5},
}


def parameters_cell(nb) -> int:
    tagged = [i for i, cell in enumerate(nb.cells) if "parameters" in cell.metadata.get("tags", [])]
    assert len(tagged) == 1, "a notebook has exactly one code cell tagged 'parameters'"
    assert nb.cells[tagged[0]].cell_type == "code"
    return tagged[0]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_clean(path):
    """Valid nbformat 4, outputs cleared, a parameters cell that sets N and RUNS."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "clear the outputs"
    source = nb.cells[parameters_cell(nb)].source
    for name in ("N", "RUNS", *SMALL.get(path.stem, {})):
        assert f"\n{name} = " in f"\n{source}", f"the parameters cell sets {name}"
    assert nb.cells[0].cell_type == "markdown" and nb.cells[-1].cell_type == "markdown"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, tmp_path, monkeypatch):
    nb = nbformat.read(path, as_version=4)
    small = {"RUNS": "runs", **SMALL.get(path.stem, {"N": 100})}
    injected = nbformat.v4.new_code_cell("\n".join(f"{k} = {v!r}" for k, v in small.items()))
    injected.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(parameters_cell(nb) + 1, injected)
    # The kernel imports this checkout's winnable, whatever else is installed.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    client = nbclient.NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
    figures = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
               if "image/png" in o.get("data", {})]
    assert figures, "the notebook draws its figures"
    boards = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              for kind in ("image/svg+xml", "text/html")
              if "data-card=" in o.get("data", {}).get(kind, "")]
    assert boards, "the notebook shows a board (winnable.pictures)"
    assert (tmp_path / "runs").is_dir() and any((tmp_path / "runs").rglob("*.parquet"))
