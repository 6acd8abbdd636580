"""Results for the audience (rules.md): a page anyone may open when the director made it public,
its state cached per version of the event, nothing personal beyond the names (or initials)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from django.urls import reverse

from arbiter.selectors.public import initials
from arbiter.services import clock, publishing, scoring
from tournament.models import Event, Player, Round
from tournament.services.events import event_policy_update
from web.public_results import public_cache_clear

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh() -> None:
    public_cache_clear()


def _public(event: Event, **settings: bool) -> None:
    for name, value in {"public_results": True, **settings}.items():
        setattr(event, name, value)
    event.save()
    public_cache_clear()


def _state(client: Client, slug: str = "club-night") -> dict:
    response = client.get(reverse("public:state", args=[slug]))
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content)


def test_the_page_and_its_state_are_not_there_until_the_director_makes_them_public(night) -> None:
    event, *_ = night
    client = Client()
    assert client.get(reverse("public:results", args=[event.slug])).status_code == 404
    assert client.get(reverse("public:state", args=[event.slug])).status_code == 404
    _public(event)
    page = client.get(reverse("public:results", args=[event.slug]))
    assert page.status_code == 200 and b"Club night" in page.content
    assert client.get(reverse("public:results", args=["no-such-event"])).status_code == 404


def test_the_state_shows_the_rack_board_tops_and_standings_and_no_personal_field(night) -> None:
    event, game, players, _director = night
    for p in players:
        Player.objects.filter(pk=p.pk).update(club="Secret Club", licence=f"L-{900000 + p.pk}")
    _public(event)
    raw = Client().get(reverse("public:state", args=[event.slug])).content.decode()
    state = json.loads(raw)
    assert state["game"] == 1 and state["round"] == 3 and state["status"] == "open"
    assert len(state["rack"]) == 7 and state["deadline"]
    assert [t["word"] for t in state["tops"]] == ["WROTE", "TREMOLOs"]
    assert state["tops"][0]["found"] == 20  # every other player of 40 found WROTE
    assert len(state["standings"]) == 40
    assert set(state["standings"][0]) == {"rank", "name", "total", "gap", "top_pct", "top_pct_text"}
    for p in players:
        assert p.token not in raw
    for leak in ("Secret Club", "L-9", '"table"', '"licence"', '"club"', '"player_id"'):
        assert leak not in raw, leak
    assert "Player 01 Longname" in raw


def test_initials_replace_the_names_when_the_director_chose_so(night) -> None:
    event, *_ = night
    _public(event, public_initials=True)
    raw = Client().get(reverse("public:state", args=[event.slug])).content.decode()
    assert "Longname" not in raw
    assert {row["name"] for row in json.loads(raw)["standings"]} >= {"P. 0. L."}
    assert initials("Anne-Marie de la Tour") == "A.-M. D. L. T."


def test_the_state_is_read_from_cache_and_answers_304_until_the_event_changes(
    night, django_assert_num_queries, django_capture_on_commit_callbacks
) -> None:
    event, game, players, director = night
    _public(event)
    client = Client()
    first = client.get(reverse("public:state", args=[event.slug]))
    etag = first["ETag"]
    with django_assert_num_queries(0):  # from this process's memory: no query at all
        again = client.get(reverse("public:state", args=[event.slug]))
        assert json.loads(again.content)["version"] == json.loads(first.content)["version"]
        unchanged = client.get(reverse("public:state", args=[event.slug]), HTTP_IF_NONE_MATCH=etag)
        assert unchanged.status_code == 304
    # a publication changes the event's version: the next read is the new state
    current = Round.objects.get(game=game, number=3)
    assert current.deadline is not None
    closing = current.deadline + dt.timedelta(seconds=30)
    clock.round_close(round_id=current.pk, now=closing)
    scored = scoring.round_score(round_id=current.pk, now=closing)
    assert scored is not None
    with django_capture_on_commit_callbacks(execute=True):  # the live version moves on commit
        publishing.round_publish(round=scored, actor=director, now=closing)
    after = client.get(reverse("public:state", args=[event.slug]), HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert len(json.loads(after.content)["tops"]) == 3


def test_turning_the_page_off_takes_it_away(night) -> None:
    event, *_ = night
    _public(event)
    client = Client()
    assert client.get(reverse("public:state", args=[event.slug])).status_code == 200
    event_policy_update(event=event, actor=None, public_results=False)
    public_cache_clear()  # this process would forget within EVENT_SECONDS by itself
    assert client.get(reverse("public:state", args=[event.slug])).status_code == 404


def test_the_projection_screen_shows_the_pages_qr_code_only_when_public(night) -> None:
    event, game, players, director = night
    client = Client()
    client.force_login(director)
    screen = client.get(reverse("screen:screen", args=[event.slug]))
    assert b'id="public-qr"' not in screen.content
    _public(event)
    screen = client.get(reverse("screen:screen", args=[event.slug]))
    assert b'id="public-qr"' in screen.content and b"<svg" in screen.content


def test_the_page_speaks_french_for_a_french_event(night) -> None:
    event, *_ = night
    event.language = "fr"
    _public(event)
    page = Client().get(reverse("public:results", args=[event.slug]))
    assert b"Classement" in page.content
    assert 'lang="fr"' in page.content.decode()
