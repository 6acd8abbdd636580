"""One per web process, on its event loop: the connected phones and staff pages, fed from one
subscription (Redis pub/sub, or the embedded run's datagrams).

For each event with phones connected here it keeps what they show alike (``play_shared``),
rendered once per change and sent as the same bytes to every phone, and each player's own part
(``play_personal_many``), read once per change for the whole event and cut per phone; a slip
handed in is merged into its player's part from the message, without the database. Renders are
coalesced: changes that come while one is read are read together next. A phone's queue that
overflows (a phone that stopped reading) closes its stream: it reconnects and catches up.

Frames (``text/event-stream``): ``state`` (everything the phone shows), ``shared`` (the part
every phone shows alike), ``personal`` (the player's own part), ``changed`` (to a staff page:
read your state again), ``end`` (the stream closes: reconnect). Each phone frame carries the
phone's version in its ``id`` (``<ev>.<pv>``, ``store``): the browser sends it back when it
reconnects (``Last-Event-ID``), and only a phone behind gets the state again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from django.utils import timezone, translation

from tournament.changes import SLIP, TOKEN
from web.live.bus import SHARED_ONLY, socket_path
from web.live_store import CHANNEL, RedisStore, event_key, player_key, store

logger = logging.getLogger(__name__)

T = TypeVar("T")

HEARTBEAT_SECONDS = 20.0  # a comment line now and then: proxies keep the stream open
QUEUE_FRAMES = 64  # a phone this far behind is cut off (it reconnects and catches up)
STAFF_EVERY_SECONDS = 0.5  # at most two "changed" a second to a staff page (slips pour in)
POLLED_KEEP_SECONDS = 300.0  # an event followed for its polls this long after the last one
RETRY_MS = 2000  # the browser's first wait before reconnecting (EventSource's retry)


def dumps(value: Any) -> bytes:
    return json.dumps(value, cls=DjangoJSONEncoder, separators=(",", ":")).encode()


def frame(kind: str, data: bytes, ident: str | None = None) -> bytes:
    head = b"event: " + kind.encode() + b"\n"
    if ident is not None:
        head += b"id: " + ident.encode() + b"\n"
    return head + b"data: " + data + b"\n\n"


HEARTBEAT = b": keep-alive\n\n"


@dataclass(eq=False)
class Client:
    """One open stream: a phone (``player_id``) or a staff page (``player_id`` None)."""

    event_ids: tuple[int, ...]
    player_id: int | None = None
    language: str = "en"
    pv: str | None = None  # the player's version last told
    sent: bytes | None = None  # the player's own part last sent (the audience: the state)
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(QUEUE_FRAMES))
    closed: bool = False
    notify_at: float = 0.0
    notify_pending: bool = False
    last_id: str | None = None  # the version of the last frame sent
    public: bool = False  # the audience's page: told only of what changes the event's version

    def put(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """End the stream (its reader sees ``closed`` once the queue is empty)."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(b"")


@dataclass(eq=False)
class EventLive:
    """What the hub keeps of one event for its phones here."""

    event_id: int
    ev: str | None = None  # the latest version told
    shared: dict[str, Any] | None = None
    shared_ev: str | None = None
    shared_bytes: bytes = b""
    personal: dict[int, dict[str, Any]] | None = None
    game_id: int | None = None  # the game ``shared`` and ``personal`` were read for
    dirty: bool = False
    personal_dirty: bool = False
    rendering: asyncio.Task[None] | None = None
    renders: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # For the polls answered from memory (``poll_state``): the player's version each own part
    # is current at (read before the parts were, then moved by each slip merged in), the
    # players whose part moved otherwise (not served until read again), when a poll last came.
    pvs: dict[int, str] = field(default_factory=dict)
    stale: set[int] = field(default_factory=set)
    polled_at: float = 0.0


