"""The former name of ``winnable.runs.sweep`` (``winnable sweep``), kept so that scripts and
notebooks written against it go on working; new code imports from ``winnable.runs.sweep``."""

from .runs.sweep import (PAIRED_COLUMNS, Combination, SweepResult, combinations,
                         default_out_dir, format_grid, paired_frame, parse_grid, summary_frame,
                         sweep, sweep_command, won_matrix, write_sweep)

__all__ = ["PAIRED_COLUMNS", "Combination", "SweepResult", "combinations", "default_out_dir",
           "format_grid", "paired_frame", "parse_grid", "summary_frame", "sweep",
           "sweep_command", "won_matrix", "write_sweep"]
