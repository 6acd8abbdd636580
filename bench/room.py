"""A room as the server sees it (issue 26): ``--connected`` phones stay connected the whole round,
as the phone page does (the live stream, or ``--mode poll`` polling as the server says), while
``--slips`` phones hand in a slip each in the round's last ``--window`` seconds; then the round is
published and every connected phone must see it.

    .venv/bin/python bench/room.py --connected 3000 --slips 1000 --json
    .venv/bin/python bench/room.py --connected 3000 --slips 1000 --nodes 2 --kill-node --json
    .venv/bin/python bench/room.py --connected 1000 --slips 300 --audience 18000 --json

``--audience N`` is issue 34's attack: one anonymous client (this process, one address) opens
``N`` streams of the event's public page (``/results/<slug>/live/``) before the round opens and
holds every one the server accepts; each refused one (429) is opened again when its
``Retry-After`` says (``--audience-retry S``: after S seconds whatever it says, a connection
flood), until the round is published. The phones' slips must still be
acknowledged on time; reported: ``audience_held`` (streams held at the opening),
``audience_refused`` (429s), ``audience_5xx``, ``audience_errors`` (connections that failed),
``director_api_p99_ms`` (the director's API, read every 0.5 s meanwhile), ``web_log_bytes`` and
``web_log_lines``, ``too_many_open_files_lines``, ``web_rss_mb_after`` (each web process).

The production set-up: gunicorn with config/gunicorn.py on a fresh PostgreSQL database
(127.0.0.1:5432, dropped at the end) and the bench's own redis-server on a free port; with
``--nodes 2``, two such servers behind Debian's HAProxy (docker/haproxy.cfg's settings), and
``--kill-node`` SIGKILLs one in the middle of the slips (its phones reconnect through the
balancer). The phones are one asyncio loop (``bench/phones.py`` for the slips).

Reported (``--json``): ``connected`` (phones with a stream, or polling, when the round opened),
``slips_sent``, ``slips_acknowledged`` (201), ``slips_lost`` (acknowledged, not in the
database: must be 0), ``slips_refused_on_time`` (sent before deadline + grace, refused: must be
0), ``slip_p50_ms``/``slip_p99_ms``, ``open_seen_p99_ms`` and ``state_change_p99_ms`` (from the
round's opening, and from its publication, to the phones seeing it: p99 over the phones),
``publish_seen_within_1s`` (the share of phones), ``web_cpu_ms_per_connected_phone_per_minute``
(the web processes' processor time over ``--idle`` seconds with every phone connected and
nothing happening), ``slip_cpu_ms_per_slip`` (the processor time of the web processes,
PostgreSQL's backends, Redis and this generator from the first slip to the last answer, per
slip), ``errors`` (phones that could not connect or lost their stream for good, and slips
unanswered), and the load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.haproxy import haproxy_config  # noqa: E402
from bench.phones import Phone, _send, classify, quantiles  # noqa: E402
from bench.slips import (  # noqa: E402
    HOST,
    _cpu_seconds,
    _cpu_used,
    _free_port,
    _postgres_database,
    _postgres_drop,
    _redis_start,
    _server_pids,
    _stop,
    _wait_healthy,
)

ROUND_SECONDS = 60


class Connected:
    """One phone that stays connected: a stream (reconnecting with its version, as the page
    does), or a poller."""

    def __init__(self, port: int, token: str, mode: str) -> None:
        self.port, self.token, self.mode = port, token, mode
        self.version: str | None = None
        self.etag: str | None = None  # the poller's last ETag (a browser keeps it)
        self.seen: dict[str, float] = {}  # round status -> when this phone first saw it
        self.connected = False
        self.reconnects = 0
        self.failed = False
        self.stop = False

    def _note(self, data: bytes) -> None:
        now = time.time()
        for status in (b'"status":"open"', b'"status":"published"'):
            if status in data:
                key = status.split(b":")[1].strip(b'"').decode()
                self.seen.setdefault(key, now)

    async def run(self) -> None:
        failures = 0
        while not self.stop:
            try:
                if self.mode == "push":
                    await self._stream()
                else:
                    await self._poll()
                    continue  # the server closed an idle keep-alive: a browser opens another
            except (OSError, asyncio.IncompleteReadError, ValueError):
                pass
            if self.stop:
                return
            failures += 1
            self.reconnects += 1
            if failures > 8:
                self.failed = True
                return
            wait = min(1.0 * 2 ** (failures - 1), 30.0)
            await asyncio.sleep(wait / 2 + random.random() * wait / 2)

    async def _stream(self) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 20)
        try:
            head = [
                "GET /api/v1/play/events HTTP/1.1",
                f"Host: {HOST}",
                f"Authorization: Bearer {self.token}",
            ]
            if self.version:
                head.append(f"Last-Event-ID: {self.version}")
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            status = await reader.readline()
            if b" 200 " not in status:
                raise ValueError(status)
            await reader.readuntil(b"\r\n\r\n")
            self.connected = True
            while not self.stop:
                size = int((await reader.readline()).split(b";")[0] or b"0", 16)
                if size == 0:
                    return
                chunk = await reader.readexactly(size + 2)
                for line in chunk.split(b"\n"):
                    if line.startswith(b"id: "):
                        self.version = line[4:].decode()
                    elif line.startswith(b"data: "):
                        self._note(line)
        finally:
            self.connected = False
            writer.close()

    async def _poll(self) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port, limit=1 << 20)
        served = 0
        try:
            while not self.stop:
                etag = self.etag  # kept across connections, as the page keeps it
                head = [
                    "GET /api/v1/play/state HTTP/1.1",
                    f"Host: {HOST}",
                    f"Authorization: Bearer {self.token}",
                ]
                if etag:
                    head.append(f"If-None-Match: {etag}")
                try:
                    writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
                    status = await reader.readline()
                except (ConnectionResetError, BrokenPipeError):
                    if served:
                        return  # closed after its keep-alive time: a browser opens another
                    raise
                if not status:
                    return  # closed after its keep-alive time: not an error
                served += 1
                if not status.startswith(b"HTTP/1.1 "):
                    raise ValueError(status)
                code = int(status.split()[1])
                headers = {}
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                if code not in (200, 304):
                    raise ValueError(status)
                self.connected = True
                if code == 200:
                    self.etag = headers.get("etag")
                    self._note(body)
                await asyncio.sleep(float(headers.get("x-poll-after", "2")))
        finally:
            self.connected = False
            writer.close()


class Attacker:
    """One of ``--audience``'s streams: held while the server keeps it, opened again after a
    refusal (when ``Retry-After`` says, or after ``retry`` seconds whatever it says) or a second
    after a failure."""

    def __init__(self, port: int, slug: str, retry: float | None) -> None:
        self.port, self.slug, self.retry = port, slug, retry
        self.wait = 1.0
        self.held = False
        self.refused = self.server_errors = self.errors = 0
        self.stop = False

    async def run(self) -> None:
        while not self.stop:
            try:
                await self._once()
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.errors += 1
            self.held = False
            if not self.stop:
                await asyncio.sleep(self.wait)
                self.wait = 1.0

    async def _once(self) -> None:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            writer.write(
                f"GET /results/{self.slug}/live/ HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
            )
            status = await reader.readline()
            if not status:
                raise ValueError("closed")
            code = int(status.split()[1])
            if code == 429:
                self.refused += 1
                said = 1.0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.strip().lower() == "retry-after":
                        said = float(value.strip())
                self.wait = self.retry if self.retry is not None else said
                return
            if code >= 500:
                self.server_errors += 1
                return
            if code != 200:
                raise ValueError(status)
            self.held = True
            while not self.stop and await reader.read(65536):
                pass
        finally:
            writer.close()


class _Attack:
    """``--audience``'s attacker: another process (another client, with its own event loop and
    open files, as a host elsewhere would be), started at once; ``held`` the streams it holds
    now; ``end`` stops it and gives its counts."""

    def __init__(self, port: int, slug: str, count: int, retry: float | None) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.held = context.Value("i", 0)
        self.stop = context.Event()
        self.results = context.Queue()
        self.process = context.Process(
            target=_attack_main,
            args=(port, slug, count, retry, self.held, self.stop, self.results),
            daemon=True,
        )
        self.process.start()

    def end(self) -> dict[str, int]:
        self.stop.set()
        counts: dict[str, int] = self.results.get(timeout=120)
        self.process.join(timeout=30)
        return counts


def _attack_main(
    port: int, slug: str, count: int, retry: float | None, held: Any, stop: Any, results: Any
) -> None:
    async def attack() -> dict[str, int]:
        attackers = [Attacker(port, slug, retry) for _ in range(count)]
        tasks = []
        for i, attacker in enumerate(attackers):  # as fast as one client opens them
            tasks.append(asyncio.create_task(attacker.run()))
            if i % 1000 == 999:
                await asyncio.sleep(0)
        while not stop.is_set():
            held.value = sum(a.held for a in attackers)
            await asyncio.sleep(0.5)
        for attacker in attackers:
            attacker.stop = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return {
            "audience_refused": sum(a.refused for a in attackers),
            "audience_5xx": sum(a.server_errors for a in attackers),
            "audience_errors": sum(a.errors for a in attackers),
        }

    if count:
        results.put(asyncio.run(attack()))
    else:
        results.put({"audience_refused": 0, "audience_5xx": 0, "audience_errors": 0})


async def _director_get(port: int, path: str, token: str) -> int:
    """One GET of the director's API on a fresh connection: its status."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Token {token}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        status = await reader.readline()
        await reader.read()
        return int(status.split()[1])
    finally:
        writer.close()


