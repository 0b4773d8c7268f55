"""Outcome codes, as every kernel returns them, and their names in result columns (the one
mapping from one to the other)."""

from __future__ import annotations

import numpy as np

LOSS, WIN, UNKNOWN = 0, 1, 2
OUTCOME_NAMES = {LOSS: "loss", WIN: "win", UNKNOWN: "unknown"}
# By code, to name a whole column at once: ``NAME_OF[codes]``.
NAME_OF = np.array([OUTCOME_NAMES[code] for code in range(len(OUTCOME_NAMES))], dtype=object)


def outcome_name(code: int) -> str:
    return OUTCOME_NAMES[int(code)]
