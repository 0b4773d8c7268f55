"""The Chinese Solitaire engine and thoughtful solver against the plain-Python reference.

One file (about 700 lines), as each game has one: its tests share the conversion of an engine
position to the reference's (``engine_view``), one table and workspace, and the rule sets they
run under.  The critical-path test and the no-peek players have files of their own."""

import functools
import random
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.reference import chinese_ref as ref
from winnable import get_game
from winnable.cards import CODES, parse_card, rank_of, suit_of
from winnable.rules import chinese as R
from winnable.solvers.chinese import beam as B
from winnable.solvers.chinese import critical as C
from winnable.solvers.chinese import losses as L
from winnable.solvers.chinese import position as P
from winnable.solvers.chinese import search as CS
from winnable.solvers.chinese import thoughtful as T
from winnable.solvers.table import (LOSS, LOST, OUTCOME_NAMES, UNKNOWN, WIN, TranspositionTable,
                                    tt_state)

GAME = get_game("chinese")
RULES = [(False, "any"), (True, "any"), (False, "sequence"), (True, "sequence")]
TABLE = TranspositionTable(64)
WORKSPACE = CS.new_workspace()


def engine_view(cards, length, down, found, misc, deal):
    piles = tuple(tuple((CODES[cards[p, h]], bool(h >= down[p])) for h in range(length[p]))
                  for p in range(R.PILES))
    stock = () if misc[R.STOCK_DEALT] else tuple(CODES[c] for c in deal[R.STOCK_FIRST:])
    return ref.State(piles=piles, foundations=tuple(int(f) for f in found), stock=stock)


def position_view(pos):
    return engine_view(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal)


def model_of(pos, easy):
    """The critical-path test's model of every position reachable from ``pos``."""
    return C.build(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal, easy)


def search(pos, easy, blocks, rules, budget, table=TABLE, jitter=0, workspace=WORKSPACE,
           learn_after=0):
    """One search from ``pos`` in a fresh table generation: (outcome name, nodes, line)."""
    table.begin_deal()
    stamp = table.begin_search()
    model = model_of(pos, easy) if rules & CS.CRITICAL else C.no_model()
    outcome, _, nodes, length = CS.search(pos, easy, blocks == "sequence", rules, budget,
                                          table.keys, table.stamps, table.deal_first, stamp,
                                          workspace, model, learn_after, jitter)
    return OUTCOME_NAMES[int(outcome)], nodes, [int(m) for m in workspace.line[:length]]


def replay_wins(state, line, easy, blocks):
    for m in line:
        state = ref.apply_move(state, R.format_move(m), easy, blocks)
    return ref.is_won(state)


@pytest.mark.parametrize("easy, blocks", RULES)
def test_moves_and_states_match_reference_along_random_play(easy, blocks):
    rng = random.Random(zlib.crc32(f"{easy}{blocks}".encode()) % 1000)
    out = np.zeros(CS.MAX_MOVES, dtype=np.int64)
    for _ in range(150):
        codes = ref.random_deal(rng)
        deal = np.array([parse_card(c) for c in codes], dtype=np.int8)
        cards, length, down, found, misc = R.new_state(deal)
        state = ref.initial_state(codes)
        for _ in range(120):
            assert engine_view(cards, length, down, found, misc, deal) == state
            n = R.legal_moves(cards, length, down, found, misc, easy, blocks == "sequence", out)
            engine = {R.format_move(int(m)): int(m) for m in out[:n]}
            assert len(engine) == n
            expected = ref.legal_moves(state, easy, blocks)
            assert sorted(engine) == sorted(expected)
            if not expected:
                break
            move = rng.choice(expected)
            token = R.apply_move(cards, length, down, found, misc, deal, engine[move])
            state = ref.apply_move(state, move, easy, blocks)
            if rng.random() < 0.1:  # undo restores exactly
                before = engine_view(cards, length, down, found, misc, deal)
                R.undo_move(cards, length, down, found, misc, engine[move], token)
                R.apply_move(cards, length, down, found, misc, deal, engine[move])
                assert engine_view(cards, length, down, found, misc, deal) == before


def _copy(pos):
    return P.from_state(pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal)


