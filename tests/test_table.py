"""The transposition table's kernels (winnable/solvers/table.py): what each store keeps."""

import numpy as np

from winnable.solvers.table import (EMPTY, LOST, ON_PATH, VISITED, TranspositionTable, tt_find,
                                    tt_offer, tt_state, tt_store)


def _table():
    table = TranspositionTable(1)
    table.begin_deal()
    return table, table.begin_search()


def _state(table, stamp, a, b):
    slot = tt_find(table.keys, table.stamps, a, b, table.deal_first, stamp)
    return EMPTY if slot < 0 else tt_state(table.keys, table.stamps, slot, table.deal_first, stamp)


def test_offer_never_overwrites_a_loss_or_a_node_of_the_line():
    table, stamp = _table()
    a, b = np.uint64(12345), np.uint64(678 << 2)
    for held in (LOST, ON_PATH):
        tt_store(table.keys, table.stamps, a, b, held, table.deal_first, stamp)
        tt_offer(table.keys, table.stamps, a, b, VISITED, table.deal_first, stamp)
        assert _state(table, stamp, a, b) == held
    # A VISITED entry, or none, takes the offered state, as tt_store would write it.
    tt_store(table.keys, table.stamps, a, b, VISITED, table.deal_first, stamp)
    tt_offer(table.keys, table.stamps, a, b, LOST, table.deal_first, stamp)
    assert _state(table, stamp, a, b) == LOST
    c = np.uint64(99991)
    tt_offer(table.keys, table.stamps, c, b, VISITED, table.deal_first, stamp)
    assert _state(table, stamp, c, b) == VISITED


def test_offer_and_store_keep_one_entry_a_key():
    table, stamp = _table()
    a, b = np.uint64(4242), np.uint64(17 << 2)
    for state in (VISITED, LOST, VISITED):
        tt_offer(table.keys, table.stamps, a, b, state, table.deal_first, stamp)
        tt_store(table.keys, table.stamps, a, b, state, table.deal_first, stamp)
    assert int((table.keys[:, 0] == a).sum()) == 1
    # The offer kept the loss, the last store wrote VISITED over it: in a later search a
    # VISITED entry of an earlier one is stale, a LOST one stays.
    later = table.begin_search()
    assert _state(table, later, a, b) == EMPTY
    tt_offer(table.keys, table.stamps, a, b, LOST, table.deal_first, later)
    assert _state(table, table.begin_search(), a, b) == LOST
