"""Logins are rate-limited (django-axes): 5 failures for one username from one address lock
that pair out for 15 minutes; a right password still signs in before that, and the test
client's ``login`` (no request) is not rate-limited."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 5, 1, 20, 0, 0, tzinfo=dt.UTC)


def sign_in(client: Client, username: str, password: str, address: str = "10.0.0.7"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_a_right_password_signs_in_and_a_wrong_one_says_so(director) -> None:
    client = Client()
    wrong = sign_in(client, "dora", "nope")
    assert wrong.status_code == 200 and b"correct username and password" in wrong.content
    right = sign_in(client, "dora", PASSWORD)
    assert right.status_code == 302 and right["Location"] == reverse("console:event_list")


def test_five_failures_lock_the_username_and_address_out_for_15_minutes(director) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        client = Client()
        for _ in range(4):
            assert sign_in(client, "dora", "guess").status_code == 200
        assert sign_in(client, "dora", "guess").status_code == 429  # the fifth
        locked = sign_in(client, "dora", PASSWORD)
        assert locked.status_code == 429, "even the right password, while locked out"
        assert sign_in(client, "dora", PASSWORD, address="10.0.0.8").status_code == 302
        clock.shift(dt.timedelta(minutes=16))
        assert sign_in(Client(), "dora", PASSWORD).status_code == 302


def test_a_success_forgets_the_failures(director) -> None:
    client = Client()
    for _ in range(4):
        sign_in(client, "dora", "guess")
    assert sign_in(client, "dora", PASSWORD).status_code == 302
    for _ in range(4):
        assert sign_in(Client(), "dora", "guess").status_code == 200


def test_the_test_clients_login_is_not_rate_limited(director) -> None:
    client = Client()
    for _ in range(10):
        assert not client.login(username="dora", password="guess")
    assert client.login(username="dora", password=PASSWORD)
