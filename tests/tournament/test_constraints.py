"""The database enforces the invariants, whatever code writes the rows.

Runs on SQLite in the main pass, and again on PostgreSQL (test_constraints_on_postgres.py).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.factories import (
    EventFactory,
    EventRoleFactory,
    GameFactory,
    OpenRoundFactory,
    PlayerFactory,
    RoundFactory,
    RulingFactory,
    SubmissionFactory,
    UserFactory,
)
from tournament.models import Round, Ruling, Submission


def refused(constraint: str):
    """The write is refused by the database (SQLite names only some constraints)."""
    return pytest.raises(IntegrityError)


@pytest.mark.django_db
class TestEventConstraints:
    def test_round_time_must_be_positive(self):
        with refused("event_round_seconds_positive"), transaction.atomic():
            EventFactory(round_seconds=0)

    @pytest.mark.parametrize(
        "field", ["grace_seconds", "warning_penalty", "reference_penalty", "solo_bonus"]
    )
    def test_grace_and_penalties_cannot_be_negative(self, field):
        with refused("event_rules_non_negative"), transaction.atomic():
            EventFactory(**{field: -1})

    def test_tile_set_must_be_one_the_engine_knows(self):
        with refused("event_tile_set_valid"), transaction.atomic():
            EventFactory(tile_set="de")

    def test_slugs_are_unique(self):
        EventFactory(slug="spring")
        with refused("slug"), transaction.atomic():
            EventFactory(slug="spring")

    def test_a_user_has_one_role_per_event(self):
        role = EventRoleFactory()
        with refused("eventrole_one_per_user_event"), transaction.atomic():
            EventRoleFactory(user=role.user, event=role.event, role="arbiter")


@pytest.mark.django_db
class TestPlayerConstraints:
    def test_two_players_cannot_share_a_table_but_many_have_none(self):
        event = EventFactory()
        PlayerFactory(event=event, table=3)
        PlayerFactory(event=event, table=None)
        PlayerFactory(event=event, table=None)
        PlayerFactory(table=3)  # another event
        with refused("player_table_unique_per_event"), transaction.atomic():
            PlayerFactory(event=event, table=3)

    def test_a_licence_is_registered_once_per_event_but_blank_licences_repeat(self):
        event = EventFactory()
        PlayerFactory(event=event, licence="L-1")
        PlayerFactory(event=event, licence="")
        PlayerFactory(event=event, licence="")
        with refused("player_licence_unique_per_event"), transaction.atomic():
            PlayerFactory(event=event, licence="L-1")

    def test_tables_are_numbered_from_one(self):
        with refused("player_table_1_to_9999"), transaction.atomic():
            PlayerFactory(table=0)

    def test_tables_are_numbered_to_9999(self):
        PlayerFactory(table=9_999)
        with refused("player_table_1_to_9999"), transaction.atomic():
            PlayerFactory(table=10_000)

    def test_tokens_are_unique(self):
        player = PlayerFactory()
        with refused("token"), transaction.atomic():
            PlayerFactory(token=player.token)


@pytest.mark.django_db
class TestGameAndRoundConstraints:
    def test_game_numbers_are_unique_per_event(self):
        game = GameFactory(number=1)
        GameFactory(number=1)  # another event
        with refused("game_number_unique_per_event"), transaction.atomic():
            GameFactory(event=game.event, number=1)

    def test_a_predrawn_game_needs_its_document(self):
        with refused("game_predrawn_has_document"), transaction.atomic():
            GameFactory(source="predrawn", predrawn=None)
        GameFactory(source="predrawn", predrawn={"rounds": []})

    def test_round_numbers_are_unique_per_game(self):
        round_ = RoundFactory(number=1, status="published")
        with refused("round_number_unique_per_game"), transaction.atomic():
            RoundFactory(game=round_.game, number=1, status="published")

    def test_an_open_round_has_a_deadline(self):
        with refused("round_open_has_deadline"), transaction.atomic():
            RoundFactory(status=Round.Status.OPEN, deadline=None)

    @pytest.mark.parametrize("in_play", ["drawn", "open", "closed", "scored"])
    def test_a_game_has_at_most_one_round_in_play(self, in_play):
        first = OpenRoundFactory(number=1)
        RoundFactory(game=first.game, number=2, status="annulled")
        with refused("round_one_in_play_per_game"), transaction.atomic():
            RoundFactory(
                game=first.game,
                number=3,
                status=in_play,
                deadline=timezone.now() + dt.timedelta(minutes=3),
            )

    def test_published_rounds_do_not_count_as_in_play(self):
        first = RoundFactory(number=1, status="published")
        RoundFactory(game=first.game, number=2, status="published")
        RoundFactory(game=first.game, number=3, status="drawn")

    def test_unknown_statuses_are_refused(self):
        with refused("round_status_valid"), transaction.atomic():
            RoundFactory(status="paused")


@pytest.mark.django_db
class TestSlipAndRulingConstraints:
    def test_a_player_has_one_current_slip_per_round_and_replaced_slips_are_kept(self):
        slip = SubmissionFactory()
        Submission.objects.filter(pk=slip.pk).update(is_current=False)
        SubmissionFactory(round=slip.round, player=slip.player, word="STAIR")
        assert Submission.objects.filter(round=slip.round, player=slip.player).count() == 2
        with refused("slip_one_current_per_player_round"), transaction.atomic():
            SubmissionFactory(round=slip.round, player=slip.player, word="ASTIR")

    def test_a_player_has_one_ruling_per_round(self):
        ruling = RulingFactory()
        with refused("ruling_one_per_player_round"), transaction.atomic():
            Ruling.objects.create(
                round=ruling.round, player=ruling.player, code="missing", submission=None
            )

    def test_a_missing_ruling_has_no_slip_and_every_other_ruling_has_one(self):
        slip = SubmissionFactory()
        with refused("ruling_missing_iff_no_slip"), transaction.atomic():
            Ruling.objects.create(round=slip.round, player=slip.player, code="valid")
        with refused("ruling_missing_iff_no_slip"), transaction.atomic():
            Ruling.objects.create(
                round=slip.round, player=slip.player, code="missing", submission=slip
            )
        Ruling.objects.create(round=slip.round, player=slip.player, code="missing")

    def test_points_penalties_and_solos_cannot_be_negative(self):
        with refused("ruling_points_non_negative"), transaction.atomic():
            RulingFactory(penalty=-5)

    def test_a_ruling_code_must_be_known(self):
        with refused("ruling_code_valid"), transaction.atomic():
            RulingFactory(code="lucky")

    def test_an_audit_action_is_namespaced(self):
        from tests.factories import AuditEntryFactory

        with refused("audit_action_namespaced"), transaction.atomic():
            AuditEntryFactory(action="closed")
        AuditEntryFactory(actor=UserFactory(), action="tournament.round.closed")
