"""Accounts without the admin: opening an invitation link (a new account, or a signed-in
person's own), every link that cannot be used, changing one's own password, and the admin
kept for superusers."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import PASSWORD, EventRoleFactory, PlayerFactory, UserFactory
from tournament.models import EventRole, Invitation
from tournament.services.invitations import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    invitation_token,
)

pytestmark = pytest.mark.django_db
GOOD = "tile-rack-bingo-42"


@pytest.fixture
def invitation(event, director) -> Invitation:
    return invitation_create(event=event, name="Arnold", role="arbiter", actor=director)


def link(invitation: Invitation) -> str:
    return reverse("console:invitation", args=[invitation_token(invitation)])


def test_a_new_person_sets_a_password_and_lands_on_the_event_as_arbiter(client, invitation):
    page = client.get(link(invitation))
    assert page.status_code == 200
    html = page.content.decode()
    assert "dora invites you to be <strong>arbiter</strong> of Spring open" in html
    assert 'name="username"' in html and 'autocomplete="new-password"' in html
    answer = client.post(
        link(invitation), {"username": "arnold", "password1": GOOD, "password2": GOOD}
    )
    assert answer.status_code == 302
    assert answer["Location"] == reverse("console:event_detail", args=[invitation.event.slug])
    event_page = client.get(answer["Location"])  # signed in, with the role
    assert event_page.status_code == 200 and event_page.context["role"] == "arbiter"
    assert client.get(link(invitation)).status_code == 410  # once only


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        (
            {"username": "arnold", "password1": "short1", "password2": "short1"},
            "password1",
            "short",
        ),
        ({"username": "arnold", "password1": GOOD, "password2": GOOD + "x"}, "password2", "same"),
        ({"username": "dora", "password1": GOOD, "password2": GOOD}, "username", "is taken"),
        ({"username": "", "password1": GOOD, "password2": GOOD}, "username", "required"),
        ({"username": "a b", "password1": GOOD, "password2": GOOD}, "username", "valid username"),
    ],
)
def test_a_bad_account_form_names_the_field_and_creates_nothing(
    client, invitation, data, field, says
):
    page = client.post(link(invitation), data)
    assert page.status_code == 400
    errors = page.context["form"].errors
    assert field in errors and says in " ".join(errors[field]), errors
    assert f'data-field="{field}"' in page.content.decode()
    assert get_user_model().objects.count() == 1  # the director only
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


def test_a_signed_in_person_accepts_onto_their_own_account(client_for, invitation, outsider):
    client = client_for(outsider)
    page = client.get(link(invitation))
    assert b"Accept as otto" in page.content and b'name="password1"' not in page.content
    assert client.post(link(invitation)).status_code == 302
    assert EventRole.objects.get(user=outsider, event=invitation.event).role == "arbiter"


def test_an_anonymous_visitor_can_sign_in_and_come_back_to_the_link(client, invitation):
    page = client.get(link(invitation))
    assert f"/accounts/login/?next={link(invitation)}" in page.content.decode()


def test_a_used_revoked_expired_or_tampered_link_gets_a_clear_page(
    client, event, director, invitation
):
    used = invitation_create(event=event, name="Bob", role="arbiter", actor=director)
    invitation_accept(invitation=used, user=UserFactory(username="bob"))
    revoked = invitation_create(event=event, name="Cleo", role="arbiter", actor=director)
    invitation_revoke(invitation=revoked, actor=director)
    cases = [
        (link(used), 410, "Invitation already used"),
        (link(revoked), 410, "Invitation withdrawn"),
        (link(invitation)[:-5] + "x/", 400, "Invalid invitation link"),
        ("/invitations/garbage/", 400, "Invalid invitation link"),
    ]
    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(days=8)):
        cases.append((link(invitation), 410, "Invitation expired"))
        for url, status, title in cases:
            for method in (client.get, client.post):
                page = method(url)
                assert page.status_code == status, (url, page.status_code)
                assert title in page.content.decode()
    assert get_user_model().objects.count() == 2


def test_every_signed_in_user_changes_their_own_password_from_the_header(client_for, director):
    client = client_for(director)
    header = client.get(reverse("console:event_list")).content.decode()
    assert f'href="{reverse("password_change")}"' in header
    form = client.get(reverse("password_change"))
    assert form.status_code == 200 and b"Change your password" in form.content
    wrong = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": GOOD, "new_password2": GOOD},
    )
    assert wrong.status_code == 200 and 'data-field="old_password"' in wrong.content.decode()
    weak = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "12345678", "new_password2": "12345678"},
    )
    assert "too common" in weak.content.decode()
    done = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": GOOD, "new_password2": GOOD},
        follow=True,
    )
    assert done.redirect_chain[-1][0] == reverse("password_change_done")
    assert b"Password changed" in done.content
    director.refresh_from_db()
    assert director.check_password(GOOD)
    assert client.get(reverse("console:event_list")).status_code == 200  # still signed in


def test_an_anonymous_visitor_is_sent_to_log_in_to_change_a_password(client):
    answer = client.get(reverse("password_change"))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]


def test_a_staff_account_that_is_not_superuser_gets_no_admin(client_for, event):
    staff = UserFactory(username="clerk", is_staff=True)
    EventRoleFactory(event=event, user=staff, role="director")
    client = client_for(staff)
    answer = client.get(reverse("admin:index"))
    assert answer.status_code == 302 and "/admin/login/" in answer["Location"]
    player = PlayerFactory(event=event)
    change = client.get(reverse("admin:tournament_player_change", args=[player.pk]))
    assert change.status_code == 302
    header = client.get(reverse("console:event_list")).content.decode()
    assert reverse("admin:index") not in header


def test_a_superuser_keeps_the_admin_and_its_header_link(client_for, superuser):
    client = client_for(superuser)
    assert client.get(reverse("admin:index")).status_code == 200
    assert reverse("admin:index") in client.get(reverse("console:event_list")).content.decode()
