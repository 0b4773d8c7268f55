"""A scene (``winnable.pictures.scene``) drawn as SVG, by this module alone: no image files, no
fonts but the viewer's sans-serif and monospace, nothing fetched.

Each card face is drawn once, in ``<defs>`` (``definitions``), and placed with ``<use>``; a
face shown carries its code (``data-card="AH"``), a back carries none.  A card the player cannot
see is drawn as the back, and its face is neither placed nor defined, so its code appears
nowhere in the drawing unless ``peek``."""

from __future__ import annotations

from html import escape

from ..cards import CODES, RANKS
from .scene import CARD_H, CARD_W, MARGIN, TEXT_LINE_H, Marks, Scene

FELT = "#2f6b4f"
INK = "#f3efe2"        # labels on the felt
FACE = "#fffdf6"
EDGE = "#7d7d7d"
RED = "#c0352b"
BLACK = "#1d1d1d"
BACK = "#2b4f8c"
MARK = "#ffb000"       # the last move
ID = "w-"              # the prefix of every id this module defines

# Each suit's outline in a 20 by 20 box (clubs, diamonds, hearts, spades: the order of
# ``winnable.cards.SUITS``), and the joker's star.
SUIT_SHAPES = (
    '<g id="w-s0"><circle cx="10" cy="5.5" r="4.6"/><circle cx="5" cy="12" r="4.6"/>'
    '<circle cx="15" cy="12" r="4.6"/><path d="M9 11h2l2.5 9h-7z"/></g>',
    '<path id="w-s1" d="M10 0l8 10-8 10-8-10z"/>',
    '<path id="w-s2" d="M10 19C3 13 0 9.5 0 6a5 5 0 0 1 10-2 5 5 0 0 1 10 2c0 3.5-3 7-10 13z"/>',
    '<path id="w-s3" d="M10 0C3 7 0 10 0 13.5a4.6 4.6 0 0 0 8.6 2.2L7 20h6l-1.6-4.3A4.6 4.6 0 0 0 '
    '20 13.5C20 10 17 7 10 0z"/>',
)
STAR = '<path id="w-star" d="M10 0l2.9 6.5 7.1.7-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L0 7.2l7.1-.7z"/>'
RANK_TEXT = {r: ("10" if r == "T" else r) for r in RANKS}
JOKER = 52


def _n(value: float) -> str:
    """A coordinate, as short as it can be written."""
    return f"{value:g}"


def _outline(stroke, width=1.0, dash="", fill="none", extra="") -> str:
    """A card's outline, its stroke inside the card."""
    return (f'<rect x="{_n(width / 2)}" y="{_n(width / 2)}" width="{_n(CARD_W - width)}" '
            f'height="{_n(CARD_H - width)}" rx="4" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{_n(width)}"' + (f' stroke-dasharray="{dash}"' if dash else "")
            + extra + "/>")


def face(card: int) -> str:
    """One card's face, in a 50 by 70 box (``CARD_W`` by ``CARD_H``), as a definition."""
    suit = "star" if card >= JOKER else f"s{card // 13}"
    colour = RED if 13 <= card < 39 or card == JOKER else BLACK  # diamonds, hearts
    corner = ("" if card >= JOKER else
              f'<text x="4" y="14" font-size="13" font-weight="bold" fill="{colour}">'
              f'{RANK_TEXT[CODES[card][0]]}</text>')
    small = 17 if corner else 4
    return (f'<g id="{ID}{CODES[card]}">' + _outline(EDGE, fill=FACE) + corner
            + f'<use href="#{ID}{suit}" fill="{colour}" transform="translate(4 {small}) '
            'scale(.45)"/>'
            + f'<use href="#{ID}{suit}" fill="{colour}" transform="translate(14 28) scale(1.1)"/>'
            + "</g>")


def back() -> str:
    return (f'<g id="{ID}back">' + _outline("#1b355f", fill=BACK)
            + f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="2" '
            'fill="none" stroke="#fff" stroke-opacity=".45"/>'
            + f'<path d="M25 14l11 21-11 21-11-21z" fill="#fff" fill-opacity=".25"/></g>')


