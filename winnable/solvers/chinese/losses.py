"""Chinese Solitaire: tests that prove a position lost without searching it.

``dead_end`` is cheap and runs at every node of the search; ``occupation_dead_end`` is stronger
and costlier, and runs once on a deal the search leaves undecided.  Each is a least fixpoint of
necessary conditions of winning, so each says "lost" only of positions that are lost (the
arguments are in the docstrings); the tests compare them with the plain search on positions
searched completely.  Both read the rules' state arrays (a search ``Position`` passes its own).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...jit import inline_kernel, jit, kernel

from ...rules import chinese as R


@kernel
def twin(card):
    """The other card of the same rank and colour."""
    return (3 - R.suit(card)) * 13 + R.rank(card)


EXPOSED, FACE_UP, UP, LEFT = 1, 2, 4, 8  # what dead_end may derive of a card


@kernel
def _can_take_at(cards, where, status, p, h, t):
    """May card t ever be a top that the card at height h of pile p can go onto?  A t lying
    above it in the same pile must first be parted from it: some card between them (t
    included) must leave the card under it, taking t along in its block or leaving t."""
    if status[t] & EXPOSED == 0:
        return False
    at = where[t]
    if at < 0 or at // R.CAPACITY != p or at % R.CAPACITY < h:
        return True
    for i in range(h + 1, at % R.CAPACITY + 1):
        if status[cards[p, i]] & LEFT:
            return True
    return False


RANKS = np.uint64((1 << 13) - 1)  # one bit per rank of a suit's 13 bits in a card set
EVERY_CARD = np.uint64((1 << R.N_CARDS) - 1)
KINGS = np.uint64(sum(1 << (s * 13 + R.KING) for s in range(4)))


@kernel
def _bit(card):
    return np.uint64(1) << np.uint64(card)


@inline_kernel
def _known_at_start(cards, length, down, found, misc, deal):
    """What the fixpoints start from, as card sets: the cards on the foundations (up), the
    face-up tableau cards, the exposed cards (tops, and the stock while it is there), and
    whether a pile is empty."""
    up = np.uint64(0)
    for s in range(4):
        up |= ((np.uint64(1) << np.uint64(found[s])) - np.uint64(1)) << np.uint64(13 * s)
    face = np.uint64(0)
    exposed = np.uint64(0)
    space = False
    for p in range(R.PILES):
        if length[p] == 0:
            space = True
            continue
        for h in range(down[p], length[p]):
            face |= _bit(cards[p, h])
        exposed |= _bit(cards[p, length[p] - 1])
    if misc[R.STOCK_DEALT] == 0:
        for i in range(R.STOCK_FIRST, R.N_CARDS):
            exposed |= _bit(deal[i])
    return up, face, exposed, space


@kernel
def _fixpoint(cards, length, down, found, misc, deal, where, easy, status, held_p, held_h,
              occupant):
    """The least fixpoint of ``dead_end``, with two additions used by
    ``occupation_dead_end``:

    * the card at height ``held_h`` of pile ``held_p`` (if ``held_p`` >= 0) never leaves the
      card under it (so the fixpoint holds every event that can happen before it first does);
    * ``occupant[2 t + k]`` (k = 0, 1; -1 if none) are cards y known to sit on t at some moment
      before t goes up: up(t) then also needs that y can leave t (up(y), the other card t' of
      t's rank and colour exposed, or a space and y a king or easy mode).

    Fills ``status``; returns (every card may go up, a space can arise).  The order in which
    facts are derived does not change the fixpoint: piles are swept top card first, so that a
    card leaving exposes the one under it in the same sweep, and the sweeps stop as soon as
    every card can go up."""
    up_set, face, exposed, space = _known_at_start(cards, length, down, found, misc, deal)
    up = 0
    for s in range(4):
        up += found[s]
    for c in range(R.N_CARDS):
        bit = _bit(c)
        status[c] = ((UP if up_set & bit else 0) | (FACE_UP if face & bit else 0)
                     | (EXPOSED if exposed & bit else 0))
    if misc[R.STOCK_DEALT] == 0:
        for i in range(R.STOCK_FIRST, R.N_CARDS):
            status[deal[i]] |= FACE_UP
    changed = True
    while changed:
        changed = False
        for p in range(R.PILES):
            for h in range(length[p] - 1, -1, -1):
                # leaves(y), for y on a card (h > 0) or at the bottom of its pile (h == 0).
                y = cards[p, h]
                if status[y] & FACE_UP == 0 or (p == held_p and h == held_h):
                    continue
                if (status[cards[p, h - 1]] & EXPOSED != 0) if h > 0 else space:
                    continue  # nothing new to learn from y
                leaves = status[y] & UP != 0
                if not leaves and R.rank(y) < R.KING:
                    t = (R.rank(y) + 1) + (0 if R.red(y) else 13)
                    leaves = (_can_take_at(cards, where, status, p, h, t)
                              or _can_take_at(cards, where, status, p, h, twin(t)))
                if not leaves and h > 0 and space and (easy or R.rank(y) == R.KING):
                    leaves = True
                if leaves:
                    status[y] |= LEFT
                    if h > 0:
                        c = cards[p, h - 1]
                        if status[c] & EXPOSED == 0:
                            status[c] |= EXPOSED | FACE_UP
                            changed = True
                    elif not space:
                        space = True
                        changed = True
        for s in range(4):
            for r in range(found[s], 13):
                c = s * 13 + r
                if status[c] & UP:
                    continue
                if status[c] & EXPOSED == 0 or (r > 0 and status[c - 1] & UP == 0):
                    break
                free = True
                for k in range(2):
                    y = occupant[2 * c + k]
                    if y >= 0 and not (status[y] & UP or status[twin(c)] & EXPOSED
                                       or (space and (easy or R.rank(y) == R.KING))):
                        free = False
                if not free:
                    break
                status[c] |= UP
                up += 1
                changed = True
        if up == R.N_CARDS:
            return True, space
    return False, space


NO_OCCUPANTS = np.full(2 * R.N_CARDS, -1, dtype=np.int64)


@kernel
def dead_end_sweeps(cards, length, down, found, misc, deal, where, easy, status):
    """``dead_end`` computed by sweeping the piles card by card (``_fixpoint``, which the
    occupation test extends): the same least fixpoint, kept as the tests' cross-check of the
    card-set version the search runs."""
    return not _fixpoint(cards, length, down, found, misc, deal, where, easy, status, -1, -1,
                         NO_OCCUPANTS)[0]


@kernel
def _builders_of(cards):
    """The set of cards that build on some card of ``cards`` (one rank lower, other colour):
    a card set is four 13-bit suits (card id = suit * 13 + rank; clubs and spades black)."""
    red = ((cards >> np.uint64(13)) | (cards >> np.uint64(26))) & RANKS
    black = (cards | (cards >> np.uint64(39))) & RANKS
    on_red = red >> np.uint64(1)
    on_black = black >> np.uint64(1)
    return (on_red | (on_red << np.uint64(39)) | (on_black << np.uint64(13))
            | (on_black << np.uint64(26)))


@inline_kernel
def _takes(cards, where, exposed, left, p, h, y):
    """``_can_take_at`` over card sets: may y (at height h of pile p) go onto one of the two
    cards it builds on that are exposed?"""
    t = (R.rank(y) + 1) + (0 if R.red(y) else 13)
    for k in range(2):
        if k == 1:
            t = twin(t)
        if exposed & _bit(t) == 0:
            continue
        at = where[t]
        if at < 0 or at // R.CAPACITY != p or at % R.CAPACITY < h:
            return True
        for i in range(h + 1, at % R.CAPACITY + 1):
            if left & _bit(cards[p, i]):
                return True
    return False


@kernel
def dead_end(cards, length, down, found, misc, deal, where, easy):
    """True if some card can provably never reach its foundation (so the position is lost).

    A least fixpoint of necessary conditions, over the position as it stands.  Each condition
    names events that must happen before the event it guards, so every event of any actual
    continuation is derived here (induction on time), and a card never derived ``up`` never
    reaches its foundation:

    * exposed(c): c becomes the top of a pile.  True for tops and for stock cards (they land on
      top); otherwise the card y now directly on c must leave it first (no card can be put on
      c before c is a top), so exposed(c) needs leaves(y).
    * leaves(y): y is taken off the card under it: y must be face up (face up now, or exposed
      since) and go to its foundation (up(y)), or onto a card one rank higher of the other
      colour that is a top at the time (exposed), or into a space (a king, any card in easy
      mode) once a space can exist.
    * up(c): c reaches its foundation: exposed(c), and up of the card below it in its suit.
    * space: some pile empties: its bottom card leaves (to the foundation or onto a higher
      card; a space cannot be used before the first one exists).
    * A card t lying above y in y's own pile can take y only after some card between them (t
      included) has left the card under it (t may travel in a block it does not start).
    Cards on the foundations count as up and are never exposed (they can take no card).

    ``where`` holds the card places (a search ``Position``'s).

    Computed over card sets (64-bit masks of exposed, face-up, left and up cards): face-up
    cards that may now leave (up, onto an exposed card they build on, or into a space) are
    taken one at a time, each exposing the card under it, and when none is left the
    foundations grow through the exposed cards; this repeats until nothing new is derived.
    It is the least fixpoint of the same monotone rules that ``dead_end_sweeps`` computes card
    by card, so the two agree on every position (tested).
    """
    up, face, exposed, space = _known_at_start(cards, length, down, found, misc, deal)
    left = np.uint64(0)
    # Cards that may not leave yet although a parent is exposed: it lies above them in their
    # own pile with no card between them taken off yet.  Looked at again after any change.
    rejected = np.uint64(0)
    while True:
        movable = up | _builders_of(exposed)
        if space:
            movable |= EVERY_CARD if easy else KINGS
        candidates = face & ~left & ~rejected & movable
        if candidates:
            # One card at a time, so that what it exposes is seen at once.
            y = trailing_zeros(candidates)
            bit = _bit(y)
            at = where[y]
            p = at // R.CAPACITY
            h = at % R.CAPACITY
            if h == 0 and space:
                left |= bit  # nothing to learn from it: a space exists already
                continue
            if not (up & bit != 0 or (h > 0 and space and (easy or R.rank(y) == R.KING))
                    or _takes(cards, where, exposed, left, p, h, y)):
                rejected |= bit
                continue
            left |= bit
            rejected = np.uint64(0)
            if h > 0:
                under = _bit(cards[p, h - 1])
                exposed |= under
                face |= under
            else:
                space = True
            continue
        grew = False
        for s in range(4):
            shift = np.uint64(13 * s)
            run = ((up | exposed) >> shift) & RANKS
            # The foundation of suit s can grow through every exposed card that follows it.
            grown = (((run + np.uint64(1)) & ~run) - np.uint64(1)) << shift
            if grown != up & (RANKS << shift):
                up |= grown
                grew = True
        if up == EVERY_CARD:
            return False
        if not grew:
            return True
        rejected = np.uint64(0)


@kernel
def _lost(cards, length, down, found, misc, deal, where, easy, status, occupant):
    return not _fixpoint(cards, length, down, found, misc, deal, where, easy, status, -1, -1,
                         occupant)[0]


@kernel
def _occupy(occupant, y, t):
    for k in range(2):
        if occupant[2 * t + k] < 0:
            occupant[2 * t + k] = y
            return


@jit
def occupation_dead_end(cards, length, down, found, misc, deal, where, easy, status, occupant,
                        probe=True):
    """True if the position is provably lost: ``dead_end`` made aware that a card put on
    another covers it.  Costlier (up to three fixpoints per card lying on a card, repeated while
    new facts appear), so the search never calls it; the thoughtful driver tries it once on a
    deal the search leaves unknown.  ``status`` (52) and ``occupant`` (104) are work arrays.

    ``dead_end`` is monotone: it cannot see that a card y put on t (one rank higher, other
    colour) blocks t until y leaves again.  Facts of the form "in every winning line, y sits
    on t at some moment before t goes to its foundation" (an occupation (y, t)) are derived as
    follows, and each one adds a premise to up(t) in the fixpoint (``_fixpoint``).

    (a) Held card.  Let y lie on a card c (height >= 1).  In a win c goes up, so it becomes a
        top, so y is taken off c at some first moment D (to its foundation, or with the cards
        on it onto another pile; c carrying y along in a block does not take y off c).  Every
        event before D is derived by the fixpoint in which y is never taken off c: take the
        earliest event before D that is not; its necessary conditions are earlier events, all
        derived, and none of the rules it needs is the one switched off (y leaving c), so the
        fixpoint derives it, a contradiction.  At D, y goes up (then up(y) is derived, as
        exposed(y) and up of its predecessor happened before D), or onto a card it builds on
        (one of t, t', the two cards one rank higher of the other colour), which is a top just
        before D (``_can_take_at`` holds, by the argument in ``dead_end``), or into a space (easy
        mode only: a king builds on nothing and is skipped).  So if that fixpoint derives none
        of them, the position is lost; if it derives only t, then in every win y is put on t at
        D, while t is still on the tableau: an occupation (y, t).
    (b) Probing.  If it derives both t and t' (and neither up(y) nor a usable space), suppose
        y is first put on t: then (y, t) holds in that win.  If the fixpoint with (y, t) added
        (and the occupations known so far) derives some card never up, no win puts y first on
        t, so every win puts it first on t': (y, t') holds.  If both suppositions fail, the
        position is lost.
    (c) Occupation premise.  Given (y, t) for every win: before t goes up it must be a top, so
        y leaves t before then: y goes up, or onto t' (which is a top at that moment, so
        exposed(t') happened earlier), or (easy mode) into a space that exists then.  So up(t)
        needs up(y), exposed(t') or (easy and a space), all earlier events.  With this premise
        every rule of the fixpoint is still a necessary condition of its event in every win,
        so the induction of ``dead_end`` still shows that every event of any win is derived,
        and a card never derived up proves the position lost.  The held fixpoints of (a) and
        (b) may use the occupations already known: they are facts about every win, and the
        events before D belong to a win.
    Occupations are collected until none is new; the position is lost when a fixpoint with
    them leaves a card never up, or when (a) or (b) above finds no way for some y to leave.
    The tests compare it with the plain search on positions small enough to search completely.
    """
    for i in range(2 * R.N_CARDS):
        occupant[i] = -1
    trial = np.empty(2 * R.N_CARDS, dtype=np.int64)
    placed = np.zeros(R.N_CARDS, dtype=np.bool_)
    changed = True
    while changed:
        changed = False
        if _lost(cards, length, down, found, misc, deal, where, easy, status, occupant):
            return True
        for p in range(R.PILES):
            for h in range(1, length[p]):
                y = cards[p, h]
                if R.rank(y) == R.KING or placed[y]:
                    continue
                space = _fixpoint(cards, length, down, found, misc, deal, where, easy, status,
                                  p, h, occupant)[1]
                if status[y] & UP:
                    continue  # y may go up first
                if space and easy:
                    continue
                t = (R.rank(y) + 1) + (0 if R.red(y) else 13)
                a = _can_take_at(cards, where, status, p, h, t)
                b = _can_take_at(cards, where, status, p, h, twin(t))
                if not a and not b:
                    return True  # y can never leave the card under it
                if a and b:
                    if not probe:
                        continue
                    trial[:] = occupant
                    _occupy(trial, y, t)
                    a = not _lost(cards, length, down, found, misc, deal, where, easy, status,
                                  trial)
                    trial[:] = occupant
                    _occupy(trial, y, twin(t))
                    b = not _lost(cards, length, down, found, misc, deal, where, easy, status,
                                  trial)
                    if not a and not b:
                        return True
                    if a and b:
                        continue
                _occupy(occupant, y, t if a else twin(t))
                placed[y] = True
                changed = True
    return False

