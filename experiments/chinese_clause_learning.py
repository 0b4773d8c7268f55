"""Chinese Solitaire, issue 37: does learning conjunctions (Steinmetz & Hoffmann's u^C with
online refinement, AAAI 2016 / JAIR 2018) prove losses with fewer nodes than a fixed test?

The setting is the paper's own: a depth-first search over the states of the critical-path
model (``solvers.chinese.critical``: a STRIPS relaxation of the game), not over game positions.
The model of a position allows every game move and more, so a model state from which no plan
reaches every ``home`` fact is the image of a lost position (the soundness argument of
critical.py's docstring); a model search that proves its root dead proves the position lost.
(The model search may meet states that are no position's image; that only costs nodes.)

u^C: for a set C of conjunctions of facts (all single facts, plus those learnt), c in C is
reachable from a state s if c is true in s, or some action a adds part of c, deletes none of
it, and every c' in C inside its regression pre(a) | (c - add(a)) is reachable.  A state is
dead if some c in C inside the goal (the ``home`` facts) is unreachable.  With C the single
facts this is the delete relaxation (h^1); with all pairs it is h^2.  Every C is sound: a
state called dead is dead, however C was chosen; learning only changes how often it fires.

Refinement (at the root of a strongly connected component S of the search, once it is fully
searched and lost, so every successor t outside S is called dead by u^C): ``extract(G')``
takes, for each such t, a conjunction c_t of C inside G' unreachable from t, joins them into
x, adds facts of G' until x is true in no state of S, learns x, and for every action a
supporting x whose regression R holds no conjunction already known unreachable from all of S,
calls ``extract(R)``.  Each c_t survives into R (an action adding part of c_t regresses it into
a conjunction unreachable from t, one not touching it leaves it in x - add(a)), and R is true
in no state of S (else a would lead from S to a state where x is true, a successor in S or T).
So after it every learnt x is unreachable from every state of S: the whole component is
recognised, and so is any later state whose reasons are the same.

Measured: nodes of the model search from late positions of the hard strict deals (the deal's
cards below a rank on the foundations, the stock dealt: ``thoughtful._late_position``), with

* ``h1``: C = single facts, no learning (the delete relaxation at every node);
* ``learn``: C = single facts, refined at every lost component;
* ``h2``: the engine's h^2 at every node, no learning;
* ``h3``: no search, the engine's h^3 at the position (verdict ``lost`` or ``open``).

A model search that ends ``won`` found a plan of the model: then no critical-path test over
this model (h^m for any m, u^C for any C, learnt or not) can call the position lost, however
much it learns.  ``--acyclic`` measures one of the model's relaxations by forbidding, in the
search alone, the moves of a block onto a card of its own (the model allows them: a block
"lifted" that way acts as a free cell).

Run: ``python experiments/chinese_clause_learning.py [--deals 230,250] [--ranks 9,8,7]
[--nodes 200000]``; it prints one row per position and mode (verdict, nodes, conjunctions
learnt, seconds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.test_chinese

from winnable.games import get_game  # noqa: E402
from winnable.rules import chinese as R  # noqa: E402
from winnable.solvers.chinese import critical as C  # noqa: E402
from winnable.solvers.chinese import position as P  # noqa: E402
from winnable.solvers.chinese import thoughtful as T  # noqa: E402

HARD_DEALS = (230, 250, 332, 420, 485, 489, 900, 1076, 1506, 1740, 1895)


def bit_rows(lists, n_rows, words):
    """Fact lists (-1 padded) as bit rows."""
    rows = np.zeros((n_rows, words), dtype=np.uint64)
    for i, facts in enumerate(lists):
        for f in facts:
            if f >= 0:
                rows[i, f >> 6] |= np.uint64(1) << np.uint64(f & 63)
    return rows


def facts_of(row):
    out = []
    for w, word in enumerate(row):
        word = int(word)
        while word:
            low = word & -word
            out.append((w << 6) + low.bit_length() - 1)
            word ^= low
    return out


class Task:
    """The model as STRIPS over bit rows: pre, add, delete per action; the goal."""

    def __init__(self, model, acyclic=False):
        self.facts, self.actions = int(model.size[0]), int(model.size[1])
        self.words = (self.facts + 63) >> 6
        w = self.words
        self.pre = bit_rows(model.pre[:self.actions], self.actions, w)
        self.add = bit_rows(model.add[:self.actions], self.actions, w)
        self.delete = np.ascontiguousarray(model.delete[:self.actions, :w])
        homes = [int(f) for f in model.home_fact if f >= 0]
        self.goal = bit_rows([homes], 1, w)[0]
        self.pre_lists = [[int(f) for f in model.pre[a] if f >= 0] for a in range(self.actions)]
        # on(x, z) facts, and the moves among the actions: (x, z) of move(x, y, z)
        self.on_of = {int(model.on_fact[x, z]): (x, z) for x in range(R.N_CARDS)
                      for z in range(C.PLACES) if model.on_fact[x, z] >= 0}
        self.move_of = {}
        for a in range(self.actions):
            moved = [self.on_of[int(f)] for f in model.pre[a] if int(f) in self.on_of]
            landed = [self.on_of[int(f)] for f in model.add[a] if int(f) in self.on_of]
            if moved and landed:
                self.move_of[a] = landed[0]
        self.acyclic = acyclic
        self.add_lists = [[int(f) for f in model.add[a] if f >= 0] for a in range(self.actions)]

    def applicable(self, state):
        usable = np.flatnonzero(((self.pre & ~state) == 0).all(axis=1))
        if not self.acyclic:
            return usable
        below = {}
        for f in facts_of(state):
            if f in self.on_of:
                x, z = self.on_of[f]
                below[x] = z
        return np.array([a for a in usable if not self._closes_a_cycle(a, below)],
                        dtype=np.int64)

    def _closes_a_cycle(self, a, below):
        """Whether action ``a`` moves a block onto a card of the block itself (in the state
        whose cards lie on ``below``): a move of the model that no position has."""
        x, z = self.move_of.get(a, (-1, -1))
        while 0 <= z < R.N_CARDS:
            if z == x:
                return True
            z = below.get(z, -1)
        return False

    def successor(self, state, a):
        return (state & ~self.delete[a]) | self.add[a]


# --- u^C: the compiled task Pi^C and its reachability -------------------------------------------

@njit(cache=True)
def _reach(n_conj, true_at_start, n_pre, adds_start, adds, users_start, users, reached):
    """Counter-based reachability over the compiled actions: an action fires once all the
    conjunctions of its precondition list are reached, reaching the conjunctions it adds."""
    count = n_pre.copy()
    queue = np.empty(n_conj + 1, dtype=np.int64)
    head = tail = 0
    for c in range(n_conj):
        reached[c] = true_at_start[c]
        if reached[c]:
            queue[tail] = c
            tail += 1
    for k in range(n_pre.size):
        if count[k] == 0:
            for j in range(adds_start[k], adds_start[k + 1]):
                c = adds[j]
                if not reached[c]:
                    reached[c] = True
                    queue[tail] = c
                    tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for i in range(users_start[c], users_start[c + 1]):
            k = users[i]
            count[k] -= 1
            if count[k] == 0:
                for j in range(adds_start[k], adds_start[k + 1]):
                    d = adds[j]
                    if not reached[d]:
                        reached[d] = True
                        queue[tail] = d
                        tail += 1


class Conjunctions:
    """C (the single facts first, then those learnt) and its compiled task."""

    def __init__(self, task: Task):
        self.task = task
        self.rows = np.zeros((task.facts, task.words), dtype=np.uint64)
        for f in range(task.facts):
            self.rows[f, f >> 6] = np.uint64(1) << np.uint64(f & 63)
        self.learnt = 0
        self.known = {self.rows[f].tobytes() for f in range(task.facts)}
        self._compiled = None

    def __len__(self):
        return self.rows.shape[0]

    def add(self, row) -> int:
        """Learn a conjunction (a no-op if known); its index."""
        key = row.tobytes()
        if key in self.known:
            return int(np.flatnonzero((self.rows == row).all(axis=1))[0])
        self.known.add(key)
        self.rows = np.vstack([self.rows, row[None, :]])
        self.learnt += 1
        self._compiled = None
        return len(self) - 1

    def inside(self, row):
        """Indices of the conjunctions that are subsets of ``row``."""
        return np.flatnonzero(((self.rows & ~row) == 0).all(axis=1))

    def compile(self):
        """Pi^C as CSR arrays: each compiled action's precondition count and add list, and for
        each conjunction the compiled actions it is a precondition of."""
        if self._compiled is not None:
            return self._compiled
        task = self.task
        pres, adds = [], []
        # The single facts: one compiled action per action (the regression of {p} through an
        # action adding p is pre(a)), adding each of its add facts.
        for a in range(task.actions):
            pres.append(self.inside(task.pre[a]))
            adds.append(np.array(task.add_lists[a], dtype=np.int64))
        for c in range(task.facts, len(self)):
            row = self.rows[c]
            supporting = np.flatnonzero((task.add & row).any(axis=1)
                                        & ~(task.delete & row).any(axis=1))
            for a in supporting:
                regression = task.pre[a] | (row & ~task.add[a])
                pres.append(self.inside(regression))
                adds.append(np.array([c], dtype=np.int64))
        n_pre = np.array([p.size for p in pres], dtype=np.int64)
        adds_start = np.zeros(len(adds) + 1, dtype=np.int64)
        adds_start[1:] = np.cumsum([a.size for a in adds])
        flat_adds = np.concatenate(adds) if adds else np.zeros(0, dtype=np.int64)
        users = [[] for _ in range(len(self))]
        for k, p in enumerate(pres):
            for c in p:
                users[c].append(k)
        users_start = np.zeros(len(self) + 1, dtype=np.int64)
        users_start[1:] = np.cumsum([len(u) for u in users])
        flat_users = np.array([k for u in users for k in u], dtype=np.int64)
        goal = self.inside(task.goal)
        self._compiled = (n_pre, adds_start, flat_adds, users_start, flat_users, goal)
        return self._compiled

    def reached(self, state):
        n_pre, adds_start, adds, users_start, users, _ = self.compile()
        true_at_start = ((self.rows & ~state) == 0).all(axis=1)
        out = np.zeros(len(self), dtype=np.bool_)
        _reach(len(self), true_at_start, n_pre, adds_start, adds, users_start, users, out)
        return out

    def dead(self, state) -> bool:
        goal = self.compile()[5]
        return not self.reached(state)[goal].all()


class Refinement:
    """Steinmetz & Hoffmann's conflict extraction for one lost component (module docstring)."""

    def __init__(self, conj: Conjunctions, component, outside):
        self.conj, self.task = conj, conj.task
        self.component = component               # bit rows of the states of S
        self.outside_reached = [conj.reached(t) for t in outside]
        self.component_reached = [conj.reached(s) for s in component]
        self.learnt = []
        self.failed = False

    def _unreachable_from_all_of_s(self, row, learnt_rows):
        for c in self.conj.inside(row):
            if all(not r[c] for r in self.component_reached):
                return True
        return any(((x & ~row) == 0).all() for x in learnt_rows)

    def run(self):
        learnt_rows = []
        self._extract(self.task.goal, learnt_rows, depth=0)
        for row in learnt_rows:
            self.conj.add(row)
        return not self.failed

    def _extract(self, region, learnt_rows, depth):
        if self.failed or depth > 200:
            self.failed = True
            return
        x = np.zeros_like(region)
        inside = self.conj.inside(region)
        for reached in self.outside_reached:
            unreached = inside[~reached[inside]]
            if unreached.size == 0:
                self.failed = True  # cannot happen if the successor is recognised
                return
            # the conjunction adding least to x
            best = min(unreached, key=lambda c: bin_count(self.conj.rows[c] & ~x))
            x |= self.conj.rows[best]
        for s in self.component:
            if ((x & ~s) == 0).all():
                missing = region & ~s
                if not missing.any():
                    self.failed = True
                    return
                f = facts_of(missing)[0]
                x[f >> 6] |= np.uint64(1) << np.uint64(f & 63)
        if any((x == r).all() for r in learnt_rows):
            return
        learnt_rows.append(x.copy())
        task = self.task
        supporting = np.flatnonzero((task.add & x).any(axis=1) & ~(task.delete & x).any(axis=1))
        for a in supporting:
            regression = task.pre[a] | (x & ~task.add[a])
            if not self._unreachable_from_all_of_s(regression, learnt_rows):
                self._extract(regression, learnt_rows, depth + 1)


