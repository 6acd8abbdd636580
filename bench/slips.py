"""Slips benchmark (issues 5 and 13): phones each hand in one slip in the last 10 seconds of a
round, through the v1 API of a real server on 127.0.0.1.

    .venv/bin/python bench/slips.py [--phones 1000] [--window 10] [--json]
    .venv/bin/python bench/slips.py --server embedded --phones 300 [--json]

``--server gunicorn`` (the default): gunicorn on PostgreSQL (a fresh database on
postgres@127.0.0.1:5432, dropped at the end) and Redis (127.0.0.1:6379/14, the cache and
broker) when they answer, else SQLite and the per-process cache; target p99 < 500 ms.
``--server embedded``: ``manage.py run_embedded`` itself, as ``make run`` starts it (SQLite,
the filesystem broker, its worker and beat), in a temporary folder; target p99 < 1 s.

Reports the slips accepted (201), the slips lost (201 answers without a slip in the database:
must be 0), every other answer, and the p50/p99 latency. Every request goes to 127.0.0.1; each
phone sends one slip with a 30 s timeout, so a run is bounded in requests and in time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"
PG_ADMIN = f"postgres://postgres@{HOST}:5432/postgres"
REDIS_URL = f"redis://{HOST}:6379/14"
ROUND_SECONDS = 40  # the shortest round the rules allow with the default 30 s warning, plus margin
P99_TARGET_MS = {"gunicorn": 500, "embedded": 1000}


def _postgres_database() -> str | None:
    """Create a fresh database; its URL, or None when PostgreSQL does not answer."""
    try:
        import psycopg

        name = f"bench_slips_{os.getpid()}_{int(time.time())}"
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=2) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgres://postgres@{HOST}:5432/{name}"
    except Exception as exc:  # any failure: run on SQLite
        print(f"PostgreSQL unavailable ({type(exc).__name__}): SQLite", file=sys.stderr)
        return None


def _postgres_drop(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=2) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _redis_answers() -> bool:
    try:
        import redis

        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
        client.ping()
        client.flushdb()  # db 14 is the bench's own
        client.close()
        return True
    except Exception:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _wait_healthy(
    port: int, server: subprocess.Popen, *, healthy: bool, timeout: float = 60.0
) -> None:
    """Until the server answers /healthz: with a 200 when ``healthy`` (its worker beats too),
    else with anything (gunicorn alone has no worker: a 503 is its honest answer)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            status = conn.getresponse().status
            conn.close()
            if status == 200 or (not healthy and status in {200, 503}):
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within {timeout:.0f} s")


def _start_gunicorn(port: int, env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "config.wsgi",
            "-c",
            str(ROOT / "config/gunicorn.py"),  # the production server's settings (gthread)
            "-b",
            f"{HOST}:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _start_embedded(port: int, env: dict[str, str], log) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "run_embedded", "--host", HOST, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _warm_up(port: int) -> None:
    """Load each worker's URLs and open each thread's database connection before the round."""

    def hit(_: int) -> None:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
            conn.request("GET", "/api/v1/play/state", headers={"Authorization": "Bearer warm-up"})
            conn.getresponse().read()
            conn.close()
        except OSError:
            pass

    with ThreadPoolExecutor(max_workers=64) as pool:
        list(pool.map(hit, range(256)))


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=5)


