"""The whole product as real processes in a temporary folder, for the fault tests: its own
``redis-server`` on a free port (never the shared 127.0.0.1:6379), a Celery worker, beat,
gunicorn, and a SQLite file they all share. Each process runs in its own session, so a test
can kill one (SIGKILL included) and start it again; ``close()`` stops whatever is left, by
process group id, and only what this stack started.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.config.settings_probe import ROOT
from tests.conftest import services_required

HOST = "127.0.0.1"

# A round of 6 s with 1 s of grace; the three players' tokens come back as JSON.
SETUP = """
import datetime as dt, json
from arbiter.services import racks
from tournament.models import Event
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.players import player_register
event = event_create(name="Fault night", starts_on=dt.date(2026, 5, 1), actor=None)
Event.objects.filter(pk=event.pk).update(
    round_seconds={seconds}, warning_seconds=1, grace_seconds=1
)
event.refresh_from_db()
players = [
    player_register(event=event, name=name, table=i + 1, actor=None)
    for i, name in enumerate({names!r})
]
game = game_create(event=event, actor=None, seed=7)
drawn = racks.round_draw(game=game, actor=None)
print(json.dumps({{"round": drawn.pk, "number": drawn.number, "rack": drawn.rack,
                  "tokens": {{p.name: p.token for p in players}}}}))
"""

OPEN = """
from arbiter.services import clock
from tournament.models import Round
clock.round_open(round=Round.objects.get(pk={round}), actor=None)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def redis_server_binary() -> str:
    """``redis-server`` on PATH; skips the test without it (fails under REQUIRE_SERVICES)."""
    binary = shutil.which("redis-server")
    if binary is None:
        reason = "the fault tests start their own redis-server, and none is on PATH"
        if services_required():
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return binary


