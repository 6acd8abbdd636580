"""Setting an event up without the admin: the event and its rules, players, games, roles."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.tiles import TileSet
from tests.factories import PlayerFactory, UserFactory
from tournament.models import AuditEntry, Event, EventRole, Game, Player

pytestmark = pytest.mark.django_db


def post(client: Client, event: Event, what: str, pk: int | None = None, **data: object):
    url = (
        reverse("console:setup_post_one", args=[event.slug, what, pk])
        if pk
        else reverse("console:setup_post", args=[event.slug, what])
    )
    return client.post(url, data, follow=True)


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


POLICY = {
    "round_seconds": 120,
    "grace_seconds": 5,
    "warning_seconds": 20,
    "warnings_free": 3,
    "warning_penalty": 5,
    "reference_rule_2016": "on",
    "reference_penalty": 5,
    "solo_bonus": 10,
    "solo_min_players": 16,
    "tile_set": "en",
    "lexicon": "enable",
    "board_layout": "standard",
}


def test_a_director_creates_an_event_with_its_rules_and_directs_it(client_for, outsider) -> None:
    client = client_for(outsider)
    assert client.get(reverse("console:event_new")).status_code == 200
    response = client.post(
        reverse("console:event_new"),
        {"name": "Club night", "starts_on": "2026-12-01", "venue": "Hall", **POLICY},
        follow=True,
    )
    event = Event.objects.get(name="Club night")
    assert (event.round_seconds, event.grace_seconds, event.warning_seconds) == (120, 5, 20)
    assert EventRole.objects.get(event=event).user == outsider
    assert "register its players" in said(response)[0]
    bad = client.post(
        reverse("console:event_new"),
        {"name": "Too short", "starts_on": "2026-12-01", **{**POLICY, "warning_seconds": 500}},
        follow=True,
    )
    assert not Event.objects.filter(name="Too short").exists()
    assert any("event_warning_within_round" in m or "warning" in m.lower() for m in said(bad))


def test_a_new_event_starts_in_the_directors_language_with_its_tiles_list_and_time_zone(
    client_for, outsider
) -> None:
    """A French director's new event starts with the French tiles, the open French list,
    French and Paris time: one form to send, not four menus to change; English keeps the
    policy's defaults."""
    import re

    def chosen(page: str) -> dict[str, str]:
        found = {}
        for name in ("tile_set", "lexicon", "language", "time_zone"):
            select = re.search(rf'(?s)<select name="{name}".*?</select>', page)
            assert select, name
            option = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(0))
            found[name] = option.group(1) if option else ""
        return found

    client = client_for(outsider)
    client.cookies["django_language"] = "fr"
    french = chosen(client.get(reverse("console:event_new")).content.decode())
    assert french == {
        "tile_set": "fr",
        "lexicon": "builtin:grammalecte-fr",
        "language": "fr",
        "time_zone": "Europe/Paris",
    }
    client.cookies["django_language"] = "en"
    english = chosen(client.get(reverse("console:event_new")).content.decode())
    assert (english["tile_set"], english["lexicon"], english["language"]) == ("en", "enable", "en")
    client.cookies["django_language"] = "fr"
    client.post(
        reverse("console:event_new"),
        {"name": "Soirée", "starts_on": "2026-12-01", **POLICY, **french},
    )
    event = Event.objects.get(name="Soirée")
    assert (event.tile_set, event.language, event.time_zone) == ("fr", "fr", "Europe/Paris")
    assert event.lexicon.startswith("upload:")  # the open French list's row, made ready


def test_the_policy_is_changed_and_audited(client_for, director, event) -> None:
    client = client_for(director)
    assert client.get(reverse("console:setup", args=[event.slug])).status_code == 200
    assert said(
        post(
            client, event, "policy", **{**POLICY, "round_seconds": 60, "board_layout": "tl-centre"}
        )
    ) == ["The rules policy is saved."]
    event.refresh_from_db()
    assert (event.round_seconds, event.board_layout) == (60, "tl-centre")
    assert AuditEntry.objects.get(action="tournament.event.policy_changed").data[
        "round_seconds"
    ] == {"from": 180, "to": 60}
    assert (
        "Unknown lexicon" in said(post(client, event, "policy", **{**POLICY, "lexicon": "nwl"}))[0]
        or "valid choice" in said(post(client, event, "policy", **{**POLICY, "lexicon": "nwl"}))[0]
    )


