"""Row-local facts: model methods that run no query (no database needed)."""

from __future__ import annotations

import datetime as dt

import pytest

from tournament.models import AuditEntry, Player, Round, Ruling
from tournament.models.game import board_empty

NOON = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
GRACE = dt.timedelta(seconds=10)


def open_round(**fields) -> Round:
    return Round(status=Round.Status.OPEN, deadline=NOON, **fields)


def test_an_open_round_is_open_until_its_deadline():
    round_ = open_round()
    assert round_.is_open(at=NOON - dt.timedelta(seconds=1))
    assert not round_.is_open(at=NOON)
    assert round_.remaining(at=NOON - dt.timedelta(seconds=30)) == dt.timedelta(seconds=30)
    assert round_.remaining(at=NOON + dt.timedelta(minutes=1)) == dt.timedelta(0)


def test_it_accepts_slips_until_the_deadline_plus_the_grace():
    round_ = open_round()
    assert round_.accepts_slips(at=NOON + GRACE, grace=GRACE)
    assert not round_.accepts_slips(at=NOON + GRACE + dt.timedelta(microseconds=1), grace=GRACE)


def test_a_paused_round_keeps_its_remaining_time_and_takes_only_the_slips_sent_before_the_pause():
    round_ = open_round(paused_remaining=dt.timedelta(seconds=42))  # stopped at 42 s to go
    stopped = NOON - dt.timedelta(seconds=42)
    later = NOON + dt.timedelta(hours=1)
    assert round_.is_open(at=later) and round_.paused_at == stopped
    assert round_.remaining(at=later) == dt.timedelta(seconds=42)
    assert round_.accepts_slips(at=stopped, grace=GRACE)
    assert not round_.accepts_slips(at=stopped + dt.timedelta(microseconds=1), grace=GRACE)
    assert not round_.accepts_slips(at=later, grace=GRACE)


@pytest.mark.parametrize("status", ["drawn", "published", "annulled"])
def test_a_round_neither_open_nor_waiting_for_its_ruling_accepts_no_slip(status):
    round_ = Round(status=status, deadline=NOON)
    assert not round_.is_open(at=NOON - dt.timedelta(minutes=1))
    assert round_.slip_refusal(at=NOON - dt.timedelta(minutes=1), grace=GRACE) == "round_not_open"
    assert round_.remaining(at=NOON) is None


@pytest.mark.parametrize("status", ["closed", "scored"])
def test_a_slip_that_arrived_in_time_counts_though_the_round_has_closed_since(status):
    """What the slip service always did (the model said otherwise, and only tests asked it)."""
    round_ = Round(status=status, deadline=NOON)
    assert not round_.is_open(at=NOON - dt.timedelta(minutes=1))
    assert round_.accepts_slips(at=NOON + GRACE, grace=GRACE)
    assert round_.slip_refusal(at=NOON + GRACE + dt.timedelta(microseconds=1), grace=GRACE) == (
        "deadline_passed"
    )


def test_a_round_is_due_to_close_at_the_deadline_plus_the_grace_unless_its_clock_is_stopped():
    round_ = open_round()
    assert round_.closes_at(grace=GRACE) == NOON + GRACE
    assert not round_.is_due_to_close(at=NOON + GRACE - dt.timedelta(microseconds=1), grace=GRACE)
    assert round_.is_due_to_close(at=NOON + GRACE, grace=GRACE)
    assert not open_round(paused_remaining=GRACE).is_due_to_close(at=NOON + GRACE, grace=GRACE)
    assert not Round(status="closed", deadline=NOON).is_due_to_close(at=NOON + GRACE, grace=GRACE)


def test_a_new_player_gets_a_long_random_token():
    first, second = Player(name="A"), Player(name="B")
    assert len(first.token) >= 32
    assert first.token != second.token
    assert first.token_is_active


def test_a_ruling_total_is_points_plus_solo_minus_penalty():
    assert Ruling(points=40, solo=10, penalty=5).total == 45


def test_an_empty_board_is_fifteen_rows_of_fifteen_dots():
    assert board_empty() == ["..............."] * 15


@pytest.mark.django_db
def test_an_audit_entry_cannot_be_changed_or_deleted_once_written():
    from tests.factories import AuditEntryFactory

    entry = AuditEntryFactory()
    entry.action = "tournament.test.rewritten"
    with pytest.raises(TypeError, match="append-only"):
        entry.save()
    with pytest.raises(TypeError, match="append-only"):
        entry.delete()
    with pytest.raises(TypeError, match="append-only"):
        AuditEntry.objects.filter(pk=entry.pk).update(action="x.y")
    with pytest.raises(TypeError, match="append-only"):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).action == "tournament.test.done"


def test_a_new_event_and_the_pure_rulings_start_from_the_same_policy():
    import dataclasses

    from arbiter.rules import Policy
    from arbiter.state import policy_for
    from tournament.models import Event
    from tournament.vocabulary import POLICY_DEFAULTS

    event = Event()
    assert {name: getattr(event, name) for name in dataclasses.asdict(POLICY_DEFAULTS)} == (
        dataclasses.asdict(POLICY_DEFAULTS)
    )
    assert policy_for(event) == Policy()
