"""How often a phone that cannot keep the stream open polls: the server says it in every poll's
answer (``X-Poll-After``, seconds), and the phone waits that long before the next.

Every 2 s while a round is open (the clock, a slip's receipt), 5 s between its draw and its
publication, 15 s otherwise (nothing moves); five times that while the page is hidden
(``?hidden=1``), at most a minute; and slower still when the process is busy (its event loop
runs late), so that a room of polling phones does not starve the slips.
"""

from __future__ import annotations

POLL_HEADER = "X-Poll-After"
OPEN_SECONDS = 2
BETWEEN_SECONDS = 5
IDLE_SECONDS = 15
HIDDEN_TIMES = 5
MAX_SECONDS = 60


def poll_seconds(*, status: str | None, hidden: bool, load: float = 1.0) -> int:
    """Seconds before the next poll: ``status`` the round's (None: no round, or unknown),
    ``hidden`` the page's, ``load`` from 1 (idle) up."""
    if status == "open" or status is None:
        seconds: float = OPEN_SECONDS
    elif status in {"drawn", "closed", "scored"}:
        seconds = BETWEEN_SECONDS
    else:
        seconds = IDLE_SECONDS
    if hidden:
        seconds *= HIDDEN_TIMES
    return int(min(MAX_SECONDS, round(seconds * max(1.0, load))))
