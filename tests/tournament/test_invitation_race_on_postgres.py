"""Two people open the same invitation link at once, on PostgreSQL with two real connections:
the conditional UPDATE that claims it lets one through; the other is told the link is used,
and the account it was creating is not left behind."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.factories import EventFactory
from tournament.models import EventRole
from tournament.services import invitations
from tournament.services.invitations import InvitationRefused, invitation_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_one_link_opened_twice_at_once_makes_one_arbiter(monkeypatch) -> None:
    event = EventFactory()
    invitation = invitation_create(event=event, name="Arnold", role="arbiter", actor=None)
    both_created = threading.Barrier(2, timeout=10)
    claim = invitations._claim

    def claim_together(*args, **kwargs):  # both accounts exist (uncommitted), then both claim
        both_created.wait()
        return claim(*args, **kwargs)

    monkeypatch.setattr(invitations, "_claim", claim_together)
    results: dict[str, object] = {}

    def accept(username: str) -> None:
        try:
            results[username] = invitations.invitation_accept_new_account(
                invitation=invitation, username=username, password="tile-rack-bingo-42"
            )
        except Exception as exc:  # the test reads it
            results[username] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(name,)) for name in ("arnold", "arne")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    won = [name for name, r in results.items() if isinstance(r, EventRole)]
    lost = [r for r in results.values() if isinstance(r, InvitationRefused)]
    assert len(won) == 1 and len(lost) == 1, results
    assert lost[0].code == "invitation_accepted"
    assert list(get_user_model().objects.values_list("username", flat=True)) == won
    assert EventRole.objects.get(event=event).user.username == won[0]
