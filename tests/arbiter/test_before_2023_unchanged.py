"""An event played before the regulation in force keeps its results to the point (issue 33):
the same simulated event (18 players, two games, seed 11: wrong scores, wrong references,
misspelt words, late and missing slips, solos) played on the code before the rulebooks were
(commit bd51734) gave the rulings and standings in ``tests/data/before_2023_rulings.json``;
played today under ``before-2023`` it gives them again, every field of every ruling, the
reason's words and the article included."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from arbiter.selectors.standings import standings_event
from arbiter.simulation import simulate_event
from tournament.models import Event, Ruling

pytestmark = pytest.mark.django_db

RECORDED = Path(__file__).resolve().parents[1] / "data" / "before_2023_rulings.json"
START = dt.datetime(2026, 3, 7, 19, 0, tzinfo=dt.UTC)


def played(event: Event) -> dict[str, list[list[object]]]:
    rulings = (
        Ruling.objects.filter(round__game__event=event)
        .select_related("player", "round__game")
        .order_by("round__game__number", "round__number", "player__name")
    )
    return {
        "rulings": [
            [
                r.round.game.number,
                r.round.number,
                r.player.name,
                r.code,
                r.points,
                r.penalty,
                r.warning,
                r.warning_penalty,
                r.solo,
                r.averaged,
                r.found_top,
                r.rank,
                r.move_score,
                r.article,
                r.reason,
            ]
            for r in rulings
        ],
        "standings": [[row.name, row.rank, row.total] for row in standings_event(event=event).rows],
    }


def test_an_event_ruled_before_2023_keeps_every_ruling_and_its_standings() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["11"]
    simulate_event(players=18, games=2, seed=11, start=START, rulebook="before-2023")
    event = Event.objects.get()
    assert event.rulebook == "before-2023"
    now = played(event)
    assert len(now["rulings"]) == len(recorded["rulings"]) > 500
    for was, is_ in zip(recorded["rulings"], now["rulings"], strict=True):
        assert is_ == was
    assert now["standings"] == recorded["standings"]
    assert {row[3] for row in now["rulings"]} >= {"valid", "valid_warning", "reference_penalty"}


def test_the_same_event_under_the_regulation_in_force_is_ruled_by_its_articles() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["11"]
    simulate_event(players=18, games=2, seed=11, start=START)
    now = played(Event.objects.get())
    assert len(now["rulings"]) == len(recorded["rulings"])
    assert all(str(row[13]).startswith("FISF 2023 · ") or row[13] == "11" for row in now["rulings"])
    # the same slips, other rulings where the texts differ (a wrong reference, a solo)
    differ = [
        (was, is_)
        for was, is_ in zip(recorded["rulings"], now["rulings"], strict=True)
        if (was[3], was[4], was[5], was[6], was[8]) != (is_[3], is_[4], is_[5], is_[6], is_[8])
    ]
    assert differ, "the simulated slips touch no article where the rulebooks differ"
    print(f"{len(differ)} of {len(now['rulings'])} rulings differ under fisf-2023")
