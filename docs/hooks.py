"""MkDocs hook (mkdocs.yml, ``hooks:``): the commands' help in docs/cli.md keeps its layout.

mkdocs-click writes a command's docstring as Markdown and drops click's ``\\b`` markers, so a
block that click prints verbatim (the kinds of ``winnable plot``, the examples of ``sweep`` and
``deals``) would run together into one paragraph.  Here each such block becomes a ``text``
code block, as ``winnable COMMAND --help`` prints it.  If mkdocs-click changes the function
patched here, the hook does nothing and the help renders as mkdocs-click writes it."""

from __future__ import annotations

import inspect


def verbatim_blocks(text: str) -> list[str]:
    """The lines of a click help text with every paragraph that starts with ``\\b`` fenced."""
    out: list[str] = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines = paragraph.splitlines()
        if lines and lines[0].strip() == "\b":
            out += ["```text", *lines[1:], "```", ""]
        else:
            out += [*lines, ""]
    return out


def on_config(config, **kwargs):
    try:
        from mkdocs_click import _docs
    except ImportError:
        return config
    original = getattr(_docs, "_make_description", None)
    if original is None or getattr(original, "keeps_verbatim", False):
        return config

    def _make_description(ctx, remove_ascii_art: bool = False):
        help_string = ctx.command.help or ctx.command.short_help
        if not help_string:
            return
        yield from verbatim_blocks(help_string)

    _make_description.keeps_verbatim = True
    _docs._make_description = _make_description
    return config
