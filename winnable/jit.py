"""The project's ways of compiling with Numba: every compiled function of the package is
decorated with one of the three below, so that the stale-cache guard (below) covers them all and
the choice of reference counting is made here.  Numba is imported elsewhere only for what is not
a compiled function of ours: an intrinsic used inside kernels (``trailing_zeros``, in
``solvers/chinese``) and the compiler's events, which ``games/timing.py`` listens to so that a
deal's seconds leave compilation out.  ``tests/test_jit.py`` checks that no module decorates
with Numba directly.

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

``prefetch(array, index)``: an intrinsic for kernels, a hint to the processor to bring
``array[index]`` (the start of that row of a 2-D array) into the cache (LLVM's ``llvm.prefetch``; it changes no value).
A kernel that will look up many slots of a large table in a row issues it a few slots ahead,
so that their cache misses overlap instead of following one another.

Stale caches.  Numba checks a cached function against its own source file only, yet the machine
code of a caller holds the code of every compiled function it calls (inlined or linked in): after
an edit of ``chinese/position.py`` alone, the cached search in ``chinese/search.py`` would go on
running the old moves.  So the first import of this module compares a digest of the package's
source with the one its caches were compiled from (``__pycache__/numba-source.sha1``) and, when
they differ, drops every cached function of the package before anything is compiled or loaded.
(Caches kept elsewhere with ``NUMBA_CACHE_DIR`` are the user's to clear.)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

PACKAGE = Path(__file__).resolve().parent
STAMP = "numba-source.sha1"


@intrinsic
def prefetch(typingctx, array, index):
    """Bring ``array[index]`` (the start of that row) into the cache (a hint; see the
    module)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer(context, builder, array_type, view,
                                           [args[1]] + [zero] * (array_type.ndim - 1))
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        builder.call(function, [builder.bitcast(pointer, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.void(array, types.intp), codegen


def source_digest(root: Path) -> str:
    """A digest of every Python source file under ``root`` (names and contents)."""
    digest = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def drop_stale_caches(root: Path = PACKAGE) -> int:
    """Delete Numba's cache files under ``root`` if its source changed since they were written
    (see the module's docstring); returns how many were deleted.  Never fails: a read-only
    install keeps its caches (Numba then caches elsewhere)."""
    digest = source_digest(root)
    stamp = root / "__pycache__" / STAMP
    try:
        if stamp.read_text() == digest:
            return 0
    except OSError:
        pass
    dropped = 0
    for pattern in ("*.nbi", "*.nbc"):
        for path in root.rglob(f"__pycache__/{pattern}"):
            try:
                path.unlink()
                dropped += 1
            except OSError:
                pass
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass
    return dropped


drop_stale_caches()

jit = njit(cache=True)
kernel = njit(cache=True, _nrt=False)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
