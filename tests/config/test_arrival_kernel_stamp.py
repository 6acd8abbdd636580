"""The production server stamps a request with the kernel's time of arrival of its first bytes
(config/gunicorn_worker.py), so a request that waited in the accept queue, or for a thread, is
still stamped when it came in."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.gunicorn_worker import ARRIVED_AT, SO_TIMESTAMPNS, kernel_arrival
from tests.config.settings_probe import ROOT

HOST = "127.0.0.1"


def echo_arrival(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """A WSGI app for the worker under test: answers the stamp it was given, and when."""
    if environ["PATH_INFO"] == "/slow":
        time.sleep(1.5)  # holds the only thread
    body = json.dumps({"stamp": environ.get(ARRIVED_AT), "served": time.time()}).encode()
    start_response(
        "200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    )
    return [body]


def _listener() -> socket.socket:
    listener = socket.socket()
    listener.bind((HOST, 0))
    listener.listen(8)
    listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    return listener


def _peer(listener: socket.socket, payload: bytes, *, wait: float) -> tuple[float, socket.socket]:
    """Send ``payload`` on a new connection, wait, then accept it: (when it was sent, accepted).
    The client stays open (held by the accepted socket): its end would be stamped too."""
    client = socket.create_connection(listener.getsockname())
    sent = time.time()
    client.sendall(payload)
    time.sleep(wait)
    accepted, _ = listener.accept()
    accepted.setblocking(False)
    _clients.append(client)
    return sent, accepted


_clients: list[socket.socket] = []


def test_the_kernel_stamp_is_when_the_bytes_came_in_not_when_they_are_read() -> None:
    listener = _listener()
    deadline = time.monotonic() + 5  # the kernel stamps the bytes it receives a moment later
    while time.monotonic() < deadline:  # (until then it gives the time they are read)
        sent, accepted = _peer(listener, b"x", wait=0.1)
        stamp = kernel_arrival(accepted)
        if stamp is not None and stamp < sent + 0.05:
            break
    sent, accepted = _peer(listener, b"POST / HTTP/1.1\r\n", wait=0.4)
    stamp = kernel_arrival(accepted)
    assert stamp is not None
    assert sent - 0.001 <= stamp <= sent + 0.1  # not 0.4 s later, when it was accepted
    assert accepted.recv(100) == b"POST / HTTP/1.1\r\n"  # peeked: nothing was consumed


def test_no_stamp_without_bytes_to_read() -> None:
    listener = _listener()
    client = socket.create_connection(listener.getsockname())
    accepted, _ = listener.accept()
    accepted.setblocking(False)
    assert kernel_arrival(accepted) is None  # nothing came in yet: the worker's clock then
    client.close()
    time.sleep(0.05)
    assert kernel_arrival(accepted) is None  # the end of the stream is no request


@pytest.fixture
def one_thread_server(tmp_path: Path) -> Iterator[int]:
    """The production settings with one worker, one thread and two connections at a time (at
    its limit, gthread's loop neither accepts nor reads): a second request waits for the first,
    unread, its bytes in the kernel."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = int(probe.getsockname()[1])
    log = (tmp_path / "gunicorn.log").open("wb")
    args = [str(Path(sys.executable).parent / "gunicorn"), f"{__name__}:echo_arrival"]
    args += ["-c", "config/gunicorn.py", "-b", f"{HOST}:{port}", "--workers", "1"]
    args += ["--threads", "1", "--worker-connections", "2", "--keep-alive", "0"]
    server = subprocess.Popen(args, cwd=ROOT, env=os.environ, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                _get(port, "/")
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


def _get(port: int, path: str) -> dict[str, Any]:
    with socket.create_connection((HOST, port), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(4096):
            answer += chunk
    return dict(json.loads(answer.partition(b"\r\n\r\n")[2]))


def test_a_request_queued_behind_a_busy_worker_is_stamped_when_it_came_in(
    one_thread_server: int,
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        slow = pool.submit(_get, one_thread_server, "/slow")
        time.sleep(0.3)  # the slow one holds the worker's only connection
        sent = time.time()
        queued = pool.submit(_get, one_thread_server, "/").result()
        slow.result()
    assert queued["served"] - sent > 1.0  # it did wait, unread
    assert sent - 0.001 <= queued["stamp"] <= sent + 0.2, (sent, queued)
