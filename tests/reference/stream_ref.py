"""The project's random numbers in plain Python, written from the text of ``winnable.shuffle``
(its module docstring), not from its code: FNV-1a-64, splitmix64, unbiased draws and the
Fisher-Yates shuffle, the deal numbering and the play stream."""

from __future__ import annotations

MASK = (1 << 64) - 1
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a(data: bytes, h: int = FNV_OFFSET) -> int:
    """64-bit FNV-1a of ``data``, continued from ``h``."""
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK
    return h


class SplitMix:
    """splitmix64 from a 64-bit state."""

    def __init__(self, state: int):
        self.state = state & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """Uniform in 0..bound-1: draws below 2**64 mod bound are thrown away."""
        threshold = (1 << 64) % bound
        while True:
            r = self.next()
            if r >= threshold:
                return r % bound

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def deal(name: str, deck: list[int], n: int) -> list[int]:
    """Deal number ``n`` of the game ``name`` whose canonical deck is ``deck``."""
    cards = list(deck)
    SplitMix(fnv1a(name.encode("ascii")) ^ n).shuffle(cards)
    return cards


def play_stream(name: str, cards: list[int]) -> SplitMix:
    """The play stream of a deal: seeded with FNV-1a of the name, then the card ids."""
    return SplitMix(fnv1a(bytes(cards), fnv1a(name.encode("ascii"))))