def definitions(faces) -> str:
    """The ``<defs>`` of the faces ``faces`` (card ids), the back, the suits they use and the
    outlines (an empty place, the last move's cards and the places they left, the shade of a
    card seen only by peeking)."""
    faces = sorted(set(int(c) for c in faces))
    suits = sorted({c // 13 for c in faces if c < JOKER})
    return ("<defs>" + "".join(SUIT_SHAPES[s] for s in suits)
            + (STAR if any(c >= JOKER for c in faces) else "")
            + back() + "".join(face(c) for c in faces)
            + _outline(INK, dash="4 3", extra=f' id="{ID}space" stroke-opacity=".5"')
            + _outline(MARK, 3, extra=f' id="{ID}moved"')
            + _outline(MARK, 2, "5 3", extra=f' id="{ID}left"')
            + f'<rect id="{ID}shade" width="{CARD_W}" height="{CARD_H}" rx="4" fill="#000" '
            'fill-opacity=".22"/>' + "</defs>")


def shown_faces(scene: Scene, peek: bool) -> set[int]:
    """The cards whose faces the drawing shows."""
    return {c.id for c in scene.cards if peek or not c.hidden}


def draw(scene: Scene, peek: bool = False, marks: Marks = Marks(),
         size: tuple[float, float] | None = None, defs: bool = True, attributes: str = ""
         ) -> str:
    """The scene as one ``<svg>`` element: the cards the player cannot see as backs (``peek``:
    face up, shaded), the last move's cards outlined (``marks``), the places they left dashed.
    Each element that is drawn again and again is a ``<use>`` of a definition; a card's face
    carries its code (``data-card``), nothing else does.
    ``size``: the picture's width and height (default: the scene's own); ``defs`` False leaves
    the definitions out, for a page that holds them once for many pictures."""
    width, height = size or scene.size()
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
           f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="sans-serif"{attributes}>']
    if defs:
        out.append(definitions(shown_faces(scene, peek)))
    out.append(f'<rect width="{_n(width)}" height="{_n(height)}" fill="{FELT}"/>')
    if scene.text:
        out.append(f'<text font-family="monospace" font-size="13" fill="{INK}" '
                   'xml:space="preserve">')
        for k, line in enumerate(scene.text.splitlines()):
            out.append(f'<tspan x="{MARGIN}" y="{_n(MARGIN + TEXT_LINE_H * (k + 0.8))}">'
                       f'{escape(line)}</tspan>')
        out.append("</text>")
    out.extend(f'<use href="#{ID}space" x="{_n(space.x)}" y="{_n(space.y)}"/>'
               for space in scene.spaces)
    out.append(f'<g font-size="11" fill="{INK}" fill-opacity=".7" text-anchor="middle">')
    out.extend(f'<text x="{_n(space.x + CARD_W / 2)}" y="{_n(space.y + CARD_H / 2 + 4)}">'
               f'{escape(space.text)}</text>' for space in scene.spaces if space.text)
    out.append("</g>")
    out.extend(f'<use href="#{ID}left" x="{_n(x)}" y="{_n(y)}"/>' for x, y in marks.left)
    for card in scene.cards:
        at = f'x="{_n(card.x)}" y="{_n(card.y)}"'
        if card.hidden and not peek:
            out.append(f'<use href="#{ID}back" {at}/>')
        else:
            code = CODES[card.id]
            out.append(f'<use href="#{ID}{code}" {at} data-card="{code}"/>')
            if card.hidden:  # seen only by peeking: shaded
                out.append(f'<use href="#{ID}shade" {at}/>')
        if card.id in marks.cards:
            out.append(f'<use href="#{ID}moved" {at}/>')
    out.append(f'<g font-size="12" fill="{INK}">')
    out.extend(f'<text x="{_n(label.x)}" y="{_n(label.y)}"'
               + (f' text-anchor="{label.anchor}"' if label.anchor != "start" else "")
               + f">{escape(label.text)}</text>" for label in scene.labels)
    out.append("</g>")
    out.append("</svg>")
    return "".join(out)

