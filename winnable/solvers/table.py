"""What the solvers share for memo tables: the 64-bit mixer and the hashes of keys, table
sizing, generation stamps, open addressing over stamped slots, the outcome codes (from
``winnable.outcomes``), and a set-associative transposition table of 128-bit keys.

Stamped slots (``stamped_slot``): a memo whose ``stamps`` say which generation (``Generation``)
wrote each slot, probed linearly from a key's hash.  A slot of another generation counts as
empty, so a new deal or search starts a new generation instead of clearing the memo.  When the
probe window is full the key gets no slot: the position is searched again when met again
(slower, never wrong).

The transposition table (``TranspositionTable``; kernels ``tt_find``, ``tt_store`` and
``tt_offer``) maps a position's 128-bit fingerprint to what a depth-first search knows of it:

* ``ON_PATH``: on the search's current line (never evicted while it is);
* ``VISITED``: searched in the current search without a win, but the result leaned on a
  position that was on the line at the time, so it holds only within this search;
* ``LOST``: searched completely without a win, with no help from the line that reached it: lost
  whatever line reaches it, so it holds for every later search of the same deal (restarts).

Entries live in buckets of four (one cache line of keys).  A stamp per entry says which search
wrote it; entries of earlier deals count as empty, and ``VISITED`` entries of earlier searches of
the same deal too, so a new deal or a new search costs nothing to set up.  When a bucket is full,
a new entry replaces (in this order) an empty or stale entry, a ``VISITED`` one, a ``LOST`` one;
``ON_PATH`` entries are never replaced (if all four are, the new position is searched without an
entry).  A full table therefore only costs repeated work, never a wrong answer: an entry that
is lost is a position searched again.
"""

from __future__ import annotations

import numpy as np

from ..jit import inline_kernel, kernel, prefetch
from ..outcomes import LOSS, OUTCOME_NAMES, UNKNOWN, WIN  # noqa: F401 (the solvers' codes)
from ..shuffle import GOLDEN, MIX1, MIX2

# Entry states (the two low bits of the stored second key word).
EMPTY, ON_PATH, VISITED, LOST = 0, 1, 2, 3
STATE_BITS = np.uint64(3)
KEY_BITS = ~STATE_BITS
BUCKET = 4
ENTRY_BYTES = 20  # two 64-bit key words and a 32-bit stamp


@kernel
def mix64(z):
    """splitmix64's finaliser: a bijection of 64-bit words that spreads every input bit."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@inline_kernel
def hash_word(word):
    """A one-word key's hash (Fibonacci hashing): its top bits spread the keys."""
    return (np.uint64(word) * GOLDEN) >> np.uint64(40)


@inline_kernel
def hash_words(key):
    """A hash of a row of words (a multiplicative mix per word); its top bits spread the keys."""
    h = GOLDEN
    for w in range(key.shape[0]):
        h = (h ^ np.uint64(key[w])) * MIX1
        h ^= h >> np.uint64(31)
    return h


@inline_kernel
def stamped_slot(keys, key, start, stamps, stamp, probes):
    """The slot of ``key`` (a row of ``keys``) written in generation ``stamp``; else the first
    slot from ``start`` on that this generation has not written (where the key goes: the caller
    tells the two apart by its stamp); else -1 (``probes`` slots tried, all taken)."""
    mask = keys.shape[0] - 1
    i = start & mask
    for _ in range(probes):
        if stamps[i] != stamp:
            return i
        same = True
        for w in range(key.shape[0]):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & mask
    return -1


@kernel
def remember(table, key):
    """A set of 64-bit keys in an open-addressing array (0 marks an empty slot; the caller
    clears it): insert the key, and return False if it was there already or the set is full."""
    key = key | np.uint64(1)
    mask = table.shape[0] - 1
    j = np.int64(key & np.uint64(mask))
    for _ in range(table.shape[0]):
        if table[j] == key:
            return False
        if table[j] == 0:
            table[j] = key
            return True
        j = (j + 1) & mask
    return False


def entries_for(memory_mb: float, entry_bytes: int, minimum: int = 1 << 10) -> int:
    """The largest power of two of entries of ``entry_bytes`` that fits in ``memory_mb``
    megabytes (at least ``minimum``)."""
    entries = minimum
    while entries * 2 * entry_bytes <= memory_mb * 2**20:
        entries *= 2
    return entries


