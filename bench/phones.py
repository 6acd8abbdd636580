"""The phones of ``bench/slips.py``: one asyncio loop (no thread per phone) sends each slip at its
time on a fresh connection to 127.0.0.1, and records, on the wall clock the server also stamps
with (``time.time()``), when the phone started to connect, when it was connected, when it sent
the request's first byte, and when the answer was read whole.

A phone that sends after the deadline is the generator's fault (the loop was late); one that
sent on time and was refused is the server's. ``classify`` tells them apart.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass
from typing import Any

HOST = "127.0.0.1"
TIMEOUT = 60.0  # seconds per phone (a browser waits longer): a run is bounded


@dataclass
class Phone:
    token: str
    body: bytes
    at: float  # when it should send (time.time())
    connect: float = 0.0  # when it started to connect
    connected: float = 0.0
    sent: float = 0.0  # when its first byte went to the kernel
    done: float = 0.0
    status: int = 0
    answer: str = ""
    retries: int = 0  # sent again (bench/room.py: as the phone's outbox does)

    @property
    def latency(self) -> float:
        """From the start of the connection to the whole answer, as a phone sees it."""
        return (self.done or self.connect) - self.connect

    def record(self) -> dict[str, Any]:
        return asdict(self) | {"body": self.body.decode()}


def _request(port: int, phone: Phone) -> bytes:
    head = (
        f"POST /api/v1/play/submissions HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
        f"Authorization: Bearer {phone.token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(phone.body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + phone.body


async def _send(port: int, phone: Phone, timeout: float) -> None:
    delay = phone.at - time.time()
    if delay > 0:
        await asyncio.sleep(delay)
    phone.connect = time.time()
    writer = None
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(HOST, port)
            phone.connected = time.time()
            request = _request(port, phone)
            phone.sent = time.time()
            writer.write(request)  # an empty buffer: sent at once, in this call
            await writer.drain()
            status_line = await reader.readline()
            rest = await reader.read()  # Connection: close: the answer ends with the stream
        phone.done = time.time()
        phone.status = int(status_line.split()[1]) if status_line.startswith(b"HTTP/") else 0
        _, _, body = rest.partition(b"\r\n\r\n")
        phone.answer = body.decode(errors="replace")
    except (OSError, TimeoutError, ValueError, IndexError) as exc:
        phone.done = time.time()
        phone.answer = f"{type(exc).__name__}: {exc}"
    finally:
        if writer is not None:
            writer.close()


async def _all(port: int, phones: list[Phone], timeout: float) -> None:
    await asyncio.gather(*(_send(port, phone, timeout) for phone in phones))


def fire(port: int, phones: list[Phone], timeout: float = TIMEOUT) -> None:
    """Send every phone's slip at its time; fills in each ``Phone``."""
    asyncio.run(_all(port, phones, timeout))


def classify(phones: list[Phone], cutoff: float) -> dict[str, Any]:
    """Who is to blame for each refusal, against the server's cutoff (deadline plus grace, as
    ``time.time()``): the phones that sent their first byte after it (the generator was late)
    and those that sent on time but were refused (the server's fault: must be 0), or had no
    answer within the phone's timeout (must be 0 too)."""
    sent_late = [p for p in phones if p.sent == 0.0 or p.sent > cutoff]
    on_time = [p for p in phones if 0.0 < p.sent <= cutoff]
    refused = [p for p in on_time if p.status not in (0, 201)]
    unanswered = [p for p in on_time if p.status == 0]
    connect_on_time = [p for p in sent_late if p.connect <= cutoff]
    wake = sorted(p.connect - p.at for p in phones)  # how late the loop woke each phone
    handshake = sorted(p.connected - p.connect for p in phones if p.connected)
    return {
        "sent_after_deadline": len(sent_late),
        "sent_after_deadline_but_connect_started_on_time": len(connect_on_time),
        "sent_on_time": len(on_time),
        "sent_on_time_but_refused": len(refused),
        "sent_on_time_refusals": _count(refused),
        "sent_on_time_but_unanswered": len(unanswered),
        "sent_on_time_unanswered": _count(unanswered),
        "sent_after_deadline_answers": _count(sent_late),
        "generator_wake_late_ms": quantiles(wake),
        "connect_ms": quantiles(handshake),
        "last_sent_before_cutoff_s": round(cutoff - max((p.sent for p in on_time), default=0), 3),
    }


def _count(phones: list[Phone]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for p in phones:
        key = f"{p.status} {' '.join(p.answer.split())[:90]}"
        counts[key] = counts.get(key, 0) + 1
    return counts


def quantiles(values: list[float]) -> dict[str, float]:
    """p50/p99/max in milliseconds of sorted ``values``."""
    if not values:
        return {}
    return {
        "p50": round(1000 * values[len(values) // 2], 1),
        "p99": round(1000 * values[max(0, int(len(values) * 0.99) - 1)], 1),
        "max": round(1000 * values[-1], 1),
    }
