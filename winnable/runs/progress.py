"""What a run tells the user while it works, on stderr: one-line warnings and a progress bar
(tqdm), which the warnings leave intact."""

from __future__ import annotations

import sys


def warn(message: str) -> None:
    """A one-line message for the user on stderr (beside a progress bar, which it leaves
    intact)."""
    from tqdm import tqdm
    tqdm.write(message, file=sys.stderr)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, initial: int, label: str, enabled: bool):
    """A bar of ``total`` deals, ``initial`` of them done already (none shown if not
    ``enabled``)."""
    if not enabled:
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, desc=label, unit="deal", unit_scale=True,
                file=sys.stderr, smoothing=0.1, dynamic_ncols=True)
