from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, EventFactory, GameFactory, PlayerFactory, UserFactory
from tournament.services import demo_event_ensure

pytestmark = pytest.mark.django_db

EVENTS = reverse("console:event_list")


def test_the_events_page_sends_visitors_to_the_login_page(client):
    response = client.get(EVENTS)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_director_logs_in_with_a_password_and_sees_the_events_page():
    UserFactory(username="dora")
    client = Client()
    page = client.get(reverse("login"))
    assert b'name="username"' in page.content
    response = client.post(
        reverse("login"), {"username": "dora", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == EVENTS
    assert b"<h1>Events</h1>" in response.content


def test_a_wrong_password_shows_an_error_on_the_login_page():
    UserFactory(username="dora")
    response = Client().post(reverse("login"), {"username": "dora", "password": "nope"})
    assert response.status_code == 200
    assert b'class="error"' in response.content


def test_a_superuser_sees_every_event_with_its_players_and_games(superuser, client_for):
    demo = demo_event_ensure()
    EventFactory(name="Other club")
    response = client_for(superuser).get(EVENTS)
    html = response.content.decode()
    assert "Demo club night" in html and "Other club" in html
    demo_row = next(e for e in response.context["events"] if e.pk == demo.pk)
    assert (demo_row.players_count, demo_row.games_count) == (12, 1)
    assert "Game 1" in html


def test_a_director_sees_only_the_events_where_they_have_a_role(event, director, client_for):
    EventFactory(name="Someone else's night")
    html = client_for(director).get(EVENTS).content.decode()
    assert "Spring open" in html
    assert "Someone else" not in html


def test_an_outsider_sees_no_event_and_cannot_open_one(event, outsider, client_for):
    client = client_for(outsider)
    assert "No events yet" in client.get(EVENTS).content.decode()
    detail = reverse("console:event_detail", args=[event.slug])
    assert client.get(detail).status_code == 404


def test_the_event_page_lists_players_by_table_and_games(event, director, client_for):
    PlayerFactory(event=event, name="Zoe", table=1, club="Dublin Tiles")
    PlayerFactory(event=event, name="Adam", table=2)
    GameFactory(event=event, number=1)
    response = client_for(director).get(reverse("console:event_detail", args=[event.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.index("Zoe") < html.index("Adam")
    assert "Dublin Tiles" in html and "Game 1" in html


def test_the_events_page_runs_a_fixed_number_of_queries(
    superuser, client_for, django_assert_max_num_queries
):
    for n in range(5):
        GameFactory(event=PlayerFactory(event=EventFactory(name=f"E{n}")).event)
    client = client_for(superuser)
    with django_assert_max_num_queries(6):
        client.get(EVENTS)
