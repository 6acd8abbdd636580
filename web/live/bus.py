"""From a commit to every web process: ``on_change`` listens to ``tournament.changes``.

After a commit, in the process that made it (a web thread, the worker), it replaces the versions
the change moved (``store``) and tells every web process in one message: a Redis PUBLISH on
``live`` (all the nodes' processes subscribe, ``hub``), or without Redis a datagram to the
embedded run's one web process (``VAR_DIR/live.sock``) and this process's own hub. A message
lost (a process not yet subscribed, Redis down) loses no state: the versions say it changed,
and a hub that was cut off reads everything again when it is back.
"""

from __future__ import annotations

import json
import logging
import os
import socket
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

from tournament.changes import RULED, SLIP, TOKEN, TOPS, Change
from web.live_store import RedisStore, event_key, new_version, player_key, store

logger = logging.getLogger(__name__)

# Audited actions that change nothing a phone shows (the staff's pages follow every change).
STAFF_ONLY = frozenset(
    {
        TOPS,
        RULED,
        "tournament.invitation.created",
        "tournament.invitation.revoked",
        "tournament.invitation.accepted",
        "tournament.event.role_granted",
        "tournament.event.role_removed",
        "tournament.export.requested",
        "arbiter.slip.checked",
        "arbiter.slip.check_resolved",
    }
)
# Changes to what every phone shows alike that leave each player's own part as it was (their
# slips, result and rank): the phones get the shared part only.
SHARED_ONLY = frozenset(
    {
        "arbiter.round.drawn",
        "arbiter.rack.rejected",
        "arbiter.round.opened",
        "arbiter.round.paused",
        "arbiter.round.resumed",
        "arbiter.round.extended",
        "arbiter.round.closed",
        "arbiter.round.closed_early",
        "arbiter.round.scored",
        "arbiter.round.top_chosen",
        "tournament.game.created",
    }
)


def socket_path() -> Path:
    """Where the embedded run's web process hears the other processes' changes."""
    return Path(settings.VAR_DIR) / "live.sock"


def message_of(change: Change) -> dict[str, Any]:
    """The message for ``change``, with the new versions it sets."""
    message: dict[str, Any] = {
        "e": change.event_id,
        "w": change.what,
        "ev": None,
        "p": change.player_id,
        "pv": None,
        "d": change.data,
        "o": os.getpid(),
    }
    if change.what in (SLIP, TOKEN) and change.player_id is not None:
        message["pv"] = new_version()
    elif change.what not in STAFF_ONLY:
        message["ev"] = new_version()
    return message


def on_change(change: Change) -> None:
    """Bump the versions ``change`` moved and tell the web processes (after commit)."""
    message = message_of(change)
    keys, tokens = [], []
    if message["ev"] is not None:
        keys.append(event_key(change.event_id))
        tokens.append(message["ev"])
    if message["pv"] is not None and change.player_id is not None:
        keys.append(player_key(change.player_id))
        tokens.append(message["pv"])
    text = json.dumps(message, cls=DjangoJSONEncoder, separators=(",", ":"))
    live = store()
    if change.what == TOKEN:
        live.token_forget(str(change.data.get("token_digest", "")))
    if isinstance(live, RedisStore):
        live.bump(keys, tokens, message=text)
        return
    live.bump(keys, tokens)
    from web.live.hub import hub_running

    running = hub_running()
    if running is not None:
        running.deliver_threadsafe(text)
    _datagram(text)


def _datagram(text: str) -> None:
    """To the embedded run's web process, if this is another process and it listens."""
    path = socket_path()
    if not path.exists():
        return
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            sender.sendto(text.encode(), str(path))
    except OSError as exc:  # nobody listens (the web process is gone): nothing to tell
        logger.debug("Live datagram not sent (%s).", exc)
