"""Disciplinary warnings from the console's amendments page and the staff API (rules.md, case
21): given with the table and a reason, listed on the round's page, withdrawn with a reason;
the round's ruling says how many it has and the workbook's Slips sheet its cost."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from arbiter.services import clock, scoring
from tests.arbiter.conftest import open_round
from tests.factories import GameFactory, PlayerFactory
from tournament.models import Discipline, Game, Round, Ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def scored(event) -> Round:
    for i, name in enumerate(["Ann", "Bob"], start=1):
        PlayerFactory(event=event, name=name, table=i)
    event.warnings_free = 0
    event.save(update_fields=["warnings_free"])
    game = GameFactory(event=event, number=1, seed=7)
    r = open_round(game)
    assert r.deadline is not None
    later = r.deadline + dt.timedelta(seconds=event.grace_seconds)
    assert clock.round_close(round_id=r.pk, now=later)
    scored = scoring.round_score(round_id=r.pk, now=later)
    assert scored is not None
    return scored


def test_a_disciplinary_warning_from_the_console_and_its_withdrawal(
    client_for, director, scored: Round
) -> None:
    client = client_for(director)
    game: Game = scored.game
    act = reverse("console:action", args=[game.event.slug, game.number, "discipline"])
    page = client.post(
        act,
        {"round": scored.number, "table": 2, "reason": "phone out", "rulings": scored.number},
        follow=True,
    )
    assert page.status_code == 200
    assert b"a disciplinary warning in round 1" in page.content
    assert b"phone out" in page.content and b"1 disciplinary warning" in page.content
    bob = Ruling.objects.get(round=scored, player__name="Bob")
    assert (bob.discipline_warnings, bob.warning_penalty) == (1, 5)
    refused = client.post(
        act, {"round": scored.number, "table": 2, "reason": " "}, follow=True
    ).content
    assert b"needs its reason" in refused
    given = Discipline.objects.get()
    withdraw = reverse("console:action", args=[game.event.slug, game.number, "discipline_withdraw"])
    client.post(withdraw, {"discipline": given.pk, "reason": "wrong table"}, follow=True)
    bob.refresh_from_db()
    assert (bob.discipline_warnings, bob.warning_penalty) == (0, 0)


def test_a_disciplinary_warning_through_the_staff_api(client_for, director, scored: Round) -> None:
    game = scored.game
    url = reverse("staff_api:action", args=[game.event.slug, game.number, "discipline"])
    done = client_for(director).post(
        url,
        {"round": scored.number, "table": 1, "reason": "talking"},
        content_type="application/json",
    )
    assert done.status_code == 200, done.json()
    assert "Ann" in done.json()["detail"]
    missing = client_for(director).post(
        url, {"round": 9, "table": 1, "reason": "x"}, content_type="application/json"
    )
    assert missing.status_code == 400 and "no round 9" in missing.json()["detail"]
    assert Ruling.objects.get(round=scored, player__name="Ann").warning_penalty == 5
