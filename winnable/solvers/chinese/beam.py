"""Chinese Solitaire: a beam search for winning lines (every card known).

Breadth first, one layer of positions at a time: every move of every position of the layer is
played (a safe move to foundation alone where there is one, ``search.safe_up``), the
position it leads to is brought to the canonical form of its class (``search.normalise``)
and kept unless ``dead_end`` proves it lost or it was met before in this beam; the ``width``
best of them by ``search.evaluate`` (ties in the order they were met) make the next
layer.  A position with every card on the foundations ends the search with its line.

It decides nothing but wins: it drops all but ``width`` positions a layer, so a beam that runs
dry proves nothing.  Its place is beside the depth-first searches, which spend their budget deep
in the lines their move order prefers and can miss a win that needs an unusual opening (deal 16:
eight moves that rearrange piles 1-3 before the stock is dealt, then a long game).  A won line is
a line of legal moves (the tests replay it through the rules).

Memory: a position of a layer is stored compactly (the place of each card, the face-down counts
and whether the stock is dealt), about 130 bytes, and every kept position leaves a record (its
parent and its moves) for the line; ``Beam`` holds the buffers for one width, reused deal after
deal: about 22 kB per unit of width (2.4 MB at width 100), most of it the records of up to
``MAX_LAYERS`` layers.  A layer's children beyond ``MAX_CHILDREN`` per position are dropped,
and a position the set of positions met has no room for may be met again (the search stays a
heuristic, and only a wider beam pays for either).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...jit import kernel
from ...rules import chinese as R
from . import position as P
from . import search as CS
from ..table import ON_PATH, UNKNOWN, WIN, tt_find, tt_store

MAX_LAYERS = 400          # layers at most (won lines are about 100 class steps)
MAX_CHILDREN = 64         # children kept per position of a layer at most
LOG_PER_RECORD = 4        # room in the move log per record, on average (a step is the move
                          # and the class moves after it: one to three as a rule)
START = 2                 # the layer index of the beam's start
SCORE_OFFSET = 512        # evaluate() lies within (-SCORE_OFFSET, SCORE_OFFSET)
CAP = P.CAPACITY


class Beam(NamedTuple):
    """The buffers of a beam of one width (allocated once, reused for every deal)."""
    where: np.ndarray        # int16[3, width, 52]: each card's place (-1: up or in the stock);
                             # layers 0 and 1 take turns, START keeps the start
    down: np.ndarray         # int8[3, width, 7]
    stock: np.ndarray        # int8[3, width]: 1 once the stock is dealt
    record: np.ndarray       # int64[2, width]: the record of each position of a layer
    child_parent: np.ndarray  # int64[width * MAX_CHILDREN]: the layer slot a child comes from
    child_move: np.ndarray   # int64[width * MAX_CHILDREN]
    child_score: np.ndarray  # int64[width * MAX_CHILDREN]
    order: np.ndarray        # int64[width * MAX_CHILDREN]: children best first
    bucket: np.ndarray       # int64[2 * SCORE_OFFSET + 1]
    rec_parent: np.ndarray   # int64[width * MAX_LAYERS + 1]: the record a record extends
    rec_start: np.ndarray    # int64[width * MAX_LAYERS + 2]: where its moves start in ``log``
    log: np.ndarray          # int64[(width * MAX_LAYERS + 1) * LOG_PER_RECORD]
    moves: np.ndarray        # int64[CS.MAX_MOVES]
    played: np.ndarray       # int64[CS.MAX_PLAYED]
    tokens: np.ndarray       # int64[CS.MAX_PLAYED]
    line: np.ndarray         # int64[CS.MAX_PLAYED]: a won line on return


def new_beam(width: int) -> Beam:
    z = np.zeros
    children = width * MAX_CHILDREN
    records = width * MAX_LAYERS + 1
    return Beam(z((3, width, R.N_CARDS), np.int16), z((3, width, R.PILES), np.int8),
                z((3, width), np.int8), z((2, width), np.int64), z(children, np.int64),
                z(children, np.int64), z(children, np.int64), z(children, np.int64),
                z(2 * SCORE_OFFSET + 1, np.int64), z(records, np.int64), z(records + 1, np.int64),
                z(records * LOG_PER_RECORD, np.int64), z(CS.MAX_MOVES, np.int64),
                z(CS.MAX_PLAYED, np.int64), z(CS.MAX_PLAYED, np.int64), z(CS.MAX_PLAYED, np.int64))


@kernel
def _store(pos, beam, layer, slot):
    for c in range(R.N_CARDS):
        beam.where[layer, slot, c] = pos.where[c]
    for p in range(R.PILES):
        beam.down[layer, slot, p] = pos.down[p]
    beam.stock[layer, slot] = pos.misc[R.STOCK_DEALT]


@kernel
def _load(pos, beam, layer, slot):
    """Make ``pos`` the stored position (its deal is the beam's)."""
    for p in range(R.PILES):
        pos.length[p] = 0
        pos.down[p] = beam.down[layer, slot, p]
    stock_dealt = beam.stock[layer, slot]
    for s in range(4):
        pos.found[s] = 0
    for c in range(R.N_CARDS):
        at = beam.where[layer, slot, c]
        if at >= 0:
            p = at // CAP
            h = at % CAP
            pos.cards[p, h] = c
            if h + 1 > pos.length[p]:
                pos.length[p] = h + 1
    score = 0
    for c in range(R.N_CARDS):
        if beam.where[layer, slot, c] < 0:
            in_stock = False
            if stock_dealt == 0:
                for i in range(R.STOCK_FIRST, R.N_CARDS):
                    if pos.deal[i] == c:
                        in_stock = True
            if not in_stock:
                pos.found[R.suit(c)] += 1  # cards are up in rank order: a count is the top
                score += 1
    pos.misc[R.STOCK_DEALT] = stock_dealt
    pos.misc[R.SCORE] = score
    P.refresh(pos)


@kernel
def _step(pos, easy, sequence_blocks, move, beam):
    """Play ``move`` and the class moves to the canonical form; returns how many were played."""
    beam.tokens[0] = P.play(pos, move)
    beam.played[0] = move
    return CS.normalise(pos, easy, sequence_blocks, beam.played, beam.tokens, 1, 0)


@kernel
def _record(beam, records, parent, n):
    """Write record ``records`` (the step just played, ``n`` moves, extending record
    ``parent``); returns False if the log is full."""
    start = beam.rec_start[records]
    if start + n > beam.log.shape[0]:
        return False
    beam.rec_parent[records] = parent
    for i in range(n):
        beam.log[start + i] = beam.played[i]
    beam.rec_start[records + 1] = start + n
    return True


@kernel
def _line(beam, record):
    """The moves from the beam's start to ``record``, into ``beam.line``; returns their count
    (-1 if they do not fit)."""
    n = 0
    r = record
    while r > 0:  # count first, then write from the end
        n += beam.rec_start[r + 1] - beam.rec_start[r]
        r = beam.rec_parent[r]
    if n > beam.line.shape[0]:
        return -1
    end = n
    r = record
    while r > 0:
        k = beam.rec_start[r + 1] - beam.rec_start[r]
        for i in range(k):
            beam.line[end - k + i] = beam.log[beam.rec_start[r] + i]
        end -= k
        r = beam.rec_parent[r]
    return n


@kernel
def beam_search(pos, easy, sequence_blocks, width, beam, keys, stamps, deal_first, stamp):
    """Beam search from ``pos`` (left as it was).  ``keys``/``stamps``: a transposition table
    of its own, used as the set of positions met (stamp ``stamp``).  Returns (outcome, best
    score, positions played, line length): ``WIN`` with the line in ``beam.line``, else
    ``UNKNOWN``."""
    best = pos.misc[R.SCORE]
    if best == R.N_CARDS:
        return WIN, best, 0, 0
    if CS.lost_at_sight(pos, easy):
        return UNKNOWN, best, 0, 0
    played = 0
    _store(pos, beam, START, 0)
    _store(pos, beam, 0, 0)
    beam.record[0, 0] = 0  # record 0: the start, no moves
    beam.rec_parent[0] = 0
    beam.rec_start[0] = 0
    beam.rec_start[1] = 0
    records = 1
    tt_store(keys, stamps, pos.key[0], pos.key[1], ON_PATH, deal_first, stamp)
    size = 1
    layer = 0
    outcome = UNKNOWN
    length = 0
    for _ in range(MAX_LAYERS):
        if size == 0 or records + width >= beam.rec_parent.shape[0]:
            break
        children = 0
        limit = beam.child_parent.shape[0]
        for slot in range(size):
            _load(pos, beam, layer, slot)
            k = CS.all_moves(pos, easy, sequence_blocks, CS.ALL, beam.moves)
            for j in range(k):
                if CS.safe_up(pos, beam.moves[j]):
                    beam.moves[0] = beam.moves[j]
                    k = 1
                    break
            kept = 0
            for j in range(k):
                if kept >= MAX_CHILDREN or children >= limit:
                    break
                move = beam.moves[j]
                n = _step(pos, easy, sequence_blocks, move, beam)
                played += 1
                if pos.misc[R.SCORE] > best:
                    best = pos.misc[R.SCORE]
                if pos.misc[R.SCORE] == R.N_CARDS:
                    # A win: its record, then the line.
                    if _record(beam, records, beam.record[layer, slot], n):
                        length = _line(beam, records)
                        outcome = WIN if length >= 0 else UNKNOWN
                    CS.unplay_to(pos, beam.played, beam.tokens, n, 0)
                    if outcome == WIN:
                        break
                    continue
                fresh = tt_find(keys, stamps, pos.key[0], pos.key[1], deal_first, stamp) < 0
                if fresh and not CS.lost_at_sight(pos, easy):
                    tt_store(keys, stamps, pos.key[0], pos.key[1], ON_PATH, deal_first, stamp)
                    beam.child_parent[children] = slot
                    beam.child_move[children] = move
                    beam.child_score[children] = min(max(CS.evaluate(pos), 1 - SCORE_OFFSET),
                                                      SCORE_OFFSET - 1)
                    children += 1
                    kept += 1
                CS.unplay_to(pos, beam.played, beam.tokens, n, 0)
            if outcome == WIN:
                break
        if outcome == WIN or children == 0:
            break
        # Best first, ties in the order met: a counting sort on the score.
        for b in range(beam.bucket.shape[0]):
            beam.bucket[b] = 0
        for i in range(children):
            beam.bucket[SCORE_OFFSET - beam.child_score[i]] += 1
        total = 0
        for b in range(beam.bucket.shape[0]):
            c = beam.bucket[b]
            beam.bucket[b] = total
            total += c
        for i in range(children):
            b = SCORE_OFFSET - beam.child_score[i]
            beam.order[beam.bucket[b]] = i
            beam.bucket[b] += 1
        # The next layer: the best ``width`` children, played again from their parents.
        nxt = 1 - layer
        wanted = min(children, width)
        size = 0
        for s in range(wanted):
            i = beam.order[s]
            parent = beam.child_parent[i]
            _load(pos, beam, layer, parent)
            n = _step(pos, easy, sequence_blocks, beam.child_move[i], beam)
            if not _record(beam, records, beam.record[layer, parent], n):
                break  # the log is full: the layer is what fits
            _store(pos, beam, nxt, size)
            beam.record[nxt, size] = records
            records += 1
            size += 1
        layer = nxt
    _load(pos, beam, START, 0)
    return outcome, best, played, length
