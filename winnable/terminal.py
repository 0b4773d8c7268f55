"""`winnable play`: a deal played in the terminal, one command a line, over a ``Session``.

Commands come from a terminal (prompt_toolkit: line editing and history, red cards in red) or
from a pipe, read line by line and answered in plain text; everything the game says is the
session's (``winnable.session``), so a script and a person see the same game."""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import IllegalMove, UserError
from .session import Advice, Session

HELP = """commands (one a line):
  MOVE          a move in the game's notation, as `winnable solve` prints it ({example})
  moves         the legal moves, each with the cards it moves
  hint          the move of {hint}, who sees only what you see
  best          the thoughtful solver's move from here (it uses the hidden cards)
  check         is this position still winnable? (thoughtful, uses the hidden cards)
  check --warn  also flag at once every move that turns a winnable position into a lost one
  solve         a winning line from here, if the solver finds one
  undo          take back your last move
  board         show the table again
  save FILE     write the line played so far (`winnable verify --moves-file FILE` checks it)
  show [FILE]   write a page that replays the game so far move by move (default {page})
  help          this list
  quit          stop"""

RED_CARD = re.compile(r"\b([A2-9TJQK][DH])\b")


class CommandLoop:
    """The command loop of one deal: ``run`` reads commands until ``quit`` or the end of
    input.  ``warn``: flag moves that turn a winnable position into a lost one; ``budget``: the
    thoughtful solver's nodes per answer (None: the game's default)."""

    def __init__(self, session: Session, deal_options: str, peek: bool = False,
                 warn: bool = False, budget: int | None = None,
                 out: Callable[[str], None] | None = None):
        self.session = session
        self.deal_options = deal_options
        self.peek = peek
        self.warn = warn
        # A game whose solver takes no budget on a position (None) ignores one.
        self.budget = (budget or session.game.position_budget
                       if session.game.position_budget else None)
        self.out = out or print
        self._verdicts: dict[tuple[str, ...], Advice] = {}
        self._ended = False

    # --- answers ---------------------------------------------------------------------------
    def who(self, advice: Advice) -> str:
        """Who answered, whether it used the hidden cards, and with what budget."""
        return (advice.who + (", uses the hidden cards" if advice.peeks else
                              ", does not see the hidden cards")
                + (f", budget {self.budget:,}" if self.budget else ""))

    def verdict(self) -> Advice:
        """The thoughtful solver on the current position (remembered per line)."""
        key = tuple(self.session.line)
        if key not in self._verdicts:
            self._verdicts[key] = self.session.best(self.budget)
        return self._verdicts[key]

    def outcome(self) -> str:
        return self.verdict().outcome or "unknown"

    def show_board(self) -> None:
        self.out(self.session.board(self.peek))

    def ending(self) -> None:
        if self.session.over and not self._ended:
            self._ended = True
            self.out(f"game over: outcome {self.session.outcome}, score {self.session.score}")

    def move(self, text: str) -> None:
        session = self.session
        before = self.outcome() if self.warn and not session.over else None
        steps = session.play(text)
        for step in steps:
            self.out(step.text())
        if before == "win" and self.outcome() == "loss":
            self.out(f"warning: {steps[0].move} turns a winnable position into a lost one "
                     f"({self.who(self.verdict())}); `undo` takes it back")
        self.show_board()
        self.ending()

    def command(self, line: str) -> bool:
        """Answer one command line; False once the player quits."""
        session = self.session
        word, _, rest = line.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?"):
            self.out(HELP.format(example=session.game.move_example,
                                 hint=session.game.hint_player, page=self.page_name()))
        elif word == "board":
            self.show_board()
        elif word == "moves":
            moves = session.legal_moves()
            self.out(f"{len(moves)} legal moves:" if moves else "no legal move: the game is over")
            for move, described in moves:
                self.out(f"  {move}  {described}")
        elif word == "hint":
            advice = session.hint()
            self.out(f"hint ({advice.who}, {advice.note}): {advice.move or 'no move'}")
        elif word == "best":
            advice = self.verdict()
            self.out(f"best ({self.who(advice)}): {advice.move or 'no move'}; position: "
                     f"{advice.outcome} ({advice.note})")
        elif word == "check":
            if rest and rest != "--warn":
                raise UserError(f"check takes no argument but --warn, got {rest!r}")
            if rest:
                self.warn = True
                self.out("warnings on: a move that turns a winnable position into a lost one "
                         "is flagged at once")
            self.out(f"check ({self.who(self.verdict())}): {self.outcome()}")
        elif word == "solve":
            advice = self.verdict()
            if advice.outcome == "win":
                self.out(f"a winning line from here ({self.who(advice)}; {len(advice.line)} "
                         "moves):")
                self.out(" ".join(advice.line))
            else:
                self.out(f"no winning line found from here: {advice.outcome} ({advice.note})")
        elif word == "undo":
            undone = session.undo()
            if not undone:
                self.out("nothing to undo")
            else:
                self.out("undone: " + " ".join(step.move for step in undone))
                self._ended = False
                self.show_board()
        elif word == "save":
            if not rest:
                raise UserError("save needs a file name: save FILE")
            self.save(Path(rest))
        elif word == "show":
            self.show(Path(rest or self.page_name()))
        else:
            self.move(line.strip())
        return True

    def save(self, path: Path) -> None:
        text = (f"# winnable play: {self.session.game.title}, {len(self.session.line)} moves\n"
                f"# check it: winnable verify {self.deal_options} --moves-file {path}\n"
                + " ".join(self.session.line) + "\n")
        try:
            path.write_text(text)
        except OSError as exc:
            raise UserError(f"cannot write {path}: {exc.strerror}") from None
        self.out(f"saved {len(self.session.line)} moves to {path}")

    def page_name(self) -> str:
        return f"{self.session.game.name}-play.html"

    def show(self, path: Path) -> None:
        """Write the page of the game so far (the hidden cards as the game shows them: face
        down unless --peek)."""
        session = self.session
        title = (f"{session.game.title}: the game so far (winnable play "
                 f"{self.deal_options})")
        session.line_view(self.peek, title).save(path)
        self.out(f"wrote {path}: the game so far, move by move (open it in a browser; the "
                 "arrow keys step)")

    def run(self, lines: Iterator[str]) -> None:
        """Read and answer commands; an illegal move or a bad command gets its one-line reason
        and changes nothing."""
        for step in self.session.steps:  # the moves the rules forced before the first choice
            self.out(step.text())
        self.show_board()
        self.ending()
        for line in lines:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                if not self.command(line):
                    break
            except IllegalMove as exc:
                self.out(f"illegal: {exc} (`help` lists the commands)")
            except UserError as exc:
                self.out(f"error: {exc}")
        if not self.session.over:
            self.out(f"stopped after {len(self.session.line)} moves: score so far "
                     f"{self.session.score} (the game is not over)")
        else:
            self.out(f"outcome: {self.session.outcome}   score: {self.session.score}")


def terminal_lines(prompt: str) -> Iterator[str]:
    """Lines typed at a prompt_toolkit prompt with history, until Ctrl-D."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import InMemoryHistory
    reader = PromptSession(history=InMemoryHistory())
    while True:
        try:
            yield reader.prompt(prompt)
        except EOFError:
            return


def coloured(text: str) -> None:
    """Print to a terminal with the red suits in red."""
    from prompt_toolkit import HTML, print_formatted_text
    marked = RED_CARD.sub(r"<ansired>\1</ansired>", html.escape(text, quote=False))
    print_formatted_text(HTML(marked))


def play(session: Session, deal_options: str, peek: bool = False, warn: bool = False,
         budget: int | None = None) -> None:
    """`winnable play`: the terminal's prompt and colours when both ends are a terminal, plain
    lines otherwise (a pipe, a script)."""
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    out = coloured if interactive else (lambda text: print(text, flush=True))
    loop = CommandLoop(session, deal_options, peek, warn, budget, out)
    lines = terminal_lines(f"{session.game.name}> ") if interactive else iter(sys.stdin)
    loop.run(lines)