@pytest.mark.parametrize("easy, blocks", RULES)
def test_search_moves_are_the_legal_moves_and_fingerprints_follow_play(easy, blocks):
    """The search's move generator gives exactly the legal moves (the space reduction off);
    play/unplay keep the card places, pile hashes and key equal to a recomputation from
    scratch; and the key is the same for every order of the interchangeable piles."""
    rng = random.Random(7 + 2 * easy + (blocks == "sequence"))
    out = np.zeros(CS.MAX_MOVES, dtype=np.int64)
    legal = np.zeros(CS.MAX_MOVES, dtype=np.int64)
    for _ in range(60):
        pos = P.new_position(np.array(rng.sample(range(52), 52), dtype=np.int8))
        for _ in range(100):
            n = CS.all_moves(pos, easy, blocks == "sequence", CS.ALL & ~CS.SPACES, out)
            k = R.legal_moves(pos.cards, pos.length, pos.down, pos.found, pos.misc, easy,
                              blocks == "sequence", legal)
            assert sorted(out[:n].tolist()) == sorted(legal[:k].tolist())
            fresh = _copy(pos)
            assert (fresh.key == pos.key).all() and (fresh.where == pos.where).all()
            assert (fresh.pile_hash == pos.pile_hash).all()
            # Renaming interchangeable piles keeps the key.
            named = P.NAMED_BEFORE_STOCK if pos.misc[R.STOCK_DEALT] == 0 else 0
            order = list(range(named)) + rng.sample(range(named, R.PILES), R.PILES - named)
            shuffled = _copy(pos)
            for p, q in enumerate(order):
                shuffled.cards[p] = pos.cards[q]
                shuffled.length[p] = pos.length[q]
                shuffled.down[p] = pos.down[q]
            P.refresh(shuffled)
            assert (shuffled.key == pos.key).all()
            if k == 0:
                break
            move = int(legal[rng.randrange(k)])
            token = P.play(pos, move)
            if rng.random() < 0.2:
                before = position_view(pos)
                P.unplay(pos, move, token)
                P.play(pos, move)
                assert position_view(pos) == before


@pytest.mark.parametrize("easy", [False, True])
def test_every_score_replays_with_the_reference(easy):
    """A win's line ends with 52 cards up; a deal not won comes with the line to the most cards
    up the searches met, and its score is the one that line reaches."""
    wins = others = 0
    for seed in range(1, 41):
        result = GAME.solve(seed, {"easy": easy}, budget=20_000)
        assert result.outcome in ("win", "loss", "unknown")
        assert ref.replay(result.deal.split(), result.moves, easy) == result.score
        if result.outcome == "win":
            wins += 1
            assert result.score == 52
        else:
            others += 1
            assert 0 <= result.score < 52
    assert wins >= 30 and (easy or others > 0)


@pytest.mark.parametrize("easy", [False, True])
def test_sequence_blocks_whole_deals_agree_with_reference(easy):
    # With Klondike-style blocks the reachable space of a lost deal is small: the reference's
    # plain search settles each one the solver calls lost, and must agree.
    decided = 0
    for seed in range(1, 31):
        result = GAME.solve(seed, {"easy": easy, "blocks": "sequence"})
        assert result.outcome != "unknown"
        if result.outcome == "win":
            # The replayed line proves the win; the reference's plain search is the check of
            # the losses.  (On the two won deals here, 24 and 28 easy, it stops undecided at
            # its 20,000 nodes after 20 s each, so it compared nothing there.)
            assert ref.replay(result.deal.split(), result.moves, easy, "sequence") == 52
            continue
        expected, _ = ref.solve(result.deal.split(), easy, "sequence", 20_000)
        if expected != "unknown":
            decided += 1
            assert result.outcome == expected
    assert decided >= 20


def reduced_position(rng, cards_left, quick=False):
    """A deal with part of each suit already on its foundation (a random split leaving about
    ``cards_left`` cards in play): small enough to search completely.  The cards still in play
    keep their places; redrawn until the stock holds only cards in play.  Returns a search
    position.

    ``quick``: the same distribution of positions, drawn about ten times faster (for tests that
    draw thousands of them to find the few a loss test fires on).  A try then draws the split
    and the stock's three cards alone, and only an accepted try shuffles the other 49 cards: a
    uniformly random deal's last three cards are a uniform draw of three cards, and its first 49
    a uniform shuffle of the rest, and a try is accepted on its stock alone.  (Without it, each
    of the about 30 tries a position takes shuffles a whole deal.  The tests that search every
    position they draw keep the positions they were written with.)"""
    def in_play(card):  # the plain-Python helpers: a jitted call from Python costs microseconds
        return rank_of(card) >= on_foundation[suit_of(card)]

    while True:
        left = [rng.randint(0, 13) for _ in range(4)]  # cards of each suit still in play
        if abs(sum(left) - cards_left) > 2:
            continue
        on_foundation = [13 - n for n in left]
        if quick:
            stock = rng.sample(range(R.N_CARDS), R.N_CARDS - R.STOCK_FIRST)
            if all(in_play(c) for c in stock):
                rest = [c for c in range(R.N_CARDS) if c not in stock]
                rng.shuffle(rest)
                deal = np.array(rest + stock, dtype=np.int8)
                break
            continue
        codes = ref.random_deal(rng)
        # Most draws fail on the stock: test its three cards before parsing the rest.
        if all(in_play(parse_card(c)) for c in codes[R.STOCK_FIRST:]):
            deal = np.array([parse_card(c) for c in codes], dtype=np.int8)
            break
    cards, length, down, found, misc = R.new_state(deal)
    for p in range(R.PILES):
        kept = [(int(cards[p, h]), h < down[p]) for h in range(length[p])
                if in_play(int(cards[p, h]))]
        length[p] = len(kept)
        for h, (c, _) in enumerate(kept):
            cards[p, h] = c
        down[p] = sum(hidden for _, hidden in kept)
        if length[p] and down[p] == length[p]:
            down[p] -= 1
    found[:] = on_foundation
    misc[R.SCORE] = sum(on_foundation)
    return P.from_state(cards, length, down, found, misc, deal)