def test_players_are_registered_and_given_tables_clubs_and_categories(
    client_for, director, event
) -> None:
    client = client_for(director)
    assert said(post(client, event, "player", name="Ann", table=1, club="Lyon", category="S1")) == [
        "Ann is registered at table 1."
    ]
    assert "Table 1 is already taken" in said(post(client, event, "player", name="Bob", table=1))[0]
    bob = PlayerFactory(event=event, name="Bob", table=2)
    assert said(
        post(client, event, "player", bob.pk, name="Bob", table=3, club="Liège", category="S2")
    ) == ["Bob is updated."]
    bob.refresh_from_db()
    assert (bob.table, bob.club, bob.category) == (3, "Liège", "S2")
    assert (
        "already taken by Ann"
        in said(post(client, event, "player", bob.pk, name="Bob", table=1))[0]
    )
    assert "name" in said(post(client, event, "player", name=""))[0]


def test_games_are_added_random_predrawn_or_typed(client_for, director, event) -> None:
    client = client_for(director)
    assert (
        said(post(client, event, "game", source="random", seed=42))[0]
        == "Game 1 is added (random draw)."
    )
    assert Game.objects.get(number=1).seed == 42
    assert "Game 2 is added" in said(post(client, event, "game", source="manual"))[0]
    document = autoplay(seed=3, tiles=TileSet.load("en"), lexicon=Lexicon.load()).to_document()
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "game.json"
    assert (
        said(post(client, event, "game", source="predrawn", predrawn=upload))[0]
        == "Game 3 is added: 27 pre-drawn rounds, a top total of 669."
    )
    tampered = {
        **document,
        "rounds": [{**document["rounds"][0], "score": 999}, *document["rounds"][1:]],
    }
    upload = io.BytesIO(json.dumps(tampered).encode())
    upload.name = "bad.json"
    assert (
        "does not replay: round 1"
        in said(post(client, event, "game", source="predrawn", predrawn=upload))[0]
    )
    garbage = io.BytesIO(b"not json")
    garbage.name = "x.json"
    assert "not JSON" in said(post(client, event, "game", source="predrawn", predrawn=garbage))[0]
    assert Game.objects.filter(event=event).count() == 3
    joker = post(client, event, "game", source="random", seed=5, formula="joker")
    assert said(joker)[0] == "Game 4 is added (random draw)."
    assert Game.objects.get(event=event, number=4).formula == "joker"
    sudden = post(client, event, "game", source="random", seed=6, formula="mortsubite")
    assert said(sudden)[0] == "Game 5 is added (random draw)."
    assert Game.objects.get(event=event, number=5).formula == "mortsubite"
    page = client.get(reverse("console:setup", args=[event.slug])).content.decode()
    assert 'name="formula"' in page and "Joker" in page
    assert 'value="mortsubite"' in page and "Mort subite" in page


def test_roles_are_granted_and_only_a_director_sets_up(client_for, director, event) -> None:
    arbiter = UserFactory(username="arnold")
    client = client_for(director)
    assert said(post(client, event, "role", username="arnold", role="arbiter")) == [
        f"arnold is now arbiter of {event.name}."
    ]
    assert (
        "No account is called 'nobody'"
        in said(post(client, event, "role", username="nobody", role="arbiter"))[0]
    )
    assert client_for(arbiter).get(reverse("console:setup", args=[event.slug])).status_code == 403
    assert (
        client_for(arbiter)
        .post(reverse("console:setup_post", args=[event.slug, "player"]), {"name": "Sneaky"})
        .status_code
        == 403
    )
    assert Client().get(reverse("console:setup", args=[event.slug])).status_code == 302
    assert not Player.objects.filter(name="Sneaky").exists()