def bin_count(row) -> int:
    return sum(bin(int(w)).count("1") for w in row)


# --- the model search ----------------------------------------------------------------------------

class H2:
    """The engine's h^2 on a model state."""

    def __init__(self, model):
        self.model = model

    def dead(self, state) -> bool:
        facts = facts_of(state)
        self.model.image[:len(facts)] = facts
        C.reachable(self.model, len(facts))
        homes = [int(f) for f in self.model.home_fact if f >= 0]
        reach, pairs = self.model.reach, self.model.pairs
        for i, p in enumerate(homes):
            if not C._has(reach, p):
                return True
            for q in homes[i + 1:]:
                if not C._has(pairs[p], q):
                    return True
        return False


def search(task: Task, root, mode: str, node_limit: int):
    """Depth-first search with Tarjan's components over model states: (verdict, nodes,
    conjunctions learnt, refinements that failed)."""
    conj = Conjunctions(task)
    h2 = H2(task.model) if mode == "h2" else None

    def recognised(state):
        return h2.dead(state) if mode == "h2" else conj.dead(state)

    index, low, on_stack, dead = {}, {}, set(), set()
    stack, nodes, failures = [], 0, 0
    key0 = root.tobytes()
    if recognised(root):
        return "lost", 0, 0, 0
    states = {key0: root}
    # frames: (key, successors left, successors outside the component so far)
    work = [(key0, None)]
    index[key0] = low[key0] = 0
    stack.append(key0)
    on_stack.add(key0)
    counter = 1
    frames = {key0: [list(task.applicable(root)), []]}
    while work:
        key, _ = work[-1]
        state = states[key]
        frame = frames[key]
        if not (state & task.goal == task.goal).all() and frame[0]:
            a = frame[0].pop()
            child = task.successor(state, a)
            ck = child.tobytes()
            if ck in dead:
                frame[1].append(ck)
                continue
            if ck in index:
                if ck in on_stack:
                    low[key] = min(low[key], index[ck])
                continue
            nodes += 1
            if nodes > node_limit:
                return "unknown", nodes, conj.learnt, failures
            if (child & task.goal == task.goal).all():
                return "won", nodes, conj.learnt, failures
            if recognised(child):
                dead.add(ck)
                states[ck] = child
                frame[1].append(ck)
                continue
            states[ck] = child
            index[ck] = low[ck] = counter
            counter += 1
            stack.append(ck)
            on_stack.add(ck)
            frames[ck] = [list(task.applicable(child)), []]
            work.append((ck, key))
            continue
        if (state & task.goal == task.goal).all():
            return "won", nodes, conj.learnt, failures
        work.pop()
        parent = work[-1][0] if work else None
        if parent is not None:
            low[parent] = min(low[parent], low[key])
        if low[key] == index[key]:
            component = []
            while True:
                k = stack.pop()
                on_stack.discard(k)
                component.append(k)
                if k == key:
                    break
            members = set(component)
            outside = {t for k in component for t in frames[k][1] if t not in members}
            if mode == "learn":
                refinement = Refinement(conj, [states[k] for k in component],
                                        [states[t] for t in outside])
                if not refinement.run():
                    failures += 1
            dead.update(members)
            for k in component:
                del frames[k]
            if parent is not None:
                frames[parent][1].append(key)
    return "lost", nodes, conj.learnt, failures


