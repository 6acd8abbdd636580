"""gunicorn's worker for the web process: uvicorn (the ``uvicorn-worker`` package) running the
ASGI application, stamping when each request arrived.

Why ASGI: a phone, a projection screen or a console stays connected to ``web.live``'s stream
(Server-Sent Events) for the whole evening; an asyncio worker holds thousands of idle
connections for almost nothing, where a thread per connection (gthread) could not. Django runs
the ordinary (sync) views in a thread per request (asgiref), so nothing else changes for them.

The arrival stamp. A room hands in its slips in the same seconds; a request can wait before
Django sees it (in the kernel's accept queue, then unread while the event loop is busy), so a
stamp taken in Django can fall after the deadline for a slip the phone sent well before it. The
kernel knows when the bytes came in: ``SO_TIMESTAMPNS`` on the listening socket (the accepted
ones inherit it), read with a ``MSG_PEEK`` just before the event loop reads the socket. Two
pieces of private interface carry it (``tests/config/test_arrival_kernel_stamp.py`` fails on an
upgrade that breaks them; the versions are pinned in pyproject.toml):

- asyncio's selector transport: ``ArrivalEventLoop._make_socket_transport`` makes an
  ``ArrivalSocketTransport``, whose ``_read_ready__data_received`` peeks the stamp of the oldest
  unread bytes, then reads as asyncio does;
- uvicorn's httptools protocol: ``ArrivalHttpToolsProtocol.on_message_begin`` (called while the
  bytes that begin a request are parsed, in the same read) puts the stamp in the request's ASGI
  scope, ``scope["extensions"]["duplicate.arrived_at"]`` (seconds since the epoch): a key no
  client can set, unlike a header. ``web.arrival`` reads it.

The kernel stamps what it receives (when it merges segments waiting to be read, the stamp is the
latest's: still no later than the request's last bytes); the worker's own clock is taken when it
gives no stamp (TLS, not Linux). ``bench/slips.py`` measures how late the stamp is against when
the phone sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import struct
import sys
import time
from asyncio import selector_events
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from config.log_episodes import RefusalsCounted
from web.redaction import RedactTokensFilter

ARRIVED_AT = "duplicate.arrived_at"
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; the socket module lacks it
_TIMESPEC = struct.Struct("qq")  # struct timespec on 64-bit Linux: seconds, nanoseconds
_ANCILLARY = socket.CMSG_SPACE(_TIMESPEC.size)


def kernel_arrival(sock: socket.socket) -> float | None:
    """When the kernel received the oldest unread bytes of ``sock`` (a non-blocking socket with
    ``SO_TIMESTAMPNS``), without consuming them; None when it cannot tell."""
    try:
        data, ancillary, _, _ = sock.recvmsg(1, _ANCILLARY, socket.MSG_PEEK)
    except (OSError, NotImplementedError):  # gone, nothing to read, or TLS: the clock then
        return None
    for level, kind, payload in ancillary:
        if data and level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
            seconds: int
            nanoseconds: int
            seconds, nanoseconds = _TIMESPEC.unpack(payload[: _TIMESPEC.size])
            return seconds + nanoseconds / 1e9
    return None


class ArrivalSocketTransport(selector_events._SelectorSocketTransport):  # type: ignore[name-defined,misc]
    """asyncio's socket transport, noting in its extra info when the bytes it is about to read
    came in (``transport.get_extra_info(ARRIVED_AT)``)."""

    def _read_ready__data_received(self) -> None:
        if not self._conn_lost:
            now = time.time()
            stamp = kernel_arrival(self._sock)
            self._extra[ARRIVED_AT] = stamp if stamp is not None and stamp <= now else now
        super()._read_ready__data_received()


class ArrivalEventLoop(asyncio.SelectorEventLoop):
    """The selector event loop, whose accepted connections get an ``ArrivalSocketTransport``."""

    def _make_socket_transport(
        self,
        sock: socket.socket,
        protocol: asyncio.BaseProtocol,
        waiter: asyncio.Future[Any] | None = None,
        *,
        extra: dict[str, Any] | None = None,
        server: Any = None,
    ) -> asyncio.Transport:
        ensure = getattr(self, "_ensure_fd_no_transport", None)  # Python 3.12+
        if ensure is not None:
            ensure(sock)
        transport: asyncio.Transport = ArrivalSocketTransport(
            self, sock, protocol, waiter, extra, server
        )
        return transport


class ArrivalHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, putting each request's arrival in its ASGI scope."""

    def on_message_begin(self) -> None:
        super().on_message_begin()
        stamp = self.transport.get_extra_info(ARRIVED_AT)
        arrived = stamp if stamp is not None else time.time()
        self.scope["extensions"] = {ARRIVED_AT: arrived}  # type: ignore[dict-item]


def _exit_quietly(signum: int, frame: Any) -> None:
    sys.exit(0)


class ArrivalUvicornWorker(UvicornWorker):  # type: ignore[misc]  # gunicorn is untyped
    """uvicorn's gunicorn worker with the arrival stamp, and an access log without tokens."""

    CONFIG_KWARGS = {
        "loop": "config.gunicorn_worker:ArrivalEventLoop",  # a loop factory: the class
        "http": "config.gunicorn_worker:ArrivalHttpToolsProtocol",
        "lifespan": "off",  # Django has no lifespan handler
        "server_header": False,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        access = logging.getLogger("uvicorn.access")
        access.addFilter(RedactTokensFilter())
        access.addFilter(RefusalsCounted())  # a limit's 429s: one line a minute, with the count

    def init_signals(self) -> None:
        super().init_signals()
        # uvicorn stops gracefully on SIGTERM or SIGINT, then raises the signal again with the
        # handler found at start; gunicorn's default there (death by the signal) reads to the
        # arbiter as "Worker was sent SIGTERM!", an error: this worker exits 0 instead.
        for stop in (signal.SIGTERM, signal.SIGINT):
            signal.signal(stop, _exit_quietly)

    def run(self) -> None:
        for listener in self.sockets:  # shared by the workers: setting it again is harmless
            with contextlib.suppress(OSError):  # not Linux, not TCP: the worker's clock then
                listener.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        super().run()
