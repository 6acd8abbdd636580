from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import EventFactory, PlayerFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Event, EventRole, Game, Player
from tournament.services import (
    demo_event_ensure,
    director_user_ensure,
    event_create,
    game_create,
    player_register,
    player_token_reissue,
)

pytestmark = pytest.mark.django_db


def actions(event: Event) -> list[str]:
    return list(event.audit_entries.order_by("id").values_list("action", flat=True))


def test_creating_an_event_makes_its_creator_director_and_is_audited(director):
    event = event_create(name="Spring open", starts_on=dt.date(2026, 4, 4), actor=director)
    assert event.slug == "spring-open"
    assert (event.round_seconds, event.grace_seconds, event.solo_bonus) == (180, 10, 10)
    assert EventRole.objects.get(event=event).user == director
    entry = event.audit_entries.get()
    assert (entry.action, entry.actor, entry.actor_name) == (
        "tournament.event.created",
        director,
        "dora",
    )


def test_a_second_event_with_the_same_name_gets_its_own_slug(director):
    event_create(name="Club night", starts_on=dt.date(2026, 4, 4), actor=director)
    again = event_create(name="Club night", starts_on=dt.date(2026, 4, 11), actor=director)
    assert again.slug == "club-night-2"


def test_it_refuses_a_lexicon_that_settings_do_not_know(director):
    with pytest.raises(ApplicationError, match="Unknown lexicon 'nwl'"):
        event_create(name="X", starts_on=dt.date(2026, 4, 4), actor=director, lexicon="nwl")


def test_registering_a_player_is_audited_without_the_token(event, director):
    player = player_register(
        event=event, name=" Ann ", club="Lyon", table=4, licence="L1", actor=director
    )
    assert (player.name, player.table) == ("Ann", 4)
    entry = AuditEntry.objects.get(action="tournament.player.registered")
    assert entry.data["player"] == player.pk
    assert player.token not in str(entry.data)


def test_it_refuses_a_taken_table_or_licence_with_a_readable_reason(event, director):
    PlayerFactory(event=event, table=4, licence="L1")
    with pytest.raises(ApplicationError, match="Table 4 is already taken"):
        player_register(event=event, name="Bob", table=4, actor=director)
    with pytest.raises(ApplicationError, match="Licence L1 is already registered"):
        player_register(event=event, name="Bob", licence="L1", actor=director)
    assert Player.objects.filter(event=event).count() == 1


def test_reissuing_a_token_replaces_it_and_is_audited(event, director):
    player = PlayerFactory(event=event)
    old = player.token
    player = player_token_reissue(player=player, actor=director)
    assert player.token != old
    assert Player.objects.get(pk=player.pk).token == player.token
    assert actions(event)[-1] == "tournament.player.token_reissued"


def test_games_are_numbered_in_order_and_copy_the_event_rules(director):
    event = EventFactory(tile_set="fr", board_layout="tl-centre")
    first = game_create(event=event, actor=director)
    second = game_create(event=event, actor=director, source="manual")
    assert (first.number, second.number) == (1, 2)
    assert (first.tile_set, first.board_layout, first.lexicon) == ("fr", "tl-centre", "enable")
    assert first.seed is not None and 0 <= first.seed < 2**32
    assert second.seed is None
    assert first.board == ["." * 15] * 15
    assert actions(event) == ["tournament.game.created", "tournament.game.created"]


def test_a_predrawn_game_needs_its_document(event, director):
    with pytest.raises(ApplicationError, match="pre-drawn game needs its document"):
        game_create(event=event, actor=director, source=Game.Source.PREDRAWN)


def test_the_demo_event_is_created_once_whatever_the_number_of_runs():
    event = demo_event_ensure()
    again = demo_event_ensure()
    assert again.pk == event.pk
    assert Event.objects.count() == 1
    assert event.players.count() == 12
    assert event.players.exclude(club="").count() == 12
    assert set(event.players.values_list("category", flat=True)) >= {"S1", "Junior", "Veteran"}
    assert event.games.count() == 1
    assert event.audit_entries.count() == 1 + 12 + 1


def test_the_demo_event_gets_back_a_player_someone_removed():
    event = demo_event_ensure()
    event.players.filter(licence="DEMO-003").delete()
    demo_event_ensure()
    assert event.players.count() == 12


def test_the_director_account_is_created_once_and_keeps_a_changed_password():
    user, created = director_user_ensure(username="director", password="duplicate")
    assert created and user.is_superuser and user.check_password("duplicate")
    user.set_password("something-else")
    user.save()
    again, created = director_user_ensure(username="director", password="duplicate")
    assert not created
    assert again.check_password("something-else")
