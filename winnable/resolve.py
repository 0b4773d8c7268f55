"""The former name of ``winnable.runs.resolve`` (``winnable resolve``), kept so that scripts
written against it go on working; new code imports from ``winnable.runs.resolve``."""

from .runs.resolve import (DEFAULT_CHUNK, ESCALATIONS_KEY, SAMPLE_KEY, Escalation,
                           escalation_lines, escalations, option_text, report_dict,
                           resolve_file, sample_record)
from .runs.spec import resolve_dir

__all__ = ["DEFAULT_CHUNK", "ESCALATIONS_KEY", "SAMPLE_KEY", "Escalation", "escalation_lines",
           "escalations", "option_text", "report_dict", "resolve_dir", "resolve_file",
           "sample_record"]
