"""``simulate_event``: a whole event played through the services by simulated players."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from arbiter.selectors.standings import standings_event
from tournament.models import Event, Round, Ruling
from tournament.vocabulary import RulingCode

pytestmark = pytest.mark.django_db


def run(*args: str) -> dict:
    out = io.StringIO()
    call_command("simulate_event", *args, stdout=out)
    return json.loads(out.getvalue())


def test_it_plays_a_whole_event_and_prints_one_json_summary() -> None:
    summary = run("--players", "6", "--games", "1", "--seed", "5", "--json")
    event = Event.objects.get(pk=summary["event"])
    published = Round.objects.filter(game__event=event, status=Round.Status.PUBLISHED)
    assert summary["rounds"] == published.count() > 10
    assert (
        sum(summary["rulings"].values())
        == 6 * summary["rounds"]
        == Ruling.objects.filter(round__in=published).count()
    )
    assert set(summary["rulings"]) <= set(RulingCode)
    assert summary["rulings"].get("valid", 0) > summary["rulings"].get("missing", 0)
    table = standings_event(event=event)
    assert (
        summary["top_total"] == table.top_total
        and summary["winner"]["total"] == table.rows[0].total
    )
    assert event.games.get().status == "finished"


def test_the_same_seed_plays_the_same_event() -> None:
    a = run("--players", "4", "--seed", "9", "--json")
    b = run("--players", "4", "--seed", "9", "--json")
    for key in ("event", "slug", "seconds"):
        a.pop(key), b.pop(key)
    assert a == b


def test_it_refuses_nonsense_with_a_clear_error() -> None:
    with pytest.raises(CommandError, match="at least 1"):
        call_command("simulate_event", "--players", "0")


def test_without_json_it_prints_a_readable_report() -> None:
    out = io.StringIO()
    call_command("simulate_event", "--players", "3", "--seed", "2", stdout=out)
    text = out.getvalue()
    assert "Winner:" in text and "Rulings:" in text and "rounds" in text
