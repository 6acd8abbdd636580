"""Two web nodes behind a real load balancer (Debian's HAProxy, started here on free ports with
the settings of docker/haproxy.cfg: bench/haproxy.py), sharing PostgreSQL and Redis: a slip sent
through one node reaches a phone connected to the other within a second; a node killed
mid-round loses no acknowledged slip, and its phones reconnect through the balancer to the
other.

Marked postgres (a database of its own, made and dropped here), redis (the test's own
redis-server) and slow; skips with the reason without haproxy (fails under REQUIRE_SERVICES).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from bench.haproxy import haproxy_config
from tests.conftest import services_required
from tests.faults.stack import HOST, Process, Stack, free_port
from tests.web.live.sse import Stream

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

PLAYERS = [f"P{i}" for i in range(1, 9)]
# "Within a second" is the target bench/room.py measures; a test shares the machine with
# whatever else runs, so it allows a loaded second.
LOADED_SECOND = 2.5


def haproxy_binary() -> str:
    binary = shutil.which("haproxy")
    if binary is None:
        reason = "haproxy is not installed (.ci/run installs Debian's: apt-get install haproxy)"
        if services_required():
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return binary


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh database on the test run's PostgreSQL server; its URL. Dropped at the end."""
    import psycopg

    db = settings.DATABASES["default"]
    admin = f"postgres://{db['USER']}@{db['HOST'] or HOST}:{db['PORT'] or 5432}/postgres"
    name = f"two_nodes_{os.getpid()}_{int(time.time())}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[dict[str, Any]]:
    binary = haproxy_binary()
    with postgres_database() as url:
        stack = Stack(tmp_path, database_url=url)
        try:
            stack.redis()
            stack.migrate()
            info = stack.round_drawn(names=PLAYERS, seconds=120)
            a, b, front = free_port(), free_port(), free_port()
            node_a = stack.web("web-a", port=a, workers=1)
            node_b = stack.web("web-b", port=b, workers=1)
            config = tmp_path / "haproxy.cfg"
            config.write_text(haproxy_config(HOST, front, [a, b]))  # docker/haproxy.cfg's
            balancer = stack.start(
                "haproxy",
                [binary, "-f", str(config), "-db"],
                ready=lambda p: stack.healthz(front)[0] != 0,
            )
            stack.round_open(info["round"])
            yield {
                "stack": stack,
                "info": info,
                "a": (a, node_a),
                "b": (b, node_b),
                "front": front,
                "balancer": balancer,
                "url": url,
            }
        finally:
            stack.close()


def stream(port: int, token: str) -> Stream:
    return Stream(port, "/api/v1/play/events", headers={"Authorization": f"Bearer {token}"})


def stored_slips(url: str) -> set[int]:
    import psycopg

    with psycopg.connect(url) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM tournament_submission")}


def test_a_slip_through_one_node_reaches_a_phone_on_the_other_within_a_second(nodes) -> None:
    stack, info = nodes["stack"], nodes["info"]
    (a, _), (b, _) = nodes["a"], nodes["b"]
    token = info["tokens"]["P1"]
    on_b = stream(b, token)
    try:
        on_b.wait({"state"})
        word = info["rack"].replace("?", "")[:2]
        status, receipt = stack.slip(
            token, round=info["number"], word=word, ref="H8", score=4, port=a
        )
        sent = time.time()
        assert status == 201, receipt
        seen = on_b.wait({"personal", "state"}, seconds=3)
        assert seen.data["slip"]["id"] == receipt["id"]
        assert seen.at - sent < LOADED_SECOND
    finally:
        on_b.close()


def _hand_in(port: int, token: str, body: dict[str, Any], until: float) -> dict[str, Any] | None:
    """As a phone's outbox: send until the server answers (201 or a refusal), or ``until``."""
    while time.monotonic() < until:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            conn.request(
                "POST",
                "/api/v1/play/submissions",
                body=json.dumps(body),
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            text = response.read()
            conn.close()
        except OSError:
            time.sleep(0.2)
            continue
        if response.status == 201:
            return dict(json.loads(text))
        if response.status < 500:
            raise AssertionError(f"refused: {response.status} {text[:200]!r}")
        time.sleep(0.2)
    return None


def test_a_node_killed_mid_round_loses_no_acknowledged_slip_and_its_phones_come_back(
    nodes,
) -> None:
    info, front = nodes["info"], nodes["front"]
    node_a: Process = nodes["a"][1]
    phones = {name: stream(front, info["tokens"][name]) for name in PLAYERS}
    for phone in phones.values():
        phone.wait({"state"})
    acknowledged: list[int] = []
    failures: list[str] = []
    word = info["rack"].replace("?", "")[:2]
    until = time.monotonic() + 40

    def player(name: str) -> None:
        try:
            for score in range(6):  # each player replaces their slip six times
                body = {"round": info["number"], "ref": "H8", "word": word, "score": score}
                receipt = _hand_in(front, info["tokens"][name], body, until)
                if receipt is None:
                    failures.append(f"{name}: no answer")
                    return
                acknowledged.append(receipt["id"])
        except AssertionError as exc:
            failures.append(f"{name}: {exc}")

    threads = [threading.Thread(target=player, args=(name,)) for name in PLAYERS]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < len(PLAYERS) and time.monotonic() < deadline:
        time.sleep(0.05)  # poll: half the room has handed in a slip
    node_a.kill(signal.SIGKILL)
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    assert len(acknowledged) == 6 * len(PLAYERS)
    assert set(acknowledged) <= stored_slips(nodes["url"])  # nothing acknowledged is lost

    # The phones whose stream went through the dead node see it end, and come back through the
    # balancer (to the live node) with their version: told current, or sent the state.
    for name, phone in phones.items():
        while phone.next(seconds=0.2) is not None:
            pass  # what came before
        if phone.closed:
            again = stream(front, info["tokens"][name])
            try:
                assert again.status == 200
                assert again.wait({"state", "current"}, seconds=5)
            finally:
                again.close()
        phone.close()
