"""``python manage.py run_embedded``: the whole product on one machine with no outside service.

Migrates the SQLite database, makes sure the demo event and the ``director`` account exist,
starts a Celery worker with an embedded beat (``celery -A config worker -B``) on the
filesystem broker as a child process, then runs the production web server (gunicorn with
uvicorn, ``web/management/server.py``: the live stream, the static files as in production).
A worker that exits on its own is started again (``WorkerSupervisor``: after 1 s, then 2, 4
... up to 30 s while it keeps dying), each time logged. Ctrl-C stops the server and the worker
(its whole process group).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.services import demo_event_ensure, director_user_ensure, known_password_replace
from web.management.phones import phones_lines
from web.management.server import child_command, serve

logger = logging.getLogger(__name__)

DIRECTOR_USERNAME = "director"
DIRECTOR_PASSWORD = "duplicate"  # the documented demo password (README, "Quick start")
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


def worker_command(parent_pid: int) -> list[str]:
    """The Celery worker (with an embedded beat) that run_embedded starts."""
    return child_command(
        parent_pid,
        "celery",
        "-A",
        "config",
        "worker",
        "-B",
        "-Q",
        "celery,tops,wordlists",
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
        "--without-mingle",
        "--without-gossip",
        "--hostname",
        "embedded@%h",
    )


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


class WorkerSupervisor:
    """Runs the worker in a thread of its own and starts it again whenever it exits on its own
    (a crash, a kill): after ``FIRST_DELAY`` seconds, doubled at each exit up to ``MAX_DELAY``,
    back to the first once a worker has run ``HEALTHY_SECONDS``. Each exit and each start again
    is logged. ``stop()`` stops the worker (SIGTERM, Celery's warm shutdown) for good."""

    FIRST_DELAY = 1.0
    MAX_DELAY = 30.0
    HEALTHY_SECONDS = 60.0

    def __init__(self, *, cwd: Path, log_path: Path) -> None:
        self.cwd = cwd
        self.log_path = log_path
        self.starts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, name="worker-supervisor", daemon=True)

    @property
    def pid(self) -> int | None:
        process = self._process
        return None if process is None else process.pid

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._thread.start()
        self._started.wait(timeout=30)

    def _spawn(self) -> subprocess.Popen[bytes]:
        with self.log_path.open("ab") as log:
            # Its own session, so Ctrl-C reaches only us and we stop its whole group in order.
            return subprocess.Popen(
                worker_command(os.getpid()),
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def _run(self) -> None:
        delay = self.FIRST_DELAY
        while True:
            with self._lock:
                if self._stopping.is_set():
                    break
                process = self._process = self._spawn()
                self.starts += 1
            self._started.set()
            started = time.monotonic()
            code = process.wait()
            _kill_group(process)  # its pool and its beat go with it
            if self._stopping.is_set():
                break
            ran = time.monotonic() - started
            if ran >= self.HEALTHY_SECONDS:
                delay = self.FIRST_DELAY
            logger.error(
                "The Celery worker (pid %d) exited with code %s after %.0f s: "
                "starting it again in %.0f s (see %s).",
                process.pid,
                code,
                ran,
                delay,
                self.log_path,
            )
            if self._stopping.wait(delay):
                break
            delay = min(delay * 2, self.MAX_DELAY)
        self._started.set()

    def stop(self, timeout: float = 15.0) -> bool:
        """Stop the worker and the supervision; False when it had to be killed."""
        with self._lock:
            self._stopping.set()
            process = self._process
        graceful = True
        if process is not None:
            # SIGTERM to the main process is Celery's warm shutdown: it stops its pool and beat.
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                graceful = False
            _kill_group(process)
            process.wait()
        self._thread.join(timeout=5)
        return graceful


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Whatever is left of the worker's process group (it leads its own session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


class Command(BaseCommand):
    help = "Run the product on its embedded defaults: SQLite, a filesystem broker, a worker."
    requires_system_checks: list[str] = []  # checked once, below, before anything starts

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host",
            default=None,
            help="Address to listen on (default 127.0.0.1; 0.0.0.0, every interface, when the "
            "phones' address is set: LAN=1 or PUBLIC_URL).",
        )
        parser.add_argument(
            "--port",
            type=int,
            default=None,
            help="Port to listen on (default: $PORT, else 8000).",
        )
        parser.add_argument(
            "--no-worker", action="store_true", help="Do not start the Celery worker."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        public_url: str | None = settings.PUBLIC_URL
        host: str = options["host"] or ("0.0.0.0" if public_url else "127.0.0.1")
        port: int = options["port"] or settings.PORT
        if settings.PUBLIC_URL_FOUND and port != settings.PORT:
            raise CommandError(
                f"--port {port}: with LAN=1 give the port as PORT={port} (make run-lan "
                f"PORT={port}), so that the phones' address carries it."
            )
        self._require_port(host, port)
        # Listening beyond this machine (the room's Wi-Fi): no debug page, no known password.
        open_to_network = host not in LOOPBACK_HOSTS
        if open_to_network and settings.DEBUG:
            raise CommandError(
                f"--host {host} with DEBUG on: the debug pages would be open to the network. "
                "Run make run-lan (LAN=1), which runs with DEBUG off."
            )
        self.check(display_num_errors=False)

        self.stdout.write("Migrating the database...")
        call_command("migrate", interactive=False, verbosity=0)
        if not settings.DEBUG:  # the static files are served as in production: collected
            call_command("collectstatic", interactive=False, verbosity=0)
        event = demo_event_ensure()
        director, created = director_user_ensure(
            username=DIRECTOR_USERNAME, password=DIRECTOR_PASSWORD
        )
        new_password = None
        if open_to_network:  # the demo's documented password must not open it to the room
            new_password = known_password_replace(
                username=DIRECTOR_USERNAME, known=DIRECTOR_PASSWORD
            )

        # Again, right before the server binds it: migrate and collectstatic take a while, in
        # which another program may have taken the port.
        self._require_port(host, port)
        worker: WorkerSupervisor | None = None
        log_path = Path(settings.VAR_DIR) / "log" / "worker.log"
        if not options["no_worker"]:
            worker = WorkerSupervisor(cwd=Path(settings.BASE_DIR), log_path=log_path)
            worker.start()

        # A SIGTERM (kill, a supervisor) stops us the same way as Ctrl-C does.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        phones = phones_lines(public_url, port, settings.LAN_ADDRESSES) if public_url else []
        demo = new_password is None and director.check_password(DIRECTOR_PASSWORD)
        password = self._password_line(demo, new_password)
        self._banner(host, port, event.name, password, worker is not None, log_path, phones)
        try:
            serve(host, port)  # the production server (web/management/server.py)
        finally:
            # A second signal (an impatient Ctrl-C, make forwarding SIGTERM) must not cut the
            # worker's shutdown short and leave it orphaned.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if worker is not None:
                self._stop_worker(worker)

    @staticmethod
    def _require_port(host: str, port: int) -> None:
        if not _port_free(host, port):
            raise CommandError(
                f"{host}:{port} is already in use: stop what runs there, or pass --port N."
            )

    def _stop_worker(self, worker: WorkerSupervisor) -> None:
        self.stdout.write("Stopping the Celery worker...")
        if not worker.stop(timeout=15):
            self.stdout.write("The worker did not stop in 15 s: killed it.")
        self.stdout.write("Stopped.")

    @staticmethod
    def _password_line(demo: bool, new_password: str | None) -> str:
        """What the banner says of the director's password (``demo``: the demo's still opens
        the account)."""
        if new_password is not None:
            return (
                f"{new_password}\n"
                f"              (new: '{DIRECTOR_PASSWORD}' opens nothing on the room's network; "
                "write this one down, it is shown once)"
            )
        if demo:
            return DIRECTOR_PASSWORD
        return (
            "the one make run-lan printed when it replaced the demo's (or yours)\n"
            f"              (forgotten: .venv/bin/python manage.py changepassword "
            f"{DIRECTOR_USERNAME})"
        )

    def _banner(
        self,
        host: str,
        port: int,
        event_name: str,
        password: str,
        with_worker: bool,
        log_path: Path,
        phones: list[str],
    ) -> None:
        shown = "127.0.0.1" if host in {"0.0.0.0", "::", ""} else host
        broker = "Redis" if settings.REDIS_URL else f"embedded folders in {settings.CELERY_DIR}"
        lines = [
            "",
            "=" * 66,
            f"  Duplicate Scrabble is running at http://{shown}:{port}/",
            f"  Log in as:  {DIRECTOR_USERNAME}  /  password: {password}",
            f"  Demo event: {event_name}",
            f"  Database:   {settings.DATABASES['default']['NAME']}",
            f"  Broker:     {broker}",
            "  Server:     gunicorn + uvicorn (as in production), one web process",
            "  Live:       changes pushed to phones, screens and consoles (Server-Sent Events;"
            " polling where a browser cannot)",
            (
                f"  Worker:     celery worker + beat, log in {log_path}"
                if with_worker
                else "  Worker:     not started (--no-worker)"
            ),
            *phones,
            "  Stop with Ctrl-C.",
            "=" * 66,
            "",
        ]
        self.stdout.write("\n".join(lines))
        self.stdout.flush()
