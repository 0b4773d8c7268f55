"""Nineball Solitaire solvers.

``thoughtful``: the exact optimum with every card known.  Depth-first search over the compact
state (rack mask and kitchen heights, see ``winnable.rules.nineball``) with a memo of the best
score reachable from each state; at most 20 x 64 states are reachable, so every deal is solved
completely and the outcome is never ``unknown``.  The score of a cleared rack (at least 19)
exceeds every score without a clear (at most 17), so the best line clears the rack exactly when
some line does: ``win`` is read off the optimal score.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..jit import jit
from ..rules import nineball as R
from .table import Generation

MAX_DEPTH = R.N_CARDS + 2  # every group removes at least one card


class Memo(NamedTuple):
    """By compact state (every state has its slot): the best score still to come, the first
    group of a best line (-1: none), and the generation that wrote them."""
    value: np.ndarray
    move: np.ndarray
    stamps: np.ndarray


class Scratch:
    """Work arrays reused from deal to deal (the memo is invalidated by a stamp, not cleared)."""

    def __init__(self):
        self.generation = Generation(R.N_STATES)
        self.memo = Memo(np.zeros(R.N_STATES, dtype=np.int8),
                         np.zeros(R.N_STATES, dtype=np.int16), self.generation.stamps)
        self.moves = np.zeros((MAX_DEPTH, R.MAX_GROUPS), dtype=np.int16)
        self.line = np.zeros(R.N_CARDS, dtype=np.int16)


@jit
def _value_if_ended(state, n_moves, bonus_always):
    """The score still to come if play stops in ``state`` (rack cards already removed are
    credited along the path).  Under the default rules play must go on while a move exists
    (-1 makes any move better, so the line of play is a whole game); with the kitchen bonus
    always counted, the player may stop."""
    if n_moves > 0 and not bonus_always:
        return -1
    return R.final_score(state, bonus_always) - R.rack_removed(state)


@jit
def thoughtful(deal, rules, memo, stamp, moves, line):
    """Best score of ``deal`` (``rules``: ``R.rule_params``, ``memo`` a ``Memo`` written with
    generation ``stamp``); writes one optimal line (encoded groups) into ``line``.  Returns
    (score, number of states expanded, length of the line)."""
    kitchen_limit, target_mask, bonus_always = rules
    memo_value, memo_move, memo_stamp = memo
    values = R.card_values(deal)
    sums = R.rack_sums(values)
    stack_state = np.empty(MAX_DEPTH, dtype=np.int64)
    stack_count = np.empty(MAX_DEPTH, dtype=np.int64)
    stack_next = np.empty(MAX_DEPTH, dtype=np.int64)
    stack_best = np.empty(MAX_DEPTH, dtype=np.int64)
    stack_best_move = np.empty(MAX_DEPTH, dtype=np.int64)

    root = R.INITIAL_STATE
    nodes = 1
    stack_state[0] = root
    stack_count[0] = R.legal_groups(root, values, sums, kitchen_limit, target_mask, moves[0])
    stack_next[0] = 0
    stack_best[0] = _value_if_ended(root, stack_count[0], bonus_always)
    stack_best_move[0] = -1
    sp = 1
    while sp > 0:
        d = sp - 1
        state = stack_state[d]
        if stack_next[d] < stack_count[d]:
            group = moves[d, stack_next[d]]
            child = R.apply_group(state, group)
            if memo_stamp[child] == stamp:
                value = memo_value[child] + R.popcount(group & R.FULL_RACK)
                if value > stack_best[d]:
                    stack_best[d] = value
                    stack_best_move[d] = group
                stack_next[d] += 1
            else:
                nodes += 1
                stack_state[sp] = child
                stack_count[sp] = R.legal_groups(child, values, sums, kitchen_limit,
                                                 target_mask, moves[sp])
                stack_next[sp] = 0
                stack_best[sp] = _value_if_ended(child, stack_count[sp], bonus_always)
                stack_best_move[sp] = -1
                sp += 1
        else:
            memo_stamp[state] = stamp
            memo_value[state] = stack_best[d]
            memo_move[state] = stack_best_move[d]
            sp -= 1

    n = 0
    state = root
    while memo_move[state] >= 0 and memo_stamp[state] == stamp:
        line[n] = memo_move[state]
        state = R.apply_group(state, memo_move[state])
        n += 1
    return memo_value[root], nodes, n


def line_states(line: np.ndarray) -> list[int]:
    """The state before each group of a line of play."""
    states = [R.INITIAL_STATE]
    for group in line[:-1] if len(line) else []:
        states.append(int(R.apply_group(states[-1], int(group))))
    return states
