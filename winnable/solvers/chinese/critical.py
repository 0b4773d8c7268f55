"""Chinese Solitaire: a loss test that sees conflicts, the critical-path test h^2.

``losses.dead_end`` is a delete relaxation: once a card may be exposed or moved it stays so, so
one card may serve in two places at once, and it cannot see a loss whose reason is a conflict
(one parent wanted by two cards, a king and another card both needing the only space, a card
that must leave before the card it waits for arrives).  h^2 (Haslum & Geffner, 2000) is the
critical-path relaxation over *pairs* of facts: it keeps the deletes as far as two facts at a
time can see them, so "x lies on y" and "x lies on z" are never true together, nor "y is a top"
and "x lies on y".  If no pair of facts that a win needs is reachable, the position is lost.

The model (STRIPS).  Facts, over cards x, y and places z (a card, or the base of a pile):

* ``on(x, z)``: x lies directly on z;
* ``clear(z)``: z is a top (for a base: the pile is empty);
* ``faceup(x)``: for a card face down in the model's root position, x has been turned;
* ``home(x)``: x is on its foundation;
* ``pending(i)``: the i-th stock card is still in the stock.

Actions:

* move(x, y, z): pre on(x, y), clear(z), faceup(x) if x was face down; add on(x, z), clear(y),
  faceup(y) if y was face down under x; delete on(x, y), clear(z).  z is a card x builds on, or
  a base if x may go to a space (a king, any card with ``easy``);
* up(x, y): pre on(x, y), clear(x), home of the card below x in its suit; add home(x), clear(y),
  faceup(y) as above; delete on(x, y), clear(x);
* land(i, z): pre pending(i), clear(z); add on(s_i, z), clear(s_i); delete pending(i), clear(z).

Why this proves losses (soundness).  Map a position to the set of facts true in it.  Every move
of the game maps to actions of the model that are applicable in the image and lead to a
superset of the next image: a block whose bottom card is x, lying on y, moving onto the top z is
move(x, y, z) (the cards above x keep lying on what they lay on, so no other fact changes; a
face-down y is turned by the rules exactly when x, the only card that can lie on a face-down
card, leaves it); a card to its foundation is up(x, y); the stock is land(0, t1), land(1, t2),
land(2, t3) for the tops t1, t2, t3 of piles 1-3 (distinct places, all clear).  The model allows
more: blocks in any order (so it holds for ``blocks=sequence``), stock cards landing one at a
time on any top, a block onto a card inside itself.  Fewer facts never make more pairs
reachable, so a continuation of the game that wins maps to a plan of the model that reaches
every ``home`` fact, and h^2 reachability over-approximates the pairs of facts any plan meets
(Haslum & Geffner).  So if some pair of ``home`` facts is not h^2-reachable from a position's
image, no continuation wins: the position is lost.  The places of the model cover every
position reachable from its root (a card lies on its root place, on a card it builds on, on a
base, or, for a stock card, anywhere); a position with a fact outside the model is never called
lost (``dead`` returns False).

h^2 reachability: sets R1 of facts and R2 of pairs, starting with the image and its pairs; an
action whose preconditions are in R1 and pairwise in R2 adds its add facts to R1, their pairs to
R2, and the pair (p, q) for every add fact p and every fact q in R1 it does not delete that is
paired in R2 with each of its preconditions.  Repeated until nothing changes (a least fixpoint:
the order of the actions does not matter).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...jit import jit, kernel
from ...rules import chinese as R

PLACES = R.N_CARDS + R.PILES  # a card, or the base of pile p (R.N_CARDS + p)
MAX_FACTS = 1024
WORDS = MAX_FACTS // 64
MAX_PRE = 3  # preconditions and add facts of one action at most
GOAL_CHECK = 127  # h^3 looks whether its goal is reached every 128 actions of a sweep


class Model(NamedTuple):
    """The STRIPS model of a deal from one root position, and the buffers of the test."""
    size: np.ndarray        # int64[2]: facts, actions
    on_fact: np.ndarray     # int64[N_CARDS, PLACES]: the fact on(x, z), -1 if not in the model
    clear_fact: np.ndarray  # int64[PLACES]
    faceup_fact: np.ndarray  # int64[N_CARDS]: -1 for cards face up at the root
    home_fact: np.ndarray   # int64[N_CARDS]
    pending_fact: np.ndarray  # int64[3]: -1 once the stock is dealt at the root
    pre: np.ndarray         # int64[actions, MAX_PRE], -1 padded
    add: np.ndarray         # int64[actions, MAX_PRE], -1 padded
    delete: np.ndarray      # uint64[actions, WORDS]: deleted facts as a bit row
    deleted: np.ndarray     # int64[actions, 2]: the same two facts by number
    reach: np.ndarray       # uint64[WORDS]: R1
    pairs: np.ndarray       # uint64[facts, words]: R2, one bit row per fact (rows of as many
                            # words as the facts need, so that the rows in use stay close)
    compat: np.ndarray      # uint64[WORDS]
    image: np.ndarray       # int64[MAX_FACTS]: the facts of the tested position
    row_time: np.ndarray    # int64[MAX_FACTS]: when each pair row last grew (``reachable``)
    action_time: np.ndarray  # int64[actions]: when each action was last looked at
    order: np.ndarray       # int64[actions]: the order the sweeps look at the actions in


@kernel
def _new_fact(counter):
    """Number a new fact (``counter[0]`` so far)."""
    f = counter[0]
    counter[0] += 1
    return f


@kernel
def _may_target(x, z, easy):
    """May x be put onto the place z (a card it builds on, or a base if x may go to a
    space)?"""
    if z >= R.N_CARDS:
        return easy or R.rank(x) == R.KING
    return R.parent(x, 0) == z or R.parent(x, 1) == z


@jit
def build(cards, length, down, found, misc, deal, easy):
    """The model of every position reachable from the given one (the rules' arrays)."""
    counter = np.zeros(1, dtype=np.int64)
    on_fact = np.full((R.N_CARDS, PLACES), -1, dtype=np.int64)
    clear_fact = np.full(PLACES, -1, dtype=np.int64)
    faceup_fact = np.full(R.N_CARDS, -1, dtype=np.int64)
    home_fact = np.full(R.N_CARDS, -1, dtype=np.int64)
    pending_fact = np.full(3, -1, dtype=np.int64)
    root_under = np.full(R.N_CARDS, -1, dtype=np.int64)
    face_down = np.zeros(R.N_CARDS, dtype=np.bool_)
    home = np.zeros(R.N_CARDS, dtype=np.bool_)
    stock = np.zeros(R.N_CARDS, dtype=np.bool_)
    for s in range(4):
        for r in range(found[s]):
            home[s * 13 + r] = True
    for p in range(R.PILES):
        for h in range(length[p]):
            x = cards[p, h]
            root_under[x] = R.N_CARDS + p if h == 0 else cards[p, h - 1]
            face_down[x] = h < down[p]
    if misc[R.STOCK_DEALT] == 0:
        for i in range(3):
            stock[deal[R.STOCK_FIRST + i]] = True
            pending_fact[i] = _new_fact(counter)
    for z in range(PLACES):
        clear_fact[z] = _new_fact(counter)
    for x in range(R.N_CARDS):
        home_fact[x] = _new_fact(counter)
        if face_down[x]:
            faceup_fact[x] = _new_fact(counter)
        if home[x]:
            continue
        for z in range(PLACES):
            if z != x and (z == root_under[x] or stock[x] or _may_target(x, z, easy)):
                on_fact[x, z] = _new_fact(counter)
    facts = counter[0]
    assert facts <= MAX_FACTS
    # Actions: count, then fill.
    n = 0
    for x in range(R.N_CARDS):
        for y in range(PLACES):
            if on_fact[x, y] < 0:
                continue
            n += 1  # up(x, y)
            for z in range(PLACES):
                if z != y and on_fact[x, z] >= 0 and _may_target(x, z, easy):
                    n += 1
    for i in range(3):
        if pending_fact[i] >= 0:
            n += PLACES - 1
    pre = np.full((n, MAX_PRE), -1, dtype=np.int64)
    add = np.full((n, MAX_PRE), -1, dtype=np.int64)
    delete = np.zeros((n, WORDS), dtype=np.uint64)
    deleted = np.zeros((n, 2), dtype=np.int64)
    a = 0
    for x in range(R.N_CARDS):
        for y in range(PLACES):
            if on_fact[x, y] < 0:
                continue
            # x leaving y turns y when y is face down at the root and x lies on it there.
            turns = y < R.N_CARDS and face_down[y] and root_under[x] == y
            turned = faceup_fact[y] if turns else -1
            # up(x, y)
            _set_action(pre, add, delete, deleted, a, on_fact[x, y], clear_fact[x],
                        home_fact[x - 1] if R.rank(x) > 0 else -1, home_fact[x], clear_fact[y],
                        turned, on_fact[x, y], clear_fact[x])
            a += 1
            for z in range(PLACES):
                if z == y or on_fact[x, z] < 0 or not _may_target(x, z, easy):
                    continue
                # move(x, y, z)
                _set_action(pre, add, delete, deleted, a, on_fact[x, y], clear_fact[z],
                            faceup_fact[x] if face_down[x] else -1, on_fact[x, z],
                            clear_fact[y], turned, on_fact[x, y], clear_fact[z])
                a += 1
    for i in range(3):
        if pending_fact[i] < 0:
            continue
        s = deal[R.STOCK_FIRST + i]
        for z in range(PLACES):
            if z == s:
                continue
            # land(i, z)
            _set_action(pre, add, delete, deleted, a, pending_fact[i], clear_fact[z], -1, on_fact[s, z],
                        clear_fact[s], -1, pending_fact[i], clear_fact[z])
            a += 1
    size = np.array([facts, n], dtype=np.int64)
    words = (facts + 63) >> 6
    model = Model(size, on_fact, clear_fact, faceup_fact, home_fact, pending_fact, pre, add,
                  delete, deleted, np.zeros(WORDS, dtype=np.uint64),
                  np.zeros((facts, words), dtype=np.uint64), np.zeros(WORDS, dtype=np.uint64),
                  np.zeros(MAX_FACTS, dtype=np.int64), np.zeros(MAX_FACTS, dtype=np.int64),
                  np.zeros(n, dtype=np.int64), np.arange(n))
    root = image(model, cards, length, down, found, misc)
    if root >= 0:
        model.order[:] = _layered_order(model, root)
    return model


@jit
def _layered_order(model, n):
    """The actions in the order of their layer in the relaxed planning graph of the model's
    root (``n`` facts of ``model.image``): an action's layer is the highest layer of its
    preconditions, a fact's the lowest layer of an action adding it, plus one (0 for the
    root's facts); actions never applicable there come last.  The sweeps of ``reachable`` and
    ``reachable3`` look at the actions in this order, so that a fact is usually added before
    the actions that need it are looked at, and their fixpoints take fewer sweeps.  The order
    changes no fixpoint (a least fixpoint does not depend on it)."""
    facts, actions = model.size[0], model.size[1]
    never = actions + facts + 1
    fact_layer = np.full(facts, never, dtype=np.int64)
    action_layer = np.full(actions, never, dtype=np.int64)
    for i in range(n):
        fact_layer[model.image[i]] = 0
    changed = True
    while changed:
        changed = False
        for a in range(actions):
            level = 0
            for k in range(MAX_PRE):
                p = model.pre[a, k]
                if p >= 0:
                    level = max(level, fact_layer[p])
            if level >= action_layer[a]:
                continue
            action_layer[a] = level
            for k in range(MAX_PRE):
                f = model.add[a, k]
                if f >= 0 and fact_layer[f] > level + 1:
                    fact_layer[f] = level + 1
                    changed = True
    return np.argsort(action_layer, kind="mergesort")


@kernel
def _set_action(pre, add, delete, deleted, a, p0, p1, p2, a0, a1, a2, d0, d1):
    """Action a: preconditions p0-p2, add facts a0-a2 (-1: none; the others stay -1) and the
    deleted facts d0, d1."""
    pre[a, 0], pre[a, 1], pre[a, 2] = p0, p1, p2
    add[a, 0], add[a, 1], add[a, 2] = a0, a1, a2
    _set_bit(delete[a], d0)
    _set_bit(delete[a], d1)
    deleted[a, 0], deleted[a, 1] = d0, d1


@kernel
def _set_bit(row, f):
    row[f >> 6] |= np.uint64(1) << np.uint64(f & 63)


@kernel
def _clear_bit(row, f):
    row[f >> 6] &= ~(np.uint64(1) << np.uint64(f & 63))


@kernel
def _has(row, f):
    return row[f >> 6] & (np.uint64(1) << np.uint64(f & 63)) != 0


@kernel
def image(model, cards, length, down, found, misc):
    """Write the facts of a position into ``model.image``; returns their count, or -1 if the
    position has a fact the model lacks (it is then not tested)."""
    n = 0
    for p in range(R.PILES):
        if length[p] == 0:
            model.image[n] = model.clear_fact[R.N_CARDS + p]
            n += 1
            continue
        for h in range(length[p]):
            x = cards[p, h]
            f = model.on_fact[x, R.N_CARDS + p if h == 0 else cards[p, h - 1]]
            if f < 0:
                return -1
            model.image[n] = f
            n += 1
            if h >= down[p] and model.faceup_fact[x] >= 0:
                model.image[n] = model.faceup_fact[x]
                n += 1
        model.image[n] = model.clear_fact[cards[p, length[p] - 1]]
        n += 1
    for s in range(4):
        for r in range(found[s]):
            x = s * 13 + r
            model.image[n] = model.home_fact[x]
            n += 1
            if model.faceup_fact[x] >= 0:
                model.image[n] = model.faceup_fact[x]
                n += 1
    if misc[R.STOCK_DEALT] == 0:
        for i in range(3):
            if model.pending_fact[i] < 0:
                return -1
            model.image[n] = model.pending_fact[i]
            n += 1
    return n


@kernel
def reachable(model, n, stop_at_goal=False):
    """h^2 reachability from the ``n`` facts of ``model.image``: fills ``model.reach`` (R1)
    and ``model.pairs`` (R2), sweeping over the actions until a sweep changes nothing.  With
    ``stop_at_goal``, it stops as soon as every pair of ``home`` facts is reachable (R1 and R2
    only grow, so ``dead`` would say False whatever came later) and returns True then.

    Semi-naive: what an action adds is a monotone function of the pair rows of its
    preconditions alone (its usability is their bits p in row p, and the facts it pairs with
    its add facts are the AND of those rows minus its deletes, each row lying inside R1), so an
    action none of whose precondition rows grew since it was last looked at adds nothing new
    and is skipped.  Every row records the clock (one tick per action looked at) of its last
    growth, every action the clock of its last look; a row that grew at or after an action's
    look makes it looked at again.  The fixpoint, and so every verdict, is the one of plain
    sweeps.  (Two other ways were measured and not kept before: a queue of actions whose rows
    grew took five times as long as plain sweeps.)"""
    facts = model.size[0]
    words = (facts + 63) >> 6
    reach, pairs, compat = model.reach, model.pairs, model.compat
    row_time, action_time = model.row_time, model.action_time
    for w in range(words):
        reach[w] = np.uint64(0)
    for i in range(n):
        _set_bit(reach, model.image[i])
    for f in range(facts):
        row_time[f] = 0
        for w in range(words):
            pairs[f, w] = np.uint64(0)
    for i in range(n):
        f = model.image[i]
        for w in range(words):
            pairs[f, w] = reach[w]
    for a in range(model.size[1]):
        action_time[a] = 0
    clock = 0
    changed = True
    while changed:
        changed = False
        for i in range(model.size[1]):
            a = model.order[i]
            fresh = False
            for k in range(MAX_PRE):
                p = model.pre[a, k]
                if p < 0:
                    break
                if row_time[p] >= action_time[a]:
                    fresh = True
                    break
            if not fresh:
                continue
            clock += 1
            action_time[a] = clock
            usable = True
            for k in range(MAX_PRE):
                p = model.pre[a, k]
                if p < 0:
                    break
                if not _has(reach, p):
                    usable = False
                    break
            if not usable:
                continue
            for k in range(MAX_PRE):
                p = model.pre[a, k]
                if p < 0:
                    break
                for j in range(k + 1, MAX_PRE):
                    q = model.pre[a, j]
                    if q < 0:
                        break
                    if not _has(pairs[p], q):
                        usable = False
            if not usable:
                continue
            # The facts that can hold together with this action's preconditions and that it
            # does not delete: each stays true beside every fact it adds.  (A row lies inside
            # R1, so R1 itself need not be read.)
            first = model.pre[a, 0]
            for w in range(words):
                compat[w] = pairs[first, w]
            for k in range(1, MAX_PRE):
                p = model.pre[a, k]
                if p < 0:
                    break
                for w in range(words):
                    compat[w] &= pairs[p, w]
            _clear_bit(compat, model.deleted[a, 0])
            _clear_bit(compat, model.deleted[a, 1])
            for k in range(MAX_PRE):
                p = model.add[a, k]
                if p < 0:
                    break
                if not _has(reach, p):
                    _set_bit(reach, p)
                for j in range(MAX_PRE):
                    q = model.add[a, j]
                    if q < 0:
                        break
                    if not _has(pairs[p], q):
                        _set_bit(pairs[p], q)
                        _set_bit(pairs[q], p)
                        row_time[p] = clock
                        row_time[q] = clock
                        changed = True
                for w in range(words):
                    new = compat[w] & ~pairs[p, w]
                    if new:
                        changed = True
                        pairs[p, w] |= new
                        row_time[p] = clock
                        while new:
                            r = (w << 6) + trailing_zeros(new)
                            _set_bit(pairs[r], p)
                            row_time[r] = clock
                            new &= new - np.uint64(1)
        if stop_at_goal and changed and _homes_paired(model):
            return True
    return False


@kernel
def _homes_paired(model):
    """Is every pair of ``home`` facts (a fact with itself included) in R2?"""
    for x in range(R.N_CARDS):
        if not _has(model.reach, model.home_fact[x]):
            return False  # the quick look first
    for x in range(R.N_CARDS):
        row = model.pairs[model.home_fact[x]]
        for y in range(x, R.N_CARDS):
            if not _has(row, model.home_fact[y]):
                return False
    return True


@kernel
def dead(model, cards, length, down, found, misc):
    """True if h^2 proves the position lost: some pair of ``home`` facts is unreachable."""
    n = image(model, cards, length, down, found, misc)
    if n < 0:
        return False
    if reachable(model, n, True):
        return False
    for x in range(R.N_CARDS):
        if not _has(model.reach, model.home_fact[x]):
            return True
    for x in range(R.N_CARDS):
        row = model.pairs[model.home_fact[x]]
        for y in range(x + 1, R.N_CARDS):
            if not _has(row, model.home_fact[y]):
                return True
    return False


# --- h^3: triples ------------------------------------------------------------------------------

class Triples(NamedTuple):
    """The buffers of the triples test.  For a model of F facts and p <= q, ``rows[p * F + q]``
    (``_at``) is the bit row of the facts r with the conjunction {p, q, r} reachable (repeats
    allowed, so ``rows[p * F + p]`` holds p's pairs, and its bit p says that p is reachable).
    The rows with p > q are not used: each conjunction is written in three rows, not six."""
    rows: np.ndarray     # uint64[at least F * F, at least (F + 63) // 64]
    beside: np.ndarray   # uint64[WORDS]: facts that may join the preconditions of an action
    third: np.ndarray    # uint64[WORDS]: the facts r that may join the preconditions and q


def triples_for(model: Model, triples: Triples | None = None) -> Triples:
    """Buffers for ``model``: ``triples`` if they are large enough, else new ones (strict
    deals: about 470 facts, 14 MB; easy: about 780, 63 MB)."""
    facts = int(model.size[0])
    words = (facts + 63) >> 6
    if (triples is not None and triples.rows.shape[0] >= facts * facts
            and triples.rows.shape[1] >= words):
        return triples
    return Triples(np.zeros((facts * facts, words), dtype=np.uint64),
                   np.zeros(WORDS, dtype=np.uint64), np.zeros(WORDS, dtype=np.uint64))


@kernel
def _at(facts, p, q):
    """The index of the row of the pair {p, q} (the facts r with {p, q, r} reachable)."""
    return p * facts + q if p <= q else q * facts + p


@kernel
def _add_triple(rows, facts, a, b, c):
    """Mark {a, b, c} reachable (in the three rows that name it); False if it was already."""
    if _has(rows[_at(facts, a, b)], c):
        return False
    _set_bit(rows[_at(facts, a, b)], c)
    _set_bit(rows[_at(facts, a, c)], b)
    _set_bit(rows[_at(facts, b, c)], a)
    return True


@kernel
def _add_triples(rows, facts, words, a, b, others):
    """Mark {a, b, r} reachable for every r of the bit row ``others``; True if any was new.
    The row of {a, b} takes them a word at a time; the rows of {a, r} and {b, r} a bit each."""
    changed = False
    row = rows[_at(facts, a, b)]
    for w in range(words):
        new = others[w] & ~row[w]
        if new:
            row[w] |= new
            changed = True
        while new:
            r = (w << 6) + trailing_zeros(new)
            _set_bit(rows[_at(facts, a, r)], b)
            _set_bit(rows[_at(facts, b, r)], a)
            new &= new - np.uint64(1)
    return changed


@kernel
def _count(row3):
    k = 0
    while k < MAX_PRE and row3[k] >= 0:
        k += 1
    return k


@kernel
def reachable3(model, triples, n, stop_at_goal=False):
    """h^3 reachability from the ``n`` facts of ``model.image`` into ``triples.rows``.  With
    ``stop_at_goal``, it stops as soon as every conjunction of at most three ``home`` facts is
    reachable (the rows only grow, so ``dead3`` would say False whatever came later) and
    returns True then: on strict deal starts that h^3 does not prove lost, after 6-11 sweeps
    of the 10-19 the fixpoint takes.  (Skipping the work whose input rows did not grow since
    it was last done, as ``reachable`` does, was measured and not kept: nearly every row an
    action reads grows between two of its sweeps, so it skipped under 1%.)

    A conjunction c of at most three facts is reachable if it lies in the image, or some
    action a adds a fact of c, deletes none of it, and every conjunction of at most three
    facts inside pre(a) + (c - add(a)) is reachable (Haslum & Geffner's h^m for m = 3, the
    least fixpoint, found by sweeping over the actions until a sweep adds nothing).  For an
    action whose preconditions P are reachable together, the conjunctions it makes reachable
    are those of an added fact x with: other added facts; one fact q of ``beside`` (not
    deleted, and {q} + P reachable: the AND of the rows of the pairs of P); two such facts q, r
    that are reachable with each other and with each fact of P (``third``)."""
    facts, rows = model.size[0], triples.rows
    words = (facts + 63) >> 6
    beside, third = triples.beside, triples.third
    for p in range(facts):
        for q in range(p, facts):
            row = rows[p * facts + q]
            for w in range(words):
                row[w] = np.uint64(0)
    for i in range(n):
        for j in range(n):
            row = rows[_at(facts, model.image[i], model.image[j])]
            for k in range(n):
                _set_bit(row, model.image[k])
    changed = True
    while changed:
        changed = False
        for ia in range(model.size[1]):
            if stop_at_goal and changed and (ia & GOAL_CHECK) == GOAL_CHECK and _homes_joined(
                    model, rows, facts):
                return True
            a = model.order[ia]
            pre, add = model.pre[a], model.add[a]
            np_, na = _count(pre), _count(add)
            usable = True
            for i in range(np_):
                for j in range(i, np_):
                    row = rows[_at(facts, pre[i], pre[j])]
                    for k in range(j, np_):
                        if not _has(row, pre[k]):
                            usable = False
            if not usable:
                continue
            for w in range(words):
                beside[w] = ~np.uint64(0)
            for i in range(np_):
                for j in range(i, np_):
                    row = rows[_at(facts, pre[i], pre[j])]
                    for w in range(words):
                        beside[w] &= row[w]
            _clear_bit(beside, model.deleted[a, 0])
            _clear_bit(beside, model.deleted[a, 1])
            for i in range(na):
                x = add[i]
                for j in range(na):
                    y = add[j]
                    for k in range(na):
                        if _add_triple(rows, facts, x, y, add[k]):
                            changed = True
                    changed |= _add_triples(rows, facts, words, x, y, beside)
            for w in range(words):
                qs = beside[w]
                while qs:
                    q = (w << 6) + trailing_zeros(qs)
                    qs &= qs - np.uint64(1)
                    pairs_q = rows[q * facts + q]
                    for v in range(words):
                        third[v] = beside[v] & pairs_q[v]
                    for k in range(np_):
                        row = rows[_at(facts, pre[k], q)]
                        for v in range(words):
                            third[v] &= row[v]
                    for i in range(na):  # third does not depend on the added fact
                        changed |= _add_triples(rows, facts, words, add[i], q, third)
        if stop_at_goal and changed and _homes_joined(model, rows, facts):
            return True
    return False


@kernel
def _homes_joined(model, rows, facts):
    """Is every conjunction of at most three ``home`` facts reachable?"""
    for i in range(R.N_CARDS):
        home = model.home_fact[i]
        if not _has(rows[home * facts + home], home):
            return False  # the quick look first: a home fact not yet reachable at all
    for i in range(R.N_CARDS):
        for j in range(i, R.N_CARDS):
            row = rows[_at(facts, model.home_fact[i], model.home_fact[j])]
            for k in range(j, R.N_CARDS):
                if not _has(row, model.home_fact[k]):
                    return False
    return True


@kernel
def dead3(model, triples, cards, length, down, found, misc):
    """True if h^3 proves the position lost: some conjunction of at most three ``home`` facts
    is unreachable.  At least as strong as ``dead`` (h^2), at hundreds of times its cost
    (0.05-0.2 s of CPU for a strict deal's start, about a second for an easy one)."""
    n = image(model, cards, length, down, found, misc)
    if n < 0:
        return False
    if reachable3(model, triples, n, True):
        return False
    return not _homes_joined(model, triples.rows, model.size[0])


def no_model() -> Model:
    """A stand-in for searches that do not run the test (the same types, nothing in it)."""
    z = np.zeros
    return Model(z(2, np.int64), z((1, 1), np.int64), z(1, np.int64), z(1, np.int64),
                 z(1, np.int64), z(1, np.int64), z((0, MAX_PRE), np.int64),
                 z((0, MAX_PRE), np.int64), z((0, WORDS), np.uint64), z((0, 2), np.int64),
                 z(WORDS, np.uint64), z((1, WORDS), np.uint64), z(WORDS, np.uint64), z(1, np.int64), z(1, np.int64),
                 z(0, np.int64), z(0, np.int64))
