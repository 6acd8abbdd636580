"""Invitations (tournament.services.invitations): a signed, expiring, one-time link that makes
someone an arbiter or a director of an event; and removing a role (an event keeps a
director)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, EventRoleFactory, UserFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Event, EventRole, Invitation
from tournament.services.invitations import (
    InvitationRefused,
    invitation_accept,
    invitation_accept_new_account,
    invitation_check,
    invitation_create,
    invitation_revoke,
    invitation_token,
)
from tournament.services.users import event_role_remove

pytestmark = pytest.mark.django_db
GOOD_PASSWORD = "tile-rack-bingo-42"


@pytest.fixture
def event() -> Event:
    return EventFactory(name="Autumn open")


@pytest.fixture
def director(event: Event):
    user = UserFactory(username="dora")
    EventRoleFactory(event=event, user=user, role="director")
    return user


def invite(event: Event, director, role: str = "arbiter", **kwargs) -> Invitation:
    return invitation_create(event=event, name="Arnold", role=role, actor=director, **kwargs)


def refusal(token: str) -> str | None:
    with pytest.raises(InvitationRefused) as caught:
        invitation_check(token=token)
    return caught.value.code


def test_a_new_person_chooses_a_username_and_password_and_becomes_arbiter(event, director):
    invitation = invite(event, director)
    checked = invitation_check(token=invitation_token(invitation))
    role = invitation_accept_new_account(
        invitation=checked, username="arnold", password=GOOD_PASSWORD
    )
    user = get_user_model().objects.get(username="arnold")
    assert user.check_password(GOOD_PASSWORD) and not user.is_staff and not user.is_superuser
    assert (role.user, role.event, role.role) == (user, event, "arbiter")
    invitation.refresh_from_db()
    assert invitation.accepted_by == user and invitation.accepted_at is not None
    actions = list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", "actor_name")
    )
    assert actions == [
        ("tournament.invitation.created", "dora"),
        ("tournament.invitation.accepted", "arnold"),
    ]


def test_a_link_works_once(event, director):
    invitation = invite(event, director)
    token = invitation_token(invitation)
    invitation_accept_new_account(invitation=invitation, username="arnold", password=GOOD_PASSWORD)
    assert refusal(token) == "invitation_accepted"
    with pytest.raises(InvitationRefused, match="already been used"):
        invitation_accept(invitation=invitation, user=UserFactory(username="eve"))
    assert not EventRole.objects.filter(user__username="eve").exists()


def test_a_changed_or_cut_link_is_tampered_and_says_so(event, director):
    token = invitation_token(invite(event, director))
    assert refusal(token[:-1] + ("A" if token[-1] != "A" else "B")) == "invitation_tampered"
    assert refusal(token[:20]) == "invitation_tampered"
    assert refusal("") == "invitation_tampered"
    assert refusal("not-a-link:at-all") == "invitation_tampered"


def test_a_link_of_a_deleted_invitation_or_another_nonce_is_tampered(event, director):
    invitation = invite(event, director)
    token = invitation_token(invitation)
    invitation.nonce = "another"
    assert refusal(invitation_token(invitation)) == "invitation_tampered"
    Invitation.objects.filter(pk=invitation.pk).delete()
    assert refusal(token) == "invitation_tampered"


def test_a_link_expires_after_its_days(event, director):
    start = dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC)
    with time_machine.travel(start, tick=False) as traveller:
        invitation = invite(event, director, days=2)
        token = invitation_token(invitation)
        traveller.shift(dt.timedelta(days=2) - dt.timedelta(seconds=1))
        assert invitation_check(token=token) == invitation
        traveller.shift(dt.timedelta(seconds=1))
        assert refusal(token) == "invitation_expired"
        with pytest.raises(InvitationRefused, match="expired"):
            invitation_accept(invitation=invitation, user=director)


def test_a_revoked_link_stops_working_and_cannot_be_revoked_twice(event, director):
    invitation = invite(event, director)
    invitation_revoke(invitation=invitation, actor=director)
    assert refusal(invitation_token(invitation)) == "invitation_revoked"
    with pytest.raises(ApplicationError, match="already revoked"):
        invitation_revoke(invitation=invitation, actor=director)
    assert AuditEntry.objects.filter(action="tournament.invitation.revoked").count() == 1


def test_a_used_invitation_cannot_be_revoked(event, director):
    invitation = invite(event, director)
    invitation_accept(invitation=invitation, user=UserFactory(username="arnold"))
    with pytest.raises(ApplicationError, match="already accepted"):
        invitation_revoke(invitation=invitation, actor=director)


@pytest.mark.parametrize(
    ("password", "says"),
    [
        ("short1", "too short"),
        ("password123", "too common"),
        ("84629173650", "entirely numeric"),
        ("arnold_x9", "too similar"),
    ],
)
def test_a_weak_password_is_refused_by_djangos_validators_and_nothing_is_created(
    event, director, password, says
):
    invitation = invite(event, director)
    with pytest.raises(ApplicationError, match=says) as caught:
        invitation_accept_new_account(invitation=invitation, username="arnold", password=password)
    assert caught.value.data["field"] == "password"
    assert not get_user_model().objects.filter(username="arnold").exists()
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


@pytest.mark.parametrize(
    ("username", "says"),
    [("", "Choose a username"), ("DORA", "is taken"), ("a b!", "Enter a valid username")],
)
def test_a_username_taken_empty_or_unreadable_is_refused(event, director, username, says):
    invitation = invite(event, director)
    with pytest.raises(ApplicationError, match=says) as caught:
        invitation_accept_new_account(
            invitation=invitation, username=username, password=GOOD_PASSWORD
        )
    assert caught.value.data["field"] == "username"
    assert get_user_model().objects.count() == 1


def test_a_signed_in_person_takes_the_role_onto_their_own_account(event, director):
    someone = UserFactory(username="cleo")
    role = invitation_accept(invitation=invite(event, director, role="director"), user=someone)
    assert (role.user, role.role) == (someone, "director")


def test_a_director_invited_as_arbiter_stays_director_and_an_arbiter_becomes_director(
    event, director
):
    assert invitation_accept(invitation=invite(event, director), user=director).role == "director"
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    role = invitation_accept(invitation=invite(event, director, role="director"), user=arbiter)
    assert role.role == "director" and EventRole.objects.filter(user=arbiter).count() == 1
    entry = AuditEntry.objects.filter(action="tournament.invitation.accepted").order_by("pk").last()
    assert entry is not None and entry.data["before"] == "arbiter"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"role": "judge"}, "role"),
        ({"days": 0}, "days"),
        ({"days": 61}, "days"),
    ],
)
def test_an_invitation_needs_a_name_a_role_and_a_sensible_life(event, director, kwargs, field):
    values = {"name": "Arnold", "role": "arbiter", **kwargs}
    with pytest.raises(ApplicationError) as caught:
        invitation_create(event=event, actor=director, **values)
    assert caught.value.data["field"] == field
    assert not Invitation.objects.exists()


def test_a_role_is_removed_but_never_the_events_last_director(event, director):
    arbiter = EventRoleFactory(event=event, user=UserFactory(username="arnold"), role="arbiter")
    event_role_remove(role=arbiter, actor=director)
    assert not EventRole.objects.filter(pk=arbiter.pk).exists()
    own = EventRole.objects.get(user=director, event=event)
    with pytest.raises(ApplicationError, match="You are the last director") as caught:
        event_role_remove(role=own, actor=director)
    assert caught.value.code == "last_director"
    second = EventRoleFactory(event=event, user=UserFactory(username="cleo"), role="director")
    event_role_remove(role=own, actor=director)  # another director remains
    with pytest.raises(ApplicationError, match="cleo is the last director"):
        event_role_remove(role=second, actor=UserFactory(username="boss", is_superuser=True))
    removed = AuditEntry.objects.filter(action="tournament.event.role_removed").order_by("pk")
    assert [e.data for e in removed] == [
        {"user": "arnold", "role": "arbiter"},
        {"user": "dora", "role": "director"},
    ]


def test_a_role_removal_is_per_event(event, director):
    other = EventFactory()
    EventRoleFactory(event=other, user=director, role="director")
    assert EventRole.objects.filter(user=director).count() == 2
    with pytest.raises(ApplicationError):
        event_role_remove(role=EventRole.objects.get(user=director, event=event), actor=director)
