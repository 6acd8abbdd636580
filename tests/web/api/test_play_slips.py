"""The player's own slip history in the v1 state (``arbiter.selectors.play.play_slips``): what a
player shows an arbiter in a dispute. Every slip, newest first, with the time the server got
it, which one counts, its ruling once the round is published; never another player's; a late
refusal leaves the earlier slip standing. The state also carries the event's warning time and
time zone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from arbiter.services.slips import slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import UserFactory
from tests.web.api.conftest import seconds
from tournament.models import Event, Submission

pytestmark = pytest.mark.django_db

STATE = "/api/v1/play/state"
SUBMISSIONS = "/api/v1/play/submissions"


def send(phone, player, word: str, ref: str, score: int, round: int = 1):
    return phone(player).post(
        SUBMISSIONS, {"round": round, "word": word, "ref": ref, "score": score}, format="json"
    )


def test_ann_sees_every_slip_she_sent_which_one_counts_and_then_its_ruling(
    frozen_clock, phone, ann, players, game
) -> None:
    r = open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(20))
    assert send(phone, ann, "TOWER", "H4", 22).status_code == 201
    frozen_clock.move_to(T0 + seconds(50))
    assert send(phone, ann, "WROTE", "H4", 24).status_code == 201
    assert send(phone, players[1], "LOWER", "H4", 18).status_code == 201  # Bob's

    slips = phone(ann).get(STATE).json()["slips"]
    assert [(s["word"], s["current"], s["ruling"]) for s in slips] == [
        ("WROTE", True, None),
        ("TOWER", False, None),
    ]
    assert [s["received_at"] for s in slips] == [
        (T0 + seconds(50)).isoformat().replace("+00:00", "Z"),
        (T0 + seconds(20)).isoformat().replace("+00:00", "Z"),
    ]
    assert {s["source"] for s in slips} == {"api"} and slips[0]["round_status"] == "open"

    frozen_clock.move_to(T0 + seconds(200))
    late = send(phone, ann, "ROWEL", "H4", 18)  # after the deadline and the grace
    assert late.status_code == 409 and late.json()["code"] == "deadline_passed"
    state = phone(ann).get(STATE).json()
    assert state["slip"]["word"] == "WROTE"  # the earlier slip still stands
    assert [s["word"] for s in state["slips"]] == ["WROTE", "TOWER"]

    finish_round(r, T0 + seconds(200))
    slips = phone(ann).get(STATE).json()["slips"]
    assert slips[0]["round_status"] == "published"
    ruling = slips[0]["ruling"]
    assert (ruling["code"], ruling["points"]) == ("valid", 24) and ruling["total"] >= 24
    assert slips[1]["ruling"] is None  # replaced: ruled through the slip that counted


def test_a_slip_typed_by_an_arbiter_for_her_is_in_her_history(
    frozen_clock, phone, ann, game
) -> None:
    r = open_round(game, now=T0)
    arbiter = UserFactory(username="arnold")
    slip_submit(
        player=ann,
        round=r,
        word="WROTE",
        ref="H4",
        score=24,
        source=Submission.Source.ARBITER,
        entered_by=arbiter,
        at=T0 + seconds(5),
    )
    slips = phone(ann).get(STATE).json()["slips"]
    assert [(s["word"], s["source"], s["current"]) for s in slips] == [("WROTE", "arbiter", True)]


def test_the_state_carries_the_events_warning_time_and_time_zone(
    phone, ann, game, room: Event
) -> None:
    Event.objects.filter(pk=room.pk).update(warning_seconds=45, time_zone="Europe/Paris")
    event = phone(ann).get(STATE).json()["event"]
    assert (event["warning_seconds"], event["time_zone"]) == (45, "Europe/Paris")
    assert event["rulebook"] == "fisf-2023"  # the regulation the phone's rulings follow
    assert phone(ann).get(STATE).json()["slips"] == []


def test_the_schema_documents_the_slip_history(client) -> None:
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    history = schema["components"]["schemas"]["SlipHistory"]
    assert {"received_at", "current", "ruling", "source"} <= set(history["properties"])
    state = schema["components"]["schemas"]["State"]
    assert "slips" in state["properties"] and "slips" in state["required"]


def test_a_slip_costs_seven_queries_and_none_sorts_through_the_event(
    frozen_clock, phone, ann, game
) -> None:
    """What a phone's slip costs the server decides how many a room can hand in at the
    deadline (docs/reliability.md): its token, its round, the lock, the round again, the
    player, their current slip and the one of the same attempt (one query), and the slip (and,
    for a second slip, retiring the first); the receipt is built from what was written, not
    read after the commit; no query sorts a row it found by a unique key through the models' default
    orderings (a slip's go through its round, game, event and player)."""
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(20))

    def queries_of(word: str) -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            assert send(phone, ann, word, "H4", 22).status_code == 201
        sql = [q["sql"] for q in queries.captured_queries]
        return [q for q in sql if not q.startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]

    first, second = queries_of("TOWER"), queries_of("WROTE")
    lock = connection.vendor == "postgresql"  # SQLite's BEGIN IMMEDIATE serialises instead
    assert len(first) == 6 + lock, first
    assert len(second) == 7 + lock and second[5 + lock].startswith("UPDATE"), second
    assert not [q for q in first + second if 'ORDER BY "tournament_event"' in q]
