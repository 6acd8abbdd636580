"""A withdrawn player (docs/rules.md, "Withdrawn players") and a closed event: which slips are
refused and why, what the console waits for, what the standings show, and that reinstating or
reopening restores everything."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.console import console_state
from arbiter.selectors.play import play_standings
from arbiter.selectors.standings import standings_event
from arbiter.services import corrections, racks
from arbiter.services.slips import Existing, SlipRefused, slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Game, Player, Round, Ruling, Submission
from tournament.services.closing import event_close, event_reopen
from tournament.services.players import player_reinstate, player_withdraw

pytestmark = pytest.mark.django_db
SOON = T0 + dt.timedelta(seconds=30)


def phone(player: Player, r: Round, word: str = "WROTE", ref: str = "H4", score: int = 24):
    return slip_submit(player=player, round=r, word=word, ref=ref, score=score, at=SOON)


def test_a_withdrawn_players_phone_slip_is_refused_with_a_code_and_a_reason(game, players):
    r = open_round(game)
    ann = player_withdraw(player=players[0], actor=None, reason="unwell")
    with pytest.raises(SlipRefused, match="Ann has withdrawn from .*reinstate") as caught:
        phone(ann, r)
    assert caught.value.code == "withdrawn"
    assert not Submission.objects.filter(player=ann).exists()
    entry = AuditEntry.objects.get(action="tournament.player.withdrawn")
    assert entry.data == {"player": ann.pk, "name": "Ann", "reason": "unwell"}


def test_an_arbiter_cannot_enter_a_slip_for_a_withdrawn_player(game, players, arbiter_user):
    r = open_round(game)
    player_withdraw(player=players[1], actor=None)
    with pytest.raises(SlipRefused) as caught:
        slip_submit(
            player=players[1],
            round=r,
            word="WROTE",
            ref="H4",
            score=24,
            source=Submission.Source.ARBITER,
            entered_by=arbiter_user,
            existing=Existing.CORRECTION,
        )
    assert caught.value.code == "withdrawn"
    assert not AuditEntry.objects.filter(action="arbiter.slip.entered").exists()


def test_the_console_does_not_wait_for_a_withdrawn_player(game, players):
    r = open_round(game)
    phone(players[0], r)
    assert [p.name for p in console_state(game=game, now=SOON).missing] == ["Bob", "Cleo"]
    player_withdraw(player=players[2], actor=None)
    state = console_state(game=game, now=SOON)
    assert [p.name for p in state.missing] == ["Bob"] and (state.slips, state.players) == (1, 2)


def test_a_withdrawn_player_keeps_the_points_earned_and_is_shown_withdrawn(game, players):
    first = open_round(game)
    for p in players:
        phone(p, first)
    finish_round(first, T0)
    player_withdraw(player=players[0], actor=None)
    second = open_round(game, now=T0 + dt.timedelta(minutes=10))
    later = T0 + dt.timedelta(minutes=10, seconds=20)
    for p in players[1:]:
        slip_submit(player=p, round=second, word="TREMOLOs", ref="5G", score=68, at=later)
    finish_round(second, T0 + dt.timedelta(minutes=10))
    ann_second = Ruling.objects.get(round=second, player=players[0])
    assert (ann_second.code, ann_second.points) == ("missing", 0)
    rows = {row.name: row for row in standings_event(event=game.event).rows}
    assert (rows["Ann"].total, rows["Ann"].withdrawn) == (24, True)
    assert (rows["Bob"].total, rows["Bob"].withdrawn) == (24 + 68, False)
    assert [r.name for r in standings_event(event=game.event).rows] == ["Bob", "Cleo", "Ann"]
    leaders = play_standings(player=players[1])["leaders"]
    assert [(r["name"], r["withdrawn"]) for r in leaders][-1] == ("Ann", True)


def test_reinstating_restores_the_slips_and_the_console(game, players):
    r = open_round(game)
    player_withdraw(player=players[0], actor=None)
    ann = player_reinstate(player=players[0], actor=None)
    assert not ann.is_withdrawn
    assert phone(ann, r).is_current
    assert console_state(game=game, now=SOON).missing == [players[1], players[2]]
    row = standings_event(event=game.event).row_of(ann.pk)
    assert row is not None and not row.withdrawn
    assert AuditEntry.objects.filter(action="tournament.player.reinstated").count() == 1


def test_withdrawing_twice_or_reinstating_a_present_player_says_why(players):
    with pytest.raises(ApplicationError, match="has not withdrawn") as caught:
        player_reinstate(player=players[0], actor=None)
    assert caught.value.code == "not_withdrawn"
    player_withdraw(player=players[0], actor=None)
    with pytest.raises(ApplicationError, match="already withdrawn"):
        player_withdraw(player=players[0], actor=None)


def test_a_closed_event_takes_no_new_round_no_slip_and_no_amendment(game, players):
    first = open_round(game)
    phone(players[0], first)
    with pytest.raises(ApplicationError, match="publish or annul it") as caught:
        event_close(event=game.event, actor=None)
    assert caught.value.code == "round_in_play"
    finish_round(first, T0)
    event = event_close(event=game.event, actor=None)
    assert event.is_closed
    with pytest.raises(ApplicationError, match="is closed") as refused:
        racks.round_draw(game=Game.objects.get(pk=game.pk), actor=None)
    assert refused.value.code == "event_closed"
    with pytest.raises(SlipRefused) as slip:
        phone(players[1], first)
    assert slip.value.code == "event_closed"
    ruling = Ruling.objects.get(round=first, player=players[0])
    with pytest.raises(ApplicationError, match="closed") as amend:
        corrections.ruling_amend(ruling=ruling, reason="typo", actor=None, points=3)
    # One refusal at every door: the same words and the same code (the amendment had none).
    said = {(str(e.value), e.value.code) for e in (refused, slip, amend)}
    assert said == {
        (
            f"{event.name} is closed: no new round, no slip and no amendment until its "
            "director reopens it.",
            "event_closed",
        )
    }
    with pytest.raises(ApplicationError, match="already closed"):
        event_close(event=event, actor=None)
    event_reopen(event=event, actor=None)
    assert open_round(game, now=T0 + dt.timedelta(minutes=10)).number == 2
    actions = AuditEntry.objects.filter(action__startswith="tournament.event.").order_by("pk")
    assert [e.action for e in actions] == ["tournament.event.closed", "tournament.event.reopened"]
    with pytest.raises(ApplicationError, match="not closed"):
        event_reopen(event=event, actor=None)
