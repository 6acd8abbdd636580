"""The frames the live stream writes to a phone, made by the hub in this process from the
database's rows and the services' changes (``web.live.hub``): the same words as the state the
phone polls (``/api/v1/play/state``), in the phone's language, and a slip list of the game the
phones follow only. The hub runs as in production, on a loop of the test's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from arbiter.services import clock, racks
from arbiter.services.slips import slip_submit
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tests.web.night import publish_round
from tournament.changes import Change, change_listen
from tournament.models import Event
from web.live.bus import message_of
from web.live.hub import Client, Hub

# the hub reads on a thread of its own, which sees what the test committed
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def changes() -> Iterator[list[Change]]:
    """Every change the services announce from now on (after their commit)."""
    told: list[Change] = []
    change_listen(told.append)
    yield told
    from tournament import changes as module

    module._listeners.remove(told.append)


class Room:
    """A hub with one phone connected, on a loop of its own."""

    def __init__(self, event: Event, player_id: int, language: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.hub = Hub(self.loop)
        self.client = Client((event.pk,), player_id, language)
        self.hub.join(self.client)
        self.run(self.hub.catch_up(self.client, None))

    def run(self, job: Any) -> Any:
        return self.loop.run_until_complete(job)

    def tell(self, changes: list[Change]) -> None:
        """Deliver the changes as the bus does, then let the renders finish."""
        for change in changes:
            self.hub.handle(json.loads(json.dumps(message_of(change), default=str)))
        changes.clear()
        live = self.hub.events[self.client.event_ids[0]]
        while live.rendering is not None and not live.rendering.done():
            self.run(live.rendering)

    def frames(self) -> list[tuple[str, dict[str, Any]]]:
        found = []
        while not self.client.queue.empty():
            raw = self.client.queue.get_nowait().decode()
            kind = raw.split("\n", 1)[0].removeprefix("event: ")
            data = next(line[6:] for line in raw.splitlines() if line.startswith("data: "))
            found.append((kind, json.loads(data)))
        return found

    def close(self) -> None:
        self.hub.executor.shutdown()
        self.loop.close()


def _night(language: str) -> tuple[Event, list[Any]]:
    event = EventFactory(name="Soirée", slug="soiree", language=language, solo_min_players=99)
    players = [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate("ABC")]
    game = GameFactory(event=event, number=1, seed=7)
    GameFactory(event=event, number=2, seed=8)
    # A, B valid; C the wrong score (a warning): three labels the phones read
    publish_round(
        game,
        {
            players[0]: ("WROTE", "H4", 24),
            players[1]: ("WROTE", "H4", 24),
            players[2]: ("WROTE", "H4", 20),
        },
    )
    return event, players


def test_the_stream_names_the_rulings_as_the_state_does_in_the_phones_language(
    django_capture_on_commit_callbacks,
) -> None:
    event, players = _night("fr")
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {players[2].token}")
    polled = phone.get("/api/v1/play/state").json()
    room = Room(event, players[2].pk, "fr")
    try:
        [(kind, streamed)] = room.frames()
        assert kind == "state"
        assert streamed["result"]["ruling"]["label"] == polled["result"]["ruling"]["label"]
        assert [s["ruling"]["label"] for s in streamed["slips"]] == [
            s["ruling"]["label"] for s in polled["slips"]
        ]
        assert streamed["result"]["ruling"]["label"] == (
            "Valable, avec avertissement (score annoncé)"
        )
    finally:
        room.close()
    # A phone whose reader chose English reads English: the label follows the reader.
    room = Room(event, players[2].pk, "en")
    try:
        [(_kind, streamed)] = room.frames()
        assert streamed["result"]["ruling"]["label"] == "Valid, with a warning (announced score)"
    finally:
        room.close()


def test_a_phone_lists_the_slips_of_the_game_it_follows_only(
    changes, django_capture_on_commit_callbacks
) -> None:
    event, players = _night("fr")
    ann = players[0]
    room = Room(event, ann.pk, "fr")
    changes.clear()  # game 1's, read by the room as it connected
    try:
        [(_kind, first)] = room.frames()
        assert [(s["round"], s["current"]) for s in first["slips"]] == [(1, True)]
        two = event.games.get(number=2)
        with django_capture_on_commit_callbacks(execute=True):
            drawn = racks.round_draw(game=two, actor=None)
            assert drawn is not None
            opened = clock.round_open(round=drawn, actor=None, now=timezone.now())
        # game 2's round drawn and opened (its tops are still being searched by the worker)
        room.tell(changes)
        with django_capture_on_commit_callbacks(execute=True):
            slip_submit(player=ann, round=opened, word="ET", ref="H8", score=2)
        room.tell(changes)
        frames = room.frames()
        last = frames[-1][1]
        assert frames[-1][0] in {"personal", "state"}
        # game 2's slip alone: game 1's round 1 is neither listed nor struck through
        assert [(s["round"], s["word"], s["current"]) for s in last["slips"]] == [(1, "ET", True)]
        assert "game" not in last["slips"][0]
        assert last["slip"]["word"] == "ET"
    finally:
        room.close()
