"""The room's network (issue 25.6) on the inside: no token in a log or in what django-axes
stores, an API token ended by a password change, the demo password replaced by a generated one."""

from __future__ import annotations

import logging
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.factories import PASSWORD, EventFactory, UserFactory
from tournament.services import known_password_replace
from tournament.services.invitations import invitation_create, invitation_token
from tournament.services.users import PASSWORD_ALPHABET, password_generate
from web.redaction import redact

INVITE = "eyJpIjoxLCJuIjoiT3RmQmZ3In0:1vNc2k:Zk3v9QmT0bq1Xl7aPw2cYr8NdE5uHs4G"
KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


def test_invitation_links_are_redacted_in_paths_addresses_and_queries() -> None:
    assert redact(f"GET /invitations/{INVITE}/ HTTP/1.1") == "GET /invitations/<redacted>/ HTTP/1.1"
    assert redact(f"http://10.0.0.3:8000/invitations/{INVITE}/") == (
        "http://10.0.0.3:8000/invitations/<redacted>/"
    )
    assert redact(f"POST /accounts/login/?next=/invitations/{INVITE}/ HTTP/1.1") == (
        "POST /accounts/login/?next=/invitations/<redacted>/ HTTP/1.1"
    )
    assert redact(f"/accounts/login/?next=%2Finvitations%2F{INVITE}%2F") == (
        "/accounts/login/?next=%2Finvitations%2F<redacted>%2F"
    )
    assert redact("GET /invitations/ HTTP/1.1") == "GET /invitations/ HTTP/1.1"
    assert redact("GET /api/v1/events/club/invitations HTTP/1.1") == (
        "GET /api/v1/events/club/invitations HTTP/1.1"
    )


def test_authorization_credentials_are_redacted() -> None:
    assert redact(f"Authorization: Token {KEY}") == "Authorization: Token <redacted>"
    assert redact(f"headers {{'Authorization': 'Bearer {KEY}'}}") == (
        "headers {'Authorization': 'Bearer <redacted>'}"
    )
    assert redact("a Token of esteem") == "a Token of esteem"
    assert redact("Token generated for dora") == "Token generated for dora"


@pytest.mark.django_db
def test_djangos_request_log_of_an_unknown_invitation_has_no_token(client, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(f"/invitations/{INVITE}/")
    assert response.status_code == 400  # an invitation that does not exist
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert INVITE not in logged and "/invitations/<redacted>/" in logged


@pytest.mark.django_db
def test_a_failed_sign_in_from_an_invitation_is_stored_and_logged_without_its_token(
    client, caplog
) -> None:
    event = EventFactory()
    token = invitation_token(invitation_create(event=event, name="Ada", role="arbiter", actor=None))
    UserFactory(username="ada")
    login = f"{reverse('login')}?next=/invitations/{token}/"
    with caplog.at_level(logging.INFO):
        response = client.post(login, {"username": "ada", "password": "wrong"})
    assert response.status_code == 200  # the form again, with its error
    [attempt] = AccessAttempt.objects.all()
    stored = f"{attempt.get_data} {attempt.post_data} {attempt.path_info}"
    assert token not in stored and "next=/invitations/<redacted>/" in stored
    handler = logging.getLogger().handlers[0]  # the console handler, with its filter
    written = "\n".join(handler.format(r) for r in caplog.records if handler.filter(r))
    assert token not in written and "AXES" in written


@pytest.mark.django_db
def test_a_password_change_ends_the_accounts_api_token(client) -> None:
    owner = UserFactory(username="owner")
    other = UserFactory(username="other")
    key = Token.objects.create(user=owner).key
    Token.objects.create(user=other)
    api = "/api/v1/events"
    assert client.get(api, HTTP_AUTHORIZATION=f"Token {key}").status_code == 200

    client.force_login(owner)
    changed = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "x7-Qk!pl2m", "new_password2": "x7-Qk!pl2m"},
    )
    assert changed.status_code == 302
    client.logout()
    refused = client.get(api, HTTP_AUTHORIZATION=f"Token {key}")
    assert refused.status_code == 403, refused.content  # DRF's answer with sessions first
    assert "token" in refused.json()["detail"].lower()
    assert not Token.objects.filter(user=owner).exists()
    assert Token.objects.filter(user=other).exists()  # only the owner's


@pytest.mark.django_db
def test_a_password_set_anywhere_else_ends_the_token_and_a_sign_in_does_not() -> None:
    owner = UserFactory(username="owner")
    Token.objects.create(user=owner)
    owner.save(update_fields=["last_login"])  # a sign-in
    owner.first_name = "Ada"
    owner.save()  # the admin saving the account, the password untouched
    assert Token.objects.filter(user=owner).exists()
    owner.set_password("another-password-9")
    owner.save()  # the admin's password form, changepassword
    assert not Token.objects.filter(user=owner).exists()


@pytest.mark.django_db
def test_the_demo_password_is_replaced_by_a_generated_one_once() -> None:
    get_user_model().objects.create_superuser(username="director", password="duplicate")
    Token.objects.create(user=get_user_model().objects.get(username="director"))
    new = known_password_replace(username="director", known="duplicate")
    assert new is not None and re.fullmatch(r"[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}", new)
    director = get_user_model().objects.get(username="director")
    assert director.check_password(new) and not director.check_password("duplicate")
    assert not Token.objects.filter(user=director).exists()
    assert known_password_replace(username="director", known="duplicate") is None
    assert known_password_replace(username="nobody", known="duplicate") is None


def test_generated_passwords_use_the_unambiguous_alphabet_and_differ() -> None:
    made = {password_generate() for _ in range(200)}
    assert len(made) == 200
    assert set("".join(made)) - {"-"} <= set(PASSWORD_ALPHABET)
    assert not set(PASSWORD_ALPHABET) & set("01lio")


def test_the_banner_says_duplicate_only_while_it_opens_the_account() -> None:
    from web.management.commands.run_embedded import Command

    assert Command._password_line(True, None) == "duplicate"
    replaced = Command._password_line(False, None)
    assert "duplicate" not in replaced and "changepassword director" in replaced
    new = Command._password_line(False, "k7pm-x3qa-9fne")
    assert new.startswith("k7pm-x3qa-9fne\n") and "shown once" in new