def reference_outcome(state, easy, blocks):
    """The reference's plain depth-first search, from any position."""
    seen = {state}
    stack = [(state, ref.legal_moves(state, easy, blocks))]
    while stack:
        current, moves = stack[-1]
        if not moves:
            stack.pop()
            continue
        child = ref.apply_move(current, moves.pop(), easy, blocks)
        if ref.is_won(child):
            return "win"
        if child not in seen:
            seen.add(child)
            stack.append((child, ref.legal_moves(child, easy, blocks)))
    return "loss"


ABLATIONS = [("all", CS.ALL), ("plain", 0)] + [
    (f"no {name}", CS.ALL & ~bit) for name, bit in CS.REDUCTIONS.items()]
# The critical-path test runs at every node the search enters and proves lost every position
# ``dead_end`` does on these small positions, so leaving ``dead_end`` out changes the search
# (its nodes) only without it: that reduction is also compared on the search without the test.
ABLATIONS += [("no dead_end nor critical", CS.ALL & ~CS.DEAD_END & ~CS.CRITICAL)]


# Reductions that change the search on the small positions of each rule set; the others are
# checked on whole lost deals below (``test_each_reduction_agrees_on_whole_lost_deals``).
STRICT_ACTIVE = ("safe_up", "spaces", "classes", "merge", "dead_end")


@pytest.mark.parametrize("easy, blocks, cards_left, min_losses, active", [
    # The critical-path test proves nothing dead_end misses among 14 cards (it does among
    # more: test_chinese_critical.py).
    (False, "any", 14, 10, STRICT_ACTIVE),
    (False, "sequence", 20, 10, STRICT_ACTIVE + ("critical",)),
    (True, "sequence", 13, 1, ("safe_up", "symmetry", "classes", "merge")),
    # Easy mode with few cards left is (nearly) always won, so only wins are compared here;
    # lost easy deals are checked against strict mode on whole deals below.
    (True, "any", 8, 0, ("classes",))])
def test_each_reduction_agrees_with_the_search_without_it(easy, blocks, cards_left,
                                                          min_losses, active):
    """Every reduction checked: on positions small enough to search completely, the search
    with all of them, with each one left out, and with none (and, where small, the reference's
    plain search) agree; every won line replays with the reference; the search restores the
    position it starts from.  Each reduction named in ``active`` changes the search (its node
    count) on some of these positions, so each is really tested."""
    rng = random.Random(1000 + 10 * easy + (blocks == "sequence"))
    outcomes = {"win": 0, "loss": 0}
    changed = dict.fromkeys(CS.REDUCTIONS, 0)
    for i in range(120):
        pos = reduced_position(rng, cards_left + i % 3 - 1)
        start = position_view(pos)
        results = {}
        for name, rules in ABLATIONS:
            outcome, nodes, line = search(pos, easy, blocks, rules, 200_000)
            assert position_view(pos) == start
            results[name] = (outcome, nodes)
            if outcome == "win":
                assert replay_wins(start, line, easy, blocks), name
        decided = {o for o, _ in results.values() if o != "unknown"}
        assert results["all"][0] != "unknown"
        assert len(decided) == 1, results
        for name in CS.REDUCTIONS:
            changed[name] += results[f"no {name}"][1] != results["all"][1]
        changed["dead_end"] += (results["no dead_end nor critical"][1]
                                != results["no critical"][1])
        plain, plain_nodes = results["plain"]
        if plain == "unknown":
            continue
        if plain_nodes <= 1500:
            assert reference_outcome(start, easy, blocks) == plain
        outcomes[plain] += 1
    # Enough positions settled both ways, and both kinds of answer among them.
    assert outcomes["win"] >= 20 and outcomes["loss"] >= min_losses, outcomes
    assert all(changed[name] > 0 for name in active), sorted(changed.items())


@pytest.mark.parametrize("blocks", ["any", "sequence"])
def test_normal_forms_are_reached_by_class_moves_and_are_fixed_points(blocks):
    """``normalise`` plays legal class moves (replayed with the reference), and its result is
    normal: a full scan then plays nothing.  From a normal position, looking only at what a
    move changed (as the search does) reaches a normal form too."""
    rng = random.Random(5 + (blocks == "sequence"))
    sequence = blocks == "sequence"
    out = np.zeros(CS.MAX_MOVES, dtype=np.int64)
    played, tokens = WORKSPACE.played, WORKSPACE.tokens
    moved = 0
    for easy in (False, True):
        for _ in range(40):
            pos = P.new_position(np.array(rng.sample(range(52), 52), dtype=np.int8))
            chosen = set()
            n = CS.normalise(pos, easy, sequence, played, tokens, 0)
            for _ in range(60):
                assert CS.normalise(pos, easy, sequence, played, tokens, n) == n
                k = CS.all_moves(pos, easy, sequence, CS.ALL, out)
                if k == 0:
                    break
                chosen.add(n)
                played[n] = int(out[rng.randrange(k)])
                tokens[n] = P.play(pos, int(played[n]))
                n = CS.normalise(pos, easy, sequence, played, tokens, n + 1, n)
            # Every move replays with the reference; the normalising ones are class moves.
            state = position_view(P.new_position(pos.deal))
            replay = P.new_position(pos.deal)
            for i, m in enumerate(played[:n]):
                assert R.format_move(int(m)) in ref.legal_moves(state, easy, blocks)
                if i not in chosen:
                    assert CS.is_reversible(replay, int(m), easy)
                    moved += 1
                state = ref.apply_move(state, R.format_move(int(m)), easy, blocks)
                P.play(replay, int(m))
            assert state == position_view(pos)
    assert moved > 50


