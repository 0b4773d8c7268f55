"""A position laid out for drawing: where each card lies and whether the player can see its
face.  Each game lays out its own table (``Game.scene`` in ``winnable/games/<game>.py``); the
drawing (``winnable.pictures.svg``) knows nothing of any game.

Coordinates are pixels from the top left, each card ``CARD_W`` by ``CARD_H``.  A scene lists
every card that lies on the table, bottom first (a card listed later lies on the ones before
it), each with ``hidden`` set where the player would not see its face; the drawing shows those
as backs unless asked to peek.  Cards out of play and not to be seen (a foundation's covered
cards, the cards removed) are simply not listed."""

from __future__ import annotations

from dataclasses import dataclass, field

CARD_W = 50
CARD_H = 70
GAP = 10            # between piles
MARGIN = 12         # around the table
LABEL_H = 16        # a line of label text
FAN_UP = 20         # a face-up card on the one below it in a fanned pile
FAN_DOWN = 8        # a face-down card on the one below it
DECK_STEP_X = 16     # a peeked deck's cards, side by side and row under row
DECK_STEP_Y = 26
TEXT_CHAR_W = 7.8   # a character of the monospace text board (13 px)
TEXT_LINE_H = 17
LABEL_CHAR_W = 7.0  # a character of a label (12 px sans-serif), about


@dataclass(frozen=True)
class Card:
    """A card on the table: its id (``winnable.cards``), its top left corner, and whether the
    player would not see its face."""

    id: int
    x: float
    y: float
    hidden: bool = False


@dataclass(frozen=True)
class Label:
    """A line of text; ``x`` is where it starts (``anchor`` start), its middle or its end."""

    text: str
    x: float
    y: float
    anchor: str = "start"


@dataclass(frozen=True)
class Space:
    """An empty place with a card's outline: an empty pile, a foundation with no card yet."""

    x: float
    y: float
    text: str = ""


@dataclass
class Scene:
    """A position laid out: cards (bottom first), empty places and labels; or, for a game
    without a layout of its own, its table as ``text``."""

    cards: list[Card] = field(default_factory=list)
    spaces: list[Space] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    text: str = ""

    def card(self, card: int, x: float, y: float, hidden: bool = False) -> None:
        self.cards.append(Card(int(card), x, y, bool(hidden)))

    def space(self, x: float, y: float, text: str = "") -> None:
        self.spaces.append(Space(x, y, text))

    def label(self, text: str, x: float, y: float, anchor: str = "start") -> None:
        self.labels.append(Label(text, x, y, anchor))

    def fan(self, cards, x: float, y: float, hidden=(), up: float = FAN_UP,
            down: float = FAN_DOWN) -> float:
        """A pile fanned downwards from (x, y), bottom card first; ``hidden[i]`` for the i-th
        card (missing: face up).  Returns the y just below its last card."""
        hidden = list(hidden)
        bottom = y + CARD_H
        for i, card in enumerate(cards):
            face_down = i < len(hidden) and bool(hidden[i])
            self.card(card, x, y, face_down)
            bottom = y + CARD_H
            y += down if face_down else up
        return bottom

    def deck(self, cards, x: float, y: float, peek: bool, name: str = "deck",
             per_row: int = 10) -> float:
        """A face-down deck, top card first: one back (its top card, hidden) and how many
        cards; ``peek``: every card, top first, in rows of ``per_row`` overlapping cards.
        Returns the y just below it."""
        cards = list(cards)
        self.label(f"{name}: {len(cards)} card{'s' * (len(cards) != 1)}", x, y - 4)
        if not cards:
            self.space(x, y, "empty")
            return y + CARD_H
        if not peek:
            self.card(cards[0], x, y, hidden=True)
            return y + CARD_H
        for k, card in enumerate(cards):
            row, column = divmod(k, per_row)
            self.card(card, x + column * DECK_STEP_X, y + row * DECK_STEP_Y, hidden=True)
        return y + (len(cards) - 1) // per_row * DECK_STEP_Y + CARD_H

    def size(self) -> tuple[float, float]:
        """Width and height that hold everything, margins included."""
        if self.text:
            lines = self.text.splitlines() or [""]
            return (2 * MARGIN + TEXT_CHAR_W * max(len(line) for line in lines),
                    2 * MARGIN + TEXT_LINE_H * len(lines))
        right = [c.x + CARD_W for c in self.cards] + [s.x + CARD_W for s in self.spaces]
        bottom = [c.y + CARD_H for c in self.cards] + [s.y + CARD_H for s in self.spaces]
        for label in self.labels:
            width = LABEL_CHAR_W * len(label.text)
            right.append(label.x + {"start": width, "middle": width / 2, "end": 0}[label.anchor])
            bottom.append(label.y + 4)
        return (max(right, default=0) + MARGIN, max(bottom, default=0) + MARGIN)


@dataclass(frozen=True)
class Marks:
    """The last move on the picture: the cards it moved, turned up or brought into view (ids),
    and the places cards left (top left corners) where no card lies now."""

    cards: frozenset[int] = frozenset()
    left: tuple[tuple[float, float], ...] = ()


def last_move(before: Scene, after: Scene) -> Marks:
    """What the last move changed as the player sees it: a card the player sees now is marked
    if it was not on the table, lay elsewhere, or was face down before; a place a card the
    player saw left is marked if no card lies there now.  Hidden cards are never marked, even
    when a picture peeks at them (a shuffled deck would mark them all)."""
    was = {c.id: c for c in before.cards}
    now = {c.id: c for c in after.cards}
    marked = frozenset(
        c.id for c in after.cards
        if not c.hidden and (c.id not in was or (was[c.id].x, was[c.id].y) != (c.x, c.y)
                             or was[c.id].hidden))
    taken = {(c.x, c.y) for c in after.cards}
    left = [(c.x, c.y) for c in before.cards
            if not c.hidden and (c.x, c.y) not in taken
            and (c.id not in now or (now[c.id].x, now[c.id].y) != (c.x, c.y))]
    return Marks(marked, tuple(dict.fromkeys(left)))
