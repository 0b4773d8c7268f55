"""Shared by the solvers' memo tables."""

from __future__ import annotations

import numpy as np


class Generation:
    """Stamps that mark which entries of a memo belong to the current deal: a new deal starts a
    new generation instead of clearing the table."""

    def __init__(self, size: int):
        self.stamps = np.zeros(size, dtype=np.int32)
        self.current = 0

    def next(self) -> int:
        self.current += 1
        if self.current >= 2**31 - 1:
            self.stamps[:] = 0
            self.current = 1
        return self.current
