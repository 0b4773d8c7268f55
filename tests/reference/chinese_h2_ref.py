"""Plain-Python reference of the critical-path loss test h^2 for Chinese Solitaire.

Written from the definitions, not from the engine (``winnable.solvers.chinese.critical``), to
cross-check it: the same STRIPS model built over the reference's ``State`` (card codes, piles
of (code, face_up) pairs) with facts as tuples, and h^2 reachability computed with Python sets,
one action at a time, until nothing changes.  Slow but meant to be obviously correct.

Facts: ("on", x, z) card x lies directly on z (a card code, or ("base", p) for the bottom of
pile p); ("clear", z) z is a top / pile p is empty; ("faceup", x) for a card face down in the
given state; ("home", x); ("pending", i) stock card i not dealt yet.
"""

from __future__ import annotations

from itertools import combinations

from . import chinese_ref as ref

BASES = [("base", p) for p in range(ref.NUM_PILES)]


def _parents(x):
    """The two cards x may be put on: one rank higher, the other colour."""
    if ref.rank(x) == 13:
        return []
    higher = ref.RANKS[ref.rank(x)]  # rank() is 1-based: index rank(x) is the next rank
    suits = "CS" if ref.is_red(x) else "DH"
    return [higher + s for s in suits]


def _below_in_suit(x):
    return None if ref.rank(x) == 1 else ref.RANKS[ref.rank(x) - 2] + x[1]


def model(state: ref.State, easy: bool):
    """(image of ``state``, actions as (pre, add, delete) sets, goal facts)."""
    home = {ref.RANKS[r] + s for i, s in enumerate(ref.SUITS)
            for r in range(state.foundations[i])}
    under, face_down = {}, set()
    image = set()
    for p, pile in enumerate(state.piles):
        if not pile:
            image.add(("clear", ("base", p)))
        for h, (x, up) in enumerate(pile):
            under[x] = ("base", p) if h == 0 else pile[h - 1][0]
            image.add(("on", x, under[x]))
            if not up:
                face_down.add(x)
        if pile:
            image.add(("clear", pile[-1][0]))
    image |= {("home", x) for x in home}
    image |= {("pending", i) for i in range(len(state.stock))}
    everywhere = list(ref.ALL_CODES) + BASES

    def targets(x):
        spaces = BASES if easy or ref.rank(x) == 13 else []
        return _parents(x) + spaces

    actions = []
    for x in ref.ALL_CODES:
        if x in home:
            continue
        places = set(targets(x))
        if x in under:
            places.add(under[x])
        if x in state.stock:
            places |= set(everywhere)
        places.discard(x)
        for y in places:
            turn = {("faceup", y)} if y in face_down and under.get(x) == y else set()
            below = _below_in_suit(x)
            actions.append(({("on", x, y), ("clear", x)} | ({("home", below)} if below else set()),
                             {("home", x), ("clear", y)} | turn,
                             {("on", x, y), ("clear", x)}))
            for z in targets(x):
                if z == y:
                    continue
                actions.append(({("on", x, y), ("clear", z)}
                                | ({("faceup", x)} if x in face_down else set()),
                                {("on", x, z), ("clear", y)} | turn,
                                {("on", x, y), ("clear", z)}))
    for i, s in enumerate(state.stock):
        for z in everywhere:
            if z != s:
                actions.append(({("pending", i), ("clear", z)}, {("on", s, z), ("clear", s)},
                                {("pending", i), ("clear", z)}))
    return image, actions, [("home", x) for x in ref.ALL_CODES]


def h2_dead(state: ref.State, easy: bool = False) -> bool:
    """True if some pair of goal facts is not h^2-reachable from ``state``."""
    image, actions, goal = model(state, easy)
    facts = set(image)
    # partners[p]: the facts q with the pair {p, q} reachable (p itself once p is reachable).
    partners = {p: set(image) for p in image}
    changed = True
    while changed:
        changed = False
        for pre, add, delete in actions:
            if not pre <= facts or any(q not in partners[p] for p, q in combinations(pre, 2)):
                continue
            # Facts that may hold beside all of pre and that the action leaves alone stay true
            # beside each fact it adds.
            beside = set.intersection(*(partners[r] for r in pre)) - delete
            for p in add:
                if p not in facts:
                    facts.add(p)
                    partners[p] = set()
                    changed = True
            for p in add:
                new = (beside | add) - partners[p]
                if new:
                    changed = True
                    partners[p] |= new
                    for q in new:
                        partners[q].add(p)
    return not (set(goal) <= facts
                and all(h in partners[g] for g, h in combinations(goal, 2)))


def hm_dead(state: ref.State, easy: bool = False, m: int = 3) -> bool:
    """True if some set of at most ``m`` goal facts is not h^m-reachable from ``state``.

    h^m from its definition: a set c of at most m facts is reachable if c lies in the image,
    or some action adds a fact of c, deletes none of it, and every set of at most m facts
    inside pre + (c - add) is reachable; the least such family, grown one action at a time
    until nothing changes.  Facts of the image that no action deletes are true in every
    state reached, so they are left out of every set (a set is reachable exactly when the
    set without them is): the sets to try are then few enough for plain Python."""
    image, actions, goal = model(state, easy)
    static = {f for f in image if not any(f in delete for _, _, delete in actions)}
    actions = [(pre - static, add - static, delete) for pre, add, delete in actions]
    goal = [g for g in goal if g not in static]

    def subsets(facts):
        facts = list(facts)
        return [frozenset(c) for k in range(1, m + 1) for c in combinations(facts, k)]

    reached = set(subsets(image - static)) | {frozenset()}

    def all_reached(facts):
        return all(c in reached for c in subsets(facts))

    changed = True
    while changed:
        changed = False
        singles = [next(iter(c)) for c in reached if len(c) == 1]
        for pre, add, delete in actions:
            if not all_reached(pre):
                continue
            # A fact of c that the action does not add joins pre in the regression.
            others = [q for q in singles if q not in delete and all_reached(pre | {q})]
            for x in add:
                for k in range(m):
                    for rest in combinations(set(others) | add, k):
                        c = frozenset((x, *rest))
                        if c in reached or c & delete:
                            continue
                        # (c - add itself first: the cheapest of the sets to look up.)
                        if c - add in reached and all_reached((c - add) | pre):
                            reached.add(c)
                            changed = True
    return not all_reached(goal)