def test_a_lost_class_graph_is_searched_once():
    """Strict mode's classes form no cycles, so a complete search marks the deal lost in the
    table, and the next search of it (a restart) returns at once."""
    pos = P.new_position(GAME.deal(196))
    TABLE.begin_deal()
    for expected_nodes in (None, 0):
        stamp = TABLE.begin_search()
        # Without the critical-path test, which proves this deal lost at its root.
        outcome, _, nodes, _ = CS.search(pos, False, False, CS.ALL & ~CS.CRITICAL, 2_000_000,
                                         TABLE.keys, TABLE.stamps, TABLE.deal_first, stamp,
                                         WORKSPACE, C.no_model(), 0)
        assert outcome == LOSS
        if expected_nodes is not None:
            assert nodes == expected_nodes
        else:
            assert nodes > 10_000


def test_the_search_counts_its_classes_and_those_below_which_a_card_turned():
    """``Workspace.searched`` (read by experiments/chinese_barren.py): on a lost strict deal
    every class searched to the end is counted once and marked lost in the table (which also
    marks the children ``dead_end`` rejects); the deal's own class turns cards below it, and
    some classes turn none (barren ones)."""
    pos = P.new_position(GAME.deal(196))
    WORKSPACE.searched[:] = 0
    # Without the critical-path test, which proves this deal lost at its root.
    outcome, _, _ = search(pos, False, "any", CS.ALL & ~CS.CRITICAL, 2_000_000)
    classes, turning = (int(x) for x in WORKSPACE.searched)
    lost = sum(tt_state(TABLE.keys, TABLE.stamps, s, TABLE.deal_first, TABLE.generation.current)
               == LOST for s in np.flatnonzero(TABLE.stamps >= TABLE.deal_first))
    assert outcome == "loss" and 10_000 < classes <= lost
    assert 0 < turning < classes



@pytest.mark.slow  # a search with a probe is a specialization of its own: minutes to compile
@pytest.mark.parametrize("seed, rules", [(1, CS.ALL), (196, CS.ALL & ~CS.CRITICAL)])
def test_a_probe_counts_the_search_without_changing_it(seed, rules):
    """``search.Probe`` (read by experiments/chinese_hard_phases.py): the search with a probe
    is the search without one (outcome, nodes, line), every successor played is counted once
    by its phase, and the region records close as the search does: on the won deal 1 those of
    the winning line's roots are left open (one a depth, one of them in the end game), on the
    lost deal 196 every record is closed lost."""
    pos = P.new_position(GAME.deal(seed))
    plain = search(pos, False, "any", rules, 2_000_000)
    TABLE.begin_deal()
    stamp = TABLE.begin_search()
    probe = CS.new_probe()
    model = model_of(pos, False) if rules & CS.CRITICAL else C.no_model()
    outcome, _, nodes, length = CS.search(pos, False, False, rules, 2_000_000, TABLE.keys,
                                          TABLE.stamps, TABLE.deal_first, stamp, WORKSPACE,
                                          model, 0, 0, probe)
    probed = (OUTCOME_NAMES[int(outcome)], nodes, [int(m) for m in WORKSPACE.line[:length]])
    assert probed == plain
    assert probe.played.sum() == nodes
    records = probe.records[:probe.count[0]]
    if seed == 1:
        open_ = records[records[:, 3] == -1]
        assert outcome == WIN and probe.played[1, 0] > 0
        assert len(open_) > 1 and len(set(open_[:, 0])) == len(open_)
        assert (open_[:, 5] == CS.phase_code(1, 0)).sum() == 1
    else:
        assert outcome == LOSS and (records[:, 3] == LOST).all()
    assert probe.count[1] == probe.entered[1, 0]


WITHOUT_CRITICAL = CS.ALL & ~CS.CRITICAL


@pytest.mark.parametrize("seed, easy, blocks, rules, skipped", [
    # The reductions of the search before the critical-path test, which proves 196 lost at its
    # root and proves for the search of 74 what dead_end does.
    (196, False, "any", WITHOUT_CRITICAL, ("classes", "dead_end", "critical")),
    (74, True, "sequence", WITHOUT_CRITICAL, ("critical",)),
    # Every reduction with the test; without it the search of 58 is too large for a test (the
    # test's agreement with the search without it is checked in test_chinese_critical.py),
    # and it proves lost every position dead_end does here.
    (58, False, "any", CS.ALL, ("classes", "critical", "dead_end"))])
