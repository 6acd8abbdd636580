"""Training's pages (rules.md, "Training"): the director opens a game and hands out its link;
a player starts, hands in a slip, sees the top and the room, goes on, and reads the summary."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from arbiter.services.training import training_next, training_slip_submit, training_start
from arbiter.simulation import simulate_event
from tests.factories import EventRoleFactory, UserFactory
from tournament.models import AuditEntry, Game, TrainingAttempt
from web.training.views import training_key

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Game:
    summary = simulate_event(players=6, games=1, seed=35)
    return Game.objects.select_related("event").get(event_id=summary["event"], number=1)


def _director(game: Game) -> Client:
    user = UserFactory(username="dina")
    EventRoleFactory(event=game.event, user=user, role="director")
    client = Client()
    client.force_login(user)
    return client


def test_the_director_opens_a_game_and_its_link_lets_anyone_train(played: Game) -> None:
    director = _director(played)
    key = training_key(played)
    anyone = Client()
    assert anyone.get(reverse("training:game", args=[key])).status_code == 404  # not open yet
    page = director.get(reverse("training:event", args=[played.event.slug]))
    assert page.status_code == 200 and b"Open for training" in page.content
    director.post(reverse("training:event", args=[played.event.slug]), {"game": "1", "open": "1"})
    played.refresh_from_db()
    assert played.training_open
    assert AuditEntry.objects.filter(action="tournament.game.training_opened").count() == 1
    page = director.get(reverse("training:event", args=[played.event.slug]))
    assert reverse("training:game", args=[key]).encode() in page.content

    start = anyone.get(reverse("training:game", args=[key]))
    assert start.status_code == 200 and b"each slip ruled as in the room" in start.content
    started = anyone.post(
        reverse("training:game", args=[key]), {"name": "Zoé", "mode": "replay", "seconds": ""}
    )
    attempt = TrainingAttempt.objects.get()
    assert started["Location"] == reverse("training:attempt", args=[attempt.token])
    playing = anyone.get(started["Location"])
    assert b'data-state="playing"' in playing.content and b'id="clock"' in playing.content
    top = played.rounds.get(number=1)
    result = anyone.post(
        started["Location"],
        {
            "action": "slip",
            "word": top.played_word,
            "ref": top.played_ref,
            "score": str(top.played_score),
        },
        follow=True,
    )
    text = result.content.decode()
    assert 'data-state="result"' in text
    assert f"{top.played_ref} {top.played_word}" in text
    assert re.search(r"\d+ of 6 players found the top", text)
    anyone.post(started["Location"], {"action": "next"})
    attempt.refresh_from_db()
    assert attempt.round_number == 2 and attempt.round_started_at is not None


def test_a_bad_score_and_a_bad_link_are_refused_with_their_reason(played: Game) -> None:
    played.training_open = True
    played.save(update_fields=["training_open"])
    client = Client()
    assert client.get(reverse("training:game", args=["tampered"])).status_code == 404
    bad = client.post(
        reverse("training:game", args=[training_key(played)]), {"mode": "replay", "seconds": "5"}
    )
    assert bad.status_code == 400 and b"from 10 to 3600 seconds" in bad.content
    client.post(reverse("training:game", args=[training_key(played)]), {"mode": "topping"})
    attempt = TrainingAttempt.objects.get()
    refused = client.post(
        reverse("training:attempt", args=[attempt.token]),
        {"action": "slip", "word": "WORD", "ref": "H8", "score": "douze"},
    )
    assert refused.status_code == 400 and b"must be a whole number" in refused.content
    assert not attempt.slips.exists()


def test_the_training_pages_speak_french_for_a_french_event(played: Game) -> None:
    played.training_open = True
    played.save(update_fields=["training_open"])
    played.event.language = "fr"
    played.event.save(update_fields=["language"])
    client = Client()
    page = client.get(reverse("training:game", args=[training_key(played)]))
    assert "Entraînement" in page.content.decode()
    client.post(reverse("training:game", args=[training_key(played)]), {"mode": "replay"})
    attempt = TrainingAttempt.objects.get()
    page = client.get(reverse("training:attempt", args=[attempt.token]))
    assert "Coup 1 sur" in page.content.decode()


def test_the_summary_compares_the_attempt_with_the_room(played: Game) -> None:
    played.training_open = True
    played.save(update_fields=["training_open"])
    now = timezone.now() - dt.timedelta(hours=2)
    attempt = training_start(
        game=played, user=None, name="", mode="replay", round_seconds=None, now=now
    )
    for r in played.rounds.filter(status="published").order_by("number"):
        training_slip_submit(
            attempt=attempt, word=r.played_word, ref=r.played_ref, score=r.played_score, now=now
        )
        attempt = training_next(attempt=attempt, now=now)
    assert attempt.is_finished
    page = Client().get(reverse("training:attempt", args=[attempt.token])).content.decode()
    assert 'data-state="finished"' in page
    assert "(100.00% of the top)" in page  # tournament.typography.percent_text
    assert "In the room's standings you would have been 1 of 6" in page
