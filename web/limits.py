"""Limits on the long-lived and anonymous routes, set here and nowhere else (issue 34; the
figures and why in docs/reliability.md, "Limits on the live routes").

One client must not take a room down: before issue 34, 60,000 streams of the audience's page
from one host filled every web process's open files, and the slips sent on time were refused.
Each web process now counts what it holds (``Gate``, one per process, on its event loop):

- **every stream** (a phone's, a staff page's, the audience's) up to ``LIVE_STREAMS_PER_PROCESS``
  (5,000), and never past the process's open-files limit minus ``LIVE_RESERVED_FILES`` (1,000):
  those file handles stay for the slips, the staff's pages, the database and Redis. Past it a
  new stream is refused, 429 ``too_many_streams`` with ``Retry-After``;
- **per token**: a phone's token, or a staff page's session, holds ``LIVE_STREAMS_PER_TOKEN``
  (4) streams; a fifth ends the oldest of them (not the new one: the oldest is most likely a
  stream whose phone changed network, which the server learns of only when a write fails);
- **per client address**, for the anonymous routes: the audience's streams
  (``LIVE_PUBLIC_STREAMS_PER_ADDRESS``, 1,000 per process) and reads of its ``state.json``
  (``PUBLIC_POLLS_PER_ADDRESS``, 300 a second per process, bursts of twice that), 429
  ``too_many_streams`` or ``too_many_requests`` with ``Retry-After``. An audience shares its
  venue's address (the phones behind one router): a thousand streams per process is three
  thousand for the three processes of a node, more than a festival hall's audience; a phone
  polling every 2 s makes half a read a second, so 300 a second is 600 polling phones per
  process.

The streams' database lookups run on the hub's one thread (``web.live.hub``), never on the
request threads: the slips and the staff's pages keep their ``WEB_THREADS`` threads and their
database connections whatever the streams do.

A limit reached is logged once a minute at most, with how many were refused meanwhile
(``LimitLog``), never a line per refusal.
"""

from __future__ import annotations

import logging
import resource
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

log = logging.getLogger("web.limits")

STREAM_RETRY_SECONDS = 30  # a refused stream's Retry-After: the page polls meanwhile
POLL_RETRY_SECONDS = 2
LOG_EVERY_SECONDS = 60.0
ADDRESSES_KEPT = 10_000  # poll buckets remembered per process before the idle ones are dropped


