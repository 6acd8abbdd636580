"""Players' series and age categories in the faces: the console's player form, the staff API,
the standings downloads and the projection screen, filtered with the rank within the filter
beside the overall rank; every bad value refused with the reason."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from arbiter.simulation import simulate_event
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tournament.models import Event, EventRole, Player
from web.exports.sheets import CATEGORIES_HEADER, STANDINGS_HEADER

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client: Client) -> tuple[Client, Event]:
    event = EventFactory()
    user = UserFactory(username="dir")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.DIRECTOR)
    client.force_login(user)
    return client, event


def test_the_console_form_registers_and_updates_series_and_age_category(director) -> None:
    client, event = director
    url = reverse("console:setup_post", args=[event.slug, "player"])
    client.post(url, {"name": "Ann", "table": 1, "series": 3, "age_category": "cadet"})
    ann = Player.objects.get()
    assert (ann.series, ann.age_category) == (3, "Cadet")
    one = reverse("console:setup_post_one", args=[event.slug, "player", ann.pk])
    response = client.post(one, {"name": "Ann", "series": 9}, follow=True)
    assert "Ensure this value is less than or equal to 7" in response.content.decode()
    response = client.post(one, {"name": "Ann", "age_category": "Teen"}, follow=True)
    assert "Age category &#x27;Teen&#x27; is not one of" in response.content.decode()
    ann.refresh_from_db()
    assert (ann.series, ann.age_category) == (3, "Cadet")
    page = client.get(reverse("console:setup", args=[event.slug])).content.decode()
    assert 'name="series" type="number" min="1" max="7" value="3"' in page


def test_the_staff_api_registers_updates_and_lists_players_with_their_categories(
    director,
) -> None:
    client, event = director
    url = reverse("staff_api:players", args=[event.slug])
    made = client.post(
        url,
        {"name": "Ann", "licence": "F123", "series": 2, "age_category": "Émeraude"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["series"], body["age_category"], body["licence"]) == (2, "Émeraude", "F123")
    bad = client.post(url, {"name": "Bob", "series": 0}, content_type="application/json")
    assert bad.status_code == 400 and "series" in bad.json()["fields"]
    bad = client.post(url, {"name": "Bob", "age_category": "Old"}, content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["detail"].startswith("Age category 'Old' is not one of Poussin")
    one = reverse("staff_api:player", args=[event.slug, body["id"]])
    changed = client.post(
        one, {"name": "Ann", "licence": "F123", "series": 5}, content_type="application/json"
    )
    assert changed.status_code == 200 and changed.json()["series"] == 5
    assert changed.json()["age_category"] == ""  # every field is given, as in the console
    missing = reverse("staff_api:player", args=[event.slug, 99999])
    assert client.post(missing, {"name": "X"}, content_type="application/json").status_code == 404
    listed = client.get(url).json()
    assert [(p["name"], p["series"], p["licence"]) for p in listed] == [("Ann", 5, "F123")]


@pytest.fixture
def played(client: Client) -> tuple[Client, Event]:
    event = Event.objects.get(pk=simulate_event(players=6, games=1, seed=3)["event"])
    for i, p in enumerate(event.players.order_by("table")):
        p.series, p.age_category = 1 + i % 2, ("Junior", "Senior", "Vermeil")[i % 3]
        p.save()
    user = UserFactory(username="arb")
    EventRoleFactory(user=user, event=event, role=EventRole.Role.ARBITER)
    client.force_login(user)
    return client, event


def _csv(content: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))


def test_the_standings_csv_filters_by_series_and_age_with_the_overall_rank(played) -> None:
    client, event = played
    url = reverse("exports:standings_csv", args=[event.slug])
    everyone = _csv(client.get(url).content)
    assert list(everyone[0]) == STANDINGS_HEADER
    overall = {row["Player"]: row["Rank"] for row in everyone}
    series2 = _csv(client.get(url + "?series=S2").content)
    series2_players = set(
        Player.objects.filter(event=event, series=2).values_list("name", flat=True)
    )
    assert {row["Player"] for row in series2} == series2_players and len(series2) == 3
    assert series2[0]["Rank"] == "1"
    ranks = _csv(client.get(reverse("exports:categories_csv", args=[event.slug])).content)
    assert list(ranks[0]) == CATEGORIES_HEADER
    assert all(row["Rank"] == row["Overall rank"] == overall[row["Player"]] for row in ranks)
    in_series = {row["Player"]: row["Rank in series"] for row in ranks}
    assert {row["Player"]: row["Rank"] for row in series2} == {
        name: in_series[name] for name in series2_players
    }
    both = _csv(client.get(url + "?series=1&age_category=junior").content)
    names = {row["Player"] for row in both}
    assert names == set(
        Player.objects.filter(event=event, series=1, age_category="Junior").values_list(
            "name", flat=True
        )
    )
    response = client.get(url + "?series=9", follow=True)
    assert "Series &#x27;9&#x27; is not a series (1 to 7)." in response.content.decode()
    response = client.get(url + "?age_category=Teen", follow=True)
    assert "Age category &#x27;Teen&#x27; is not one of" in response.content.decode()


def test_the_workbooks_filter_too(played) -> None:
    from openpyxl import load_workbook

    client, event = played
    url = reverse("exports:event_export_xlsx", args=[event.slug]) + "?age_category=Vermeil"
    wb = load_workbook(io.BytesIO(client.get(url).content))
    assert wb.sheetnames[-1] == "Categories"
    standings = list(wb["Standings"].iter_rows(values_only=True))
    assert list(standings[0]) == STANDINGS_HEADER and len(standings) == 3
    assert standings[1][0] == 1
    rows = list(wb["Categories"].iter_rows(values_only=True))
    assert list(rows[0]) == CATEGORIES_HEADER
    assert {r[6] for r in rows[1:]} == {"Vermeil"} and len(rows) == 3
    assert [r[0] for r in rows[1:]] == [r[9] for r in rows[1:]]  # rank = rank in age category


def test_the_screen_shows_a_category_ranked_within_it(played) -> None:
    client, event = played
    page = client.get(reverse("screen:screen", args=[event.slug]) + "?series=1")
    assert page.status_code == 200
    assert 'data-state-url="/events/' in page.content.decode()
    assert "state.json?series=1" in page.content.decode()
    game = event.games.get()
    state = client.get(reverse("screen:game_state", args=[event.slug, game.number]) + "?series=1")
    data = state.json()
    assert data["filter"] == "series 1"
    assert len(data["standings"]) == 3
    assert [row["rank"] for row in data["standings"]][0] == 1
    assert all(row["overall_rank"] >= row["rank"] for row in data["standings"])
    assert client.get(reverse("screen:screen", args=[event.slug]) + "?series=x").status_code == 404


def test_the_event_page_offers_the_category_downloads(played) -> None:
    client, event = played
    PlayerFactory(event=event, name="Zed", club="Zurich", table=99)
    page = client.get(reverse("console:event_detail", args=[event.slug])).content.decode()
    assert 'id="standings-filter"' in page
    assert "<option>Zurich</option>" in page and '<option value="7">series 7</option>' in page