@dataclass
class Process:
    name: str
    args: list[str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self, sig: signal.Signals = signal.SIGKILL) -> None:
        """Send ``sig`` to the process's whole group (its pool children too), then reap it."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        # A SIGKILL leaves no one to stop the pool's children: they go with the group.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


@dataclass
class Stack:
    folder: Path
    embedded: bool = False  # run_embedded's defaults: no Redis, the folder broker, DEBUG on
    database_url: str | None = None  # PostgreSQL (the two-node test); else a SQLite file
    redis_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    processes: list[Process] = field(default_factory=list)
    extra_env: dict[str, str] = field(default_factory=dict)  # over the defaults, every process

    # --- Environment and set-up ----------------------------------------------------------

    @property
    def redis_url(self) -> str:
        return f"redis://{HOST}:{self.redis_port}/0"

    @property
    def env(self) -> dict[str, str]:
        scrub = {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}
        env = {k: v for k, v in os.environ.items() if k not in scrub}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            VAR_DIR=str(self.folder / "var"),
            STATIC_ROOT=str(self.folder / "static"),
            DATABASE_URL=self.database_url or f"sqlite:///{self.folder}/db.sqlite3",
            ROUNDS_SWEEP_SECONDS="1",
            HEALTH_HEARTBEAT_SECONDS="1",
            WORD_LIST_HEARTBEAT_SECONDS="1",
            WORD_LIST_SILENT_SECONDS="10",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
            # The stacks start the rounds' worker; the word lists' one only where a test needs it
            # (and sets HEALTH_QUEUES itself). run_embedded's worker consumes all three.
            HEALTH_QUEUES="celery,tops" if not self.embedded else "celery,tops,wordlists",
        )
        if not self.embedded:
            env.update(
                REDIS_URL=self.redis_url,
                DEBUG="false",
                SECRET_KEY="fault-tests-" + "s" * 40,
                ALLOWED_HOSTS=HOST,
            )
        env.update(self.extra_env)
        return env

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout

    def migrate(self, template: Path | None = None) -> None:
        """Migrate, or copy an already migrated database file (much faster)."""
        if template is not None and template.exists():
            shutil.copy(template, self.folder / "db.sqlite3")
        else:
            self.manage("migrate", "-v0")
            with sqlite3.connect(self.folder / "db.sqlite3") as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the one file

    def round_drawn(self, *, names: list[str], seconds: int) -> dict[str, Any]:
        out = self.manage("shell", "-c", SETUP.format(names=names, seconds=seconds))
        return dict(json.loads(out.strip().splitlines()[-1]))

    def round_open(self, round_id: int) -> None:
        self.manage("shell", "-c", OPEN.format(round=round_id))

    # --- Processes -----------------------------------------------------------------------

    def start(
        self,
        name: str,
        args: list[str],
        *,
        ready: Callable[[Process], bool],
        env: dict[str, str] | None = None,
    ) -> Process:
        """Start ``args`` as ``name`` (its log ``<name>.log``), with ``env`` over the stack's."""
        process = Process(name, args, self.folder / f"{name}.log")
        with process.log.open("ab") as out:
            process.proc = subprocess.Popen(
                args,
                cwd=ROOT,
                env={**self.env, **(env or {})},
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self.processes.append(process)
        deadline = time.monotonic() + 45
        while not ready(process):
            assert process.alive(), f"{name} exited:\n{process.output()[-3000:]}"
            assert time.monotonic() < deadline, f"{name} not ready:\n{process.output()[-3000:]}"
            time.sleep(0.1)
        return process

    def redis(self) -> Process:
        def answers(_: Process) -> bool:
            try:
                with socket.create_connection((HOST, self.redis_port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    return s.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        args = [redis_server_binary(), "--port", str(self.redis_port), "--bind", HOST]
        args += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        return self.start("redis", args, ready=answers)

    def worker(
        self,
        name: str = "worker",
        *,
        queues: str = "celery,tops",
        concurrency: int = 2,
        options: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> Process:
        """A Celery worker of ``queues`` (the rounds' by default; ``wordlists``: the compiles')."""
        args = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queues]
        args += ["--concurrency", str(concurrency), "--loglevel", "INFO"]
        args += ["--hostname", f"{name}@%h", *options]
        return self.start(name, args, ready=lambda p: " ready." in p.output(), env=env)

    def beat(self) -> Process:
        args = [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"]
        return self.start("beat", args, ready=lambda p: "beat: Starting" in p.output())

    def web(self, name: str = "web", *, port: int | None = None, workers: int = 2) -> Process:
        """The production server (gunicorn, config/gunicorn.py) on ``port`` (``web_port``)."""
        port = port or self.web_port
        args = [str(Path(sys.executable).parent / "gunicorn"), "config.asgi"]
        args += ["-c", "config/gunicorn.py", "-w", str(workers), "-b", f"{HOST}:{port}"]
        return self.start(name, args, ready=lambda p: self.healthz(port)[0] != 0)

    def run_embedded(self) -> Process:
        """``manage.py run_embedded``: Django's server, and the worker (with beat) it supervises."""
        args = [sys.executable, "manage.py", "run_embedded", "--port", str(self.web_port)]
        return self.start("run_embedded", args, ready=lambda p: self.healthz()[0] == 200)

    def children_of(self, parent: Process, *, marker: str) -> list[int]:
        """Live processes whose parent is ``parent`` and whose command line holds ``marker``."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                status = (entry / "status").read_text()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            ppid = int(status.split("PPid:")[1].split()[0])
            if ppid == parent.pid and marker in cmdline and "State:\tZ" not in status:
                pids.append(int(entry.name))
        return pids

    def close(self) -> None:
        """Stop what is left, Redis last (a worker stopping does not need it, but is quieter)."""
        ordered = sorted(reversed(self.processes), key=lambda p: p.name == "redis")
        for process in ordered:
            process.kill(signal.SIGTERM if process.name != "redis" else signal.SIGKILL)

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name} (pid {p.pid}) ---\n{p.output()[-2500:]}" for p in self.processes
        )

    # --- HTTP and the database -----------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: object = None,
        port: int | None = None,
    ) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            conn = http.client.HTTPConnection(HOST, port or self.web_port, timeout=15)
            payload = None if body is None else json.dumps(body).encode()
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
            conn.close()
        except OSError:
            return 0, None
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, text[:300]

    def healthz(self, port: int | None = None) -> tuple[int, Any]:
        return self.request("GET", "/healthz", port=port)

    def slip(
        self, token: str, *, round: int, word: str, ref: str, score: int, port: int | None = None
    ) -> tuple[int, Any]:
        body = {"round": round, "word": word, "ref": ref, "score": score}
        return self.request("POST", "/api/v1/play/submissions", token=token, body=body, port=port)

    def query(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.folder / "db.sqlite3", timeout=20) as db:
            return db.execute(sql, params).fetchall()

    def round_status(self, round_id: int) -> str:
        return str(self.query("SELECT status FROM tournament_round WHERE id = ?", round_id)[0][0])

    def wait_until(self, what: str, check: Callable[[], bool], *, seconds: float) -> float:
        """Poll ``check`` until it holds; the seconds it took. Fails with every log."""
        started = time.monotonic()
        while not check():
            if time.monotonic() - started > seconds:
                raise AssertionError(f"{what}: not within {seconds} s\n{self.logs()}")
            time.sleep(0.1)
        return time.monotonic() - started

    def slips_stored(self, round_id: int) -> dict[str, str]:
        rows = self.query(
            "SELECT p.name, s.word FROM tournament_submission s "
            "JOIN tournament_player p ON p.id = s.player_id WHERE s.round_id = ?",
            round_id,
        )
        return {str(name): str(word) for name, word in rows}

    def rulings(self, round_id: int) -> dict[str, str]:
        rows = self.query(
            "SELECT p.name, r.code FROM tournament_ruling r "
            "JOIN tournament_player p ON p.id = r.player_id WHERE r.round_id = ?",
            round_id,
        )
        return {str(name): str(code) for name, code in rows}


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A redis-server of the test's own on a free port, for the test's length: its URL. Nothing
    else uses it, so the test may empty it; the shared 127.0.0.1:6379 is left alone."""
    folder.mkdir(parents=True, exist_ok=True)
    stack = Stack(folder)
    stack.redis()
    try:
        yield stack.redis_url
    finally:
        stack.close()
