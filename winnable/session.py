"""A deal played move by move: what `winnable play`, `replay` and `verify` stand on, and what a
notebook calls directly.

Each game's ``Table`` (``winnable.rules.<game>.Table``, made by ``Game.table``) is the game in
progress as a person plays it: the legal moves in the notation ``solve`` prints, a move typed
in read back and checked (an ``IllegalMove`` says why not), a move played with the cards it
moved named, the end, the score, and the table drawn with the hidden cards hidden.  Its rules
are the engine's kernels (``winnable/rules/``).  A ``Session`` keeps the line played on a
table (undo replays the line from the deal, so every position is the rules' own);
``replay_line`` and ``verify_line`` check a whole line.

    from winnable import get_game
    from winnable.session import Session, verify_line
    s = Session(get_game("chinese"), get_game("chinese").deal(1))
    print(s.board()); s.play("t4-t6x4"); print(s.legal_moves()[:3])
    print(verify_line(get_game("nineball"), get_game("nineball").deal(1), ["2H+7H"]).text())
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import numpy as np

from .errors import IllegalMove, UserError


@dataclass(frozen=True)
class Step:
    """One move of a line: its number (from 1), the move as written, the cards it moved, and
    whether the rules played it for the player (Addario's forced pairs in ``play``)."""

    number: int
    move: str
    described: str
    forced: bool = False
    code: int = -1  # the move in the table's encoding

    def text(self) -> str:
        """``12. t4-t6x4  9H 8S 7D 6C onto TC, turns up 5D``"""
        return f"{self.number}. {self.move}  {self.described}" + (
            " (forced)" if self.forced else "")


@dataclass
class Verdict:
    """What ``verify_line`` found: every move legal (``illegal`` None) and where that left the
    game, or the first illegal move, its number and why."""

    moves: int                     # moves played legally
    over: bool
    outcome: str | None            # win / loss / unknown once the game is over
    score: int
    illegal: tuple[int, str, str] | None = None  # (number, move, why)

    @property
    def ok(self) -> bool:
        return self.illegal is None

    def text(self) -> str:
        if self.illegal:
            number, move, why = self.illegal
            return f"move {number} ({move}) is illegal: {why}"
        if self.over:
            return (f"all {self.moves} moves legal; the game is over: outcome {self.outcome}, "
                    f"score {self.score}")
        return (f"all {self.moves} moves legal; the game goes on (the line stops before its "
                f"end): score {self.score} so far")


@dataclass
class Advice:
    """A solver's or player's answer about a position: its move (None: none), the outcome it
    proved (``win``, ``loss``, ``unknown``; None when it decides nothing), a winning or best
    line from here, and a sentence saying who answered and what it saw."""

    who: str
    move: str | None = None
    outcome: str | None = None
    line: list[str] = field(default_factory=list)
    note: str = ""
    peeks: bool = False  # it used the hidden cards


class Session:
    """A deal in play: the table, the line played so far and its steps.

    ``player`` names the player whose line is replayed where a game's randomness depends on it
    (Impossible: the random and lookahead players draw from the deal's play stream); None for a
    person.  ``forced``: play the moves the rules force on the player as they come (a line
    being checked names them itself).

    Examples:
        >>> from winnable import Session, get_game
        >>> game = get_game("nineball")
        >>> session = Session(game, game.deal(1))
        >>> session.legal_moves()[0]            # (move, the cards it moves)
        ('2H+7H', 'rack 2H 7H')
        >>> print(session.play("2H+7H")[0].text())
        1. 2H+7H  rack 2H 7H
        >>> session.over, session.score, session.line
        (False, 2, ['2H+7H'])
        >>> session.undo()[0].move, session.line
        ('2H+7H', [])
    """

    def __init__(self, game, cards: np.ndarray, variant=None, player: str | None = None,
                 forced: bool = True):
        self.game = game
        self.cards = np.asarray(cards)
        self.rules = game.rules(variant)
        self.player = player
        self.automatic = forced
        self.steps: list[Step] = []
        self.table = game.table(self.cards, self.rules, player)
        self.forced_steps()

    # --- the line ------------------------------------------------------------------------
    @property
    def line(self) -> list[str]:
        return [step.move for step in self.steps]

    def _step(self, move: int, forced: bool = False) -> Step:
        written = self.table.format(move)
        step = Step(len(self.steps) + 1, written, self.table.play(move), forced, int(move))
        self.steps.append(step)
        return step

    def forced_steps(self) -> list[Step]:
        """Play the moves the rules force on the player (games whose Table says so)."""
        played = []
        while self.automatic and self.table.forced_automatic and not self.table.over():
            legal = self.table.legal()
            if len(legal) != 1:
                break
            played.append(self._step(legal[0], forced=True))
        return played

    def play(self, text: str) -> list[Step]:
        """Play a move written in the game's notation (``IllegalMove`` if it is not legal here,
        nothing changed); returns its step and those of the moves the rules then force."""
        step = self._step(self.table.parse(text))
        return [step] + self.forced_steps()

    def undo(self) -> list[Step]:
        """Take back the last move the player chose (and the forced moves after it); the steps
        taken back (none at the start)."""
        chosen = [k for k, step in enumerate(self.steps) if not step.forced]
        if not chosen:
            return []
        keep = self.steps[:chosen[-1]]
        undone = self.steps[chosen[-1]:]
        self.table = self.game.table(self.cards, self.rules, self.player)
        self.steps = []
        for step in keep:
            self._step(self.table.parse(step.move), step.forced)
        return undone

    def copy(self) -> Session:
        other = Session.__new__(Session)
        other.__dict__.update(self.__dict__)
        other.table = self.game.table(self.cards, self.rules, self.player)
        other.steps = []
        for step in self.steps:
            other._step(other.table.parse(step.move), step.forced)
        return other

    # --- the position ---------------------------------------------------------------------
    def legal_moves(self) -> list[tuple[str, str]]:
        """Each legal move and the cards it moves (nothing hidden is named)."""
        return [(self.table.format(m), self.table.describe(m)) for m in self.table.legal()]

    @property
    def over(self) -> bool:
        return self.table.over()

    @property
    def outcome(self) -> str | None:
        return self.table.outcome() if self.over else None

    @property
    def score(self) -> int:
        return self.table.score()

    def board(self, peek: bool = False) -> str:
        return self.table.board(peek)

    # --- pictures (winnable.pictures) ------------------------------------------------------
    def _replayed(self):
        """A new table for the deal, replayed step by step: yielded at the deal and after each
        step (the same table each time, moved on)."""
        table = self.game.table(self.cards, self.rules, self.player)
        yield table
        for step in self.steps:
            table.play(table.parse(step.move))
            yield table

    def scenes(self, peek: bool = False) -> list:
        """The table laid out (``Game.scene``) at the deal and after each step."""
        return [self.game.scene(table, peek) for table in self._replayed()]

    def picture(self, peek: bool = False):
        """The position as a picture (``winnable.pictures.Board``), the last move outlined;
        hidden cards face down unless ``peek``."""
        from .pictures import position
        before = None
        for k, table in enumerate(self._replayed()):
            if k == len(self.steps) - 1:  # the position before the last step
                before = self.game.scene(table, peek)
                break
        return position(self.game.scene(self.table, peek), before, peek)

    def line_view(self, peek: bool = False, title: str | None = None):
        """The line so far, stepped move by move (``winnable.pictures.LineView``: a notebook
        shows it; ``save(path)`` writes it as a page of its own)."""
        from .pictures import Frame, LineView
        captions = ["the deal"] + [step.text() for step in self.steps]
        frames = [Frame(caption, scene) for caption, scene in zip(captions, self.scenes(peek))]
        if self.over:
            frames[-1] = Frame(f"{captions[-1]}   (game over: {self.outcome}, score "
                               f"{self.score})", frames[-1].scene)
        return LineView(frames, peek, title or f"{self.game.title} (rules: {self.rules.label})")

    def _repr_svg_(self) -> str:
        return self.picture().svg

    # --- advice from the game's solvers -----------------------------------------------------
    def hint(self) -> Advice:
        """The move of the game's best no-peek player here (it sees what the player sees)."""
        return self.game.hint(self)

    def best(self, budget: int | None = None) -> Advice:
        """The thoughtful solver from here (it sees the hidden cards): its outcome and line."""
        return self.game.solve_position(self, budget)


def replay_line(game, cards: np.ndarray, moves: list[str], variant=None,
                player: str | None = None) -> tuple[Session, list[Step]]:
    """Play a whole line on deal ``cards``: the session where it ends and the step of each
    move (the cards it moved); ``IllegalMove`` names the first illegal move and its number.

    Examples:
        >>> from winnable import get_game, replay_line
        >>> game = get_game("nineball")
        >>> session, steps = replay_line(game, game.deal(1), game.solve(1).moves)
        >>> print(steps[1].text())
        2. 9D  kitchen 9D (pile 1), turns up 4H
        >>> session.outcome, session.score
        ('win', 25)
    """
    session = Session(game, cards, variant, player, forced=False)
    steps = []
    for number, move in enumerate(moves, start=1):
        try:
            steps.extend(session.play(move))
        except IllegalMove as exc:
            raise IllegalMove(f"move {number} ({move}) is illegal: {exc}") from None
    return session, steps


def verify_line(game, cards: np.ndarray, moves: list[str], variant=None,
                player: str | None = None) -> Verdict:
    """Replay a line against the rules: where it ends, or its first illegal move (a
    ``Verdict``; nothing raised).

    Examples:
        >>> from winnable import get_game, verify_line
        >>> game = get_game("nineball")
        >>> print(verify_line(game, game.deal(1), game.solve(1).moves).text())
        all 6 moves legal; the game is over: outcome win, score 25
        >>> verify_line(game, game.deal(1), ["2H+7H", "AS+KS"]).illegal[0]  # the move's number
        2
    """
    session = Session(game, cards, variant, player, forced=False)
    for number, move in enumerate(moves, start=1):
        try:
            session.play(move)
        except IllegalMove as exc:
            return Verdict(number - 1, session.over, session.outcome, session.score,
                           (number, move, str(exc)))
    return Verdict(len(moves), session.over, session.outcome, session.score)


_NUMBERED = re.compile(r"\s*(\d+)\.\s+(\S+)")


def read_moves(text: str) -> list[str]:
    """The moves of a line however it was written: moves separated by spaces (``solve``'s
    ``moves``, a batch row's ``moves`` column, ``play``'s ``save``; lines starting with # are
    comments), the numbered lines of ``replay`` or ``solve`` (``12. t4-t6x4  9H 8S ...``: the
    word after each number), or ``solve --json``'s object (its ``moves``)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise UserError(f"the line looks like JSON but is not ({exc.msg}, line "
                            f"{exc.lineno})") from None
        if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
            raise UserError("a JSON line must be an object with a list \"moves\" (as `winnable "
                            "solve --json` prints)")
        return [str(m) for m in data["moves"]]
    lines = [ln for ln in stripped.splitlines() if not ln.lstrip().startswith("#")]
    numbered = [m.group(2) for ln in lines if (m := _NUMBERED.match(ln))]
    if numbered:
        return numbered
    return " ".join(lines).split()
