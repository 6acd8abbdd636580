"""Every tournament service writes all or nothing: when its audit entry cannot be written, no
row it wrote before is left behind."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from tests.atomicity import AuditDown, audit_fails, database_snapshot
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tournament.models import Event
from tournament.services.closing import event_close, event_reopen
from tournament.services.events import event_create, event_policy_update, event_role_grant
from tournament.services.games import game_create
from tournament.services.invitations import (
    invitation_accept,
    invitation_accept_new_account,
    invitation_create,
    invitation_revoke,
)
from tournament.services.player_imports import players_import
from tournament.services.players import (
    player_register,
    player_reinstate,
    player_token_reissue,
    player_token_revoke,
    player_update,
    player_withdraw,
)
from tournament.services.users import event_role_remove

pytestmark = pytest.mark.django_db


def _cases(event: Event) -> dict[str, Callable[[], object]]:
    player = PlayerFactory(event=event, name="Ann", table=1)
    gone = PlayerFactory(event=event, name="Gus", table=9, withdrawn_at=dt.datetime.now(dt.UTC))
    arbiter = UserFactory(username="arbiter")
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role="director")
    role = EventRoleFactory(event=event, user=arbiter, role="arbiter")
    invited = invitation_create(event=event, name="Arnold", role="arbiter", actor=director)
    closed = EventFactory(status=Event.Status.FINISHED)
    return {
        "event_create": lambda: event_create(
            name="Spring open", starts_on=dt.date(2026, 4, 4), actor=None, round_seconds=120
        ),
        "event_policy_update": lambda: event_policy_update(event=event, actor=None, solo_bonus=20),
        "event_role_grant": lambda: event_role_grant(
            event=event, username="arbiter", role="arbiter", actor=None
        ),
        "game_create": lambda: game_create(event=event, actor=None, seed=7),
        "player_register": lambda: player_register(event=event, name="Bob", table=2, actor=None),
        "player_update": lambda: player_update(player=player, name="Ann B", table=3, actor=None),
        "player_token_reissue": lambda: player_token_reissue(player=player, actor=None),
        "player_token_revoke": lambda: player_token_revoke(player=player, actor=None),
        "players_import": lambda: players_import(
            event=event, file_name="list.csv", content=b"name,table\nCleo,4\nDan,5\n", actor=None
        ),
        "invitation_create": lambda: invitation_create(
            event=event, name="Eve", role="director", actor=director
        ),
        "invitation_revoke": lambda: invitation_revoke(invitation=invited, actor=director),
        "invitation_accept": lambda: invitation_accept(invitation=invited, user=arbiter),
        "invitation_accept_new_account": lambda: invitation_accept_new_account(
            invitation=invited, username="arnold", password="tile-rack-bingo-42"
        ),
        "event_role_remove": lambda: event_role_remove(role=role, actor=director),
        "player_withdraw": lambda: player_withdraw(player=player, actor=director),
        "player_reinstate": lambda: player_reinstate(player=gone, actor=director),
        "event_close": lambda: event_close(event=event, actor=director),
        "event_reopen": lambda: event_reopen(event=closed, actor=director),
    }


@pytest.mark.parametrize(
    "service",
    [
        "event_create",
        "event_policy_update",
        "event_role_grant",
        "game_create",
        "player_register",
        "player_update",
        "player_token_reissue",
        "player_token_revoke",
        "players_import",
        "invitation_create",
        "invitation_revoke",
        "invitation_accept",
        "invitation_accept_new_account",
        "event_role_remove",
        "player_withdraw",
        "player_reinstate",
        "event_close",
        "event_reopen",
    ],
)
def test_a_failed_audit_write_leaves_nothing_behind(service: str, monkeypatch) -> None:
    run = _cases(EventFactory())[service]
    before = database_snapshot()
    audit_fails(monkeypatch)
    with pytest.raises(AuditDown):
        run()
    assert database_snapshot() == before
