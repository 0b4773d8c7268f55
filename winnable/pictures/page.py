"""A line of play stepped move by move in HTML: the board after every move and the move's name,
with buttons and the arrow keys (Home and End: the first and last position).  One piece of
HTML with its style and an inline script, nothing fetched: a notebook shows it as the output of
a cell (``LineView._repr_html_``), and ``LineView.page`` wraps it in a page of its own (what
``winnable solve --html`` and ``replay --html`` write, and ``play``'s ``show``).

Every board is drawn beforehand (``winnable.pictures.svg``), so a step only shows another
picture: nothing is computed in the browser.  The faces are defined once for the whole line,
and only those of cards the line shows face up."""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass
from html import escape
from pathlib import Path

from ..errors import UserError
from .scene import Marks, Scene, last_move
from .svg import definitions, draw, shown_faces


@dataclass(frozen=True)
class Frame:
    """One position of a line: the caption (the move that led here) and the table."""

    caption: str
    scene: Scene


STYLE = """
#{id} {{font-family: sans-serif; color: #222; outline: none; max-width: 100%;}}
#{id} .wl-bar {{display: flex; gap: 6px; align-items: center; margin: 4px 0;}}
#{id} .wl-bar button {{font-size: 14px; padding: 2px 10px;}}
#{id} .wl-at {{font-variant-numeric: tabular-nums; min-width: 6em; text-align: center;}}
#{id} .wl-caption {{font-family: monospace; min-height: 1.4em; margin: 2px 0 6px;
  white-space: pre-wrap;}}
#{id} .wl-frames {{overflow-x: auto;}}
#{id} .wl-frame {{display: none;}}
#{id} .wl-frame.on {{display: block;}}
#{id}:focus-visible {{box-shadow: 0 0 0 2px #ffb000;}}
"""

# Steps through the frames; ``keys`` is the element whose arrow keys step (the whole page, or
# in a notebook the widget once clicked or tabbed to, so the notebook's own keys still work).
SCRIPT = """(function () {{
  var root = document.getElementById("{id}");
  var frames = root.querySelectorAll(".wl-frame"), at = 0;
  var counter = root.querySelector(".wl-at"), caption = root.querySelector(".wl-caption");
  function show(k) {{
    k = Math.max(0, Math.min(frames.length - 1, k));
    frames[at].classList.remove("on");
    at = k;
    frames[at].classList.add("on");
    counter.textContent = "move " + at + " of " + (frames.length - 1);
    caption.textContent = frames[at].getAttribute("data-caption");
    root.setAttribute("data-at", at);
  }}
  var moves = {{first: function () {{ return 0; }}, last: function () {{ return frames.length - 1; }},
               prev: function () {{ return at - 1; }}, next: function () {{ return at + 1; }}}};
  var keys = {{ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}};
  root.addEventListener("click", function (e) {{
    var button = e.target.closest("button[data-go]");
    if (button) {{ show(moves[button.getAttribute("data-go")]()); root.focus(); }}
  }});
  {keys}.addEventListener("keydown", function (e) {{
    if (e.altKey || e.ctrlKey || e.metaKey || !keys[e.key]) return;
    show(moves[keys[e.key]]());
    e.preventDefault();
  }});
  show(0);
}})();"""

_widgets = itertools.count(1)
_SESSION = secrets.token_hex(3)  # widget ids unique across a notebook's kernels


class LineView:
    """A line of play as pictures: ``frames`` (the start, then one per move), drawn with the
    hidden cards face down unless ``peek``; ``title`` heads the page."""

    def __init__(self, frames: list[Frame], peek: bool = False, title: str = ""):
        if not frames:
            raise ValueError("a line view needs at least its starting position")
        self.frames = frames
        self.peek = peek
        self.title = title

    def __len__(self) -> int:
        return len(self.frames)

    def html(self, widget_id: str | None = None) -> str:
        """The stepping widget: one ``<div>`` with its style, pictures and script.  Its arrow
        keys work once it has the focus (``page`` gives them to the whole page)."""
        return self._widget(widget_id or f"wl-{_SESSION}-{next(_widgets)}", "root")

    def _widget(self, widget_id: str, keys: str) -> str:
        scenes = [frame.scene for frame in self.frames]
        sizes = [scene.size() for scene in scenes]
        size = (max(w for w, _ in sizes), max(h for _, h in sizes))  # no jumps while stepping
        faces = set().union(*(shown_faces(scene, self.peek) for scene in scenes))
        out = [f'<div class="wl" id="{widget_id}" tabindex="0">',
               "<style>" + STYLE.format(id=widget_id) + "</style>",
               '<div class="wl-bar">'
               '<button type="button" data-go="first" title="first position (Home)">'
               '&#8676; start</button>'
               '<button type="button" data-go="prev" title="back a move (left arrow)">'
               '&#9664; back</button>'
               '<span class="wl-at"></span>'
               '<button type="button" data-go="next" title="next move (right arrow)">'
               'next &#9654;</button>'
               '<button type="button" data-go="last" title="last position (End)">'
               'end &#8677;</button></div>',
               f'<div class="wl-caption">{escape(self.frames[0].caption)}</div>',
               '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" '
               'style="position:absolute" aria-hidden="true">' + definitions(faces) + "</svg>",
               '<div class="wl-frames">']
        before = None
        for k, frame in enumerate(self.frames):
            marks = last_move(before, frame.scene) if before else Marks()
            attributes = (f' class="wl-frame{" on" if k == 0 else ""}" data-frame="{k}" '
                          f'data-caption="{escape(frame.caption)}"')
            out.append(draw(frame.scene, self.peek, marks, size, defs=False,
                            attributes=attributes))
            before = frame.scene
        out.append("</div>")
        out.append("<script>" + SCRIPT.format(id=widget_id, keys=keys) + "</script></div>")
        return "\n".join(out)

    def page(self) -> str:
        """A page of its own: the title, the widget, the arrow keys anywhere on the page."""
        title = escape(self.title or "winnable: a line of play")
        moves = len(self.frames) - 1
        note = ("the hidden cards are shown face up, shaded" if self.peek else
                "face-down cards stay face down, as the player sees them")
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{title}</title></head>\n"
                "<body style=\"font-family: sans-serif; margin: 16px;\">"
                f"<h3 style=\"margin: 0 0 4px;\">{title}</h3>"
                f"<p style=\"margin: 0 0 6px; color: #555;\">{moves} move{'s' * (moves != 1)}; "
                f"{note}; the last move outlined. Keys: &#8592; &#8594;, Home, End.</p>\n"
                + self._widget("line", "document") + "\n</body></html>\n")

    def save(self, path: str | Path) -> Path:
        """Write ``page`` to ``path``; a ``UserError`` if it cannot be written."""
        return write(path, self.page())

    def _repr_html_(self) -> str:
        return self.html()


class Board:
    """One position as a picture (``svg``); a notebook shows it (``_repr_svg_``)."""

    def __init__(self, svg: str):
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> Path:
        return write(path, self.svg + "\n")


def position(scene: Scene, before: Scene | None = None, peek: bool = False) -> Board:
    """The picture of ``scene``, the move from ``before`` marked."""
    return Board(draw(scene, peek, last_move(before, scene) if before else Marks()))


def write(path: str | Path, text: str) -> Path:
    """Write a picture or page; a ``UserError`` (one line) if it cannot be written."""
    path = Path(path)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror}") from None
    return path
