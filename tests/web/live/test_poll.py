"""The phones' poll where the stream cannot be used: an unchanged state is answered 304 from the
live versions and the remembered token, before Django, with no database and no thread; the
server says how long to wait before the next poll. And what the hub merges into a player's
part from a slip's message is what the database then says."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest

from tests.factories import EventFactory, PlayerFactory
from tournament.changes import token_digest
from web.live import hub as live_hub
from web.live.asgi import live_application
from web.live.hub import slip_merged, slip_of
from web.live_store import LocalStore, event_key, player_key
from web.polling import poll_seconds

STATE = "/api/v1/play/state"


def run(app: Any, path: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    """One request through ``app`` on a loop of its own: the ASGI messages it sent."""
    sent: list[dict[str, Any]] = []

    async def call() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "query_string": b"hidden=1",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }
        try:
            await app(scope, receive, send)
        finally:
            for hub in list(live_hub._hubs.values()):
                for task in hub.tasks:
                    task.cancel()
            live_hub._hubs.clear()

    asyncio.run(call())
    return sent


@pytest.mark.django_db
def test_an_unchanged_poll_is_a_304_from_the_versions_without_django_or_the_database(
    settings, tmp_path, monkeypatch
) -> None:
    settings.VAR_DIR = tmp_path
    settings.REDIS_URL = None
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    player = PlayerFactory(event=EventFactory())
    store = LocalStore()
    monkeypatch.setattr("web.live_store._store", store)
    store.token_set(token_digest(player.token), f"{player.pk}:{player.event_id}:en")
    version = ".".join(store.versions([event_key(player.event_id), player_key(player.pk)]) or [])

    async def django(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the poll reached Django")

    async def no_database(*args: Any) -> None:
        raise AssertionError("the poll used the database")

    monkeypatch.setattr(live_hub.Hub, "db", no_database)
    headers = {
        "Host": "127.0.0.1",
        "Authorization": f"Bearer {player.token}",
        "If-None-Match": f'"{version}"',
    }
    start, body = run(live_application(django), STATE, headers)
    assert start["status"] == 304 and body["body"] == b""
    answered = dict(start["headers"])
    assert answered[b"etag"] == f'"{version}"'.encode()
    assert int(answered[b"x-poll-after"]) == 10  # a hidden page: 2 s x 5

    # A version that moved goes on to Django's view (which answers the whole state).
    store.bump([player_key(player.pk)], ["moved"])
    with pytest.raises(AssertionError, match="reached Django"):
        run(live_application(django), STATE, headers)


def test_the_server_says_to_poll_less_often_when_idle_hidden_or_busy() -> None:
    assert poll_seconds(status="open", hidden=False) == 2
    assert poll_seconds(status="closed", hidden=False) == 5
    assert poll_seconds(status="published", hidden=False) == 15
    assert poll_seconds(status="open", hidden=True) == 10
    assert poll_seconds(status="open", hidden=False, load=3.0) == 6
    assert poll_seconds(status="published", hidden=True, load=4.0) == 60  # at most a minute


def _slip(pk: int, round_: int, current: bool, second: int) -> dict[str, Any]:
    return {
        "id": pk,
        "round": round_,
        "round_status": "open",
        "word": "WORD",
        "ref": "H8",
        "score": 10,
        "received_at": dt.datetime(2026, 5, 1, 20, 0, second, tzinfo=dt.UTC),
        "source": "phone",
        "current": current,
        "late": False,
        "ruling": None,
    }


def test_a_slip_merged_retires_the_one_that_counted_and_comes_first() -> None:
    own = {"slips": [_slip(2, 1, True, 5), _slip(1, 1, False, 1)]}
    later = _slip(3, 1, True, 9) | {"received_at": "2026-05-01T20:00:09+00:00"}
    slip_merged(own, later)
    assert [(s["id"], s["current"]) for s in own["slips"]] == [(3, True), (2, False), (1, False)]
    shared = {"round": {"number": 1}}
    assert slip_of(own, shared) == {
        "id": 3,
        "round": 1,
        "word": "WORD",
        "ref": "H8",
        "score": 10,
        "received_at": dt.datetime(2026, 5, 1, 20, 0, 9, tzinfo=dt.UTC),
    }
    assert slip_of(own, {"round": {"number": 2}}) is None  # a new round: no slip yet


def test_an_out_of_order_slip_that_does_not_count_leaves_the_current_one() -> None:
    own = {"slips": [_slip(2, 1, True, 5)]}
    slip_merged(own, _slip(3, 1, False, 3))  # handled after, arrived before: it does not count
    assert [(s["id"], s["current"]) for s in own["slips"]] == [(2, True), (3, False)]


@pytest.mark.django_db(transaction=True)
def test_a_changed_poll_is_answered_from_the_hubs_memory_with_a_slip_merged_in(
    settings, tmp_path, monkeypatch
) -> None:
    """Issue 34 (polling that holds): a phone whose own slip moved its version was answered by
    Django's view, a full reading, for each of a room's thousand slips. Once the process holds
    the room's parts, a changed poll is answered from them (the slip merged from its message),
    the same state the view gives; a part moved otherwise goes back to the view."""
    import json

    from tests.web.conftest import club_night
    from tournament.changes import SLIP

    settings.VAR_DIR = tmp_path
    settings.REDIS_URL = None
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    event, _game, players, _director = club_night()
    player = players[0]
    store = LocalStore()
    monkeypatch.setattr("web.live_store._store", store)
    store.token_set(token_digest(player.token), f"{player.pk}:{player.event_id}:en")
    reached_django: list[str] = []

    async def django(scope: Any, receive: Any, send: Any) -> None:
        reached_django.append(scope["path"])
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    app = live_application(django)

    async def poll(etag: str) -> tuple[int, dict[bytes, bytes], bytes]:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        headers = {"Host": "127.0.0.1", "Authorization": f"Bearer {player.token}"}
        if etag:
            headers["If-None-Match"] = etag
        scope = {
            "type": "http",
            "method": "GET",
            "path": STATE,
            "query_string": b"",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        }
        await app(scope, receive, send)
        return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]

    held: list[dict[str, Any]] = []

    async def scenario() -> None:
        try:
            # The first changed poll starts the room's reading and waits for it, not Django.
            status, headers, body = await poll('"old"')
            assert status == 200 and reached_django == [], body[:300]
            hub = await live_hub.hub()
            assert hub.events[event.pk].renders >= 1
            state = json.loads(body)
            held.append(state)
            ev, pv = store.versions([event_key(event.pk), player_key(player.pk)]) or []
            assert headers[b"etag"] == f'"{ev}.{pv}"'.encode()
            assert state["version"] == f"{ev}.{pv}" and state["round"]["status"] == "open"
            assert state["player"]["name"] == player.name and state["slip"] is None
            assert (await poll(headers[b"etag"].decode()))[0] == 304
            first = await poll("")  # a phone's first poll, with no version yet
            assert first[0] == 200 and first[1][b"etag"] == headers[b"etag"]
            assert reached_django == []
            # The player's slip: its message moves their version and carries the listing.
            slip = {
                "id": 99_999,
                "round": state["round"]["number"],
                "word": "QUARTZ",
                "ref": "H8",
                "score": 66,
                "received_at": "2026-05-01T20:07:41.120000+00:00",
                "current": True,
                "round_status": "open",
            }
            store.bump([player_key(player.pk)], ["after-slip"])
            hub.handle({"e": event.pk, "p": player.pk, "pv": "after-slip", "w": SLIP, "d": slip})
            status, headers, body = await poll(f'"{ev}.{pv}"')
            assert status == 200 and reached_django == []
            merged = json.loads(body)
            assert merged["version"] == f"{ev}.after-slip"
            assert merged["slip"]["word"] == "QUARTZ" and merged["slips"][0]["word"] == "QUARTZ"
            # A part moved otherwise (an arbiter's amendment...): the view reads it.
            store.bump([player_key(player.pk)], ["amended"])
            hub.handle({"e": event.pk, "p": player.pk, "pv": "amended", "w": "other"})
            assert (await poll(f'"{ev}.after-slip"'))[0] in (200, 299)  # read again, or Django
            assert hub.events[event.pk].pvs.get(player.pk) != "after-slip"
        finally:
            for hub_ in list(live_hub._hubs.values()):
                for task in hub_.tasks:
                    task.cancel()
            live_hub._hubs.clear()

    asyncio.run(scenario())
    from django.test import Client

    answer = Client().get(STATE, HTTP_AUTHORIZATION=f"Bearer {player.token}", HTTP_HOST="127.0.0.1")
    assert answer.status_code == 200, answer.content[:300]
    view = answer.json()
    memory = held[0]
    assert set(memory) == set(view)

    def within(said: Any, held: Any) -> bool:  # what the view says, the memory says too
        if isinstance(said, dict):
            return isinstance(held, dict) and all(within(v, held.get(k)) for k, v in said.items())
        if isinstance(said, list):
            return (
                isinstance(held, list)
                and len(said) == len(held)
                and all(within(a, b) for a, b in zip(said, held, strict=True))
            )
        return bool(said == held)

    for key in ("event", "game", "board", "premiums", "values", "player", "standings", "result"):
        assert within(view[key], memory[key]), (key, view[key], memory[key])
    assert memory["round"]["rack"] == view["round"]["rack"]
    assert [s["word"] for s in memory["slips"]] == [s["word"] for s in view["slips"]]


@pytest.mark.redis
def test_a_busy_pool_is_not_redis_down_the_next_polls_still_read_the_versions(
    monkeypatch,
) -> None:
    """A busy process held every connection of its pool past the pool's wait: that poll gets
    no versions, but Redis answers, so the polls after it are not all sent to Django's view
    for a second (as when Redis itself does not answer): a real Redis, a pool of one."""
    from tests.conftest import test_redis_url
    from web import live_store

    monkeypatch.setattr(live_store, "ASYNC_CONNECTIONS", 1)
    store = live_store.RedisStore(test_redis_url())
    key = f"test-busy-pool-{id(store)}"

    async def scenario() -> tuple[object, object, object]:
        client = store.aclient()
        held = await client.connection_pool.get_connection()  # the pool's one, held
        client.connection_pool.timeout = 0.05
        busy = await store.aversions([key])
        await client.connection_pool.release(held)
        after = await store.aversions([key])
        await client.aclose()
        return busy, store._up(), after

    busy, up, after = asyncio.run(scenario())
    assert busy is None  # this poll: Django's view
    assert up is True  # Redis is not marked down
    assert after is not None and len(after) == 1  # the next poll reads the versions again
