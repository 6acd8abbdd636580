"""The audience's page under load (issue 29): ``--viewers`` browsers hold the page's stream
(``/results/<slug>/live/``), whose first frame is the page's state and then one at each change
(``--poll``: the page's fallback, each viewer reading ``state.json`` a random 0-1.5 s after each
frame, on a connection kept between reads as a browser keeps it, or ``--fresh``, a new one each
time); the director publishes a round, and every viewer must see it. Then ``--clients``
connections ask for ``state.json`` back to back for ``--seconds`` (the polling fallback's cost).

    .venv/bin/python bench/public.py --viewers 2000 --json

The production set-up, as ``bench/room.py``: gunicorn with config/gunicorn.py on a fresh
PostgreSQL database (127.0.0.1:5432, dropped at the end) and the bench's own redis-server.

Reported (``--json``): ``viewers_connected``; for the publication, ``publish_seen_p50_ms`` /
``p99`` (from the call to each viewer holding the new version), ``frames``, and with ``--poll``
``burst_state_p50_ms`` / ``p99`` (each read of the burst), ``burst_errors``;
``audience_web_cpu_seconds`` (the web processes' processor time from the first viewer to the
publication seen); for the back-to-back reads, ``requests_per_second``,
``state_p50_ms``/``p99``, ``not_modified`` (304s), and ``web_cpu_ms_per_view`` (the web
processes' processor time over the requests they answered); the load average before and
after, and the CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.phones import quantiles  # noqa: E402
from bench.room import _start_web, _web_pids  # noqa: E402
from bench.slips import (  # noqa: E402
    HOST,
    _cpu_seconds,
    _free_port,
    _postgres_database,
    _postgres_drop,
    _redis_start,
    _stop,
    _wait_healthy,
)

SLUG = "audience"


async def _get(port: int, path: str, etag: str | None = None) -> tuple[int, bytes, str, float]:
    """One GET on a fresh connection: (status, body, etag, seconds)."""
    began = time.perf_counter()
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        extra = f"If-None-Match: {etag}\r\n" if etag else ""
        head = f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n{extra}Connection: close\r\n\r\n"
        writer.write(head.encode())
        raw = await reader.read()
    finally:
        writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith(b"HTTP/") else 0
    tag = ""
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"etag":
            tag = value.strip().decode()
    return status, body, tag, time.perf_counter() - began


class KeptConnection:
    """A browser's connection to the site, kept between reads (HTTP/1.1 keep-alive), opened
    again when the server closed it (its keep-alive is 5 s)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, etag: str | None) -> tuple[int, bytes, str, float]:
        began = time.perf_counter()
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            assert self.reader is not None
            extra = f"If-None-Match: {etag}\r\n" if etag else ""
            self.writer.write(
                f"GET {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n{extra}\r\n".encode()
            )
            try:
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                self.writer.close()
                self.writer = None
                if attempt == 2:
                    raise OSError("closed") from None
                continue
            lines = head.split(b"\r\n")
            status = int(lines[0].split()[1])
            length, tag = 0, ""
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
                elif name.strip().lower() == b"etag":
                    tag = value.strip().decode()
            body = await self.reader.readexactly(length) if length else b""
            return status, body, tag, time.perf_counter() - began
        raise OSError("unreachable")


