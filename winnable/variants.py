"""Rule variants: each game declares its flags; users write them as ``key=value``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import UserError


class VariantError(UserError):
    """A variant written by a user is not valid for the game; the message is one line."""


@dataclass(frozen=True)
class Flag:
    name: str
    default: Any
    help: str
    parse: Callable[[str], Any]
    format: Callable[[Any], str] = str
    expected: str = ""
    # Values that together try every way the flag changes the game (every choice; a range's
    # ends), written as a user writes them: the contract test plays each game under each.
    values: tuple[str, ...] = ()


def choice_flag(name: str, default: str, choices: Iterable[str], help: str) -> Flag:
    choices = tuple(choices)

    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError
        return text

    return Flag(name, default, help, parse, str, "one of " + ", ".join(choices), choices)


def int_flag(name: str, default: int, low: int, high: int, help: str,
             aliases: Mapping[str, int] | None = None) -> Flag:
    aliases = dict(aliases or {})

    def parse(text: str) -> int:
        if text in aliases:
            return aliases[text]
        value = int(text)
        if not low <= value <= high:
            raise ValueError
        return value

    expected = f"an integer from {low} to {high}"
    if aliases:
        expected += " or " + ", ".join(aliases)
    return Flag(name, default, help, parse, str, expected, (str(low), str(high)))


def int_choice_flag(name: str, default: int, choices: Iterable[int], help: str) -> Flag:
    choices = tuple(choices)

    def parse(text: str) -> int:
        value = int(text)
        if value not in choices:
            raise ValueError
        return value

    listed = ", ".join(str(c) for c in choices[:-1]) + f" or {choices[-1]}"
    return Flag(name, default, help, parse, str, listed, tuple(str(c) for c in choices))


def bool_flag(name: str, default: bool, help: str) -> Flag:
    def parse(text: str) -> bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError

    return Flag(name, default, help, parse, lambda v: "1" if v else "0", "1 or 0", ("0", "1"))


def int_set_flag(name: str, default: tuple[int, ...], low: int, high: int, help: str,
                 values: tuple[str, ...] | None = None) -> Flag:
    """A set of integers from ``low`` to ``high``; ``values``: sets worth trying (default: each
    end alone)."""
    def parse(text: str) -> tuple[int, ...]:
        chosen = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
        if not chosen or not all(low <= v <= high for v in chosen):
            raise ValueError
        return chosen

    return Flag(name, default, help, parse, lambda v: ",".join(str(x) for x in v),
                f"comma-separated integers from {low} to {high}",
                values if values is not None else (str(low), str(high)))


class Rules(Mapping[str, Any]):
    """A complete, immutable set of flag values for one game (defaults filled in)."""

    def __init__(self, flags: Mapping[str, Flag], values: Mapping[str, Any]):
        self._flags = dict(flags)
        self._values = {name: values.get(name, flag.default) for name, flag in flags.items()}

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __hash__(self) -> int:
        return hash(self.label)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self.label == other.label

    def __repr__(self) -> str:
        return f"Rules({self.label})"

    def changed(self) -> dict[str, str]:
        """The flags that differ from the defaults, formatted as the user writes them."""
        return {name: flag.format(self._values[name]) for name, flag in self._flags.items()
                if self._values[name] != flag.default}

    @property
    def label(self) -> str:
        """Canonical text: ``default`` or the changed flags as ``key=value`` joined by spaces."""
        changed = self.changed()
        return " ".join(f"{k}={v}" for k, v in sorted(changed.items())) or "default"

    def as_text(self) -> dict[str, str]:
        return {name: flag.format(self._values[name]) for name, flag in self._flags.items()}


def parse_rules(game: str, flags: Mapping[str, Flag], items: Iterable[str] | Mapping[str, Any] | None) -> Rules:
    """Rules from ``key=value`` strings (CLI) or a mapping (library; values may be text or
    already parsed)."""
    if items is None:
        return Rules(flags, {})
    if isinstance(items, Rules):
        return items
    if isinstance(items, str):  # a label such as "targets=9 kitchen_per_group=1" or "default"
        items = [] if items.strip() == "default" else [items]
    pairs: list[tuple[str, Any]] = []
    if isinstance(items, Mapping):
        pairs = list(items.items())
    else:
        for item in items:
            for part in item.split():
                if "=" not in part:
                    raise VariantError(f"variant {part!r} is not key=value (e.g. {_example(flags)})")
                key, value = part.split("=", 1)
                pairs.append((key.strip(), value.strip()))
    values: dict[str, Any] = {}
    for key, value in pairs:
        flag = flags.get(key)
        if flag is None:
            known = ", ".join(flags) or "none"
            raise VariantError(f"unknown variant key {key!r} for {game}: known keys are {known}")
        if isinstance(value, str):
            try:
                value = flag.parse(value)
            except (ValueError, TypeError):
                raise VariantError(
                    f"bad value {value!r} for variant {key} of {game}: expected {flag.expected}"
                ) from None
        else:
            try:
                value = flag.parse(flag.format(value))
            except (ValueError, TypeError):
                raise VariantError(
                    f"bad value {value!r} for variant {key} of {game}: expected {flag.expected}"
                ) from None
        values[key] = value
    return Rules(flags, values)


def _example(flags: Mapping[str, Flag]) -> str:
    for name, flag in flags.items():
        return f"{name}={flag.format(flag.default)}"
    return "key=value"
