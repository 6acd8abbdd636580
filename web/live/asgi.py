"""The live routes, answered on the event loop before Django's middleware (``config/asgi.py``
puts ``live_application`` in front of Django):

- ``GET /api/v1/play/events``: a phone's stream (Server-Sent Events), authenticated by its
  cookie or ``Authorization: Bearer``, as the player API;
- ``GET /api/v1/play/state`` with ``If-None-Match``: a poll whose version has not moved is
  answered 304 from the versions (``store``) and the token remembered there, with no thread,
  no database and one authentication; one whose version moved is answered 200 from the hub's
  memory (``Hub.poll_state``: the parts every phone of the event and each player show, read
  once per change for the whole room, a phone's own slip merged in from its message) when the
  process holds them at exactly the current versions (a first poll, with no version, too);
  anything else (an error, a process that cannot read them) goes on to Django's view, which
  answers it in full;
- ``GET /events/<slug>/live/``: a staff page's stream (the session's user, a director or an
  arbiter of the event): ``changed`` when it should read its state again; ``?rooms=1`` follows
  every room of the event's simultaneous too (the rooms page);
- ``GET /results/<slug>/live/``: the audience's page's stream (anyone, when the event's page is
  public): ``state``, the page's whole state, when it connects and whenever what the room's
  phones and screen show alike has changed (never at a slip), made once per process and sent as
  the same bytes to every viewer;
- ``GET /results/<slug>/state.json``: the audience's page's state, answered here from this
  process's memory once Django's view has made the event's current version (``web.public``),
  or 304 when the browser holds it; anything else goes on to Django.

A request these cannot answer (a host the site does not serve, no credentials) goes to Django,
which answers it as it answers any. Each stream and each read of the audience's state passes
the process's limits first (``web.limits``): past one, 429 with ``Retry-After`` and a code,
before any lookup.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port, validate_host
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

from tournament.changes import token_digest
from web.authentication import PLAY_COOKIE, play_cookie_token
from web.limits import Refusal, Ticket, gate
from web.live.hub import RETRY_MS, Client, Hub, dumps, frame, hub
from web.live_store import event_key, player_key, store
from web.outage import DATABASE_DOWN, RETRY_AFTER_SECONDS, database_unavailable_body
from web.polling import POLL_HEADER, poll_seconds

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PHONE_STREAM = "/api/v1/play/events"
STATE = "/api/v1/play/state"
STAFF_STREAM = re.compile(r"^/events/(?P<slug>[-\w]+)/live/$")
PUBLIC_STREAM = re.compile(r"^/results/(?P<slug>[-\w]+)/live/$")
POLL_WAIT_SECONDS = 5.0  # a changed poll waits this long for the room's parts being read
PUBLIC_STATE = re.compile(r"^/results/(?P<slug>[-\w]+)/state\.json$")


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in scope.get("headers", [])}


def _cookies(headers: dict[bytes, bytes]) -> dict[str, str]:
    cookie = SimpleCookie()
    with contextlib.suppress(Exception):
        cookie.load(headers.get(b"cookie", b"").decode("latin-1"))
    return {key: morsel.value for key, morsel in cookie.items()}


def _host_ok(headers: dict[bytes, bytes]) -> bool:
    host = headers.get(b"host", b"").decode("latin-1")
    domain, _ = split_domain_port(host)
    allowed = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    return bool(domain) and validate_host(domain, allowed)


def _player_token(headers: dict[bytes, bytes], cookies: dict[str, str]) -> str | None:
    authorization = headers.get(b"authorization", b"").decode("latin-1")
    keyword, _, token = authorization.partition(" ")
    if authorization:
        token = token.strip()
        return token if keyword.lower() == "bearer" and token and " " not in token else None
    if PLAY_COOKIE not in cookies:
        return None
    request = HttpRequest()
    request.COOKIES = cookies
    return play_cookie_token(request)  # the player API's own reading of its signed cookie


def _player_lookup(token: str) -> str | None:
    """``player:event:language`` for an active token; None otherwise (the hub's thread)."""
    from tournament.selectors import player_by_token

    player = player_by_token(token=token)
    if player is None or not player.token_is_active:
        return None
    return f"{player.pk}:{player.event_id}:{player.event.language}"


async def _player(live_hub: Hub, token: str) -> tuple[int, int, str] | None:
    """(player, event, the event's language) for an active token, from the store when it was
    seen lately, else from the database (then remembered)."""
    digest = token_digest(token)
    found = await store().atoken_get(digest)
    if found is None:
        found = await live_hub.db(_player_lookup, token)
        if found is None:
            return None
        await store().atoken_set(digest, found)
    player_id, event_id, language = found.split(":", 2)
    return int(player_id), int(event_id), language


def _language(cookies: dict[str, str], default: str) -> str:
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in dict(settings.LANGUAGES) else default


async def _answer(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-cache"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _refuse(scope: Scope, send: Send, refusal: Refusal) -> None:
    """429 with ``Retry-After`` and its code, in the reader's language (``web.limits``)."""
    headers = _headers(scope)
    language = _language(_cookies(headers), "")
    if not language:
        accepted = headers.get(b"accept-language", b"").decode("latin-1")
        language = next(
            (
                translation.get_supported_language_variant(code)
                for code, _q in parse_accept_lang_header(accepted)
                if code != "*" and translation.check_for_language(code)
            ),
            settings.LANGUAGE_CODE,
        )
    with translation.override(language):
        if refusal.code == "too_many_requests":
            detail = gettext("Too many requests from this address: try again in %(seconds)s s.")
        elif refusal.limit == "address":
            detail = gettext(
                "Too many live connections from this address: the page asks every few "
                "seconds instead, and tries again in %(seconds)s s."
            )
        else:
            detail = gettext(
                "The server holds all the live connections it may: the page asks every few "
                "seconds instead, and tries again in %(seconds)s s."
            )
    body = dumps({"detail": detail % {"seconds": refusal.retry_after}, "code": refusal.code})
    await _answer(send, 429, body, [(b"retry-after", str(refusal.retry_after).encode())])


async def _stream(
    scope: Scope, receive: Receive, send: Send, live_hub: Hub, client: Client
) -> None:
    """Send the client's frames until it goes, or its stream is closed."""
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no"),  # a buffering proxy passes each frame at once
                (b"x-server-time", timezone.now().isoformat().encode()),
            ],
        }
    )

    async def watch() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                client.close()
                return

    watcher = asyncio.create_task(watch())
    try:
        await send(
            {
                "type": "http.response.body",
                "body": f"retry: {RETRY_MS}\n\n".encode(),
                "more_body": True,
            }
        )
        while True:
            data = await client.queue.get()
            chunks = [data]
            while not client.queue.empty():  # whatever else is waiting goes in the same write
                chunks.append(client.queue.get_nowait())
            if client.closed and b"" in chunks:
                body = b"".join(chunks)
                if body:
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                break
            await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": True})
    except OSError:
        pass
    finally:
        watcher.cancel()
        live_hub.leave(client)
        with contextlib.suppress(Exception):
            await send({"type": "http.response.body", "body": b"", "more_body": False})


