"""The projection screen's reads: one screen per game, one following the current game, the
last top with how many found it, every player in the standings (the page pages through
them), and the console's links to each game's screen."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import GameFactory, PlayerFactory
from tournament.models import Event, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(event: Event) -> tuple[Game, Game]:
    for table, name in enumerate(["Ann", "Bob", "Cleo", "Dan", "Eve"], start=1):
        PlayerFactory(event=event, name=name, table=table)
    return GameFactory(event=event, number=1, seed=7), GameFactory(event=event, number=2, seed=8)


def state(client: Client, name: str, *args: object) -> dict:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.json()


def test_each_game_has_its_own_screen_and_the_event_screen_follows_the_current_game(
    client_for, director, games
) -> None:
    first, second = games
    client = client_for(director)
    slug = first.event.slug
    open_round(second)  # game 2 runs: the event's current game
    assert state(client, "screen:state", slug)["game"] == 2
    assert state(client, "screen:game_state", slug, 2)["status"] == "open"
    one = state(client, "screen:game_state", slug, 1)
    assert (one["game"], one["round"], one["status"], one["rack"]) == (1, None, None, "")
    page = client.get(reverse("screen:game_screen", args=[slug, 1]))
    assert page.status_code == 200
    assert reverse("screen:game_state", args=[slug, 1]).encode() in page.content
    assert b"Game 1" in page.content
    assert client.get(reverse("screen:game_screen", args=[slug, 3])).status_code == 404


def test_the_screen_keeps_the_last_top_through_the_next_round_with_every_player_ranked(
    client_for, director, games
) -> None:
    first, _ = games
    client = client_for(director)
    finish_round(open_round(first), T0)  # round 1: H4 WROTE 24, nobody found it
    open_round(first, now=T0)
    shown = state(client, "screen:game_state", first.event.slug, 1)
    assert (shown["round"], shown["status"]) == (2, "open")
    assert shown["top"] == {"round": 1, "ref": "H4", "word": "WROTE", "score": 24, "found": 0}
    assert [row["name"] for row in shown["standings"]] == ["Ann", "Bob", "Cleo", "Dan", "Eve"]
    assert shown["warning_seconds"] == first.event.warning_seconds


def test_a_finished_game_says_so_on_its_screen(client_for, director, games) -> None:
    first, _ = games
    Game.objects.filter(pk=first.pk).update(
        status=Game.Status.FINISHED, end_reason="The bag is empty."
    )
    shown = state(client_for(director), "screen:game_state", first.event.slug, 1)
    assert shown["finished"] is True and shown["end_reason"] == "The bag is empty."


def test_the_console_links_to_each_games_screen_and_the_one_that_follows(
    client_for, director, games
) -> None:
    first, _ = games
    slug = first.event.slug
    page = client_for(director).get(reverse("console:game", args=[slug, 1])).content.decode()
    for url in (
        reverse("screen:game_screen", args=[slug, 1]),
        reverse("screen:game_screen", args=[slug, 2]),
        reverse("screen:screen", args=[slug]),
    ):
        assert f'href="{url}"' in page, url
    detail = client_for(director).get(reverse("console:event_detail", args=[slug])).content
    assert reverse("screen:game_screen", args=[slug, 2]).encode() in detail


def test_the_game_screen_is_for_the_events_staff(client_for, outsider, games) -> None:
    first, _ = games
    url = reverse("screen:game_state", args=[first.event.slug, 1])
    assert Client().get(url).status_code == 302
    assert client_for(outsider).get(url).status_code == 404


def test_the_screen_names_a_game_s_original_formula_and_its_nine_tile_rack(
    client_for, director, event: Event
) -> None:
    game = GameFactory(event=event, number=1, seed=7, formula="joker+789")
    client = client_for(director)
    open_round(game)
    shown = state(client, "screen:game_state", event.slug, 1)
    assert (shown["formula"], shown["formula_label"]) == ("joker+789", "Joker, 7, 8 et 9")
    assert len(shown["rack"]) == 9 and shown["rack"].count("?") == 1
    plain = GameFactory(event=event, number=2, seed=7)
    assert state(client, "screen:game_state", event.slug, plain.number)["formula_label"] == ""
