"""An event's people from the console (web.console.staff), for every persona: invitations with
their link and QR code, roles removed, players withdrawn and reinstated, the event closed."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from arbiter.services.slips import SlipRefused, slip_submit
from tests.arbiter.conftest import open_round
from tests.factories import EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import AuditEntry, EventRole, Invitation, Player
from tournament.services.invitations import invitation_create, invitation_token

pytestmark = pytest.mark.django_db


def staff_url(event, what: str | None = None, pk: int | None = None) -> str:
    if what is None:
        return reverse("console:staff", args=[event.slug])
    if pk is None:
        return reverse("console:staff_post", args=[event.slug, what])
    return reverse("console:staff_post_one", args=[event.slug, what, pk])


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_director_invites_an_arbiter_and_sees_the_link_its_copy_button_and_qr(
    event, director, client_for
):
    client = client_for(director)
    page = client.post(
        staff_url(event, "invite"), {"name": "Arnold", "role": "arbiter", "days": 3}, follow=True
    )
    assert "Invitation ready for Arnold (arbiter)" in messages_of(page)[0]
    invitation = Invitation.objects.get(event=event)
    link = f"http://testserver/invitations/{invitation_token(invitation)}/"
    html = page.content.decode()
    assert f'value="{link}"' in html
    assert 'class="copy"' in html and "<svg" in html and "Invitation of Arnold" in html
    assert (invitation.expires_at - invitation.created_at).days == 3
    entry = AuditEntry.objects.get(action="tournament.invitation.created")
    assert entry.actor == director and invitation.nonce not in json.dumps(entry.data)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"name": "", "role": "arbiter", "days": 7}, "name: This field is required."),
        ({"name": "Arnold", "role": "judge", "days": 7}, "role: Select a valid choice."),
        ({"name": "Arnold", "role": "arbiter", "days": 0}, "days: Ensure this value"),
    ],
)
def test_a_bad_invitation_form_says_which_field(event, director, client_for, data, says):
    page = client_for(director).post(staff_url(event, "invite"), data, follow=True)
    assert page.status_code == 200 and says in messages_of(page)[0]
    assert not Invitation.objects.exists()


def test_a_director_revokes_a_pending_invitation_and_it_leaves_the_list(
    event, director, client_for
):
    invitation = invitation_create(event=event, name="Arnold", role="arbiter", actor=director)
    client = client_for(director)
    page = client.post(staff_url(event, "revoke", invitation.pk), follow=True)
    assert "is revoked" in messages_of(page)[0]
    assert invitation_token(invitation) not in page.content.decode()
    again = client.post(staff_url(event, "revoke", invitation.pk), follow=True)
    assert "already revoked" in messages_of(again)[0]


def test_another_events_invitation_or_player_is_a_404(event, director, client_for):
    other = GameFactory().event
    invitation = invitation_create(event=other, name="X", role="arbiter", actor=None)
    stranger = PlayerFactory(event=other)
    client = client_for(director)
    assert client.post(staff_url(event, "revoke", invitation.pk)).status_code == 404
    assert client.post(staff_url(event, "withdraw", stranger.pk)).status_code == 404
    assert not Player.objects.get(pk=stranger.pk).is_withdrawn


def test_staff_are_listed_and_a_role_removed_but_not_the_last_director(event, director, client_for):
    arbiter = EventRoleFactory(event=event, user=UserFactory(username="arnold"), role="arbiter")
    client = client_for(director)
    page = client.get(staff_url(event))
    assert b"arnold" in page.content and b'dora <span class="muted">(you)</span>' in page.content
    removed = client.post(staff_url(event, "role_remove", arbiter.pk), follow=True)
    assert messages_of(removed) == ["arnold is no longer arbiter."]
    own = EventRole.objects.get(user=director)
    page = client.get(staff_url(event))
    assert b"last director</span>" in page.content  # no Remove button for it
    assert staff_url(event, "role_remove", own.pk).encode() not in page.content
    refused = client.post(staff_url(event, "role_remove", own.pk), follow=True)
    assert "You are the last director" in messages_of(refused)[0]
    assert EventRole.objects.filter(pk=own.pk).exists()


def test_a_director_withdraws_and_reinstates_a_player_from_the_page(event, director, client_for):
    game = GameFactory(event=event, number=1, seed=7)
    ann = PlayerFactory(event=event, name="Ann", table=1)
    r = open_round(game, now=timezone.now())
    client = client_for(director)
    page = client.post(staff_url(event, "withdraw", ann.pk), {"reason": "unwell"}, follow=True)
    assert "Ann has withdrawn" in messages_of(page)[0]
    assert re.search(rb'data-player="%d".*?withdrawn</span>' % ann.pk, page.content, re.S)
    with pytest.raises(SlipRefused):
        slip_submit(player=ann, round=r, word="WROTE", ref="H4", score=24)
    detail = client.get(reverse("console:event_detail", args=[event.slug]))
    assert b'Ann</a> <span class="muted">(withdrawn)</span>' in detail.content
    back = client.post(staff_url(event, "reinstate", ann.pk), follow=True)
    assert "Ann is back" in messages_of(back)[0]
    assert slip_submit(player=ann, round=r, word="WROTE", ref="H4", score=24).is_current


def test_a_director_closes_and_reopens_the_event_from_the_page(event, director, client_for):
    game = GameFactory(event=event, number=1, seed=7)
    open_round(game)
    client = client_for(director)
    refused = client.post(staff_url(event, "close"), follow=True)
    assert "Round 1 of game 1 is open: publish or annul it" in messages_of(refused)[0]
    game.rounds.update(status="published")
    closed = client.post(staff_url(event, "close"), follow=True)
    assert "is closed" in messages_of(closed)[0] and b'id="event-closed"' in closed.content
    detail = client.get(reverse("console:event_detail", args=[event.slug]))
    assert b">Closed</span>" in detail.content
    reopened = client.post(staff_url(event, "reopen"), follow=True)
    assert "is open again" in messages_of(reopened)[0]


def test_an_unknown_staff_action_says_so(event, director, client_for):
    page = client_for(director).post(staff_url(event, "promote"), follow=True)
    assert messages_of(page) == ["Nothing to do called 'promote'."]


def test_an_arbiter_an_outsider_and_a_stranger_get_no_staff_page(event, client_for, outsider):
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    ann = PlayerFactory(event=event, name="Ann")
    assert client_for(arbiter).get(staff_url(event)).status_code == 403
    assert client_for(arbiter).post(staff_url(event, "withdraw", ann.pk)).status_code == 403
    assert client_for(outsider).get(staff_url(event)).status_code == 404
    anonymous = client_for(outsider)
    anonymous.logout()
    assert "/accounts/login/" in anonymous.get(staff_url(event))["Location"]
    assert not Player.objects.get(pk=ann.pk).is_withdrawn
    detail = client_for(arbiter).get(reverse("console:event_detail", args=[event.slug]))
    assert b'id="staff-link"' not in detail.content


def test_a_superuser_directs_the_staff_page_of_any_event(event, superuser, client_for):
    page = client_for(superuser).get(staff_url(event))
    assert page.status_code == 200 and b"Invite an arbiter or a director" in page.content


def test_the_slip_entry_form_refuses_a_withdrawn_player_saying_why(event, director, client_for):
    game = GameFactory(event=event, number=1, seed=7)
    ann = PlayerFactory(event=event, name="Ann", table=1)
    open_round(game, now=timezone.now())
    arbiter = UserFactory(username="arnold")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    client_for(director).post(staff_url(event, "withdraw", ann.pk))
    refused = client_for(arbiter).post(
        reverse("console:action", args=[event.slug, 1, "slip"]),
        {"table": 1, "word": "WROTE", "ref": "H4", "score": 24},
    )
    assert refused.status_code == 400
    assert b"Ann has withdrawn from" in refused.content and b'value="WROTE"' in refused.content
    assert not ann.slips.exists()
