"""The audience's page against the production server (gunicorn, two uvicorn workers, its own
redis-server; tests/faults/stack.py): its stream is refused until the event is public, then
sends the page's state when it connects and again when the round opens, within a loaded second;
``state.json`` answers 304 to the version it gave, and the new state after the change. Every
wait is for a frame or an answer, with a deadline."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faults.stack import HOST, Stack
from tests.web.live.sse import Stream

pytestmark = [pytest.mark.redis, pytest.mark.slow]

LOADED_SECOND = 2.5
PUBLIC = """
from tournament.models import Event
event = Event.objects.get()
event.public_results = True
event.save(update_fields=["public_results"])
print(event.slug)
"""


PRIVATE = """
from tournament.models import Event
from tournament.services.events import event_policy_update
event_policy_update(event=Event.objects.get(), actor=None, public_results=False)
"""


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, dict[str, Any]]]:
    stack = Stack(Path(tmp_path_factory.mktemp("public")))
    try:
        stack.redis()
        stack.migrate()
        # A round longer than the module, however loaded the machine.
        info = stack.round_drawn(names=["Ann", "Bob"], seconds=1800)
        stack.web(workers=2)
        yield stack, info
    finally:
        stack.close()


def get(port: int, path: str, etag: str = "") -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=15)
    conn.request("GET", path, headers={"If-None-Match": etag} if etag else {})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_the_audiences_stream_and_state_follow_the_round(room) -> None:
    stack, info = room
    slug = (
        stack.manage(
            "shell", "-c", "from tournament.models import Event; print(Event.objects.get().slug)"
        )
        .strip()
        .splitlines()[-1]
    )
    refused = Stream(stack.web_port, f"/results/{slug}/live/")
    assert refused.status == 404
    refused.close()
    stack.manage("shell", "-c", PUBLIC)
    deadline = time.monotonic() + 10  # each process reads the event's settings again
    stream = Stream(stack.web_port, f"/results/{slug}/live/")
    while stream.status != 200 and time.monotonic() < deadline:
        stream.close()
        stream = Stream(stack.web_port, f"/results/{slug}/live/")
    try:
        assert stream.status == 200
        pushed = stream.wait({"state"})
        assert pushed.data["status"] == "drawn" and pushed.data["rack"] == info["rack"]
        assert "token" not in json.dumps(pushed.data)
        status, headers, body = (0, {}, b"")
        deadline = time.monotonic() + 10  # each process reads the event's settings again
        while time.monotonic() < deadline and status != 200:
            status, headers, body = get(stack.web_port, f"/results/{slug}/state.json")
        assert status == 200, body[:200]
        first = json.loads(body)
        assert first["status"] == "drawn" and first["rack"] == info["rack"]
        for _ in range(4):  # either process, from Django or from its loop: the same answer
            again, _h, _b = get(stack.web_port, f"/results/{slug}/state.json", headers["etag"])
            assert again == 304
        stack.round_open(info["round"])
        sent = time.time()
        told = stream.wait({"state"}, seconds=5)
        assert told.at - sent < LOADED_SECOND
        assert told.data["status"] == "open" and told.data["version"] != pushed.data["version"]
        status, fresh_headers, body = get(
            stack.web_port, f"/results/{slug}/state.json", headers["etag"]
        )
        assert status == 200 and fresh_headers["etag"] != headers["etag"]
        assert json.loads(body)["status"] == "open" and json.loads(body)["deadline"]
        stack.manage("shell", "-c", PRIVATE)  # the director turns the page off: its stream ends
        assert stream.wait({"end"}, seconds=5).event == "end"
    finally:
        stream.close()
