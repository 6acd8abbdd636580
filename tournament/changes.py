"""What changed, said once the transaction commits, to whoever shows it live.

The services say what they changed (``change_announce``): every audited action
(``tournament.services.audit``), a slip handed in, a round's tops computed, a slip ruled after
the scoring. The faces listen (``change_listen``: ``web.live`` pushes it to phones, screens,
consoles and the rooms page); this layer knows nothing of them. Said after commit, so a
listener that reads the database sees the change; a listener that fails is logged and never
undoes what the service did.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)

TOKEN = "tournament.player.token"  # a player's token stopped: ``data["token_digest"]`` the old one
SLIP = "slip"  # a slip recorded: ``player_id`` and ``data`` (what the player's phone lists)
TOPS = "arbiter.round.tops"  # a round's tops computed (the console says "tops ready")
RULED = "arbiter.ruling.ruled"  # one player's slip ruled again after the scoring


@dataclass(frozen=True)
class Change:
    event_id: int
    what: str  # the audit action ("arbiter.round.published"), or SLIP, TOPS, RULED
    player_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


def token_digest(token: str) -> str:
    """A player token's digest: what a cache key or a log may carry instead of the token."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


Listener = Callable[[Change], None]
_listeners: list[Listener] = []


def change_listen(listener: Listener) -> None:
    """Call ``listener`` with every change from now on (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def change_announce(
    *, event_id: int, what: str, player_id: int | None = None, data: dict[str, Any] | None = None
) -> None:
    """Tell the listeners once the current transaction commits (at once outside one)."""
    if not _listeners:
        return
    change = Change(event_id=event_id, what=what, player_id=player_id, data=data or {})

    def tell() -> None:
        for listener in list(_listeners):
            try:
                listener(change)
            except Exception:
                logger.exception("A listener failed on %s of event %s.", what, event_id)

    tell.announces = change  # type: ignore[attr-defined]  # tells it from a task's send
    transaction.on_commit(tell)