async def _director_reads(port: int, path: str, token: str, stop: asyncio.Event) -> list[float]:
    """The director's API meanwhile: one read every 0.5 s (seconds each; a failure or an answer
    other than 200 counts as the 60 s a director would give up after)."""
    took: list[float] = []
    while not stop.is_set():
        began = time.perf_counter()
        try:
            status = await asyncio.wait_for(_director_get(port, path, token), 60)
            took.append(time.perf_counter() - began if status == 200 else 60.0)
        except (OSError, TimeoutError, ValueError, IndexError):
            took.append(60.0)
        await asyncio.sleep(0.5)
    return took


async def _hand_in(port: int, slip: Phone, timeout: float) -> None:
    """As the phone's outbox: a slip that got no answer, or the balancer's 502/503/504 (its node
    died with the request), is sent again a second later, until ``timeout``; its first attempt's
    times are kept (when it was sent decides whether it was on time)."""
    first: tuple[float, float] | None = None
    while True:
        await _send(port, slip, timeout)
        if first is None:
            first = (slip.connect, slip.sent)
        retry = slip.status == 0 or slip.status in (502, 503, 504)
        if not retry or time.time() - first[0] > timeout:
            break
        slip.retries += 1
        await asyncio.sleep(1.0)
        slip.at = time.time()
    slip.connect, slip.sent = first