def open_files_limit() -> int | None:
    """The process's soft limit of open files, or None when there is none."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


@dataclass(frozen=True)
class Limits:
    streams: int  # every stream of one process
    per_token: int  # a phone's token's, or a staff session's, streams
    public_per_address: int  # the audience's streams from one address (one process)
    polls_per_address: int  # state.json reads a second from one address (one process)

    @classmethod
    def from_settings(cls) -> Limits:
        streams: int = settings.LIVE_STREAMS_PER_PROCESS
        files = open_files_limit()
        if files is not None:
            streams = max(1, min(streams, files - settings.LIVE_RESERVED_FILES))
        return cls(
            streams=streams,
            per_token=settings.LIVE_STREAMS_PER_TOKEN,
            public_per_address=settings.LIVE_PUBLIC_STREAMS_PER_ADDRESS,
            polls_per_address=settings.PUBLIC_POLLS_PER_ADDRESS,
        )


@dataclass
class LimitLog:
    """One line per limit reached per minute: the first refusal is logged at once, the next
    ones counted and said with the next line, a minute later at the earliest."""

    every: float = LOG_EVERY_SECONDS
    last: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def reached(self, limit: str, figure: int, where: str) -> bool:
        """Count a refusal; True when a line was written."""
        now = time.monotonic()
        self.counts[limit] = self.counts.get(limit, 0) + 1
        if now - self.last.get(limit, -self.every) < self.every:
            return False
        refused = self.counts.pop(limit)
        self.last[limit] = now
        log.warning(
            "limit reached: %s (%d), %s; %d refused or ended since the last line",
            limit,
            figure,
            where,
            refused,
        )
        return True


@dataclass(frozen=True)
class Refusal:
    code: str  # too_many_streams, too_many_requests
    retry_after: int
    limit: str


@dataclass(eq=False)
class Ticket:
    """A stream admitted: what ``release`` gives back."""

    token: str | None
    address: str | None
    closer: Any  # what ends the stream (the hub's Client): ``.close()``
    released: bool = False


class Gate:
    """The counts of one web process (its event loop only: no lock)."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits.from_settings()
        self.streams = 0
        self.by_token: dict[str, deque[Ticket]] = {}
        self.public_by_address: dict[str, int] = {}
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self.log = LimitLog()

    def stream_refusal(self, *, public_address: str | None = None) -> Refusal | None:
        """Why a new stream is refused now (None: it may open): the process's streams, and for
        the audience's page its address's."""
        limits = self.limits
        if self.streams >= limits.streams:
            self.log.reached("streams per process", limits.streams, "new streams refused")
            return Refusal("too_many_streams", STREAM_RETRY_SECONDS, "process")
        if (
            public_address is not None
            and self.public_by_address.get(public_address, 0) >= limits.public_per_address
        ):
            self.log.reached(
                "audience streams per address",
                limits.public_per_address,
                f"from {public_address}",
            )
            return Refusal("too_many_streams", STREAM_RETRY_SECONDS, "address")
        return None

    def admit(
        self, *, closer: Any, token: str | None = None, public_address: str | None = None
    ) -> Ticket:
        """Count a stream in (after ``stream_refusal`` said yes). A token past its streams ends
        its oldest one."""
        ticket = Ticket(token, public_address, closer)
        self.streams += 1
        if public_address is not None:
            self.public_by_address[public_address] = (
                self.public_by_address.get(public_address, 0) + 1
            )
        if token is not None:
            held = self.by_token.setdefault(token, deque())
            held.append(ticket)
            while len(held) > self.limits.per_token:
                oldest = held.popleft()
                self.log.reached(
                    "streams per token", self.limits.per_token, "the oldest stream ended"
                )
                self._release(oldest)
                oldest.closer.close()
        return ticket

    def release(self, ticket: Ticket) -> None:
        self._release(ticket)
        if ticket.token is not None:
            held = self.by_token.get(ticket.token)
            if held is not None:
                if ticket in held:
                    held.remove(ticket)
                if not held:
                    del self.by_token[ticket.token]

    def _release(self, ticket: Ticket) -> None:
        if ticket.released:
            return
        ticket.released = True
        self.streams -= 1
        address = ticket.address
        if address is not None:
            left = self.public_by_address.get(address, 0) - 1
            if left > 0:
                self.public_by_address[address] = left
            else:
                self.public_by_address.pop(address, None)

    def poll_refusal(self, address: str) -> Refusal | None:
        """A read of the audience's state from ``address``: a token bucket of
        ``polls_per_address`` a second, holding twice that."""
        rate = float(self.limits.polls_per_address)
        now = time.monotonic()
        tokens, when = self.buckets.get(address, (2 * rate, now))
        tokens = min(2 * rate, tokens + (now - when) * rate)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            self.log.reached(
                "audience reads per address", self.limits.polls_per_address, f"from {address}"
            )
            return Refusal("too_many_requests", POLL_RETRY_SECONDS, "address")
        if len(self.buckets) >= ADDRESSES_KEPT and address not in self.buckets:
            self.buckets = {a: b for a, b in self.buckets.items() if b[0] + 1 < 2 * rate}
            if len(self.buckets) >= ADDRESSES_KEPT:  # that many addresses busy: start again
                self.buckets = {}
        self.buckets[address] = (tokens - 1, now)
        return None


_gate: Gate | None = None


def gate() -> Gate:
    """The process's gate (made at its first use, with the settings of then)."""
    global _gate
    if _gate is None:
        _gate = Gate()
    return _gate


def gate_reset() -> None:
    """Forget the counts (tests that change the settings)."""
    global _gate
    _gate = None
