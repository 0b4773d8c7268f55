"""Playing a deal move by move (winnable.session, each game's Table): along random lines the
legal moves and the end of each game are the plain-Python references' (tests/reference/);
every solver's line verifies, and a tampered one is refused at the move tampered with; hints
and position solves agree with the solvers that play whole deals.  Small deals and budgets:
a few seconds in all."""

import random
from types import SimpleNamespace

import pytest

from tests.reference import addario_ref, chinese_ref, impossible_ref, nineball_ref, stream_ref
from tests.test_games_contract import ImpossibleReplay
from winnable import GAME_NAMES, get_game
from winnable.errors import IllegalMove
from winnable.session import Session, read_moves, replay_line, verify_line

# (game, rule flags) along whose random lines the references are followed.
RULES = [("nineball", {}), ("nineball", {"kitchen_per_group": 1, "kitchen_bonus": "always"}),
         ("addario", {}), ("addario", {"column_free_equal": 1}),
         ("chinese", {}), ("chinese", {"easy": 1}), ("chinese", {"blocks": "sequence"}),
         ("impossible", {}), ("impossible", {"fifteen": "unlimited", "jokers": 0})]
SEEDS = (1, 2, 3)
MAX_MOVES = 120  # Chinese lines can go round in circles; the first moves are enough


def _id(case):
    return "-".join([case[0]] + [f"{k}={v}" for k, v in case[1].items()])


def _random_line(session, rng):
    """Random moves until the game ends; each position's legal moves as the session says."""
    offered = []
    while not session.over and len(session.steps) < MAX_MOVES:
        moves = [move for move, _ in session.legal_moves()]
        offered.append(moves)
        session.play(rng.choice(moves))
    return offered


def _nineball(deal, rules, line, offered, session):
    pos = nineball_ref.initial_position(deal)
    for moves, move in zip(offered, line):
        legal = nineball_ref.legal_groups(pos, rules["kitchen_per_group"], rules["targets"])
        assert {frozenset(m.split("+")) for m in moves} == set(legal)
        pos = nineball_ref.apply_group(pos, move.split("+"))
    assert session.over == nineball_ref.is_over(pos, rules["kitchen_per_group"],
                                                 rules["targets"])
    assert session.score == nineball_ref.score(pos, rules["kitchen_bonus"])


def _addario(deal, rules, line, offered, session):
    cfe = bool(rules["column_free_equal"])
    game = addario_ref.Game(addario_ref.normalise_deal(deal))
    for moves, move in zip(offered, line):
        while not game.legal_pairs(cfe):
            assert game.refill_or_deal()
        legal = game.legal_pairs(cfe)
        assert moves == [addario_ref.pair_codes(game, p) for p in legal]
        game.remove(legal[moves.index(move)])
    assert session.over and session.score == addario_ref.replay(deal, line, cfe)


def _chinese(deal, rules, line, offered, session):
    easy, blocks = bool(rules["easy"]), rules["blocks"]
    state = chinese_ref.initial_state(deal)
    for moves, move in zip(offered, line):
        assert sorted(moves) == chinese_ref.legal_moves(state, easy, blocks)
        state = chinese_ref.apply_move(state, move, easy, blocks)
    assert session.score == chinese_ref.score(state)
    assert session.over == (chinese_ref.is_won(state)
                            or not chinese_ref.legal_moves(state, easy, blocks))


class _Offered(ImpossibleReplay):
    """The reference's game along a line, noting the actions it offers at each turn."""

    def __init__(self, game, result, rules):
        ids = [int(c) for c in game.parse_deal(result.deal, rules)]  # jokers=0: 52 cards
        impossible_ref.Game.__init__(
            self, stream_ref.play_stream(game.name, ids), rules["fifteen"],
            rules["new_pile_penalty"], int(rules["jokers"]), int(rules["step_cap"]),
            deal=result.deal.split())
        self.solver = result.solver
        self.moves = list(result.moves)
        self.offered = []

    def choose_action(self, actions):
        self.offered.append(sorted(_impossible_action(a) for a in actions))
        return super().choose_action(actions)

    def choose_take_back(self, options):
        self.offered.append(sorted("!" + _impossible_action((kind, self.piles.index(pile)))
                                   for kind, pile in options))
        return super().choose_take_back(options)


def _impossible_action(action):
    kind = action[0]
    if kind == "pickup":
        return f"up{action[1] + 1}"
    if kind == "remove":
        return f"rm{action[1] + 1}"
    return f"{action[1] + 1}+{action[2] + 1}" if kind == "pair" else "new"