def late_positions(deals, ranks):
    """(label, position) for the late positions of ``deals`` (``thoughtful._late_position``)."""
    game = get_game("chinese")
    for deal_number in deals:
        for first_rank in ranks:
            yield f"{deal_number}/{first_rank}", T._late_position(game.deal(deal_number),
                                                                  first_rank)


def lost_positions(count, cards, seed, dealt=False, budget=2_000_000):
    """(label, position) for ``count`` random positions of about ``cards`` cards in play
    (``tests/test_chinese.reduced_position``, strict, stock not dealt) that the engine's
    search proves lost completely and h^2 does not call lost at the root: the losses of
    conflicts the fixed test cannot see from the start.  ``dealt``: with the stock dealt."""
    import random

    from tests.test_chinese import reduced_position
    from winnable.solvers.chinese import search as CS
    from winnable.solvers.table import LOSS, TranspositionTable

    rng, table, workspace = random.Random(seed), TranspositionTable(64), CS.new_workspace()
    found = tried = 0
    while found < count:
        pos = reduced_position(rng, cards, quick=True)
        tried += 1
        if dealt:  # the stock dealt first: a position with no stock left
            state = [a.copy() for a in (pos.cards, pos.length, pos.down, pos.found, pos.misc)]
            R.apply_move(*state, pos.deal, R.encode(R.STOCK, 0, 0, 3))
            pos = P.from_state(*state, pos.deal)
        model = C.build(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal, False)
        if C.dead(model, pos.cards, pos.length, pos.down, pos.found, pos.misc):
            continue
        table.begin_deal()
        outcome, _, _, _ = CS.search(pos, False, False, CS.ALL & ~CS.CRITICAL, budget,
                                     table.keys, table.stamps, table.deal_first,
                                     table.begin_search(), workspace, C.no_model(), 0, 0)
        if int(outcome) == LOSS:
            found += 1
            yield f"r{seed}.{tried}", pos


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default=",".join(map(str, HARD_DEALS)))
    parser.add_argument("--ranks", default="9,8,7")
    parser.add_argument("--random", type=int, default=0,
                        help="instead: this many random lost positions (lost_positions)")
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--dealt", action="store_true", help="random positions: stock dealt")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default="h1,learn,h2")
    parser.add_argument("--acyclic", action="store_true",
                        help="the model search makes no move of a block onto itself")
    parser.add_argument("--nodes", type=int, default=200_000)
    args = parser.parse_args(argv)
    if args.random:
        positions = lost_positions(args.random, args.cards, args.seed, args.dealt)
    else:
        positions = late_positions(map(int, args.deals.split(",")),
                                   [int(r) for r in args.ranks.split(",")])
    triples = T.Thoughtful(False, False)
    print("position cards facts actions mode verdict nodes learnt failed seconds")
    for label, pos in positions:
        model = C.build(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal, False)
        task = Task(model, args.acyclic)
        task.model = model
        n = C.image(model, pos.cards, pos.length, pos.down, pos.found, pos.misc)
        root = bit_rows([model.image[:n]], 1, task.words)[0]
        for mode in args.modes.split(","):
            t = time.process_time()
            if mode == "h3":  # the engine's h^3 at the position alone: no search
                dead = triples.triples_dead(pos, easy=False)
                verdict, nodes, learnt, failed = ("lost" if dead else "open"), 0, 0, 0
            else:
                verdict, nodes, learnt, failed = search(task, root, mode, args.nodes)
            print(label, int(pos.length.sum()) + 3 * (1 - int(pos.misc[R.STOCK_DEALT])),
                  task.facts, task.actions, mode, verdict, nodes, learnt, failed,
                  f"{time.process_time() - t:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
