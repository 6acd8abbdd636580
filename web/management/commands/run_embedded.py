"""``python manage.py run_embedded``: the whole product on one machine with no outside service.

Migrates the SQLite database, makes sure the demo event and the ``director`` account exist,
starts a Celery worker with an embedded beat (``celery -A config worker -B``) on the
filesystem broker as a child process, then runs Django's development server. Ctrl-C stops
the server and the worker (its whole process group).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.env import env_int
from tournament.services import demo_event_ensure, director_user_ensure

DIRECTOR_USERNAME = "director"
DIRECTOR_PASSWORD = "duplicate"  # the documented demo password (README, "Quick start")


def worker_command() -> list[str]:
    """The Celery worker (with an embedded beat) that run_embedded starts."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-B",
        "-Q",
        "celery,tops",
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
        "--without-mingle",
        "--without-gossip",
        "--hostname",
        "embedded@%h",
    ]


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _stop_with_parent() -> None:
    """In the worker, before exec: on Linux, get SIGTERM if run_embedded dies (even killed)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Command(BaseCommand):
    help = "Run the product on its embedded defaults: SQLite, a filesystem broker, a worker."
    requires_system_checks: list[str] = []  # checked once, below, before anything starts

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host", default="127.0.0.1", help="Address to listen on (default 127.0.0.1)."
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
        host: str = options["host"]
        port: int = options["port"] or env_int("PORT", 8000, minimum=1, maximum=65535)
        if not _port_free(host, port):
            raise CommandError(
                f"{host}:{port} is already in use: stop what runs there, or pass --port N."
            )
        self.check(display_num_errors=False)

        self.stdout.write("Migrating the database...")
        call_command("migrate", interactive=False, verbosity=0)
        event = demo_event_ensure()
        _, created = director_user_ensure(username=DIRECTOR_USERNAME, password=DIRECTOR_PASSWORD)

        worker: subprocess.Popen[bytes] | None = None
        log_path = Path(settings.VAR_DIR) / "log" / "worker.log"
        if not options["no_worker"]:
            worker = self._start_worker(log_path)

        # A SIGTERM (kill, a supervisor) stops us the same way as Ctrl-C does.
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
        self._banner(host, port, event.name, created, worker is not None, log_path)
        try:
            call_command("runserver", f"{host}:{port}", use_reloader=False, skip_checks=True)
        finally:
            # A second signal (an impatient Ctrl-C, make forwarding SIGTERM) must not cut the
            # worker's shutdown short and leave it orphaned.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if worker is not None:
                self._stop_worker(worker)

    def _start_worker(self, log_path: Path) -> subprocess.Popen[bytes]:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log = log_path.open("ab")
        # Its own session, so Ctrl-C reaches only us and we stop its whole group in order.
        worker = subprocess.Popen(
            worker_command(),
            cwd=settings.BASE_DIR,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_stop_with_parent,
        )
        log.close()
        return worker

    def _stop_worker(self, worker: subprocess.Popen[bytes]) -> None:
        self.stdout.write("Stopping the Celery worker...")
        # SIGTERM to the main process is Celery's warm shutdown: it stops its pool and beat.
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.stdout.write("The worker did not stop in 15 s: killing it.")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)  # whatever is left of its group
        worker.wait()
        self.stdout.write("Stopped.")

    def _banner(
        self,
        host: str,
        port: int,
        event_name: str,
        created: bool,
        with_worker: bool,
        log_path: Path,
    ) -> None:
        shown = "127.0.0.1" if host in {"0.0.0.0", ""} else host
        password = DIRECTOR_PASSWORD if created else f"{DIRECTOR_PASSWORD} (unless you changed it)"
        broker = "Redis" if settings.REDIS_URL else f"embedded folders in {settings.CELERY_DIR}"
        lines = [
            "",
            "=" * 66,
            f"  Duplicate Scrabble is running at http://{shown}:{port}/",
            f"  Log in as:  {DIRECTOR_USERNAME}  /  password: {password}",
            f"  Demo event: {event_name}",
            f"  Database:   {settings.DATABASES['default']['NAME']}",
            f"  Broker:     {broker}",
            (
                f"  Worker:     celery worker + beat, log in {log_path}"
                if with_worker
                else "  Worker:     not started (--no-worker)"
            ),
            "  Stop with Ctrl-C.",
            "=" * 66,
            "",
        ]
        self.stdout.write("\n".join(lines))
        self.stdout.flush()