class Viewer:
    def __init__(self, port: int, kept: bool = True, poll: bool = False) -> None:
        self.port = port
        self.poll = poll
        self.frames = 0
        self.kept = KeptConnection(port) if kept else None
        self.version = ""
        self.etag = ""
        self.connected = asyncio.Event()
        self.seen: dict[str, float] = {}  # version -> when this viewer held it (time.time())
        self.fetches: list[float] = []
        self.errors = 0

    async def fetch(self, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            path = f"/results/{SLUG}/state.json"
            if self.kept is not None:
                status, body, tag, seconds = await self.kept.get(path, self.etag or None)
            else:
                status, body, tag, seconds = await _get(self.port, path, self.etag or None)
        except (OSError, ValueError, IndexError):
            self.errors += 1
            return
        self.fetches.append(seconds)
        if status == 200:
            self.etag = tag
            self.version = json.loads(body)["version"]
            self.seen.setdefault(self.version, time.time())
        elif status != 304:
            self.errors += 1

    async def run(self, stop: asyncio.Event) -> None:
        """Hold the stream as the page does: its first frame is the state, then one at each
        change; the page reads ``state.json`` only when no state frame comes (``--poll``:
        the page's fallback, a read 0-1.5 s after each frame's version moved, as if pushed
        frames carried nothing)."""
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
        except OSError:
            self.errors += 1
            return
        writer.write(
            f"GET /results/{SLUG}/live/ HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n\r\n".encode()
        )
        kind = b""
        tasks = []
        try:
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    break
                if line.startswith(b"HTTP/1.1 200"):
                    self.connected.set()
                elif line.startswith(b"event: "):
                    kind = line[7:].strip()
                elif line.startswith(b"data: ") and kind == b"state":
                    version = json.loads(line[6:])["version"]
                    self.frames += 1
                    if self.poll:
                        tasks.append(asyncio.create_task(self.fetch(random.uniform(0, 1.5))))
                    else:
                        self.version = version
                        self.seen.setdefault(version, time.time())
        except (OSError, asyncio.CancelledError, ValueError):
            pass
        finally:
            writer.close()
            if self.kept is not None and self.kept.writer is not None:
                self.kept.writer.close()
            for task in tasks:
                if not task.done():
                    await task


async def _audience(args: argparse.Namespace, ctx: dict[str, Any]) -> dict[str, Any]:
    port = ctx["port"]
    stop = asyncio.Event()
    viewers = [Viewer(port, kept=not args.fresh, poll=args.poll) for _ in range(args.viewers)]
    runs = []
    for i, viewer in enumerate(viewers):
        runs.append(asyncio.create_task(viewer.run(stop)))
        if i % 200 == 199:
            await asyncio.sleep(0.2)  # a room's audience arrives over a while, not in one instant
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        connected = sum(1 for v in viewers if v.connected.is_set())
        if connected == len(viewers) and all(v.version for v in viewers):
            break
        await asyncio.sleep(0.5)
    connected = sum(1 for v in viewers if v.connected.is_set())
    await asyncio.sleep(2.0)
    before_versions = {v.version for v in viewers}
    published_at = time.time()
    await asyncio.to_thread(ctx["publish"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(v.version and v.version not in before_versions for v in viewers):
            break
        await asyncio.sleep(0.2)
    seen = sorted(  # seconds
        (min(t for ver, t in v.seen.items() if ver not in before_versions) - published_at)
        for v in viewers
        if any(ver not in before_versions for ver in v.seen)
    )
    burst = sorted(s for v in viewers for s in v.fetches[1:])  # seconds
    stop.set()
    for task in runs:
        task.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    q_seen, q_burst = quantiles(seen), quantiles(burst)
    return {
        "viewers": len(viewers),
        "viewers_connected": connected,
        "viewers_saw_publication": len(seen),
        "publish_seen_p50_ms": q_seen.get("p50"),
        "publish_seen_p99_ms": q_seen.get("p99"),
        "burst_state_p50_ms": q_burst.get("p50"),
        "burst_state_p99_ms": q_burst.get("p99"),
        "burst_errors": sum(v.errors for v in viewers),
        "frames": sum(v.frames for v in viewers),
        "mode": "poll" if args.poll else "push",
    }


async def _back_to_back(args: argparse.Namespace, port: int, pids: set[int]) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    end = time.monotonic() + args.seconds

    async def client(n: int) -> None:
        etag = None
        while time.monotonic() < end:
            try:
                status, _body, tag, seconds = await _get(
                    port, f"/results/{SLUG}/state.json", etag if n % 2 else None
                )
            except OSError:
                statuses[0] = statuses.get(0, 0) + 1
                continue
            etag = tag or etag
            latencies.append(seconds)
            statuses[status] = statuses.get(status, 0) + 1

    before = _cpu_seconds(pids)
    began = time.monotonic()
    await asyncio.gather(*(client(n) for n in range(args.clients)))
    elapsed = time.monotonic() - began
    after = _cpu_seconds(pids)
    cpu = sum(after[p] - before.get(p, 0.0) for p in after)
    answered = sum(n for s, n in statuses.items() if s in (200, 304))
    q = quantiles(sorted(latencies))
    return {
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "requests": len(latencies),
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "state_p50_ms": q.get("p50"),
        "state_p99_ms": q.get("p99"),
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "not_modified": statuses.get(304, 0),
        "web_cpu_ms_per_view": round(1000 * cpu / answered, 3) if answered else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=20, help="back-to-back readers")
    parser.add_argument("--seconds", type=float, default=20.0, help="of back-to-back reads")
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument(
        "--fresh", action="store_true", help="each viewer's read on a new connection"
    )
    parser.add_argument(
        "--poll", action="store_true", help="viewers read state.json after each frame"
    )
    parser.add_argument("--workers", type=int, help="gunicorn workers")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    folder = Path(tempfile.mkdtemp(prefix="bench-public-"))
    database_url = _postgres_database()
    redis_server, redis_url = _redis_start(folder)
    if database_url is None or redis_url is None:
        raise SystemExit("bench/public.py needs PostgreSQL on 127.0.0.1:5432 and redis-server")
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "VAR_DIR": str(folder / "var"),
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + "p" * 50,
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

    from arbiter import tasks
    from arbiter.services import clock, publishing, racks, scoring
    from arbiter.services.slips import slip_submit
    from arbiter.state import board_of, lexicon_for
    from engine.movegen import generate
    from engine.tiles import TileSet
    from tournament.models import Event, Player
    from tournament.services.events import event_create
    from tournament.services.games import game_create

    server = None
    figures: dict[str, Any] = {}
    try:
        call_command("migrate", verbosity=0)
        event = event_create(name="Audience", starts_on=timezone.now().date(), actor=None)
        Event.objects.filter(pk=event.pk).update(slug=SLUG, public_results=True)
        event.refresh_from_db()
        Player.objects.bulk_create(
            [Player(event=event, name=f"Player {i} Name", table=i + 1) for i in range(args.players)]
        )
        players = list(Player.objects.filter(event=event).order_by("table"))
        game = game_create(event=event, actor=None, seed=2029)

        def play_round(publish: bool) -> Any:
            drawn = racks.round_draw(game=game, actor=None)
            assert drawn is not None
            opened = clock.round_open(round=drawn, actor=None)
            tasks.round_tops_compute(opened.pk)  # what the tops queue does while the clock runs
            game.refresh_from_db()
            moves = generate(
                board_of(game), opened.rack, lexicon_for(game.lexicon), TileSet.load(game.tile_set)
            )
            for i, player in enumerate(players):
                move = moves[min(i % 5, len(moves) - 1)]
                slip_submit(
                    player=player, round=opened, word=move.word, ref=move.ref, score=move.score
                )
            closing = opened.deadline + dt.timedelta(seconds=event.grace_seconds)
            assert clock.round_close(round_id=opened.pk, now=closing)
            scored = scoring.round_score(round_id=opened.pk, now=closing)
            assert scored is not None
            if publish:
                publishing.round_publish(round=scored, actor=None, now=closing)
            return scored

        for _ in range(5):
            play_round(True)
        pending = play_round(False)  # scored, waiting for the director's publication

        def publish() -> None:
            publishing.round_publish(round=pending, actor=None)

        log = (folder / "web.log").open("w")
        port = _free_port()
        server = _start_web(port, env, log, args.workers)
        _wait_healthy(port, server, healthy=False)
        pids = _web_pids([server])
        load_before = os.getloadavg()
        print(
            f"{args.viewers} viewers of the public page, then {args.clients} back-to-back readers",
            file=sys.stderr,
        )
        cpu_before = _cpu_seconds(pids)
        audience = asyncio.run(_audience(args, {"port": port, "publish": publish}))
        cpu_after = _cpu_seconds(pids)
        reads = asyncio.run(_back_to_back(args, port, pids))
        load_after = os.getloadavg()
        figures = {
            **audience,
            "audience_web_cpu_seconds": round(
                sum(cpu_after[p] - cpu_before.get(p, 0.0) for p in cpu_after), 2
            ),
            **reads,
            "web_workers": len(pids) - 1,
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "cpus": os.cpu_count(),
        }
    finally:
        if server is not None and server.poll() is None:
            _stop(server)
        connection.close()
        _postgres_drop(database_url)
        if redis_server is not None:
            _stop(redis_server)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
