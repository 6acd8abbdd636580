"""``manage.py run_embedded`` as a person starts it, in a temporary folder on a free port, for
the tests of what a start prints and serves. Its terminal goes to ``run.log``, its worker's
to ``log/worker.log``; leaving the block stops it (SIGTERM, as make sends it) and, should
anything be left, its process group."""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.config.settings_probe import ROOT, SCRUBBED


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return int(probe.getsockname()[1])


@dataclass
class Embedded:
    process: subprocess.Popen[bytes]
    port: int
    var_dir: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return (self.var_dir / "run.log").read_text()

    def worker_log(self) -> str:
        path = self.var_dir / "log" / "worker.log"
        return path.read_text() if path.exists() else ""

    def wait_for(self, text: str, *, worker: bool = False, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while text not in (self.worker_log() if worker else self.output()):
            assert self.process.poll() is None, self.output()
            assert time.monotonic() < deadline, (self.output(), self.worker_log())
            time.sleep(0.2)


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until something accepts connections on 127.0.0.1:``port`` (``process`` alive)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)


def python_run(
    *args: str, env: dict[str, str], prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the checkout, with this machine's settings variables left out and
    ``env`` added; ``prefix`` goes before (``unshare -n``)."""
    return subprocess.run(
        [*prefix, sys.executable, *args],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in SCRUBBED} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def environment(var_dir: Path, port: int, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env.update(VAR_DIR=str(var_dir), PORT=str(port), PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


@contextlib.contextmanager
def run_embedded(var_dir: Path, env: dict[str, str], *args: str) -> Iterator[Embedded]:
    """Start it, wait for its banner and for its server to answer, hand it over, stop it."""
    port = free_port()
    with (var_dir / "run.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "run_embedded", *args],
            cwd=ROOT,
            env=environment(var_dir, port, env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Embedded(process, port, var_dir)
    try:
        # gunicorn's uvicorn worker is serving (after migrate and collectstatic: DEBUG is off)
        server.wait_for("Started server process", seconds=180)
        wait_for_port(port, process, var_dir / "run.log")
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)


def director_session(port: int, password: str = "duplicate") -> urllib.request.OpenerDirector:
    """A browser on this machine signed in as the demo's director (``make run-lan`` prints
    the password it generated: ``lan_password``)."""
    base = f"http://127.0.0.1:{port}"
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    login_page = browser.open(f"{base}/accounts/login/").read().decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page)
    assert match is not None, login_page
    form = {"username": "director", "password": password, "csrfmiddlewaretoken": match[1]}
    browser.open(f"{base}/accounts/login/", data=urllib.parse.urlencode(form).encode()).read()
    return browser


def lan_password(output: str) -> str:
    """The director's password a LAN run printed in its banner (generated in place of the
    demo's)."""
    match = re.search(r"password: ([a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4})\n", output)
    assert match is not None, output
    return match[1]
