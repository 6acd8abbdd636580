"""ASGI entry point: the web process, ``gunicorn config.asgi -c config/gunicorn.py`` (uvicorn
workers, config/gunicorn_worker.py).

Django's own ASGI handler runs each request's sync code (middleware, views, the ORM) on a new
thread of its own. Here it runs on one of ``WEB_THREADS`` long-lived threads per process
(``ThreadedASGIHandler``), the least busy when the request comes in, through asgiref's
``ThreadSensitiveContext(executor=...)``:

- a thread keeps its database connection (``CONN_MAX_AGE``), where a thread per request opened
  one per request (or borrowed one from a pool, checked and configured each time): measured with
  ``bench/slips.py``, 17-18 ms of web processor time per slip against 10 on gthread;
- the sync work waits its turn in a bounded queue, first come first served, instead of every
  request's thread fighting for the interpreter at once;
- a request whose client has gone while it waited is never run: Django cancels the request when
  the client disconnects, and a call still queued in the executor is cancelled with it
  (tests/config/test_asgi_server.py).

The live routes (``web.live.asgi``: the streams, the phones' unchanged polls) are answered on
the event loop before Django, and never hold a thread while they stream.

A body's size is bounded before Django reads it: Django's ASGI handler reads the whole body
(to memory, then a temporary file) before any middleware runs, and neither uvicorn nor
gunicorn limits it. A request whose ``Content-Length`` passes the path's limit
(``web.middleware.body_limit``) is answered 413 without a byte read; one sent in chunks with
no length is counted as it comes and answered 413 as soon as it passes the limit.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# WhiteNoise's files are read in a thread by Django's handler: small, and said once is enough.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators", category=Warning
)


class CountingExecutor(ThreadPoolExecutor):
    """One thread, counting the calls submitted and not yet finished."""

    def __init__(self, name: str) -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self.pending = 0
        self._count = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._count:
            self.pending += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _: Future[Any]) -> None:
        with self._count:
            self.pending -= 1


class _BodyTooLarge(Exception):
    def __init__(self, received: int) -> None:
        self.received = received


def _header(scope: Any, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


async def _too_large(scope: Any, send: Any, length: int) -> None:
    from web.middleware import too_large_answer

    path = scope.get("path", "")
    content_type, body = too_large_answer(path, length, _header(scope, b"accept-language"))
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", content_type.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class ThreadedASGIHandler(ASGIHandler):
    """Django's ASGI handler, each request's sync code on one of ``threads`` threads."""

    def __init__(self, threads: int) -> None:
        BaseHandler.__init__(self)  # not ASGIHandler's: it loads the middleware in async mode
        self.load_middleware(is_async=False)
        self.executors = [CountingExecutor(f"request-{i}") for i in range(threads)]

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The whole middleware chain, the URL's resolution and the view in one call on the
        request's thread. Django's async mode, with sync middleware and views, went from the
        thread back to the event loop to resolve the URL and then to the thread again for the
        view: three hand-overs a request instead of one."""
        response: HttpResponseBase = await sync_to_async(self.get_response)(request)
        return response

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        from web.middleware import body_limit

        limit = body_limit(scope.get("path", ""))
        length = _header(scope, b"content-length")
        if length.isascii() and length.isdigit() and int(length) > limit:
            await _too_large(scope, send, int(length))  # not a byte of it read
            return
        received = 0

        async def bounded(receive: Any = receive) -> Any:
            nonlocal received
            message = await receive()
            if message.get("type") == "http.request":
                received += len(message.get("body", b""))
                if received > limit:  # a body in chunks, with no length
                    raise _BodyTooLarge(received)
            return message

        executor = min(self.executors, key=lambda e: e.pending)
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, bounded, send)
        except _BodyTooLarge as exc:
            await _too_large(scope, send, exc.received)


def get_application() -> Any:
    """Django's handler (``ThreadedASGIHandler``) with the live routes in front (``web.live``:
    the streams and the phones' unchanged polls, answered on the event loop)."""
    import django

    django.setup(set_prefix=False)
    from django.conf import settings
    from django.urls import get_resolver

    from web.live.asgi import live_application
    from web.outage import SlipArrivals

    # The URLs, and every view they import, loaded as the worker starts rather than by its first
    # request: in a room, one of the first slips at the deadline (a few hundred ms each time).
    get_resolver().url_patterns  # noqa: B018
    # A slip's first arrival is recorded before it waits for a thread (web/outage.py).
    return live_application(SlipArrivals(ThreadedASGIHandler(threads=settings.WEB_THREADS)))


application = get_application()