def _web_pids(servers: list[subprocess.Popen]) -> set[int]:
    import psutil

    pids: set[int] = set()
    for server in servers:
        if server.poll() is None:
            pids |= {server.pid}
            pids |= {c.pid for c in psutil.Process(server.pid).children(recursive=True)}
    return pids


def _start_web(port: int, env: dict[str, str], log: Any, workers: int | None) -> subprocess.Popen:
    args = [str(ROOT / ".venv/bin/gunicorn"), "config.asgi", "-c", str(ROOT / "config/gunicorn.py")]
    args += ["-b", f"{HOST}:{port}", "--log-level", "warning"]
    if workers:
        args += ["--workers", str(workers)]
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def _start_haproxy(folder: Path, port: int, nodes: list[int]) -> subprocess.Popen:
    binary = shutil.which("haproxy")
    if binary is None:
        raise SystemExit("--nodes 2 needs haproxy (apt-get install haproxy)")
    config = folder / "haproxy.cfg"
    config.write_text(haproxy_config(HOST, port, nodes))
    return subprocess.Popen(
        [binary, "-f", str(config), "-db"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _slip_cpu(ctx: dict[str, Any]) -> dict[str, dict[int, float]]:
    """Each serving process's processor time so far, by part, and this generator's."""
    parts = {"web": _web_pids(ctx["servers"])}
    alive = next(s for s in ctx["servers"] if s.poll() is None)  # --kill-node: one is gone
    for part, pids in _server_pids(alive, ctx["database_url"], ctx["redis"]).items():
        if part != "web":
            parts[part] = pids
    parts["generator"] = {os.getpid()}
    return {part: _cpu_seconds(pids) for part, pids in parts.items()}


async def _room(args: argparse.Namespace, ctx: dict[str, Any]) -> dict[str, Any]:
    from asgiref.sync import sync_to_async

    port, tokens = ctx["port"], ctx["tokens"]
    attack = _Attack(port, ctx["slug"], args.audience, args.audience_retry)
    director_stop = asyncio.Event()
    director = asyncio.create_task(
        _director_reads(port, ctx["director_path"], ctx["director_token"], director_stop)
    )
    phones = [Connected(port, t, args.mode) for t in tokens[: args.connected]]
    tasks = []
    for i, phone in enumerate(phones):  # connect at a steady pace, as a room arriving
        tasks.append(asyncio.create_task(phone.run()))
        if i % 100 == 99:
            await asyncio.sleep(0.2)
    deadline = time.monotonic() + 120
    while sum(p.connected for p in phones) < len(phones) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(3)  # the last catch-ups settle
    connected = sum(p.connected for p in phones)
    pids = _web_pids(ctx["servers"])
    before = _cpu_seconds(pids)
    await asyncio.sleep(args.idle)
    after = _cpu_seconds(_web_pids(ctx["servers"]))
    idle_cpu = sum(t - before.get(pid, 0.0) for pid, t in after.items())
    per_phone_minute = 1000 * idle_cpu / max(1, connected) / (args.idle / 60)

    audience_held = attack.held.value
    opened_at = time.time()
    opened = await sync_to_async(ctx["open"], thread_sensitive=False)()
    deadline_ts = opened.deadline.timestamp()
    cutoff = deadline_ts + ctx["grace"]
    rng = random.Random(2026)
    word = ctx["word"]
    slip_tokens = tokens[: args.slips]
    times = sorted(
        deadline_ts - args.window + rng.uniform(0, args.window - 0.5) for _ in slip_tokens
    )
    slips = [
        Phone(
            token=t,
            body=json.dumps(
                {"round": opened.number, "ref": "H8", "word": word, "score": rng.randint(0, 80)}
            ).encode(),
            at=at,
        )
        for t, at in zip(slip_tokens, times, strict=True)
    ]
    killer = None
    if args.kill_node:
        victim = ctx["servers"][0]

        async def kill() -> None:
            await asyncio.sleep(max(0.0, deadline_ts - args.window / 2 - time.time()))
            os.killpg(victim.pid, signal.SIGKILL)
            ctx["killed_at"] = time.time()

        killer = asyncio.create_task(kill())
    await asyncio.sleep(max(0.0, times[0] - 0.2 - time.time()))  # the idle round before: not slips'
    cpu_before = _slip_cpu(ctx)
    await asyncio.gather(*(_hand_in(port, s, args.timeout) for s in slips))
    slip_cpu = _cpu_used(cpu_before, _slip_cpu(ctx))
    if killer is not None:
        await killer
    await asyncio.sleep(max(0.0, cutoff + 0.5 - time.time()))
    await sync_to_async(ctx["score"], thread_sensitive=False)(opened)
    published_at = time.time()
    await sync_to_async(ctx["publish"], thread_sensitive=False)(opened)
    wait_until = time.monotonic() + 30
    while time.monotonic() < wait_until and any(
        "published" not in p.seen for p in phones if not p.failed
    ):
        await asyncio.sleep(0.1)
    for phone in phones:
        phone.stop = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    director_stop.set()
    director_took = sorted(await director)
    attacked = attack.end()
    open_lat = sorted(p.seen["open"] - opened_at for p in phones if "open" in p.seen)
    pub_lat = sorted(p.seen["published"] - published_at for p in phones if "published" in p.seen)
    return {
        "connected": connected,
        "phones": len(phones),
        "slips": slips,
        "cutoff": cutoff,
        "round": opened,
        "idle_cpu_s": round(idle_cpu, 3),
        "web_cpu_ms_per_connected_phone_per_minute": round(per_phone_minute, 3),
        "open_seen_p99_ms": quantiles(open_lat).get("p99"),
        "open_seen_by": len(open_lat),
        "state_change_p99_ms": quantiles(pub_lat).get("p99"),
        "state_change_ms": quantiles(pub_lat),
        "publish_seen_by": len(pub_lat),
        "publish_seen_within_1s": round(
            sum(1 for x in pub_lat if x <= 1.0) / max(1, len(phones)), 4
        ),
        # Processor time from the first slip's wake-up to the last answer, per slip: the web
        # processes, PostgreSQL's backends, Redis, and this generator (the same 2 cores).
        "slip_cpu_ms_per_slip": {
            part: round(1000 * used / max(1, len(slips)), 2) for part, used in slip_cpu.items()
        },
        "phones_failed": sum(p.failed for p in phones),
        "reconnects": sum(p.reconnects for p in phones),
        "audience": args.audience,
        "audience_held": audience_held,
        **attacked,
        "director_api_reads": len(director_took),
        "director_api_p50_ms": quantiles(director_took).get("p50"),
        "director_api_p99_ms": quantiles(director_took).get("p99"),
        "director_api_failed": sum(1 for t in director_took if t >= 60.0),
        "web_rss_mb_after": _web_rss_mb(ctx["servers"]),
    }


def _web_rss_mb(servers: list[subprocess.Popen]) -> list[float]:
    import psutil

    sizes = []
    for pid in sorted(_web_pids(servers)):
        with contextlib.suppress(psutil.NoSuchProcess):
            sizes.append(round(psutil.Process(pid).memory_info().rss / 2**20, 1))
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connected", type=int, default=3000)
    parser.add_argument("--slips", type=int, default=1000)
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--mode", choices=["push", "poll"], default="push")
    parser.add_argument("--nodes", type=int, choices=[1, 2], default=1)
    parser.add_argument("--kill-node", action="store_true", help="SIGKILL a node mid-slips")
    parser.add_argument("--workers", type=int, help="gunicorn workers per node")
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of idle CPU measure")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--audience", type=int, default=0, help="streams of the public page from this one client"
    )
    parser.add_argument(
        "--audience-retry",
        type=float,
        help="seconds before a refused stream is opened again (default: its Retry-After)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.kill_node and args.nodes < 2:
        parser.error("--kill-node needs --nodes 2")

    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    folder = Path(tempfile.mkdtemp(prefix="bench-room-"))
    database_url = _postgres_database()
    redis_server, redis_url = _redis_start(folder)
    if database_url is None or redis_url is None:
        raise SystemExit("bench/room.py needs PostgreSQL on 127.0.0.1:5432 and redis-server")
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "VAR_DIR": str(folder / "var"),
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + "r" * 50,
        "ALLOWED_HOSTS": HOST,
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    os.environ.update(env)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from arbiter.services import clock, publishing, racks, scoring
    from tournament.models import Player, Submission
    from tournament.services.events import event_create
    from tournament.services.games import game_create

    servers: list[subprocess.Popen] = []
    balancer = None
    figures: dict[str, Any] = {}
    try:
        call_command("migrate", verbosity=0)
        from django.contrib.auth import get_user_model
        from rest_framework.authtoken.models import Token

        director = get_user_model().objects.create_user("director", password="bench-director")
        event = event_create(
            name="Room",
            starts_on=timezone.now().date(),
            actor=director,
            round_seconds=ROUND_SECONDS,
            public_results=True,
        )
        director_token = Token.objects.create(user=director).key
        count = max(args.connected, args.slips)
        Player.objects.bulk_create(
            [Player(event=event, name=f"Phone {i}", table=i + 1) for i in range(count)]
        )
        tokens = list(
            Player.objects.filter(event=event).order_by("table").values_list("token", flat=True)
        )
        game = game_create(event=event, actor=None, seed=2026)
        drawn = racks.round_draw(game=game, actor=None)
        assert drawn is not None
        log = (folder / "web.log").open("w")
        ports = [_free_port() for _ in range(args.nodes)]
        for port in ports:
            servers.append(_start_web(port, env, log, args.workers))
        for port, server in zip(ports, servers, strict=True):
            _wait_healthy(port, server, healthy=False)
        port = ports[0]
        if args.nodes > 1:
            port = _free_port()
            balancer = _start_haproxy(folder, port, ports)
            _wait_healthy(port, balancer, healthy=False)
        load_before = os.getloadavg()

        def open_round() -> Any:
            return clock.round_open(round=drawn, actor=None)

        def score(opened: Any) -> None:
            clock.round_close(round_id=opened.pk)
            scoring.round_score(round_id=opened.pk)

        def publish(opened: Any) -> None:
            publishing.round_publish(round=opened, actor=None)

        ctx = {
            "port": port,
            "tokens": tokens,
            "servers": servers,
            "open": open_round,
            "score": score,
            "publish": publish,
            "grace": event.grace_seconds,
            "word": drawn.rack.replace("?", "")[:4] or "AB",
            "database_url": database_url,
            "redis": redis_server,
            "slug": event.slug,
            "director_path": f"/api/v1/events/{event.slug}",
            "director_token": director_token,
        }
        print(
            f"{args.connected} phones connected ({args.mode}), {args.slips} slips in the last "
            f"{args.window:.0f} s, {args.nodes} node(s){' (one killed)' if args.kill_node else ''}",
            file=sys.stderr,
        )
        result = asyncio.run(_room(args, ctx))
        load_after = os.getloadavg()
        slips: list[Phone] = result.pop("slips")
        stamped = set(
            Submission.objects.filter(round=result.pop("round")).values_list(
                "player__token", flat=True
            )
        )
        accepted = [p for p in slips if p.status == 201]
        latencies = sorted(p.latency for p in slips)
        blame = classify(slips, result.pop("cutoff"))
        figures = {
            "mode": args.mode,
            "nodes": args.nodes,
            "node_killed": args.kill_node,
            **result,
            "slips_sent": len(slips),
            "slips_acknowledged": len(accepted),
            "slips_sent_again": sum(p.retries for p in slips),
            "slips_lost": sum(1 for p in accepted if p.token not in stamped),
            "slips_refused_on_time": blame["sent_on_time_but_refused"],
            "slips_unanswered_on_time": blame["sent_on_time_but_unanswered"],
            "slips_sent_late_by_the_generator": blame["sent_after_deadline"],
            "slip_p50_ms": quantiles(latencies).get("p50"),
            "slip_p99_ms": quantiles(latencies).get("p99"),
            "errors": result["phones_failed"]
            + result["phones"]
            - result["connected"]
            + blame["sent_on_time_but_unanswered"],
            "refusals": blame["sent_on_time_refusals"],
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "cpus": os.cpu_count(),
        }
        log.flush()
        web_log = (folder / "web.log").read_bytes()
        figures["web_log_bytes"] = len(web_log)
        figures["web_log_lines"] = web_log.count(b"\n")
        figures["too_many_open_files_lines"] = web_log.count(b"Too many open files")
        figures["web_log_tail"] = web_log.decode(errors="replace").splitlines()[-8:]
    finally:
        for process in [balancer, *servers]:
            if process is not None and process.poll() is None:
                _stop(process)
        connection.close()
        _postgres_drop(database_url)
        if redis_server is not None:
            _stop(redis_server)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    ok = (
        figures["slips_lost"] == 0
        and figures["slips_refused_on_time"] == 0
        and figures["errors"] == 0
        and (figures["slip_p99_ms"] or 0) < 500
        and figures["publish_seen_within_1s"] >= 0.99
        and figures["web_cpu_ms_per_connected_phone_per_minute"] < 5
        and figures["audience_5xx"] == 0
        and figures["too_many_open_files_lines"] == 0
        and figures["director_api_failed"] == 0
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
