"""A player's history and a club's season (rules.md): the numbers add up with the events'
own workbooks; who sees a history; the CSV and the workbook; both languages."""

from __future__ import annotations

import csv
import io

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from arbiter.simulation import simulate_event
from tests.factories import EventRoleFactory, UserFactory
from tournament.models import Event, Player, Season
from web.exports.workbooks import event_workbook_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def nights() -> list[Event]:
    """Two club nights, the same six players (by licence) at both."""
    events = []
    for seed in (41, 42):
        summary = simulate_event(players=6, games=1, seed=seed)
        event = Event.objects.get(pk=summary["event"])
        for player in event.players.all():
            player.licence = f"L{player.table:03d}"
            player.save(update_fields=["licence"])
        events.append(event)
    return events


def _standings(event: Event) -> dict[str, dict[str, object]]:
    """The event workbook's Standings sheet, by player."""
    book = load_workbook(io.BytesIO(event_workbook_bytes(event=event)), read_only=True)
    rows = list(book["Standings"].iter_rows(values_only=True))
    header = list(rows[0])
    return {r[header.index("Player")]: dict(zip(header, r, strict=False)) for r in rows[1:]}


def _player_client(player: Player) -> Client:
    client = Client()
    client.get(reverse("play:play_join", args=[player.token]))  # the phone's cookie
    return client


def test_a_players_history_adds_up_with_each_events_workbook(nights: list[Event]) -> None:
    me = Player.objects.get(event=nights[1], licence="L001")
    client = _player_client(me)
    page = client.get(reverse("history:player", args=["L001"]))
    assert page.status_code == 200
    csv_text = client.get(reverse("history:player_csv", args=["L001"])).content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert [r["Event"] for r in rows] == [e.name for e in nights]
    for event, row in zip(nights, rows, strict=True):
        name = Player.objects.get(event=event, licence="L001").name
        sheet = _standings(event)[name]
        assert int(row["Total"]) == sheet["Total"]
        assert float(row["Top %"]) == pytest.approx(sheet["Top %"])
        assert int(row["Tops"]) == sheet["Tops"]
        assert int(row["Rank"]) == sheet["Rank"]
    book = load_workbook(
        io.BytesIO(client.get(reverse("history:player_xlsx", args=["L001"])).content)
    )
    assert book.active.max_row == 3  # the header and two games
    assert b'id="trend"' in page.content


def test_a_history_is_seen_by_its_player_and_the_events_staff_only(nights: list[Event]) -> None:
    url = reverse("history:player", args=["L002"])
    assert Client().get(url).status_code == 404
    other = Player.objects.get(event=nights[0], licence="L003")
    assert _player_client(other).get(url).status_code == 404  # another player's
    outsider = Client()
    outsider.force_login(UserFactory(username="otto"))
    assert outsider.get(url).status_code == 404
    director = UserFactory(username="dora")
    EventRoleFactory(event=nights[0], user=director, role="director")
    staff = Client()
    staff.force_login(director)
    page = staff.get(url).content.decode()
    assert nights[0].name in page and nights[1].name not in page  # her own event's games only


def test_a_season_ranks_the_sum_or_the_best_nights_of_the_workbooks_percentages(
    nights: list[Event],
) -> None:
    director = UserFactory(username="dora")
    for event in nights:
        EventRoleFactory(event=event, user=director, role="director")
    client = Client()
    client.force_login(director)
    created = client.post(
        reverse("history:seasons"),
        {"name": "Winter 2026", "events": [str(e.pk) for e in nights], "method": "sum"},
    )
    season = Season.objects.get()
    assert created["Location"] == reverse("history:season", args=[season.slug])
    sheets = [_standings(e) for e in nights]
    expected = {}
    for licence in ("L001", "L004"):
        pcts = [
            sheet[Player.objects.get(event=e, licence=licence).name]["Top %"]
            for e, sheet in zip(nights, sheets, strict=True)
        ]
        expected[licence] = pcts
    book = load_workbook(
        io.BytesIO(client.get(reverse("history:season_xlsx", args=[season.slug])).content)
    )
    rows = list(book.active.iter_rows(values_only=True))
    by_licence = {r[2]: r for r in rows[1:]}
    for licence, pcts in expected.items():
        assert by_licence[licence][5] == pytest.approx(round(sum(pcts), 2))
    client.post(
        reverse("history:season", args=[season.slug]),
        {"events": [str(e.pk) for e in nights], "method": "best", "best_n": "1"},
    )
    book = load_workbook(
        io.BytesIO(client.get(reverse("history:season_xlsx", args=[season.slug])).content)
    )
    by_licence = {r[2]: r for r in list(book.active.iter_rows(values_only=True))[1:]}
    for licence, pcts in expected.items():
        assert by_licence[licence][5] == pytest.approx(max(pcts))
    scores = [r[5] for r in list(book.active.iter_rows(values_only=True))[1:]]
    assert scores == sorted(scores, reverse=True)
    assert client.get(reverse("history:season_print", args=[season.slug])).status_code == 200
    refused = client.post(
        reverse("history:season", args=[season.slug]), {"events": [], "method": "best"}
    )
    assert refused.status_code == 400 and b"how many nights count" in refused.content


def test_the_history_and_season_pages_speak_french(nights: list[Event]) -> None:
    director = UserFactory(username="dora")
    EventRoleFactory(event=nights[0], user=director, role="director")
    client = Client()
    client.force_login(director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    page = client.get(reverse("history:player", args=["L001"])).content.decode()
    assert "Historique" in page
    assert "Nouvelle saison" in client.get(reverse("history:seasons")).content.decode()
