"""Each event shows its times in its own time zone (``Event.time_zone``, issue 15): its console
and API answers, its phones; a request never carries one event's zone into the next."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import override_settings
from rest_framework.test import APIClient

from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Event, EventRole

pytestmark = pytest.mark.django_db

NOON_UTC = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def director():
    return UserFactory(username="dora")


def room(director, slug: str, zone: str) -> Event:
    event = EventFactory(slug=slug, time_zone=zone, round_seconds=180)
    EventRoleFactory(event=event, user=director, role=EventRole.Role.DIRECTOR)
    GameFactory(event=event, number=1, seed=7)
    return event


def opened_at(client: APIClient, slug: str) -> str:
    client.post(f"/api/v1/events/{slug}/games/1/draw", {}, format="json")
    answer = client.post(f"/api/v1/events/{slug}/games/1/open", {}, format="json")
    assert answer.status_code == 200, answer.content
    return str(answer.json()["detail"])


@override_settings(TIME_ZONE="UTC")
def test_each_event_speaks_its_own_time_and_the_next_request_is_back_in_utc(director) -> None:
    room(director, "auckland", "Pacific/Auckland")
    room(director, "london", "UTC")
    client = APIClient()
    client.force_login(director)
    with time_machine.travel(NOON_UTC, tick=False):
        # Noon UTC is midnight in Auckland (UTC+12 on 1 May): the deadline 3 minutes later.
        assert opened_at(client, "auckland").endswith("open until 00:03:00.")
        assert opened_at(client, "london").endswith("open until 12:03:00.")


def test_the_phone_is_told_the_events_zone(director) -> None:
    event = room(director, "montreal", "America/Montreal")
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {PlayerFactory(event=event, table=1).token}")
    state = phone.get("/api/v1/play/state")
    assert state.status_code == 200
    assert state.json()["event"]["time_zone"] == "America/Montreal"


@override_settings(TIME_ZONE="Europe/Paris")
def test_a_new_event_takes_the_installations_zone_and_a_bad_zone_is_refused(director) -> None:
    client = APIClient()
    client.force_login(director)
    made = client.post(
        "/api/v1/events", {"name": "Paris open", "starts_on": "2026-12-05"}, format="json"
    )
    assert made.status_code == 201 and made.json()["policy"]["time_zone"] == "Europe/Paris"
    slug = made.json()["slug"]
    refused = client.patch(f"/api/v1/events/{slug}", {"time_zone": "Mars/Olympus"}, format="json")
    assert refused.status_code == 400 and "time_zone" in refused.json()["detail"]
    moved = client.patch(f"/api/v1/events/{slug}", {"time_zone": "Europe/Brussels"}, format="json")
    assert moved.status_code == 200
    assert Event.objects.get(slug=slug).time_zone == "Europe/Brussels"


@override_settings(TIME_ZONE="UTC")
def test_a_request_ends_in_the_installations_zone_whatever_its_view_activated() -> None:
    from django.http import HttpResponse
    from django.test import RequestFactory
    from django.utils import timezone

    from web.middleware import TimeZoneMiddleware

    def view(request):
        timezone.activate(dt.timezone(dt.timedelta(hours=12)))
        return HttpResponse(timezone.get_current_timezone_name())

    timezone.activate(dt.timezone(dt.timedelta(hours=5)))  # left over from an earlier request
    answer = TimeZoneMiddleware(view)(RequestFactory().get("/"))
    assert answer.content == b"UTC+12:00"
    assert timezone.get_current_timezone_name() == "UTC"
