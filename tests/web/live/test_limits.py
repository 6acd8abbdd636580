"""The live routes' limits (web/limits.py, issue 34): one client cannot take the room down.

First the process's counts on their own (every stream, an address's, a token's; the audience's
reads; one log line per limit per minute), then the production server (gunicorn, two uvicorn
workers, its own redis-server; tests/faults/stack.py) with small limits: one client opens more
of the audience's streams than allowed and is answered 429 with ``Retry-After`` and a code,
while a phone's slip still goes through and the staff's API still answers."""

from __future__ import annotations

import http.client
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faults.stack import HOST, Stack
from tests.web.live.sse import Stream
from web.limits import Gate, LimitLog, Limits


class Closer:
    closed = False

    def close(self) -> None:
        self.closed = True


def _gate(**figures: int) -> Gate:
    limits = {"streams": 10, "per_token": 2, "public_per_address": 3, "polls_per_address": 5}
    return Gate(Limits(**(limits | figures)))


def test_a_process_refuses_streams_past_its_figure_and_takes_them_again_once_one_ends() -> None:
    gate = _gate(streams=3)
    tickets = []
    for _ in range(3):
        assert gate.stream_refusal() is None
        tickets.append(gate.admit(closer=Closer()))
    refused = gate.stream_refusal()
    assert refused is not None and refused.code == "too_many_streams"
    assert refused.retry_after > 0
    gate.release(tickets[0])
    gate.release(tickets[0])  # twice changes nothing
    assert gate.streams == 2 and gate.stream_refusal() is None


def test_one_address_holds_its_share_of_the_audiences_streams_and_no_more() -> None:
    gate = _gate(public_per_address=3)
    for _ in range(3):
        assert gate.stream_refusal(public_address="10.0.0.7") is None
        gate.admit(closer=Closer(), public_address="10.0.0.7")
    refused = gate.stream_refusal(public_address="10.0.0.7")
    assert refused is not None and refused.limit == "address"
    assert gate.stream_refusal(public_address="10.0.0.8") is None  # another address
    assert gate.stream_refusal() is None  # a phone's stream: not counted by address


def test_a_token_past_its_streams_ends_its_oldest() -> None:
    gate = _gate(per_token=2)
    closers = [Closer() for _ in range(3)]
    tickets = [gate.admit(closer=c, token="phone:abc") for c in closers]
    assert [c.closed for c in closers] == [True, False, False]
    assert gate.streams == 2
    gate.release(tickets[0])  # its stream ends after: counted once
    assert gate.streams == 2
    for t in tickets[1:]:
        gate.release(t)
    assert gate.streams == 0 and not gate.by_token


def test_the_audiences_reads_from_one_address_are_a_bucket() -> None:
    gate = _gate(polls_per_address=5)
    answered = [gate.poll_refusal("10.0.0.7") is None for _ in range(30)]
    assert answered.count(True) in (10, 11)  # twice the rate at once (a refill between)
    refused = gate.poll_refusal("10.0.0.7")
    assert refused is not None and refused.code == "too_many_requests"
    assert gate.poll_refusal("10.0.0.9") is None


def test_a_limit_reached_a_thousand_times_is_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    gate = _gate(streams=1)
    gate.admit(closer=Closer())
    with caplog.at_level(logging.WARNING, logger="web.limits"):
        for _ in range(1000):
            assert gate.stream_refusal() is not None
    lines = [r for r in caplog.records if r.name == "web.limits"]
    assert len(lines) == 1 and "streams per process" in lines[0].getMessage()
    log = LimitLog(every=0.0)  # the next minute: a line again, with the count meanwhile
    assert log.reached("x", 1, "here") and log.reached("x", 1, "here")


def test_the_figures_keep_open_files_for_the_slips(settings) -> None:
    settings.LIVE_STREAMS_PER_PROCESS = 10**9
    settings.LIVE_RESERVED_FILES = 1000
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    limits = Limits.from_settings()
    if soft != resource.RLIM_INFINITY:
        assert limits.streams == max(1, soft - 1000)


# --- On the production server --------------------------------------------------------------

PUBLIC = """
from tournament.models import Event
event = Event.objects.get()
event.public_results = True
event.save(update_fields=["public_results"])
print(event.slug)
"""

PER_ADDRESS = 6  # per process; two processes
PER_PROCESS = 10


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, dict[str, Any]]]:
    stack = Stack(
        Path(tmp_path_factory.mktemp("limits")),
        extra_env={
            "LIVE_PUBLIC_STREAMS_PER_ADDRESS": str(PER_ADDRESS),
            "LIVE_STREAMS_PER_PROCESS": str(PER_PROCESS),
            "PUBLIC_POLLS_PER_ADDRESS": "5",
        },
    )
    try:
        stack.redis()
        stack.migrate()
        info = stack.round_drawn(names=["Ann", "Bob"], seconds=1800)
        stack.web(workers=2)
        yield stack, info
    finally:
        stack.close()


@pytest.mark.redis
@pytest.mark.slow
def test_one_client_opening_too_many_streams_is_refused_and_a_slip_still_goes_through(
    room,
) -> None:
    stack, info = room
    slug = stack.manage("shell", "-c", PUBLIC).strip().splitlines()[-1]
    stack.round_open(info["round"])
    streams: list[Stream] = []
    try:
        for _ in range(4 * PER_ADDRESS):
            streams.append(Stream(stack.web_port, f"/results/{slug}/live/"))
        statuses = [s.status for s in streams]
        assert set(statuses) <= {200, 429}, statuses
        assert statuses.count(200) <= 2 * PER_ADDRESS  # each process: its share of the address
        refused = [s for s in streams if s.status == 429]
        assert len(refused) >= 2 * PER_ADDRESS
        for s in refused:
            assert int(s.headers["retry-after"]) > 0
            assert s.headers["content-type"] == "application/json"
        conn = http.client.HTTPConnection(HOST, stack.web_port, timeout=15)
        conn.request("GET", f"/results/{slug}/live/", headers={"Accept-Language": "fr"})
        response = conn.getresponse()
        said = json.loads(response.read())
        conn.close()
        assert response.status == 429 and said["code"] == "too_many_streams", said
        assert said["detail"].startswith("Trop de connexions"), said
        # Meanwhile the room goes on: a phone's slip, the staff's health check.
        status, receipt = stack.slip(
            info["tokens"]["Ann"], round=info["number"], word="TEST", ref="H8", score=1
        )
        assert status == 201, receipt
        assert stack.healthz()[0] in (200, 503)  # answered (the worker is not started here)
        # The audience's reads from this address: a bucket, then 429 with Retry-After.
        answers = []
        for _ in range(40):
            conn = http.client.HTTPConnection(HOST, stack.web_port, timeout=15)
            conn.request("GET", f"/results/{slug}/state.json")
            response = conn.getresponse()
            response.read()
            answers.append((response.status, response.getheader("retry-after")))
            conn.close()
        assert any(s == 429 and r for s, r in answers), answers
    finally:
        for s in streams:
            s.close()
    web = next(p for p in stack.processes if p.name == "web").output()
    per_address = [line for line in web.splitlines() if "audience streams per address" in line]
    assert 1 <= len(per_address) <= 2, per_address  # one a process at most, not one a refusal
    # The access log too: a limit's 429s are counted, one line a process a minute at most.
    refused_lines = [line for line in web.splitlines() if '" 429' in line]
    assert 1 <= len(refused_lines) <= 2, refused_lines