def _post(port: int, token: str, body: bytes, at: float) -> tuple[int, float, str]:
    """Sleep until ``at`` (time.monotonic), then POST the slip on a fresh connection like a
    phone."""
    delay = at - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    started = time.perf_counter()
    try:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        conn.request(
            "POST",
            "/api/v1/play/submissions",
            body=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        response = conn.getresponse()
        text = response.read().decode()
        conn.close()
        return response.status, time.perf_counter() - started, text
    except OSError as exc:
        return 0, time.perf_counter() - started, f"{type(exc).__name__}: {exc}"


def _summary(text: str) -> str:
    """An answer in a few words: the title of an HTML page (Django's error page names the
    exception there), else the start of the body."""
    title = re.search(r"<title>\s*(.*?)\s*</title>", text, re.S)
    return " ".join((title[1] if title else text).split())[:100]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--window", type=float, default=10.0, help="the last seconds of the round")
    parser.add_argument(
        "--server",
        choices=sorted(P99_TARGET_MS),
        default="gunicorn",
        help="gunicorn (PostgreSQL and Redis when they answer) or run_embedded (SQLite, folders)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-slips-"))
    embedded = args.server == "embedded"
    database_url = None if embedded else _postgres_database()
    redis = False if embedded else _redis_answers()
    if embedded:
        # As `make run`: the embedded defaults (DEBUG on, SQLite in VAR_DIR, folder broker).
        env = {
            **{k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG"}},
            "VAR_DIR": str(folder / "var"),
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONUNBUFFERED": "1",
        }
    else:
        env = {
            **os.environ,
            "DATABASE_URL": database_url or f"sqlite:///{folder}/db.sqlite3",
            "VAR_DIR": str(folder / "var"),
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    if redis:
        env["REDIS_URL"] = REDIS_URL
    else:
        env.pop("REDIS_URL", None)
    for name in ("DATABASE_URL", "DEBUG"):
        if name not in env:
            os.environ.pop(name, None)
    os.environ.update({k: v for k, v in env.items() if k != "REDIS_URL"})
    if redis:
        os.environ["REDIS_URL"] = REDIS_URL
    else:
        os.environ.pop("REDIS_URL", None)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from arbiter.services import clock, racks
    from tournament.models import Player, Submission
    from tournament.services.events import event_create
    from tournament.services.games import game_create

    server: subprocess.Popen | None = None
    try:
        call_command("migrate", verbosity=0)
        event = event_create(
            name="Bench", starts_on=timezone.now().date(), actor=None, round_seconds=ROUND_SECONDS
        )
        Player.objects.bulk_create(
            [Player(event=event, name=f"Phone {i}", table=i + 1) for i in range(args.phones)]
        )
        tokens = list(
            Player.objects.filter(event=event).order_by("table").values_list("token", flat=True)
        )
        game = game_create(event=event, actor=None, seed=2026)
        drawn = racks.round_draw(game=game, actor=None)
        assert drawn is not None
        word = drawn.rack.replace("?", "")[:4] or "AB"  # tiles of the rack: passes the rack check
        port = _free_port()
        log = (folder / f"{args.server}.log").open("w")
        start = _start_embedded if embedded else _start_gunicorn
        server = start(port, env, log)
        _wait_healthy(port, server, healthy=embedded)
        _warm_up(port)
        opened = clock.round_open(round=drawn, actor=None)
        assert opened.deadline is not None
        remaining = (opened.deadline - timezone.now()).total_seconds()
        window_start = time.monotonic() + remaining - args.window
        rng = random.Random(2026)
        schedule = sorted(window_start + rng.uniform(0, args.window - 0.5) for _ in tokens)
        bodies = [
            json.dumps(
                {"round": opened.number, "ref": "H8", "word": word, "score": rng.randint(0, 80)}
            ).encode()
            for _ in tokens
        ]
        print(
            f"{args.phones} phones, round {opened.number} (rack {opened.rack}), "
            f"firing in the last {args.window:.0f} s "
            f"({args.server}, {'PostgreSQL' if database_url else 'SQLite'}, "
            f"{'Redis' if redis else 'LocMem'} cache) ...",
            file=sys.stderr,
        )
        with ThreadPoolExecutor(max_workers=min(args.phones, 400)) as pool:
            results = list(pool.map(_post, [port] * len(tokens), tokens, bodies, schedule))
        accepted = sum(1 for status, _, _ in results if status == 201)
        refused: dict[str, int] = {}
        for status, _, text in results:
            if status != 201:
                answer = f"{status} {_summary(text)}"
                refused[answer] = refused.get(answer, 0) + 1
        in_db = Submission.objects.filter(round=opened).count()
        latencies = sorted(seconds for _, seconds, _ in results)
        figures = {
            "server": args.server,
            "phones": args.phones,
            "database": connection.vendor,
            "cache": "redis" if redis else "locmem",
            "accepted_201": accepted,
            "slips_in_database": in_db,
            "lost": accepted - in_db,
            "other_answers": refused,
            "p50_ms": round(1000 * statistics.median(latencies), 1),
            "p99_ms": round(1000 * latencies[max(0, int(len(latencies) * 0.99) - 1)], 1),
            "max_ms": round(1000 * latencies[-1], 1),
            "errors": len(results) - accepted,
            "p99_target_ms": P99_TARGET_MS[args.server],
        }
    finally:
        if server is not None:
            _stop(server)
        connection.close()
        if database_url:
            _postgres_drop(database_url)
        if redis:
            import redis as redis_lib

            redis_lib.Redis.from_url(REDIS_URL).flushdb()
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['server']}: phones {figures['phones']} on {figures['database']} + "
            f"{figures['cache']}: "
            f"accepted {figures['accepted_201']}, in the database {figures['slips_in_database']}, "
            f"lost {figures['lost']}, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, "
            f"max {figures['max_ms']} ms"
        )
        for answer, count in figures["other_answers"].items():
            print(f"  {count} x {answer}")
    ok = (
        figures["lost"] == 0
        and figures["accepted_201"] == figures["phones"]
        and figures["p99_ms"] < figures["p99_target_ms"]
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
