"""Slips benchmark (issues 5 and 13): phones each hand in one slip in the last 10 seconds of a
round, through the v1 API of a real server on 127.0.0.1.

    .venv/bin/python bench/slips.py [--phones 1000] [--window 10] [--json]
    .venv/bin/python bench/slips.py --server embedded --phones 300 [--json]

``--server gunicorn`` (the default): gunicorn with config/gunicorn.py on PostgreSQL (a fresh
database on postgres@127.0.0.1:5432, dropped at the end) and Redis (the bench's own
redis-server on a free port: the cache and broker) when they are there, else SQLite and the
per-process cache; target p99 < 500 ms.
``--server embedded``: ``manage.py run_embedded`` itself, as ``make run`` starts it (SQLite,
the filesystem broker, its worker and beat), in a temporary folder; target p99 < 1 s.

Reports the slips accepted (201), the slips lost (201 answers without a slip in the database:
must be 0), every other answer, and the p50/p99 latency. The phones (``bench/phones.py``, one
asyncio loop) record when each sent its first byte: "sent after the deadline" is the
generator's fault, "sent on time but refused" the server's (must be 0). "stamp_lag_ms" is how
much later than the phone's first byte the server stamped an accepted slip's arrival.
"cpu_ms_per_slip" is the processor time the slips cost while the phones fired, per phone: the
web server's processes, PostgreSQL's backends for the bench's database, the bench's
redis-server. Unlike the latencies it hardly depends on what else the machine runs: it says
how many slips a second a core can take.
``--pin`` runs the server on core 1 and the phones on core 0. Every request goes to 127.0.0.1;
each phone sends one slip with a 60 s timeout (``--timeout``): a run is bounded in requests
and in time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.phones import Phone, classify, fire, quantiles  # noqa: E402

HOST = "127.0.0.1"
PG_ADMIN = f"postgres://postgres@{HOST}:5432/postgres"
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


def _redis_start(folder: Path) -> tuple[subprocess.Popen | None, str | None]:
    """The bench's own redis-server on a free port (never the shared one), and its URL; no
    process and None when there is no redis-server."""
    import shutil

    binary = shutil.which("redis-server")
    if binary is None:
        print("no redis-server: the per-process cache and the folder broker", file=sys.stderr)
        return None, None
    port = _free_port()
    args = [binary, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(
        [*args, "--dir", str(folder)], stdout=subprocess.DEVNULL, start_new_session=True
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return process, f"redis://{HOST}:{port}/0"
        except OSError:
            time.sleep(0.1)
    _stop(process)
    raise RuntimeError("redis-server did not answer within 10 s")


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


def _start_gunicorn(
    port: int, env: dict[str, str], log, options: list[str], cores: set[int] | None
) -> subprocess.Popen:
    args = [str(ROOT / ".venv/bin/gunicorn"), "config.asgi", "-c", str(ROOT / "config/gunicorn.py")]
    args += ["-b", f"{HOST}:{port}", "--log-level", "warning", *options]
    return _popen(args, env, log, cores)


def _start_embedded(
    port: int, env: dict[str, str], log, options: list[str], cores: set[int] | None
) -> subprocess.Popen:
    args = [sys.executable, "manage.py", "run_embedded", "--host", HOST, "--port", str(port)]
    return _popen(args, env, log, cores)


def _popen(args: list[str], env: dict[str, str], log, cores: set[int] | None) -> subprocess.Popen:
    def pin() -> None:  # in the child, before exec: its workers inherit the cores
        if cores:
            os.sched_setaffinity(0, cores)

    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=pin,
    )


def _cpu_seconds(pids: set[int]) -> dict[int, float]:
    """Each live process's user and system time so far."""
    import psutil

    seconds = {}
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:  # gone since
            continue
        seconds[pid] = times.user + times.system
    return seconds


def _server_pids(server: subprocess.Popen, database_url: str | None, redis_server) -> dict:
    """The processes that serve the slips, by part: the web server and its children, the
    PostgreSQL backends connected to the bench's database, the bench's redis-server."""
    import psutil

    web = {server.pid} | {c.pid for c in psutil.Process(server.pid).children(recursive=True)}
    parts: dict[str, set[int]] = {"web": web}
    if database_url:
        import psycopg

        name = database_url.rsplit("/", 1)[1]
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=2) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            ).fetchall()
        parts["postgres"] = {pid for (pid,) in rows}
    if redis_server is not None:
        parts["redis"] = {redis_server.pid}
    return parts


