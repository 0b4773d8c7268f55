"""The project's two ways of compiling with Numba.

``jit``: an ordinary compiled function (cached next to its source, compiled once).

``kernel``: a compiled function that allocates nothing (its callers pass every buffer in),
compiled without Numba's reference counting.

``inline_kernel``: a small ``kernel`` that Numba copies into its callers.  A call to a compiled
function passes a tuple of arrays (a search position) field by field; for the solvers' small
helpers that copy cost more than their work (a canonical-form check: 485 ns with calls against
223 ns inlined, play and take-back included).  Only for small functions: each call site
compiles its own copy.  Passing arrays, or tuples of arrays, from one
compiled function to another costs an atomic increment and decrement per array and call; in the
solvers' inner loops that was most of the time (a move's worth computed from a position tuple:
990 ns with reference counting against 22 ns without, for eight moves).  A kernel must not
create arrays: without reference counting they would never be freed.
"""

from __future__ import annotations

from numba import njit

jit = njit(cache=True)
kernel = njit(cache=True, _nrt=False)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