def _impossible(deal, rules, line, offered, session):
    game = get_game("impossible")
    result = SimpleNamespace(deal=" ".join(deal), solver="greedy", moves=line)  # a person
    reference = _Offered(game, result, rules)
    outcome = reference.run() if session.over else None
    if session.over:
        assert (outcome, reference.score) == (session.outcome, session.score)
        assert [sorted(m) for m in offered] == reference.offered
    else:  # stopped before its end: the reference has offered one turn more
        assert [sorted(m) for m in offered] == reference.offered[:len(offered)]


CHECKS = {"nineball": _nineball, "addario": _addario, "chinese": _chinese,
          "impossible": _impossible}


@pytest.mark.parametrize("case", RULES, ids=_id)
def test_random_lines_follow_the_reference(case):
    name, flags = case
    game = get_game(name)
    rng = random.Random(f"{name}{flags}")
    for seed in SEEDS:
        cards = game.deal(seed, flags)
        session = Session(game, cards, flags, forced=False)
        offered = _random_line(session, rng)
        deal = game.format_deal(cards).split()
        if name == "impossible" and not session.over:
            continue  # (the reference plays to the end of a game only)
        CHECKS[name](deal, game.rules(flags), session.line, offered, session)
        # The line verifies, and replays to the same place.
        verdict = verify_line(game, cards, session.line, flags)
        assert verdict.ok and (verdict.over, verdict.score) == (session.over, session.score)


# Budgets that keep each solver to a fraction of a second a deal.
OPTIONS = {("chinese", "thoughtful"): {"budget": 2000, "walks": 5},
           ("chinese", "sampling"): {"samples": 2, "budget": 300},
           ("addario", "thoughtful"): {"budget": 100_000},
           ("impossible", "lookahead"): {"rollouts": 2}}
SOLVERS = [(name, solver) for name in GAME_NAMES for solver in get_game(name).solvers]


def _illegal_at(game, cards, line, k, player):
    """A move that is not legal as move k (1-based) of the line: a later or earlier move of
    the line, or a made-up one."""
    session, _ = replay_line(game, cards, line[:k - 1], None, player)
    legal = {move for move, _ in session.legal_moves()}
    for move in line[k:] + line[:k - 1] + ["9C+9C", "t9-f", "up99"]:
        if move not in legal:
            return move


@pytest.mark.parametrize("case", SOLVERS, ids="-".join)
def test_solver_lines_verify_and_a_tampered_line_fails_at_its_move(case):
    name, solver = case
    game = get_game(name)
    for seed in (1, 2):
        result = game.solve(seed, None, solver, **OPTIONS.get(case, {}))
        cards = game.deal(seed)
        verdict = verify_line(game, cards, result.moves, None, solver)
        assert verdict.ok, verdict.text()
        assert verdict.score == result.score
        if verdict.over:
            assert verdict.outcome == result.outcome
        if len(result.moves) < 2:
            continue
        k = 1 + len(result.moves) // 2
        tampered = list(result.moves)
        tampered[k - 1] = _illegal_at(game, cards, result.moves, k, solver)
        verdict = verify_line(game, cards, tampered, None, solver)
        assert not verdict.ok and verdict.illegal[0] == k, verdict.text()


def test_a_random_players_line_needs_its_draws():
    """Impossible's random player draws its choices from the stream the reshuffles use: its
    line replays as its own game only when those draws are repeated."""
    game = get_game("impossible")
    for seed in range(1, 6):
        result = game.solve(seed, None, "random")
        ok = verify_line(game, game.deal(seed), result.moves, None, "random")
        assert ok.ok and (ok.outcome, ok.score) == (result.outcome, result.score)


def test_hints_are_the_no_peek_players_moves():
    """Along each no-peek player's own line, the hint at every position is its next move."""
    for name, player, seeds in (("nineball", "nopeek-win", (1, 2, 3)),
                                ("addario", "nopeek", (1, 3, 4)),
                                ("impossible", "halving", (1,))):
        game = get_game(name)
        assert game.hint_player == player
        for seed in seeds:
            result = game.solve(seed, None, player)
            session = Session(game, game.deal(seed), None, player, forced=False)
            for move in result.moves:
                choices = session.legal_moves()
                if len(choices) > 1:
                    assert session.hint().move == move, (name, seed, len(session.steps))
                session.play(move)