def slip_of(personal: dict[str, Any], shared: dict[str, Any]) -> dict[str, Any] | None:
    """The player's slip that counts for the round in play, from their slips (as
    ``play_personal_many`` reads it)."""
    round_ = shared.get("round")
    if not round_:
        return None
    for s in personal.get("slips") or []:
        if s["round"] == round_["number"] and s["current"] and s["round_status"] != "annulled":
            keys = ("id", "round", "word", "ref", "score", "received_at")
            return {k: s[k] for k in keys}
    return None


def _slip_order(s: dict[str, Any]) -> tuple[int, str, int]:
    received = s["received_at"]
    text = received.isoformat() if isinstance(received, datetime) else str(received)
    return (s["round"], text, s["id"])


def slip_merged(personal: dict[str, Any], slip: dict[str, Any]) -> None:
    """Add a slip just recorded to the player's slips (newest first), as the database now
    lists them: a slip that counts retires the one that counted for its round."""
    slips = [s for s in personal.get("slips") or [] if s["id"] != slip["id"]]
    if slip["current"]:
        slips = [
            s | {"current": False} if s["round"] == slip["round"] and s["current"] else s
            for s in slips
        ]
    slip = dict(slip)
    with contextlib.suppress(TypeError, ValueError):
        slip["received_at"] = datetime.fromisoformat(str(slip["received_at"]))
    slips.append(slip)
    slips.sort(key=_slip_order, reverse=True)
    personal["slips"] = slips


