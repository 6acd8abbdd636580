"""Every service of the round lifecycle writes all or nothing: when its audit entry cannot be
written, no row it wrote before is left behind (and no task is sent: they go after commit)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from arbiter.selectors.console import double_entry_mismatches
from arbiter.services import clock, corrections, publishing, racks, scoring
from arbiter.services.double_entry import slip_check_resolve
from arbiter.services.slips import slip_check, slip_submit
from tests.arbiter.conftest import T0, open_round
from tests.atomicity import AuditDown, audit_fails, database_snapshot
from tests.factories import GameFactory, UserFactory
from tournament.models import Game, Round, Ruling, Submission

pytestmark = pytest.mark.django_db

LATER = T0 + dt.timedelta(seconds=30)
CLOSING = T0 + dt.timedelta(seconds=190)  # the deadline (3 minutes) plus the 10 s grace


def _closed(game: Game) -> Round:
    opened = open_round(game)
    assert clock.round_close(round_id=opened.pk, now=CLOSING)
    return Round.objects.get(pk=opened.pk)


def _scored(game: Game) -> Round:
    scored = scoring.round_score(round_id=_closed(game).pk, now=CLOSING)
    assert scored is not None
    return scored


def _paused(game: Game) -> Round:
    return clock.round_pause(round=open_round(game), actor=None, now=LATER)


def _case(name: str, game: Game) -> Callable[[], object]:
    """Sets the game up for the service ``name`` and returns the call to make."""
    if name == "round_draw":
        return lambda: racks.round_draw(game=game, actor=None)
    if name in ("round_rack_enter", "round_rack_enter (rejected)"):
        typed = GameFactory(event=game.event, number=2, source=Game.Source.MANUAL, seed=None)
        rack = "AEINRST" if name == "round_rack_enter" else "EEEIOUA"
        return lambda: racks.round_rack_enter(game=typed, rack=rack, actor=None)
    if name == "round_open":
        drawn = racks.round_draw(game=game, actor=None)
        assert drawn is not None
        return lambda: clock.round_open(round=drawn, actor=None, now=T0)
    if name == "round_extend":
        opened = open_round(game)
        return lambda: clock.round_extend(round=opened, seconds=60, actor=None)
    if name == "round_pause":
        opened = open_round(game)
        return lambda: clock.round_pause(round=opened, actor=None, now=LATER)
    if name == "round_resume":
        paused = _paused(game)
        return lambda: clock.round_resume(round=paused, actor=None, now=LATER)
    if name == "round_close_early":
        opened = open_round(game)
        return lambda: clock.round_close_early(round=opened, actor=None, now=LATER)
    if name == "round_close":
        opened = open_round(game)
        return lambda: clock.round_close(round_id=opened.pk, now=CLOSING)
    if name == "round_score":
        closed = _closed(game)
        return lambda: scoring.round_score(round_id=closed.pk, now=CLOSING)
    if name == "round_publish":
        scored = _scored(game)
        return lambda: publishing.round_publish(round=scored, actor=None, now=CLOSING)
    if name == "round_top_choose":
        scored = _scored(game)
        top = scored.tops[-1]
        return lambda: publishing.round_top_choose(
            round=scored, ref=top["ref"], word=top["word"], actor=None
        )
    if name == "round_annul":
        opened = open_round(game)
        return lambda: corrections.round_annul(round=opened, reason="bag spilled", actor=None)
    if name == "ruling_amend":
        ruling = Ruling.objects.filter(round=_scored(game)).first()
        assert ruling is not None
        return lambda: corrections.ruling_amend(
            ruling=ruling, points=12, reason="misread slip", actor=None
        )
    if name == "slip_submit (arbiter)":
        opened = open_round(game)
        arbiter = UserFactory(username="arbiter")
        player = game.event.players.order_by("table").first()
        assert player is not None
        return lambda: slip_submit(
            player=player,
            round=opened,
            word="WROTE",  # on the rack ELORTTW of the game's first round
            ref="H4",
            score=20,
            source=Submission.Source.ARBITER,
            entered_by=arbiter,
            at=LATER,
        )
    if name == "slip_check_resolve":
        opened = open_round(game)
        arbiter = UserFactory(username="arbiter")
        player = game.event.players.order_by("table").first()
        assert player is not None
        typed = {"word": "WROTE", "ref": "H4", "source": Submission.Source.ARBITER}
        slip_submit(player=player, round=opened, score=20, entered_by=arbiter, at=LATER, **typed)
        slip_check(
            player=player, round=opened, word="WROTE", ref="H4", score=24, checked_by=arbiter
        )
        (mismatch,) = double_entry_mismatches(round=opened)
        return lambda: slip_check_resolve(
            round=opened, check=mismatch.check, kept="second", actor=arbiter
        )
    raise AssertionError(name)


SERVICES = [
    "round_draw",
    "round_rack_enter",
    "round_rack_enter (rejected)",
    "round_open",
    "round_extend",
    "round_pause",
    "round_resume",
    "round_close_early",
    "round_close",
    "round_score",
    "round_publish",
    "round_top_choose",
    "round_annul",
    "ruling_amend",
    "slip_submit (arbiter)",
    "slip_check_resolve",
]


@pytest.mark.parametrize("service", SERVICES)
def test_a_failed_audit_write_leaves_nothing_behind(service: str, game: Game, monkeypatch) -> None:
    run = _case(service, game)
    before = database_snapshot()
    audit_fails(monkeypatch)
    with pytest.raises(AuditDown):
        run()
    assert database_snapshot() == before