def _admitted(
    client: Client, *, token: str | None = None, address: str | None = None
) -> Ticket | Refusal:
    """The client counted in, or the refusal of a limit reached while it was looked up (the
    lookups wait for the database: the counts may have moved meanwhile)."""
    limits = gate()
    refusal = limits.stream_refusal(public_address=address)
    if refusal is not None:
        return refusal
    return limits.admit(closer=client, token=token, public_address=address)


async def _gated_stream(
    scope: Scope, receive: Receive, send: Send, live_hub: Hub, client: Client, ticket: Ticket
) -> None:
    try:
        await _stream(scope, receive, send, live_hub, client)
    finally:
        gate().release(ticket)


def _unauthorized(language: str, code: str) -> bytes:
    with translation.override(language):
        if code == "revoked":
            detail = gettext("This access has been revoked: ask the director for a new QR code.")
        else:
            detail = gettext("Unknown token: scan your QR code again.")
    return dumps({"detail": detail, "code": code})


async def phone_stream(scope: Scope, receive: Receive, send: Send, django: ASGIApp) -> None:
    headers = _headers(scope)
    cookies = _cookies(headers)
    token = _player_token(headers, cookies)
    if token is None:
        await django(scope, receive, send)  # no credentials: the API's own 401
        return
    refusal = gate().stream_refusal()
    if refusal is not None:
        await _refuse(scope, send, refusal)
        return
    live_hub = await hub()
    found = await _player(live_hub, token)
    if found is None:
        language = _language(cookies, settings.LANGUAGE_CODE)
        await _answer(send, 401, _unauthorized(language, "unknown_token"))
        return
    player_id, event_id, language = found
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    last = headers.get(b"last-event-id", b"").decode("latin-1") or (query.get("v") or [""])[0]
    client = Client((event_id,), player_id, _language(cookies, language))
    ticket = _admitted(client, token=f"phone:{token_digest(token)}")
    if isinstance(ticket, Refusal):
        await _refuse(scope, send, ticket)
        return
    live_hub.join(client)
    try:
        await live_hub.catch_up(client, last or None)
    except Exception:
        live_hub.leave(client)
        gate().release(ticket)
        raise
    await _gated_stream(scope, receive, send, live_hub, client, ticket)