class Hub:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="live-db")
        self.phones: dict[int, dict[int, set[Client]]] = {}
        self.staff: dict[int, set[Client]] = {}
        self.events: dict[int, EventLive] = {}
        self.lag = 0.0  # how late the loop runs its timers, smoothed (seconds)
        self.subscribed = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.pid = os.getpid()
        # The audience's pages (``Client.public``): each event's state sent to all of them at
        # once, one render at a time per event (changes meanwhile: one more render after it).
        self.public_renders: dict[int, asyncio.Task[None]] = {}
        self.public_dirty: set[int] = set()

    # --- running ---------------------------------------------------------------------------

    def start(self) -> None:
        live = store()
        source = self._redis(live) if isinstance(live, RedisStore) else self._datagrams()
        for job in (source, self._heartbeat(), self._lag_watch()):
            self.tasks.append(self.loop.create_task(job))

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` on the hub's own thread (its own database connection)."""

        def call() -> T:
            close_old_connections()
            return fn(*args)

        return await self.loop.run_in_executor(self.executor, call)

    async def _redis(self, live: RedisStore) -> None:
        import redis.asyncio

        delay = 0.5
        first = True
        while True:
            client = redis.asyncio.Redis.from_url(live.url, decode_responses=True)
            pubsub = client.pubsub()
            try:
                await pubsub.subscribe(CHANNEL)
                self.subscribed.set()
                if not first:  # messages may have been lost meanwhile: read everything again
                    await self.resync()
                first = False
                delay = 0.5
                async for item in pubsub.listen():
                    if item.get("type") == "message":
                        self.deliver(item["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.subscribed.clear()
                logger.warning(
                    "Live: the Redis subscription dropped (%s); again in %.1f s.", exc, delay
                )
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                    await client.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _datagrams(self) -> None:
        hub = self

        class Listener(asyncio.DatagramProtocol):
            def datagram_received(self, data: bytes, addr: Any) -> None:
                hub.deliver(data.decode(errors="replace"), remote=True)

        path = socket_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        receiver.bind(str(path))
        receiver.setblocking(False)
        await self.loop.create_datagram_endpoint(Listener, sock=receiver)
        self.subscribed.set()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            for client in self.clients():
                client.put(HEARTBEAT)
            now = time.monotonic()
            for event_id, live in list(self.events.items()):
                if event_id not in self.phones and now - live.polled_at > POLLED_KEEP_SECONDS:
                    del self.events[event_id]  # polled no more, and no stream here

    async def _lag_watch(self) -> None:
        while True:
            started = time.monotonic()
            await asyncio.sleep(0.5)
            late = max(0.0, time.monotonic() - started - 0.5)
            self.lag = 0.7 * self.lag + 0.3 * late

    def clients(self) -> list[Client]:
        found = [c for players in self.phones.values() for cs in players.values() for c in cs]
        return found + [c for cs in self.staff.values() for c in cs]

    # --- clients ---------------------------------------------------------------------------

    def join(self, client: Client) -> None:
        if client.player_id is None:
            for event_id in client.event_ids:
                self.staff.setdefault(event_id, set()).add(client)
            return
        event_id = client.event_ids[0]
        self.phones.setdefault(event_id, {}).setdefault(client.player_id, set()).add(client)
        self.events.setdefault(event_id, EventLive(event_id))

    def leave(self, client: Client) -> None:
        client.closed = True
        if client.player_id is None:
            for event_id in client.event_ids:
                staff = self.staff.get(event_id)
                if staff is not None:
                    staff.discard(client)
                    if not staff:
                        del self.staff[event_id]
            return
        event_id = client.event_ids[0]
        players = self.phones.get(event_id, {})
        mine = players.get(client.player_id)
        if mine is not None:
            mine.discard(client)
            if not mine:
                del players[client.player_id]
        if not players:
            self.phones.pop(event_id, None)
            live = self.events.get(event_id)
            if live is None or time.monotonic() - live.polled_at > POLLED_KEEP_SECONDS:
                self.events.pop(event_id, None)  # nothing kept for an event nobody follows here

    async def catch_up(self, client: Client, last: str | None) -> None:
        """Tell a phone that just connected what it needs: nothing when ``last`` (its version)
        is current, else its whole state."""
        event_id = client.event_ids[0]
        assert client.player_id is not None
        versions = await store().aversions([event_key(event_id), player_key(client.player_id)])
        live = self.events.setdefault(event_id, EventLive(event_id))
        if versions is not None:
            ev, client.pv = versions
            if live.ev != ev:
                live.ev = ev
                live.dirty = True
        if live.shared is None or live.personal is None or live.dirty:
            others = live.shared is not None  # phones here that hold an older state
            live.dirty = True
            live.personal_dirty = live.personal_dirty or live.personal is None
            await self.render(live, push=others)
        current = f"{live.shared_ev}.{client.pv}"
        if client.last_id == current:
            return  # the render just sent it
        if versions is not None and last == current and live.shared_ev == versions[0]:
            client.last_id = current
            client.put(frame("current", b"{}", current))
            return
        self.send_state(client, live)

    # --- messages --------------------------------------------------------------------------

    def deliver_threadsafe(self, text: str) -> None:
        self.loop.call_soon_threadsafe(self.deliver, text)

    def deliver(self, text: str, *, remote: bool = False) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            return
        if remote and message.get("o") == self.pid:
            return  # this process's own change, already delivered
        if remote:  # the embedded run: another process's change; this process keeps versions
            keys, tokens = [], []
            if message.get("ev"):
                keys.append(event_key(message["e"]))
                tokens.append(message["ev"])
            if message.get("pv") and message.get("p"):
                keys.append(player_key(message["p"]))
                tokens.append(message["pv"])
            live_store = store()
            if not isinstance(live_store, RedisStore):
                live_store.bump(keys, tokens)
        self.handle(message)

    def handle(self, message: dict[str, Any]) -> None:
        event_id = message.get("e")
        if not isinstance(event_id, int):
            return
        what = str(message.get("w", ""))
        audience = False
        for client in list(self.staff.get(event_id, ())):
            if client.public:
                audience = True  # told by the state itself, below; never at a slip
                continue
            self.notify(client)
        if audience and message.get("ev"):
            self.public_push(event_id)
        live = self.events.get(event_id)
        if live is None:
            return
        player_id = message.get("p")
        if message.get("ev"):
            live.ev = message["ev"]
            live.dirty = True
            if what not in SHARED_ONLY:
                live.personal_dirty = True
            if live.rendering is None or live.rendering.done():
                live.rendering = self.loop.create_task(self.render(live))
        if message.get("pv") and isinstance(player_id, int):
            phones = self.phones.get(event_id, {}).get(player_id, set())
            if what == TOKEN:
                for client in list(phones):
                    client.put(frame("end", b"{}"))
                    client.close()
                return
            own = None if live.personal is None else live.personal.get(player_id)
            slip = message.get("d")
            other_game = isinstance(slip, dict) and slip.get("game", live.game_id) != live.game_id
            if what == SLIP and own is not None and isinstance(slip, dict) and not other_game:
                slip_merged(own, {k: v for k, v in slip.items() if k != "game"})
                if player_id in live.pvs and player_id not in live.stale:
                    live.pvs[player_id] = str(message["pv"])  # the part is current at it
            else:  # moved otherwise: read again before a poll is answered from memory
                if what == SLIP and other_game:
                    own = None  # another game's slip than the list holds: read it again, below
                live.pvs.pop(player_id, None)
                live.stale.add(player_id)
                if live.polled_at:
                    live.personal_dirty = True
                    if live.rendering is None or live.rendering.done():
                        live.rendering = self.loop.create_task(self.render(live))
            for client in phones:
                client.pv = message["pv"]
                if own is not None and live.shared is not None:
                    self.send_personal(client, live, own)
            if own is None and phones:
                live.personal_dirty = live.dirty = True
                if live.rendering is None or live.rendering.done():
                    live.rendering = self.loop.create_task(self.render(live))

    def notify(self, client: Client) -> None:
        """Tell a staff page to read its state again, at most every STAFF_EVERY_SECONDS."""
        if client.notify_pending:
            return
        wait = client.notify_at + STAFF_EVERY_SECONDS - time.monotonic()
        if wait <= 0:
            client.notify_at = time.monotonic()
            client.put(frame("changed", b"{}"))
            return
        client.notify_pending = True

        def later() -> None:
            client.notify_pending = False
            client.notify_at = time.monotonic()
            client.put(frame("changed", b"{}"))

        self.loop.call_later(wait, later)

    # --- the audience's pages -------------------------------------------------------------

    def public_push(self, event_id: int) -> None:
        """Send the event's audience its new state (``web.public``), coalesced."""
        running = self.public_renders.get(event_id)
        if running is not None and not running.done():
            self.public_dirty.add(event_id)
            return
        self.public_renders[event_id] = self.loop.create_task(self._public_render(event_id))

    async def public_state(self, event_id: int) -> bytes | None:
        """The audience's state of the event's current version, with the server's time: from
        this process's memory, else made once (``web.public_results``); None if unreadable."""
        from web.public_results import public_body, public_state_cached, public_state_make

        versions = await store().aversions([event_key(event_id)])
        if versions is None:
            return None
        body = public_state_cached(event_id, versions[0])
        if body is None:
            try:
                body = await self.db(public_state_make, event_id, versions[0])
            except Exception:  # the event is gone, the database is down: the poll takes over
                logger.exception("The audience's state of event %s was not made.", event_id)
                return None
        return None if body is None else public_body(body)

    async def _public_render(self, event_id: int) -> None:
        while True:
            self.public_dirty.discard(event_id)
            body = await self.public_state(event_id)
            if body is None and not await self.db(_public_open, event_id):
                for client in list(self.staff.get(event_id, ())):
                    if client.public:  # the director turned the page off: its streams end
                        client.put(frame("end", b"{}"))
                        client.close()
                return
            if body is not None:
                data = frame("state", body)
                for client in list(self.staff.get(event_id, ())):
                    if client.public:
                        client.sent = data
                        client.put(data)
            if event_id not in self.public_dirty:
                return

    async def resync(self) -> None:
        """After a gap in the messages: every event and every phone's version read again."""
        for event_id, live in list(self.events.items()):
            players = list(self.phones.get(event_id, {}))
            keys = [event_key(event_id)] + [player_key(p) for p in players]
            values = await store().aversions(keys)
            if values is not None:
                live.ev = values[0]
                for player_id, pv in zip(players, values[1:], strict=True):
                    for client in self.phones.get(event_id, {}).get(player_id, ()):
                        client.pv = pv
            live.dirty = live.personal_dirty = True
            await self.render(live)

    # --- rendering -------------------------------------------------------------------------

    async def render(self, live: EventLive, *, push: bool = True) -> None:
        """Read the event again while it is dirty (changes meanwhile are read together), then
        send each phone here what changed for it (unless ``push`` is False: a first reading,
        for the phone that just connected)."""
        async with live.lock:
            await self._render(live, push=push)

    async def _render(self, live: EventLive, *, push: bool) -> None:
        while live.dirty or live.personal_dirty:
            ev = live.ev
            personal = live.personal_dirty or live.personal is None
            live.dirty = live.personal_dirty = False
            try:
                game_id, shared = await self.db(_read_shared, live.event_id)
                if game_id != live.game_id:  # the phones follow another game: their own parts
                    personal = True  # (slips, result) are that game's, read again
                    live.game_id = game_id
                if ev is None:  # never told: the store's version, read before the event was
                    values = await store().aversions([event_key(live.event_id)])
                    ev = live.ev = None if values is None else values[0]
                live.renders += 1
                live.shared = shared
                live.shared_ev = ev or "?"
                live.shared_bytes = dumps(shared)
                if push:  # what every phone shows alike goes first, the same bytes to all
                    self.push(live, final=not personal)
                if personal:  # then each player's own part, read once for them all
                    stale = set(live.stale)
                    known = list(live.personal or ())
                    # the players' versions read before their parts: each part is at least
                    # as new as its version (a poll is answered from memory only then)
                    pvs = await store().aversions([player_key(p) for p in known]) if known else []
                    live.personal = await self.db(_read_personal, live.event_id)
                    live.stale -= stale
                    live.pvs = {
                        p: v
                        for p, v in zip(known, pvs or [], strict=False)
                        if p not in live.stale and p in live.personal
                    }
                    if not known and live.personal and live.polled_at:
                        live.personal_dirty = True  # once more, with the versions read first
                    if push:
                        self.push_personal(live)
            except Exception:
                logger.exception("Live: event %s could not be read.", live.event_id)
                await asyncio.sleep(1.0)
                live.dirty = True
                live.personal_dirty = live.personal_dirty or personal

    def push(self, live: EventLive, *, final: bool) -> None:
        """The shared part to every phone of the event here. Not ``final`` (their own part
        follows), the frame carries no id: a phone cut off before its own part comes back with
        its older version, and is sent everything."""
        now = _now()
        for clients in self.phones.get(live.event_id, {}).values():
            for client in clients:
                version = f"{live.shared_ev}.{client.pv}"
                head = b'{"version":' + dumps(version) + b',"server_time":' + now + b","
                if final:
                    client.last_id = version
                data = head + live.shared_bytes[1:]
                client.put(frame("shared", data, version if final else None))

    def push_personal(self, live: EventLive) -> None:
        """Each phone's own part, to those whose part changed (all get the version)."""
        assert live.personal is not None
        for player_id, clients in self.phones.get(live.event_id, {}).items():
            own = live.personal.get(player_id)
            for client in clients:
                if own is None:
                    self.send_state(client, live)
                else:
                    self.send_personal(client, live, own)

    def _own(self, client: Client, live: EventLive) -> dict[str, Any]:
        assert client.player_id is not None and live.shared is not None
        own = (live.personal or {}).get(client.player_id)
        if own is None:
            return {"player": None, "slip": None, "result": None, "standings": None, "slips": []}
        return own | {"slip": slip_of(own, live.shared)}

    def send_state(self, client: Client, live: EventLive) -> None:
        if live.shared is None:
            return
        version = f"{live.shared_ev}.{client.pv}"
        with translation.override(client.language):
            own = dumps(self._own(client, live))
        client.sent = own
        client.last_id = version
        head = b'{"version":' + dumps(version) + b',"server_time":' + _now() + b","
        body = head + live.shared_bytes[1:-1] + b"," + own[1:]
        client.put(frame("state", body, version))

    def send_personal(self, client: Client, live: EventLive, own: dict[str, Any]) -> None:
        assert live.shared is not None
        version = f"{live.shared_ev}.{client.pv}"
        with translation.override(client.language):
            data = dumps(own | {"slip": slip_of(own, live.shared)})
        client.sent = data
        client.last_id = version
        client.put(frame("personal", data, version))

    # --- polls answered from memory ----------------------------------------------------------

    def polled(self, event_id: int) -> EventLive:
        """A changed poll came for the event: the hub follows it (its parts read once per
        change, as for the streams) while polls keep coming, ``POLLED_KEEP_SECONDS`` after the
        last (an unchanged poll keeps it followed: ``poll_seen``)."""
        live = self.events.setdefault(event_id, EventLive(event_id))
        first = not live.polled_at
        live.polled_at = time.monotonic()
        if first or live.personal is None:
            live.dirty = live.personal_dirty = True
            if live.rendering is None or live.rendering.done():
                live.rendering = self.loop.create_task(self.render(live))
        return live

    def poll_seen(self, event_id: int) -> EventLive | None:
        """An unchanged poll: what the hub holds of the event (no reading started for it)."""
        live = self.events.get(event_id)
        if live is not None and live.polled_at:
            live.polled_at = time.monotonic()
        return live

    def poll_state(
        self, event_id: int, player_id: int, versions: list[str], language: str
    ) -> tuple[bytes, dict[str, Any]] | None:
        """The player's whole state (as the stream's ``state`` frame) and its shared part, from
        memory, when this process holds it at exactly ``versions`` (the event's and the
        player's, read just before) and no reading is under way; else None (Django's view)."""
        live = self.polled(event_id)
        if (
            live.shared is None
            or live.personal is None
            or live.dirty
            or live.personal_dirty
            or live.lock.locked()
            or live.shared_ev != versions[0]
            or live.pvs.get(player_id) != versions[1]
            or player_id in live.stale
        ):
            return None
        own = live.personal.get(player_id)
        if own is None:
            return None
        with translation.override(language):
            data = dumps(own | {"slip": slip_of(own, live.shared)})
        version = f"{versions[0]}.{versions[1]}"
        head = b'{"version":' + dumps(version) + b',"server_time":' + _now() + b","
        return head + live.shared_bytes[1:-1] + b"," + data[1:], live.shared

    # --- what a poll is told -----------------------------------------------------------------

    def loaded(self) -> float:
        """1 when the loop keeps time, up to 4 when it runs late (a busy process)."""
        return min(4.0, 1.0 + self.lag / 0.1)


def _now() -> bytes:
    return dumps(timezone.now())


def _read_shared(event_id: int) -> tuple[int | None, dict[str, Any]]:
    """The game the event's phones follow (its id) and what every phone of the event shows
    alike (the hub's thread)."""
    from arbiter.selectors.play import play_shared
    from tournament.models import Event
    from tournament.selectors import game_current

    event = Event.objects.get(pk=event_id)
    game = game_current(event_id=event_id)
    with translation.override(event.language):
        shared = play_shared(event=event, game=game, now=timezone.now())
    return (None if game is None else game.pk), shared


def _read_personal(event_id: int) -> dict[int, dict[str, Any]]:
    """Every player's own part (the hub's thread)."""
    from arbiter.selectors.play import play_personal_many
    from tournament.models import Event
    from tournament.selectors import game_current

    event = Event.objects.get(pk=event_id)
    return play_personal_many(event=event, game=game_current(event_id=event_id))


_hubs: dict[int, Hub] = {}
_hubs_lock = threading.Lock()


def _public_open(event_id: int) -> bool:
    from tournament.models import Event

    return Event.objects.filter(pk=event_id, public_results=True).exists()


def hub_running() -> Hub | None:
    """This process's hub, if it started (for a change made in this process's threads)."""
    with _hubs_lock:
        for hub in _hubs.values():
            return hub
    return None


async def hub() -> Hub:
    """This process's hub, started on the running loop on first use."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        found = _hubs.get(id(loop))
        if found is None:
            found = _hubs[id(loop)] = Hub(loop)
            found.start()
    return found


def push_enabled() -> bool:
    return bool(getattr(settings, "LIVE_PUSH", True))