def test_each_reduction_agrees_on_whole_lost_deals(seed, easy, blocks, rules, skipped):
    """Lost deals stay lost whichever reduction of ``rules`` is left out (those in ``skipped``
    leave a search too large for a test, or one the same), and leaving out any one of them
    changes the search."""
    pos = P.new_position(GAME.deal(seed))
    outcome, everything, _ = search(pos, easy, blocks, rules, 3_000_000)
    assert outcome == "loss"
    for name, bit in CS.REDUCTIONS.items():
        if name not in skipped:
            outcome, nodes, _ = search(pos, easy, blocks, rules & ~bit, 3_000_000)
            assert outcome == "loss" and nodes != everything, (name, nodes, everything)


def test_a_class_larger_than_the_buffers_leaves_the_search_unknown():
    """Deal 74 (easy, sequence blocks) is lost, and without the pile-order symmetry its search
    meets classes of more than 16,384 positions.  With room for fewer members a class is not
    searched completely, so the search must not call the deal lost (it once did, silently
    dropping the members beyond 64); with the default room it proves the loss."""
    pos = P.new_position(GAME.deal(74))
    rules = CS.ALL & ~CS.SYMMETRY
    for room, pool in ((64, CS.MEMBER_POOL), (1 << 14, CS.MEMBER_POOL), (CS.MAX_MEMBERS, 4096)):
        small = CS.new_workspace(room, pool)
        outcome, _, _ = search(pos, True, "sequence", rules, 3_000_000, workspace=small)
        assert outcome == "unknown", (room, pool)
        assert small.cut[0] > 0
    cut = WORKSPACE.cut[0]
    outcome, _, _ = search(pos, True, "sequence", rules, 3_000_000)
    assert outcome == "loss" and WORKSPACE.cut[0] == cut


def test_a_small_table_only_costs_repeated_work():
    """With a table far smaller than the search (1,024 entries), every decided position gets the
    same answer as with the full table."""
    small = TranspositionTable(0.01)
    assert small.entries == 1024
    rng = random.Random(31)
    agreed = 0
    for i in range(40):
        pos = reduced_position(rng, 15)
        full, _, _ = search(pos, False, "any", CS.ALL, 100_000)
        little, _, line = search(pos, False, "any", CS.ALL, 300_000, table=small)
        if "unknown" not in (full, little):
            assert full == little
            agreed += 1
        if little == "win":
            assert replay_wins(position_view(pos), line, False, "any")
    assert agreed >= 30


def test_rule_set_implication_holds_on_whole_deals():
    # Won in strict => won in easy; lost in easy => lost in strict.
    # (The same statement read both ways: a strict win with an easy loss would break both.)
    for seed in range(1, 61):
        strict = GAME.solve(seed, budget=50_000)
        easy = GAME.solve(seed, {"easy": True}, budget=50_000)
        assert not (strict.outcome == "win" and easy.outcome == "loss"), seed
        # Won with sequence blocks => won with any blocks.
        seq = GAME.solve(seed, {"blocks": "sequence"}, budget=50_000)
        assert not (seq.outcome == "win" and strict.outcome == "loss"), seed


def test_budget_means_unknown_not_loss():
    # Deal 196 is lost, proved by a complete search of about 230,000 nodes (without the
    # critical-path test, which proves it at once).
    result = GAME.solve(196, budget=1000, occupation=0, learn=0)
    assert result.outcome == "unknown" and result.nodes <= 1000
    assert GAME.solve(196, budget=1_000_000).outcome == "loss"


def test_members_option_is_the_ablation_of_the_class_memo():
    """``--option members=0`` searches without reduction 8 (``search.MEMBERS``): the same verdict,
    with more nodes where a class is entered again at another member (sequence blocks, easy)."""
    rules = {"blocks": "sequence", "easy": 1}
    with_memo, without = GAME.solve(37, rules), GAME.solve(37, rules, members=0)
    assert with_memo.outcome == without.outcome == "loss"
    assert with_memo.nodes < without.nodes


def test_layout_and_notation():
    text = GAME.layout(GAME.deal(1))
    assert text.count("[") == 18 and "stock (onto t1, t2, t3)" in text
    assert R.format_move(int(R.encode(R.TABLEAU, 2, 4, 3))) == "t3-t5x3"
    assert R.format_move(int(R.encode(R.FOUNDATION, 6, 0, 1))) == "t7-f"
    assert R.format_move(int(R.encode(R.STOCK, 0, 0, 3))) == "stock"


