"""French typography through Django's locale formats: an event's date as French writes it
(``mer. 25 nov. 2026``), plural forms (``1 coup``), percentages with one precision per column,
names ordered by a collation key (Élodie before Yves among equal totals), and the console's
standings complete, with a find box."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from arbiter.selectors.standings import standings_event
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tests.web.night import publish_round
from tournament.vocabulary import name_key

pytestmark = pytest.mark.django_db

NAMES = ["Yves", "Élodie", "zoé", "Émile", "Aline", "Œdipe", "Bob"] + [
    f"P{n:02d}" for n in range(13)
]


@pytest.fixture
def soiree():
    event = EventFactory(
        name="Soirée",
        slug="soiree",
        language="fr",
        starts_on=dt.date(2026, 11, 25),
        solo_min_players=99,
    )
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role="director")
    players = [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate(NAMES)]
    game = GameFactory(event=event, number=1, seed=7)
    publish_round(game, {p: ("WROTE", "H4", 24) for p in players[7:10]})
    client = Client()
    client.force_login(director)
    return event, players, client


def page(client: Client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    return " ".join(client.get(url).content.decode().split())


def test_an_events_date_reads_as_each_language_writes_it(soiree) -> None:
    event, players, client = soiree
    url = reverse("console:event_detail", args=[event.slug])
    assert "mer. 25 nov. 2026" in page(client, url, "fr")
    assert "Wed 25 Nov 2026" in page(client, url, "en")


def test_one_round_is_said_in_the_singular(soiree) -> None:
    event, players, client = soiree
    text = page(client, reverse("console:game", args=[event.slug, 1]), "fr")
    assert "après 1 coup." in text and "1 coups" not in text


def test_the_consoles_standings_list_everyone_with_one_precision(soiree) -> None:
    event, players, client = soiree
    text = page(client, reverse("console:game", args=[event.slug, 1]), "fr")
    panel = text[text.index('id="console-standings"') :].split("</section>")[0]
    rows = re.findall(r"<tr data-find=", panel)
    assert len(rows) == len(NAMES) == 20
    percents = re.findall(r'<td class="num">([^<]*)</td></tr>', panel)  # the one percentage
    assert len(percents) == 20, percents
    # page() joins on any white space: the no-break space before % reads as a space here
    assert all(re.fullmatch(r"\d+,\d\d %", p) for p in percents), percents
    assert 'id="standings-find"' in panel


def test_names_sort_by_their_letters_accents_and_case_aside(soiree) -> None:
    event, players, client = soiree
    zero = [row.name for row in standings_event(event=event).rows if row.total == 0]
    assert zero[:6] == ["Aline", "Bob", "Élodie", "Émile", "Œdipe", "P03"]
    assert zero.index("Élodie") < zero.index("Yves") < zero.index("zoé")
    assert sorted(["Yves", "Élodie", "Eve"], key=name_key) == ["Élodie", "Eve", "Yves"]
