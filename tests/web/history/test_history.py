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
from tests.factories import EventFactory, EventRoleFactory, UserFactory
from tournament.models import Event, LicenceConfirmation, Player, Season
from tournament.services.player_imports import players_import
from tournament.services.players import player_register, player_update
from web.exports.workbooks import event_workbook_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def nights() -> list[Event]:
    """Two club nights, the same six players (by licence, confirmed by the federation's list)
    at both."""
    events = []
    for seed in (41, 42):
        summary = simulate_event(players=6, games=1, seed=seed)
        event = Event.objects.get(pk=summary["event"])
        for player in event.players.all():
            player.licence = f"L{player.table:03d}"
            player.licence_confirmed = LicenceConfirmation.FEDERATION
            player.save(update_fields=["licence", "licence_confirmed"])
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


def _history_rows(client: Client, licence: str) -> list[dict[str, str]] | None:
    answer = client.get(reverse("history:player_csv", args=[licence]))
    if answer.status_code == 404:
        return None
    assert answer.status_code == 200
    return list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"))))


def test_a_licence_typed_in_ones_own_event_reads_no_other_events_history(
    nights: list[Event],
) -> None:
    """The attack of issue 34: an account with no role creates its own event, registers a
    player with the licence of a player of another director's private event (by the API, as
    typed), opens that player's phone and asks for the licence's history: only its own event."""
    mallory = UserFactory(username="mallory")
    client = Client()
    client.force_login(mallory)
    made = client.post(
        "/api/v1/events",
        {"name": "Mallory's night", "starts_on": "2026-05-02"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    slug = made.json()["slug"]
    registered = client.post(
        f"/api/v1/events/{slug}/players",
        {"name": "Not Alice", "licence": "L002"},
        content_type="application/json",
    )
    assert registered.status_code == 201, registered.content
    fake = Player.objects.get(event__slug=slug)
    assert fake.licence_confirmed == LicenceConfirmation.TYPED
    phone = _player_client(fake)
    rows = _history_rows(phone, "L002")
    assert rows == []  # its own event, where it has played nothing; neither private night
    page = phone.get(reverse("history:player", args=["L002"])).content.decode()
    assert nights[0].name not in page and nights[1].name not in page
    # Mallory's own list, imported as the director of her event, vouches for her event only.
    fake.delete()
    imported = client.post(
        f"/api/v1/events/{slug}/players/import",
        {"file": _csv_file("name,licence\nNot Alice,L002\n")},
    )
    assert imported.status_code == 201, imported.content
    fake = Player.objects.get(event__slug=slug)
    assert fake.licence_confirmed == LicenceConfirmation.DIRECTOR
    assert _history_rows(_player_client(fake), "L002") == []


def _csv_file(text: str) -> io.BytesIO:
    file = io.BytesIO(text.encode())
    file.name = "players.csv"
    return file


def test_a_phone_sees_other_events_only_where_both_licences_are_confirmed(
    nights: list[Event],
) -> None:
    mine = Player.objects.get(event=nights[1], licence="L002")
    phone = _player_client(mine)
    assert [r["Event"] for r in _history_rows(phone, "L002") or []] == [e.name for e in nights]
    earlier = Player.objects.get(event=nights[0], licence="L002")
    earlier.licence_confirmed = LicenceConfirmation.TYPED  # typed by hand at that night's desk
    earlier.save(update_fields=["licence_confirmed"])
    assert [r["Event"] for r in _history_rows(phone, "L002") or []] == [nights[1].name]
    earlier.licence_confirmed = LicenceConfirmation.FEDERATION
    earlier.save(update_fields=["licence_confirmed"])
    # Confirmed by a director's list: the other events that director directs, no other.
    dora = UserFactory(username="dora")
    EventRoleFactory(event=nights[1], user=dora, role="director")
    mine.licence_confirmed, mine.licence_confirmed_by = LicenceConfirmation.DIRECTOR, dora
    mine.save(update_fields=["licence_confirmed", "licence_confirmed_by"])
    assert [r["Event"] for r in _history_rows(phone, "L002") or []] == [nights[1].name]
    EventRoleFactory(event=nights[0], user=dora, role="director")
    assert [r["Event"] for r in _history_rows(phone, "L002") or []] == [e.name for e in nights]
    # The licence changed by hand: typed again, nobody's confirmation.
    player_update(player=mine, actor=dora, name=mine.name, licence="L099", table=mine.table)
    mine.refresh_from_db()
    assert mine.licence_confirmed == LicenceConfirmation.TYPED
    assert _history_rows(phone, "L002") is None
    assert [r["Event"] for r in _history_rows(phone, "L099") or []] == [nights[1].name]


def test_a_history_is_public_only_for_events_whose_results_are_public_with_names(
    nights: list[Event],
) -> None:
    anyone = Client()
    assert _history_rows(anyone, "L004") is None
    Event.objects.filter(pk=nights[0].pk).update(public_results=True, public_initials=True)
    assert _history_rows(anyone, "L004") is None  # initials: the licence would name them
    Event.objects.filter(pk=nights[0].pk).update(public_initials=False)
    assert [r["Event"] for r in _history_rows(anyone, "L004") or []] == [nights[0].name]


def test_an_imported_list_confirms_its_licences_by_whom_imported_it() -> None:
    event = EventFactory()
    dora = UserFactory(username="dora")
    content = b"name,licence\nAlice,A1\nBob,\n"
    alice, bob = players_import(event=event, file_name="p.csv", content=content, actor=dora)
    assert (alice.licence_confirmed, alice.licence_confirmed_by) == ("director", dora)
    assert (bob.licence_confirmed, bob.licence_confirmed_by) == ("", None)
    other = EventFactory()
    boss = UserFactory(username="boss", is_superuser=True)
    (carol,) = players_import(
        event=other, file_name="p.csv", content=b"name,licence\nCarol,C1\n", actor=boss
    )
    assert carol.licence_confirmed == "federation"
    typed = player_register(event=other, name="Dan", licence="D1", actor=boss)
    assert typed.licence_confirmed == ""
