"""The production server stamps a request with the kernel's time of arrival of its first bytes
(config/gunicorn_worker.py), so a request that waited in the accept queue, or unread while the
event loop was busy, is still stamped when it came in.

The stamp rides on private pieces of asyncio (the selector transport's read) and of uvicorn
(its httptools protocol), whose versions pyproject.toml bounds: these tests fail on a version
that breaks them."""

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


async def echo_arrival(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI app for the worker under test: answers the stamp it was given, and when."""
    if scope["path"] == "/slow":
        time.sleep(1.5)  # holds the event loop: nothing else is read meanwhile
    stamp = (scope.get("extensions") or {}).get(ARRIVED_AT)
    body = json.dumps({"stamp": stamp, "served": time.time()}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


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
def one_loop_server(tmp_path: Path) -> Iterator[int]:
    """The production settings (config/gunicorn.py, its worker) with one worker: while it runs
    a request that holds its loop, a second request's bytes wait unread in the kernel."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port = int(probe.getsockname()[1])
    log = (tmp_path / "gunicorn.log").open("wb")
    args = [str(Path(sys.executable).parent / "gunicorn"), f"{__name__}:echo_arrival"]
    args += ["-c", "config/gunicorn.py", "-b", f"{HOST}:{port}", "--workers", "1"]
    args += ["--keep-alive", "0"]
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


def test_a_request_unread_behind_a_busy_loop_is_stamped_when_it_came_in(
    one_loop_server: int,
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        slow = pool.submit(_get, one_loop_server, "/slow")
        time.sleep(0.3)  # the slow one holds the worker's loop
        sent = time.time()
        queued = pool.submit(_get, one_loop_server, "/").result()
        slow.result()
    assert queued["served"] - sent > 1.0  # it did wait, unread
    assert sent - 0.001 <= queued["stamp"] <= sent + 0.2, (sent, queued)


def test_the_private_pieces_the_stamp_extends_are_still_there() -> None:
    """What config/gunicorn_worker.py overrides, by name: an upgrade that renames one fails
    here (and the test above says whether the stamp still comes from the kernel)."""
    import inspect
    from asyncio import selector_events

    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from config.gunicorn_worker import ArrivalEventLoop, ArrivalSocketTransport

    transport = selector_events._SelectorSocketTransport  # type: ignore[attr-defined]
    assert "_read_ready__data_received" in vars(transport)
    assert issubclass(ArrivalSocketTransport, transport)
    made = inspect.signature(selector_events.BaseSelectorEventLoop._make_socket_transport)
    assert list(made.parameters) == ["self", "sock", "protocol", "waiter", "extra", "server"]
    assert issubclass(ArrivalEventLoop, selector_events.BaseSelectorEventLoop)
    assert callable(HttpToolsProtocol.on_message_begin)