def test_implication_settles_unknowns(tmp_path):
    import pandas as pd
    from winnable.implication import apply_implications
    rows = []
    for variant, outcomes in (("default", ["win", "unknown", "loss", "unknown"]),
                              ("easy=1", ["unknown", "unknown", "unknown", "loss"])):
        for seed, outcome in enumerate(outcomes, start=1):
            rows.append({"game": "chinese", "solver": "thoughtful", "variant": variant,
                         "seed": seed, "outcome": outcome, "score": 52 if outcome == "win" else 3,
                         "moves": "t1-f" if outcome == "win" else ""})
    df, settled = apply_implications(pd.DataFrame(rows))
    by = df.set_index(["variant", "seed"])["outcome"]
    assert by[("easy=1", 1)] == "win"          # strict win => easy win
    assert by[("default", 4)] == "loss"        # easy loss => strict loss
    assert by[("easy=1", 2)] == "unknown" and by[("default", 2)] == "unknown"
    assert by[("easy=1", 3)] == "unknown"      # a strict loss says nothing about easy
    assert settled == 2
    assert df.set_index(["variant", "seed"]).loc[("easy=1", 1), "moves"] == "t1-f"


def test_restarts_decide_consistently():
    """Restarts only change the move order: a deal decided both with and without them gets the
    same outcome, and restart wins replay."""
    both = 0
    for seed in range(1, 41):
        plain = GAME.solve(seed, None, budget=20_000, restart=0)
        restarted = GAME.solve(seed, None, budget=20_000, restart=1_000)
        if restarted.outcome == "win":
            assert ref.replay(restarted.deal.split(), restarted.moves) == 52
        if "unknown" not in (plain.outcome, restarted.outcome):
            assert plain.outcome == restarted.outcome, seed
            both += 1
    assert both >= 20


def _legal(state):
    out = np.zeros(CS.MAX_MOVES, dtype=np.int64)
    n = R.legal_moves(*state, False, False, out)
    return out[:n]


@functools.cache  # three tests walk the lines of the same deals
def _won_lines_of(seed):
    return tuple(result.moves for result in (GAME.solve(seed, None, "strategy"),
                                             GAME.solve(seed, budget=20_000, prune=0, strategy=0))
                 if result.outcome == "win")


def _won_lines(seeds):
    """Won lines found without the loss tests: the strategy player's and the plain search's."""
    for seed in seeds:
        for moves in _won_lines_of(seed):
            yield seed, moves


def test_loss_tests_never_fire_on_a_winning_line():
    """Soundness of ``dead_end`` and ``occupation_dead_end`` on real winning lines: no position
    along a won game found without them is called lost.  (Deal 11 once was, by an earlier
    dead-end rule.)"""
    checked = 0
    status = np.zeros(R.N_CARDS, dtype=np.int64)
    occupant = np.zeros(2 * R.N_CARDS, dtype=np.int64)
    for seed, moves in _won_lines(range(1, 41)):
        deal = GAME.deal(seed)
        pos = P.new_position(deal)
        for move in moves:
            assert not CS.lost_at_sight(pos, False), (seed, move)
            if checked % 4 == 0:
                assert not L.occupation_dead_end(pos.cards, pos.length, pos.down, pos.found,
                                                 pos.misc, deal, pos.where, False, status,
                                                 occupant)
            state = (pos.cards, pos.length, pos.down, pos.found, pos.misc)
            code = next(m for m in _legal(state) if R.format_move(int(m)) == move)
            P.play(pos, int(code))
            checked += 1
    assert checked > 2000


def random_play(rng, pos, easy, blocks, steps, out):
    """Positions along random play from ``pos`` (foundation moves favoured), ``pos`` itself
    first; it is left at the last of them."""
    for _ in range(steps):
        yield pos
        k = CS.all_moves(pos, easy, blocks == "sequence", 0, out)
        if k == 0:
            return
        moves = [int(m) for m in out[:k]]
        up = [m for m in moves if (m >> 24) & 255 == R.FOUNDATION]
        P.play(pos, rng.choice(up) if up and rng.random() < 0.6 else rng.choice(moves))


@pytest.mark.parametrize("easy, blocks", RULES)
def test_dead_end_over_card_sets_is_the_sweeping_fixpoint(easy, blocks):
    """``dead_end`` (computed over 64-bit card sets, what the search runs) and
    ``dead_end_sweeps`` (the pile-by-pile sweeps the occupation test extends) are the same
    least fixpoint: they agree on every position of random play (foundation moves favoured,
    so that foundations grow) from full deals and from reduced ones, spaces and a dealt stock
    included."""
    rng = random.Random(zlib.crc32(f"dead{easy}{blocks}".encode()))
    status = np.zeros(R.N_CARDS, dtype=np.int64)
    out = np.zeros(CS.MAX_MOVES, dtype=np.int64)
    checked = lost = 0
    for i in range(100):
        if i % 2:
            pos = reduced_position(rng, rng.randint(12, 40))
        else:
            pos = P.new_position(np.array([parse_card(c) for c in ref.random_deal(rng)],
                                          dtype=np.int8))
        for pos in random_play(rng, pos, easy, blocks, 150, out):
            args = (pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal, pos.where,
                    easy)
            verdict = L.dead_end(*args)
            assert verdict == L.dead_end_sweeps(*args, status), (i, position_view(pos))
            checked += 1
            lost += verdict
    assert checked > 2500 and 100 < lost < checked - 100