async def poll(scope: Scope, receive: Receive, send: Send, django: ASGIApp) -> None:
    """A poll: 304 when the version sent is current, else Django's view."""
    headers = _headers(scope)
    cookies = _cookies(headers)
    token = _player_token(headers, cookies)
    sent = headers.get(b"if-none-match", b"").decode("latin-1")
    if token is None:
        await django(scope, receive, send)
        return
    live_hub = await hub()
    found = await _player(live_hub, token)
    if found is None:
        await django(scope, receive, send)
        return
    player_id, event_id, language = found
    versions = await store().aversions([event_key(event_id), player_key(player_id)])
    if versions is None:
        await django(scope, receive, send)
        return
    etag = f'"{".".join(versions)}"'
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    hidden = query.get("hidden") == ["1"]
    if sent != etag:  # changed: the whole state, from this process's memory when it holds it
        held = live_hub.poll_state(event_id, player_id, versions, _language(cookies, language))
        rendering = live_hub.events[event_id].rendering
        if held is None and rendering is not None and not rendering.done():
            # The room's parts are being read (a change, a first poll): wait for that one
            # reading rather than have a thousand phones each read theirs through Django.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(rendering), timeout=POLL_WAIT_SECONDS)
            again = await store().aversions([event_key(event_id), player_key(player_id)])
            if again is not None:
                versions, etag = again, f'"{".".join(again)}"'
                if sent != etag:
                    held = live_hub.poll_state(
                        event_id, player_id, versions, _language(cookies, language)
                    )
        if held is None:
            await django(scope, receive, send)
            return
        body, shared = held
        round_ = shared.get("round")
        seconds = poll_seconds(
            status=round_["status"] if round_ else "", hidden=hidden, load=live_hub.loaded()
        )
        await _answer(
            send,
            200,
            body,
            [
                (b"etag", etag.encode()),
                (b"x-server-time", timezone.now().isoformat().encode()),
                (POLL_HEADER.lower().encode(), str(seconds).encode()),
            ],
        )
        return
    live = live_hub.poll_seen(event_id)
    status = None
    if live is not None and live.shared is not None and live.shared.get("round"):
        status = live.shared["round"]["status"]
    seconds = poll_seconds(status=status, hidden=hidden, load=live_hub.loaded())
    await send(
        {
            "type": "http.response.start",
            "status": 304,
            "headers": [
                (b"etag", sent.encode()),
                (b"x-server-time", timezone.now().isoformat().encode()),
                (b"cache-control", b"no-cache"),
                (POLL_HEADER.lower().encode(), str(seconds).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})


def _staff_events(session_key: str, slug: str, rooms: bool) -> tuple[int, ...] | None:
    """The events a staff page follows, if the session's user is staff of ``slug``."""
    from importlib import import_module

    from django.contrib.auth import get_user
    from django.db.models import Q
    from django.http import HttpRequest

    from tournament.models import Event
    from tournament.selectors import host_of
    from web.permissions import STAFF, event_role

    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(request)
    event = Event.objects.select_related("host").filter(slug=slug).first()
    if event is None or event_role(user, event) not in STAFF:
        return None
    if not rooms:
        return (event.pk,)
    host = host_of(event)
    return tuple(Event.objects.filter(Q(pk=host.pk) | Q(host=host)).values_list("pk", flat=True))


async def staff_stream(
    scope: Scope, receive: Receive, send: Send, django: ASGIApp, slug: str
) -> None:
    headers = _headers(scope)
    cookies = _cookies(headers)
    session_key = cookies.get(settings.SESSION_COOKIE_NAME)
    if not session_key:
        await django(scope, receive, send)  # not signed in: Django's answer (the login page)
        return
    refusal = gate().stream_refusal()
    if refusal is not None:
        await _refuse(scope, send, refusal)
        return
    live_hub = await hub()
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    events = await live_hub.db(_staff_events, session_key, slug, query.get("rooms") == ["1"])
    if events is None:
        from web.permissions import NO_SUCH_EVENT

        await _answer(
            send,
            404,
            dumps({"detail": str(NO_SUCH_EVENT), "code": "not_found"}),
        )
        return
    client = Client(events)
    ticket = _admitted(client, token=f"staff:{token_digest(session_key)}")
    if isinstance(ticket, Refusal):
        await _refuse(scope, send, ticket)
        return
    live_hub.join(client)
    client.put(frame("changed", b"{}"))  # read the state now: it may have moved before this
    await _gated_stream(scope, receive, send, live_hub, client, ticket)


def _public_event(slug: str) -> int | None:
    from tournament.models import Event

    return Event.objects.filter(slug=slug, public_results=True).values_list("pk", flat=True).first()


async def public_stream(scope: Scope, receive: Receive, send: Send, slug: str) -> None:
    address = _address(scope)
    refusal = gate().stream_refusal(public_address=address)
    if refusal is not None:
        await _refuse(scope, send, refusal)
        return
    live_hub = await hub()
    event_id = await live_hub.db(_public_event, slug)
    if event_id is None:
        await _answer(
            send, 404, dumps({"detail": "No such public results page.", "code": "not_found"})
        )
        return
    client = Client((event_id,), public=True)
    ticket = _admitted(client, address=address)
    if isinstance(ticket, Refusal):
        await _refuse(scope, send, ticket)
        return
    live_hub.join(client)

    async def first_state() -> None:
        """The page's first state, without a request; tried again a little later when it could
        not be read (a thousand viewers arriving at once can find Redis's pool busy)."""
        for wait in (0.0, 0.5, 1.0, 2.0):
            await asyncio.sleep(wait * (0.5 + random.random()))
            if client.closed:
                return
            state = await live_hub.public_state(event_id)
            if client.sent is not None:
                return  # a change's state came meanwhile: it is newer
            if state is not None:
                client.sent = frame("state", state)
                client.put(client.sent)
                return

    task = asyncio.create_task(first_state())
    try:
        await _gated_stream(scope, receive, send, live_hub, client, ticket)
    finally:
        task.cancel()


# The audience's states being made by Django in this process: one request makes a version's
# state, the others of the same instant wait for it (a publication brings thousands at once).
_making: dict[tuple[int, str], asyncio.Event] = {}


async def public_state(
    scope: Scope, receive: Receive, send: Send, django: ASGIApp, slug: str
) -> None:
    from web.public_results import public_body, public_event_cached, public_state_cached

    refusal = gate().poll_refusal(_address(scope))
    if refusal is not None:
        await _refuse(scope, send, refusal)
        return
    event = public_event_cached(slug)
    if event is None:
        await django(scope, receive, send)
        return
    versions = await store().aversions([event_key(event.pk)])
    if versions is None:
        await django(scope, receive, send)
        return
    etag = f'"{versions[0]}"'.encode()
    if _headers(scope).get(b"if-none-match") == etag:
        status, body = 304, b""
    else:
        state = public_state_cached(event.pk, versions[0])
        key = (event.pk, versions[0])
        waiting = _making.get(key)
        if state is None and waiting is not None:  # another request is making it: wait for it
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiting.wait(), timeout=5.0)
            state = public_state_cached(event.pk, versions[0])
        if state is None:
            made = _making.setdefault(key, asyncio.Event())
            try:
                await django(scope, receive, send)
            finally:
                made.set()
                _making.pop(key, None)
            return
        status, body = 200, public_body(state)
    headers = [(b"etag", etag), (b"cache-control", b"no-cache")]
    if status == 200:
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def live_application(django: ASGIApp) -> ASGIApp:
    """``django`` with the live routes in front."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        # The hub listens from the first request on: without Redis the versions are this
        # process's, kept by the hub's listener from then on.
        await hub()
        if scope["type"] == "http" and scope.get("method") == "GET":
            path = scope.get("path", "")
            headers = _headers(scope)
            if _host_ok(headers):
                if path == PHONE_STREAM:
                    return await _database_down_json(phone_stream, scope, receive, send, django)
                if path == STATE:
                    return await _database_down_json(poll, scope, receive, send, django)
                match = STAFF_STREAM.match(path)
                if match:
                    slug = match["slug"]

                    async def staff(s: Scope, r: Receive, w: Send, d: ASGIApp) -> None:
                        await staff_stream(s, r, w, d, slug)

                    return await _database_down_json(staff, scope, receive, send, django)
                match = PUBLIC_STREAM.match(path)
                if match:
                    return await public_stream(scope, receive, send, match["slug"])
                match = PUBLIC_STATE.match(path)
                if match:
                    return await public_state(scope, receive, send, django, match["slug"])
        await django(scope, receive, send)

    return application


async def _database_down_json(
    route: Callable[[Scope, Receive, Send, ASGIApp], Awaitable[None]],
    scope: Scope,
    receive: Receive,
    send: Send,
    django: ASGIApp,
) -> None:
    """A live route whose database lookup fails before it answered: a JSON 503 with its code
    (web/outage.py), not the server's bare 500."""
    started = False

    async def watched(message: Any) -> None:
        nonlocal started
        started = started or message.get("type") == "http.response.start"
        await send(message)

    try:
        await route(scope, receive, watched, django)
    except DATABASE_DOWN:
        if started:
            raise
        language = _language(_cookies(_headers(scope)), settings.LANGUAGE_CODE)
        with translation.override(language):
            body = json.dumps(database_unavailable_body()).encode()
        await _answer(send, 503, body, [(b"retry-after", str(RETRY_AFTER_SECONDS).encode())])
