"""The state of the audience's results (rules.md), which the public page (``web.public``), its
stream (``web.live``) and the room's screen (``web.screen``, the page's address and QR code)
share: the page ``/results/<slug>/`` anyone may open (no login, no token) when the event's
director turned it on (``Event.public_results``), its state ``/results/<slug>/state.json``, and
the stream ``/results/<slug>/live/`` (``web.live.asgi``) that says when to read it again.

Cheap under load (docs/reliability.md, "The audience's page"): the state is computed once per
version of the event (the live version ``ev``, replaced after every commit that changes what
the room's phones and screens show alike) and kept in this process's memory and in the shared
cache; a request reads the version (one Redis GET), and answers from memory, or 304 when the
browser already holds it. Once this process has made a version's state, ``web.live.asgi``
answers ``state.json`` on the event loop, before Django, from the same memory. The event's
settings are read again at most every ``EVENT_SECONDS``: turning the page off takes effect
within that time.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import segno
from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from arbiter.selectors.public import public_results
from engine.tiles import BLANK, TileSet
from tournament.models import Event
from web.board import premium_classes
from web.live_store import event_key, store

EVENT_SECONDS = 5.0  # how long a process trusts what it read of an event's settings
STATE_SECONDS = 3600  # the shared cache's copy of one version's state
UNVERSIONED_SECONDS = 2.0  # without a version (Redis down): the state is kept this long
MEMORY_STATES = 64


@dataclass(frozen=True)
class PublicEvent:
    pk: int
    slug: str
    name: str
    language: str


_lock = threading.Lock()
_events: dict[str, tuple[float, PublicEvent | None]] = {}
_states: OrderedDict[tuple[int, str], bytes] = OrderedDict()


def public_event_or_404(slug: str) -> PublicEvent:
    """The event whose page this is, if its director made it public; else 404."""
    now = time.monotonic()
    with _lock:
        found = _events.get(slug)
    if found is None or found[0] < now:
        row = (
            Event.objects.filter(slug=slug, public_results=True)
            .values_list("pk", "slug", "name", "language")
            .first()
        )
        event = None if row is None else PublicEvent(*row)
        with _lock:
            _events[slug] = (now + EVENT_SECONDS, event)
        found = (0.0, event)
    if found[1] is None:
        raise Http404(gettext("No such public results page."))
    return found[1]


def public_event_cached(slug: str) -> PublicEvent | None:
    """The public event this process read lately (no query): what the event loop answers from
    (``web.live.asgi``); None when it must ask Django."""
    with _lock:
        found = _events.get(slug)
    if found is None or found[0] < time.monotonic():
        return None
    return found[1]


def public_state_cached(event_id: int, version: str) -> bytes | None:
    """A version's state this process has already made, or None (no query)."""
    with _lock:
        return _states.get((event_id, version))


def public_body(body: bytes) -> bytes:
    """A state with the server's time put in first (the clock counts from the deadline)."""
    now = json.dumps(timezone.now().isoformat()).encode()
    return b'{"server_time":' + now + b"," + body[1:]


def public_cache_clear() -> None:
    """Forget what this process keeps (the tests change an event's settings at once)."""
    with _lock:
        _events.clear()
        _states.clear()


def public_version(event_id: int) -> str:
    values = store().versions([event_key(event_id)])
    if values is None:  # Redis down: a version per short while, so the state stays fresh
        return f"t{int(time.time() / UNVERSIONED_SECONDS)}"
    return values[0]


def public_state_make(event_id: int, version: str) -> bytes | None:
    """A version's state, made (or read from the shared cache) and kept in this process; None
    when the event's page is not public (any more)."""
    if not Event.objects.filter(pk=event_id, public_results=True).exists():
        return None
    return public_state_bytes(event_id, version)


def public_state_bytes(event_id: int, version: str) -> bytes:
    key = (event_id, version)
    with _lock:
        found = _states.get(key)
        if found is not None:
            _states.move_to_end(key)
            return found
    shared_key = f"public:{event_id}:{version}"
    body = cache.get(shared_key)
    if not isinstance(body, bytes):
        event = Event.objects.get(pk=event_id)
        state = public_results(event=event, now=timezone.now())
        if state.get("game") is not None:
            state["premiums"] = premium_classes(state.pop("board_layout"))
            state["values"] = {**TileSet.load(state.pop("tile_set")).values, BLANK: 0}
        state["version"] = version
        body = json.dumps(state, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
        cache.set(shared_key, body, STATE_SECONDS)
    with _lock:
        _states[key] = body
        while len(_states) > MEMORY_STATES:
            _states.popitem(last=False)
    return body


def public_url(request: HttpRequest, slug: str) -> str:
    """The page's address as the room can open it (``PUBLIC_URL`` when set)."""
    path = reverse("public:results", args=[slug])
    if settings.PUBLIC_URL:
        return f"{settings.PUBLIC_URL}{path}"
    return request.build_absolute_uri(path)


def public_qr_svg(request: HttpRequest, slug: str) -> str:
    return segno.make(public_url(request, slug), error="m").svg_inline(
        scale=4, omitsize=True, title=gettext("QR code of the public results page")
    )
