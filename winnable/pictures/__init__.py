"""Boards as pictures: a position drawn as SVG, and a line of play stepped move by move in
HTML.

Each game lays out its table as a ``Scene`` (``Game.scene``, in ``winnable/games/<game>.py``;
a game without a layout of its own is drawn as its text board); ``svg.draw`` draws any scene,
and ``page.LineView`` steps through the scenes of a line.  A session
(``winnable.session.Session``) makes both: ``picture()`` and ``line_view()``.

    from winnable import get_game
    from winnable.session import Session
    s = Session(get_game("nineball"), get_game("nineball").deal(1))
    s.play("2H+7H")
    s.picture()                   # the position, the last move outlined (a notebook shows it)
    s.line_view().save("line.html")  # the line so far, a page of its own
"""

from .page import Board, Frame, LineView, position
from .scene import CARD_H, CARD_W, FAN_DOWN, FAN_UP, GAP, LABEL_H, MARGIN, Card, Label, Scene, Space

__all__ = ["Board", "CARD_H", "CARD_W", "Card", "FAN_DOWN", "FAN_UP", "Frame", "GAP", "LABEL_H",
           "Label", "LineView", "MARGIN", "Scene", "Space", "position"]