def _cpu_used(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> dict:
    """Processor seconds per part between two snapshots (a process new since counts whole)."""
    return {
        part: sum(t - before.get(part, {}).get(pid, 0.0) for pid, t in times.items())
        for part, times in after.items()
    }


def _server_configuration(options: list[str]) -> dict[str, Any]:
    """The production server's settings (config/gunicorn.py), with the bench's overrides."""
    import config.gunicorn as conf

    found = {"worker_class": conf.worker_class, "workers": conf.workers}
    found |= {"backlog": getattr(conf, "backlog", 2048), "overrides": " ".join(options)}
    return found


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
    parser.add_argument("--pin", action="store_true", help="server on core 1, phones on core 0")
    parser.add_argument("--workers", type=int, help="gunicorn workers (config/gunicorn.py's)")
    parser.add_argument("--timeout", type=float, default=60.0, help="each phone's, in seconds")
    parser.add_argument("--records", type=Path, help="write every phone's timings (JSON) there")
    args = parser.parse_args()
    options = [f"--workers={args.workers}"] * bool(args.workers)
    server_cores = None
    if args.pin:
        os.sched_setaffinity(0, {0})
        server_cores = {1}

    folder = Path(tempfile.mkdtemp(prefix="bench-slips-"))
    embedded = args.server == "embedded"
    database_url = None if embedded else _postgres_database()
    redis_server, redis_url = (None, None) if embedded else _redis_start(folder)
    redis = redis_url is not None
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
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    for name in ("DATABASE_URL", "DEBUG"):
        if name not in env:
            os.environ.pop(name, None)
    os.environ.update({k: v for k, v in env.items() if k != "REDIS_URL"})
    if redis_url:
        os.environ["REDIS_URL"] = redis_url
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
        server = start(port, env, log, options, server_cores)
        _wait_healthy(port, server, healthy=embedded)
        _warm_up(port)
        load_before = os.getloadavg()
        opened = clock.round_open(round=drawn, actor=None)
        assert opened.deadline is not None
        deadline = opened.deadline.timestamp()
        cutoff = deadline + event.grace_seconds  # the server refuses what arrives after it
        rng = random.Random(2026)
        times = sorted(deadline - args.window + rng.uniform(0, args.window - 0.5) for _ in tokens)
        phones = [
            Phone(
                token=token,
                body=json.dumps(
                    {"round": opened.number, "ref": "H8", "word": word, "score": rng.randint(0, 80)}
                ).encode(),
                at=at,
            )
            for token, at in zip(tokens, times, strict=True)
        ]
        print(
            f"{args.phones} phones, round {opened.number} (rack {opened.rack}), "
            f"firing in the last {args.window:.0f} s "
            f"({args.server}, {'PostgreSQL' if database_url else 'SQLite'}, "
            f"{'Redis' if redis else 'LocMem'} cache{', pinned' if args.pin else ''}) ...",
            file=sys.stderr,
        )
        pids = _server_pids(server, database_url, redis_server)
        cpu_before = {part: _cpu_seconds(p) for part, p in pids.items()}
        fire(port, phones, args.timeout)
        pids = _server_pids(server, database_url, redis_server)
        cpu = _cpu_used(cpu_before, {part: _cpu_seconds(p) for part, p in pids.items()})
        load_after = os.getloadavg()
        stamped = dict(
            Submission.objects.filter(round=opened).values_list("player__token", "received_at")
        )
        figures = _figures(args, phones, stamped, cutoff)
        figures |= {
            "database": connection.vendor,
            "cache": "redis" if redis else "locmem",
            "pinned": args.pin,
            "server_configuration": _server_configuration(options) if not embedded else {},
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "cpu_ms_per_slip": {k: round(1000 * v / args.phones, 2) for k, v in cpu.items()},
        }
        if args.records:
            args.records.write_text(json.dumps([p.record() for p in phones]))
    finally:
        if server is not None:
            _stop(server)
        connection.close()
        if database_url:
            _postgres_drop(database_url)
        if redis_server is not None:
            _stop(redis_server)
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['server']}: phones {figures['phones']} on {figures['database']} + "
            f"{figures['cache']} (load {figures['load_average_before'][0]}): "
            f"accepted {figures['accepted_201']}, in the database {figures['slips_in_database']}, "
            f"lost {figures['lost']}, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, "
            f"max {figures['max_ms']} ms; sent after the deadline "
            f"{figures['sent_after_deadline']}, sent on time but refused "
            f"{figures['sent_on_time_but_refused']}, unanswered "
            f"{figures['sent_on_time_but_unanswered']}; stamp lag {figures['stamp_lag_ms']}; "
            f"CPU ms per slip {figures['cpu_ms_per_slip']}"
        )
        for answer, count in figures["other_answers"].items():
            print(f"  {count} x {answer}")
    ok = (
        figures["lost"] == 0
        and figures["sent_on_time_but_refused"] == 0
        and figures["sent_on_time_but_unanswered"] == 0
        and figures["p99_ms"] < figures["p99_target_ms"]
    )
    return 0 if ok else 1


def _figures(
    args: argparse.Namespace, phones: list[Phone], stamped: dict[str, Any], cutoff: float
) -> dict[str, Any]:
    """The run's figures; ``stamped``: each accepted slip's server stamp, by token."""
    accepted = [p for p in phones if p.status == 201]
    latencies = sorted(p.latency for p in phones)
    lags = sorted(stamped[p.token].timestamp() - p.sent for p in accepted if p.token in stamped)
    other: dict[str, int] = {}
    for p in phones:
        if p.status != 201:
            key = f"{p.status} {' '.join(p.answer.split())[:90]}"
            other[key] = other.get(key, 0) + 1
    return {
        "server": args.server,
        "phones": args.phones,
        "accepted_201": len(accepted),
        "slips_in_database": len(stamped),
        "lost": sum(1 for p in accepted if p.token not in stamped),
        "unanswered_but_stored": sum(1 for p in phones if p.status == 0 and p.token in stamped),
        "other_answers": other,
        "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
        "p99_ms": round(1000 * latencies[max(0, int(len(latencies) * 0.99) - 1)], 1),
        "max_ms": round(1000 * latencies[-1], 1),
        "errors": len(phones) - len(accepted),
        "p99_target_ms": P99_TARGET_MS[args.server],
        "stamp_lag_ms": quantiles(lags),
        **classify(phones, cutoff),
    }


if __name__ == "__main__":
    sys.exit(main())