@st.composite
def placements(draw):
    """Any placement of the cards, reachable or not: a part of each suit on its foundation, three
    of the other cards in the stock unless it is dealt, the rest in seven piles of any lengths
    (empty ones too) and any order, each with any number of face-down cards under its top; in
    half of them one pile's top face down as well (play never leaves one, ``dead_end`` must
    still agree)."""
    found = [draw(st.integers(0, 13)) for _ in range(4)]
    in_play = draw(st.permutations([c for c in range(R.N_CARDS) if c % 13 >= found[c // 13]]))
    dealt = len(in_play) < 3 or draw(st.booleans())
    stock = [] if dealt else in_play[:3]
    tableau = in_play[len(stock):]
    hidden_top = draw(st.integers(-R.PILES, R.PILES - 1))  # that pile's top face down if >= 0
    cuts = [0, *sorted(draw(st.lists(st.integers(0, len(tableau)), min_size=6, max_size=6))),
            len(tableau)]
    cards = np.zeros((R.PILES, R.CAPACITY), dtype=np.int64)
    length = np.zeros(R.PILES, dtype=np.int64)
    down = np.zeros(R.PILES, dtype=np.int64)
    for p in range(R.PILES):
        pile = tableau[cuts[p]:cuts[p + 1]]
        length[p] = len(pile)
        cards[p, :len(pile)] = pile
        if p == hidden_top:
            down[p] = len(pile)
        elif pile:
            down[p] = draw(st.integers(0, len(pile) - 1))
    deal = np.array([c for c in range(R.N_CARDS) if c not in stock] + stock, dtype=np.int8)
    misc = np.array([int(dealt), sum(found)], dtype=np.int64)
    return P.from_state(cards, length, down, np.array(found, dtype=np.int64), misc, deal)


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(placements(), st.booleans())
def test_dead_end_is_the_sweeping_fixpoint_on_any_placement(pos, easy):
    """The same as the test above on positions play need not reach (a card under one it builds
    on in its own pile, long piles, many spaces, a face-down top): the card-set ``dead_end``
    and the pile-by-pile ``dead_end_sweeps`` give the same verdict."""
    args = (pos.cards, pos.length, pos.down, pos.found, pos.misc, pos.deal, pos.where, easy)
    status = np.zeros(R.N_CARDS, dtype=np.int64)
    assert L.dead_end(*args) == L.dead_end_sweeps(*args, status), position_view(pos)


def _occupation_positions(rng, cards_left, beyond_only, wanted, budget, easy=False,
                          blocks="any"):
    """Reduced positions that ``occupation_dead_end`` calls lost (``beyond_only``: and
    ``dead_end`` does not), each searched by the plain search (no reduction at all) with
    ``budget`` nodes; every one it settles must be a loss.  Returns (settled, beyond)."""
    status = np.zeros(R.N_CARDS, dtype=np.int64)
    occupant = np.zeros(2 * R.N_CARDS, dtype=np.int64)
    settled = beyond = 0
    for i in range(200_000):
        if settled >= wanted:
            break
        pos = reduced_position(rng, cards_left + i % 3 - 1, quick=True)
        start = position_view(pos)
        if not L.occupation_dead_end(pos.cards, pos.length, pos.down, pos.found, pos.misc,
                                     pos.deal, pos.where, easy, status, occupant):
            continue
        assert position_view(pos) == start
        missed = not CS.lost_at_sight(pos, easy)
        if beyond_only and not missed:
            continue
        outcome, _, _ = search(pos, easy, blocks, 0, budget)
        assert outcome != "win", i
        if outcome == "loss":
            settled += 1
            beyond += missed
    return settled, beyond


@pytest.mark.parametrize("blocks", ["any", "sequence"])
def test_occupation_dead_end_agrees_with_plain_search(blocks):
    """The occupation test (the driver's loss proof for deals the search leaves unknown) calls
    no position lost that the plain search wins: 300 small positions it calls lost, each
    settled as a loss by the plain search."""
    settled, _ = _occupation_positions(random.Random(2000 + (blocks == "sequence")), 16, False,
                                       300, 100_000, blocks=blocks)
    assert settled >= 300


def test_occupation_dead_end_proves_what_dead_end_misses():
    """On larger positions (about 20 cards) it proves losses that ``dead_end`` misses, and the
    plain search agrees on every one it settles (60 of them)."""
    settled, beyond = _occupation_positions(random.Random(2002), 20, True, 60, 300_000)
    assert settled >= 60 and beyond == settled


def test_strategy_fallback_wins_replay():
    """When the searches leave a deal unknown, the no-peek strategy player's win decides it; its
    line replays with the reference."""
    found = 0
    for seed in (724, 16, 92, 314, 429):
        searched = GAME.solve(seed, None, strategy=0, budget=20_000)
        if searched.outcome != "unknown":
            continue
        result = GAME.solve(seed, None, budget=20_000, walks=0)
        if result.outcome == "win":
            found += 1
            assert ref.replay(result.deal.split(), result.moves) == 52
    solver = T.Thoughtful(False, False)
    for seed in range(1, 61):
        line = solver.strategy_win(GAME.deal(seed))
        if line is not None:
            found += 1
            moves = [R.format_move(int(m)) for m in line]
            assert ref.replay(GAME.format_deal(GAME.deal(seed)).split(), moves) == 52
    assert found >= 20


def test_searches_paused_for_the_fallback_are_one_uninterrupted_run():
    """The driver pauses the searches for steps 2-5 once a quarter of the budget is spent: the
    searches resumed afterwards are the same restarts as one run that was never paused (same
    outcome, nodes, best score and line), and a deal that the fallback wins no longer waits
    for the whole budget."""
    settings = T.Settings(budget=20_000, restart=1_000)
    compared = early = 0
    for seed in (16, 36, 58, 80, 92, 158, 185, 196, 1, 2, 3, 4):
        deal = np.asarray(GAME.deal(seed), dtype=np.int8)
        whole = T._Searches(T.Thoughtful(False, False, settings), deal, False, 20_000)
        whole.go(20_000)
        paused = T._Searches(T.Thoughtful(False, False, settings), deal, False, 20_000)
        for until in (1, 3_000, 5_000, 12_345, 20_000):
            paused.go(until)
        assert (paused.outcome, paused.spent, paused.best) == (
            whole.outcome, whole.spent, whole.best), seed
        assert np.array_equal(paused.line, whole.line), seed
        compared += 1
        solved = T.Thoughtful(False, False, settings).solve(deal)
        if whole.outcome != UNKNOWN:
            assert solved[0] == whole.outcome, seed
        elif solved[0] == WIN:
            assert solved[2] < 20_000, seed  # won by the fallback before the budget ran out
            early += 1
    assert compared == 12 and early >= 1


def test_random_walk_wins_replay():
    """Random playouts, the driver's last try on deals the searches leave unknown, return legal
    winning lines (replayed with the reference)."""
    ws = CS.new_workspace()
    wins = 0
    for seed in range(1, 31):
        for easy in (False, True):
            deal = GAME.deal(seed)
            won, length, _ = T.random_walks(P.new_position(deal), easy, False, 20, T.WALK_STEPS,
                                            seed, T.WALK_GREEDY, ws.moves, ws.worth, ws.line)
            if won:
                wins += 1
                moves = [R.format_move(int(m)) for m in ws.line[:length]]
                assert ref.replay(GAME.format_deal(deal).split(), moves, easy) == 52
    assert wins >= 10


def test_luby_sequence():
    assert [T.luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_beam_wins_replay_and_leave_the_position_as_it_was():
    """The beam search (driver step 3, option ``beam``) returns legal winning lines, replayed
    with the reference, under every rule set, from deals and from positions along the way; it
    leaves its start position as it found it; and through the driver it wins deal 16, which the
    searches without the critical-path test leave unknown."""
    beam = B.new_beam(20)
    table = TranspositionTable(4)
    wins = 0
    for seed in range(1, 13):
        for easy, blocks in RULES:
            deal = np.asarray(GAME.deal(seed), dtype=np.int8)
            pos = P.new_position(deal)
            k = CS.all_moves(pos, easy, blocks == "sequence", CS.ALL, WORKSPACE.moves)
            if seed % 2 and k > 0:
                P.play(pos, WORKSPACE.moves[0])  # a start other than the deal
            before = position_view(pos)
            state = engine_view(pos.cards, pos.length, pos.down, pos.found, pos.misc, deal)
            table.begin_deal()
            outcome, best, _, length = B.beam_search(
                pos, easy, blocks == "sequence", 20, beam, table.keys, table.stamps,
                table.deal_first, table.begin_search())
            assert position_view(pos) == before
            assert outcome in (WIN, UNKNOWN)
            if outcome == WIN:
                wins += 1
                assert best == 52
                assert replay_wins(state, [int(m) for m in beam.line[:length]], easy, blocks)
    assert wins >= 20
    # Without the critical-path test (with it the searches win deal 16 in 136 nodes).
    with_beam = GAME.solve(16, None, beam=100, learn=0)
    assert with_beam.outcome == "win" and GAME.solve(16, None, learn=0).outcome == "unknown"
    assert ref.replay(with_beam.deal.split(), with_beam.moves) == 52


def test_runs_stored_before_an_option_existed_resume_with_its_default(tmp_path):
    """A run stored before the thoughtful solver had the option ``beam`` (off by default, so
    the same answers) is still the same run."""
    import json

    from winnable.runs.spec import RunSpec

    spec = RunSpec.make("chinese", None, "thoughtful")
    stored = json.loads(spec.to_json())
    del stored["options"]["beam"]
    assert RunSpec.from_json(json.dumps(stored)) == spec
    stored["options"]["budget"] = 5
    assert RunSpec.from_json(json.dumps(stored)) != spec
