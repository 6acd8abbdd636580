"""The web process's handler (config/asgi.py) runs each request's Python on one of a few
long-lived threads: a call still queued when its request is cancelled (Django cancels a request
whose client disconnects) never runs."""

from __future__ import annotations

import asyncio
import threading
import time

from asgiref.sync import ThreadSensitiveContext, sync_to_async

from config.asgi import CountingExecutor


def test_a_call_queued_behind_a_busy_thread_never_runs_once_its_request_is_cancelled() -> None:
    ran: list[str] = []
    started = threading.Event()

    def busy() -> None:
        started.set()
        time.sleep(0.5)
        ran.append("busy")

    async def main() -> None:
        executor = CountingExecutor("test")
        async with ThreadSensitiveContext(executor=executor):
            first = asyncio.create_task(sync_to_async(busy)())
            while not started.is_set():
                await asyncio.sleep(0.01)
            gone = asyncio.create_task(sync_to_async(ran.append)("gone"))
            await asyncio.sleep(0.05)
            assert executor.pending == 2  # one running, one waiting its turn
            gone.cancel()  # the client went away while it waited
            await first
            await asyncio.sleep(0.1)
        executor.shutdown(wait=True)

    asyncio.run(main())
    assert ran == ["busy"]