@pytest.mark.slow  # the Chinese hint kernel takes a minute or two to compile on a cold cache
def test_chinese_hints_are_the_sampling_players_moves():
    """Chinese hints come from `sampling`, with the deal's play stream afresh at each position:
    at the deal's start the hint is the sampling player's first move, and along its line every
    hint is a legal move of the position, the same when asked twice."""
    game = get_game("chinese")
    assert game.hint_player == "sampling"
    for seed in (1, 2):
        result = game.solve(seed, None, "sampling")
        session = Session(game, game.deal(seed), None, "sampling", forced=False)
        assert session.hint().move == result.moves[0], seed
        for move in result.moves[:12]:
            hint = session.hint().move
            legal = [text for text, _ in session.legal_moves()]
            assert hint in legal and session.hint().move == hint, (seed, len(session.steps))
            session.play(move)


@pytest.mark.parametrize("name", ["nineball", "addario", "chinese"])
def test_best_from_a_position_is_the_thoughtful_solvers(name):
    """From the start the position solver agrees with the thoughtful solver; from halfway
    along a won line it finds a win whose line verifies."""
    game = get_game(name)
    options = OPTIONS.get((name, "thoughtful"), {})
    for seed in (1, 2):
        result = game.solve(seed, None, "thoughtful", **options)
        cards = game.deal(seed)
        session = Session(game, cards, forced=False)
        advice = session.best(options.get("budget"))
        assert advice.peeks and advice.outcome in ("win", "loss", "unknown")
        if result.outcome != "unknown" and advice.outcome != "unknown":
            assert advice.outcome == result.outcome
        if result.outcome != "win":
            continue
        half = result.moves[:len(result.moves) // 2]
        session, _ = replay_line(game, cards, half)
        advice = session.best(options.get("budget"))
        assert advice.outcome == "win"
        verdict = verify_line(game, cards, half + advice.line)
        assert verdict.over and verdict.outcome == "win"


def test_undo_returns_to_the_position_before():
    game = get_game("addario")
    session = Session(game, game.deal(3))  # forced pairs played for the player
    before = (session.line, session.board(peek=True))
    assert all(step.forced for step in session.steps)
    move = session.legal_moves()[1][0]
    steps = session.play(move)
    assert steps[0].move == move and not steps[0].forced
    assert [s.move for s in session.undo()] == [s.move for s in steps]
    assert (session.line, session.board(peek=True)) == before
    assert session.undo() == []  # forced moves are not the player's to take back


def test_illegal_moves_say_why_and_change_nothing():
    cases = {
        "nineball": [("9C", "not in the nineball deck"), ("t3-t5x2", "not a Nineball group"),
                     ("5D", "covered by")],
        "addario": [("5H", "not an Addario move"), ("KS+KD", "not")],
        "chinese": [("t1-t9x1", "no pile t9"), ("t1-f", "foundation"),
                    ("2H+7D", "not a Chinese Solitaire move"), ("t2-t3x9", "face-up")],
        "impossible": [("up1", "11 or more"), ("rm1", "no fifteen removal"),
                       ("!up1", "has not run out"), ("t1-f", "not an Impossible action")],
    }
    for name, moves in cases.items():
        game = get_game(name)
        session = Session(game, game.deal(3), forced=False)
        board = session.board(peek=True)
        for move, reason in moves:
            with pytest.raises(IllegalMove, match=reason) as refused:
                session.play(move)
            assert "\n" not in str(refused.value), (name, move)  # one line, as the CLI prints it
            assert session.board(peek=True) == board


def test_hidden_cards_stay_hidden():
    for name in GAME_NAMES:
        game = get_game(name)
        cards = game.deal(3)
        session = Session(game, cards, forced=False)
        hidden = session.board()
        shown = session.board(peek=True)
        assert hidden != shown
        codes = set(game.format_deal(cards).split())
        assert sum(code in hidden for code in codes) < sum(code in shown for code in codes)
        for _, described in session.legal_moves():  # nothing hidden named before a move
            assert all(code in hidden for code in codes if code in described)


def test_lines_read_in_every_form_they_are_written():
    line = ["t4-t6x4", "t3-t2x7", "stock"]
    assert read_moves("t4-t6x4 t3-t2x7  stock\n") == line
    assert read_moves("# a comment\nt4-t6x4 t3-t2x7\nstock\n") == line
    assert read_moves('{"moves": ["t4-t6x4", "t3-t2x7", "stock"], "score": 3}') == line
    numbered = ("Chinese Solitaire, deal 1\n1. t4-t6x4  4D KD 3S KC onto 5C, turns up 4S\n"
                "  2. t3-t2x7  AS QD onto 2H\n3. stock  the stock\noutcome: win\n")
    assert read_moves(numbered) == line