def memory_mb_for(entries: int, entry_bytes: int = ENTRY_BYTES) -> int:
    """The smallest whole number of megabytes whose table (``entries_for``) holds at least
    ``entries`` entries."""
    size = 1 << 10
    while size < entries:
        size *= 2
    return -(-size * entry_bytes // 2**20)


def resident_zeros(shape, dtype) -> np.ndarray:
    """A zeroed array whose memory is written now.  ``np.zeros`` leaves a large array's pages to
    be mapped and zeroed by the kernel at first touch: the first deal searched with a new table
    would then pay for setting it up (about 8 ms per 64 MB with transparent huge pages), a cost
    of the solver's start-up, not of that deal."""
    array = np.empty(shape, dtype=dtype)
    array.fill(0)
    return array


class Generation:
    """Stamps that mark which entries of a memo belong to the current deal (or search): a new
    one starts a new generation instead of clearing the table."""

    def __init__(self, size: int):
        self.stamps = resident_zeros(size, np.int32)
        self.current = 0

    def next(self) -> int:
        return self.reserve(1)

    def reserve(self, count: int) -> int:
        """The first of ``count`` new stamps in a row (for a kernel that starts a generation per
        search, up to ``count`` of them)."""
        if self.current + count >= 2**31 - 1:
            self.stamps[:] = 0
            self.current = 0
        first = self.current + 1
        self.current += count
        return first


class TranspositionTable:
    """The arrays of a transposition table of about ``memory_mb`` megabytes, and its search
    stamps.  ``begin_deal`` starts a deal (earlier entries become empty), ``begin_search`` a
    search of it (earlier ``VISITED`` entries become stale, ``LOST`` ones stay)."""

    def __init__(self, memory_mb: float):
        if not memory_mb > 0:
            raise ValueError(f"memory_mb must be positive, not {memory_mb}")
        entries = entries_for(memory_mb, ENTRY_BYTES)
        self.keys = resident_zeros((entries, 2), np.uint64)
        self.generation = Generation(entries)
        self.stamps = self.generation.stamps
        self.deal_first = 1

    @property
    def entries(self) -> int:
        return self.keys.shape[0]

    def begin_deal(self) -> None:
        self.deal_first = self.generation.next()
        self.generation.current -= 1  # begin_search takes it

    def begin_search(self) -> int:
        stamp = self.generation.next()
        if stamp < self.deal_first:  # the stamps wrapped and were cleared
            self.deal_first = stamp
        return stamp

    def stamps_now(self) -> tuple[int, int]:
        """(first stamp of the current deal, stamp of the current search)."""
        return self.deal_first, self.generation.current


@kernel
def tt_state(keys, stamps, slot, deal_first, stamp):
    """What the entry at ``slot`` says now (EMPTY for entries of earlier deals or searches)."""
    s = stamps[slot]
    if s < deal_first:
        return EMPTY
    state = np.int64(keys[slot, 1] & STATE_BITS)
    if state == LOST or s == stamp:
        return state
    return EMPTY


@kernel
def tt_find(keys, stamps, a, b, deal_first, stamp):
    """The slot holding key (a, b) with a state that counts now, or -1."""
    mask = keys.shape[0] - 1
    base = np.int64(a & np.uint64(mask)) & ~(BUCKET - 1)
    kb = b & KEY_BITS
    for i in range(BUCKET):
        slot = base + i
        if keys[slot, 0] == a and keys[slot, 1] & KEY_BITS == kb:
            if tt_state(keys, stamps, slot, deal_first, stamp) != EMPTY:
                return slot
    return -1


@kernel
def _write(keys, stamps, a, b, state, deal_first, stamp, keep_settled):
    """``tt_store``, and with ``keep_settled`` ``tt_offer``: one scan of the bucket."""
    mask = keys.shape[0] - 1
    base = np.int64(a & np.uint64(mask)) & ~(BUCKET - 1)
    kb = b & KEY_BITS
    best = -1
    best_rank = 4
    for i in range(BUCKET):
        slot = base + i
        current = tt_state(keys, stamps, slot, deal_first, stamp)
        if keys[slot, 0] == a and keys[slot, 1] & KEY_BITS == kb:
            if keep_settled and (current == LOST or current == ON_PATH):
                return slot
            best = slot
            break
        rank = (0 if current == EMPTY else 1 if current == VISITED else 2 if current == LOST
                else 4)
        if rank < best_rank:
            best_rank = rank
            best = slot
    if best < 0:
        return -1
    keys[best, 0] = a
    keys[best, 1] = kb | np.uint64(state)
    stamps[best] = stamp
    return best


@kernel
def tt_store(keys, stamps, a, b, state, deal_first, stamp):
    """Write key (a, b) with ``state``, replacing as the module docstring says; returns the
    slot, or -1 if every entry of the bucket is on the current line."""
    return _write(keys, stamps, a, b, state, deal_first, stamp, False)


@kernel
def tt_offer(keys, stamps, a, b, state, deal_first, stamp):
    """``tt_store``, except that an entry of the key that is ``LOST`` or ``ON_PATH`` now is
    left as it is (the one is stronger than any other state, the other is a node of the
    current line, which keeps its slot)."""
    return _write(keys, stamps, a, b, state, deal_first, stamp, True)


@inline_kernel
def tt_prefetch(keys, stamps, a):
    """Bring the bucket of key word ``a`` (its keys and stamps) into the cache, for a lookup
    soon after (``winnable.jit.prefetch``; no value changes)."""
    slot = np.int64(a & np.uint64(keys.shape[0] - 1)) & ~(BUCKET - 1)
    prefetch(keys, slot)
    prefetch(stamps, slot)


@kernel
def tt_set_state(keys, stamps, slot, state, stamp):
    keys[slot, 1] = (keys[slot, 1] & KEY_BITS) | np.uint64(state)
    stamps[slot] = stamp


