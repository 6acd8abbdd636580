"""Slips on the server clock, and the rulings and standings they lead to."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.standings import standings_event, standings_game
from arbiter.services import clock, corrections, racks, rulings, scoring
from arbiter.services.slips import SlipRefused, slip_submit
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Player, Round, Ruling, Submission

pytestmark = pytest.mark.django_db

# Seed 7: round 1 rack ELORTTW (top H4 WROTE 24), round 2 ELMOOT? (top 5G TREMOLOs 68).


def test_a_slip_before_the_deadline_is_accepted_and_a_newer_one_replaces_it_both_kept(
    game: Game, players: list[Player]
) -> None:
    r = open_round(game)
    first = slip_submit(
        player=players[0],
        round=r,
        word="TROWEL",
        ref="H3",
        score=20,
        at=T0 + dt.timedelta(seconds=30),
    )
    second = slip_submit(
        player=players[0],
        round=r,
        word="WROTE",
        ref="h4",
        score=24,
        at=T0 + dt.timedelta(seconds=60),
    )
    first.refresh_from_db()
    assert not first.is_current and second.is_current
    assert (second.word, second.ref, second.received_at) == (
        "WROTE",
        "H4",
        T0 + dt.timedelta(seconds=60),
    )
    assert Submission.objects.filter(round=r, player=players[0]).count() == 2


def test_a_slip_within_the_grace_counts_and_after_it_is_refused_on_the_server_clock(
    game: Game, players: list[Player]
) -> None:
    r = open_round(game)
    slip_submit(
        player=players[0],
        round=r,
        word="WROTE",
        ref="H4",
        score=24,
        at=T0 + dt.timedelta(seconds=189),
    )
    with pytest.raises(
        SlipRefused,
        match=(
            "The deadline has passed: round 1 closed at 20:03:00 and this slip arrived at 20:03:11"
        ),
    ):
        slip_submit(
            player=players[1],
            round=r,
            word="WROTE",
            ref="H4",
            score=24,
            at=T0 + dt.timedelta(seconds=191),
        )


@pytest.mark.parametrize(
    ("word", "ref", "score", "message"),
    [
        ("  ", "H4", 24, "Type the word as the slip has it"),
        ("WROTEWROTEWROTEW", "H4", 24, "has 16 letters: at most 15"),
        ("WROTE", "H4 AC", 24, "longer than a grid reference"),
        ("WROTE", "H4", -3, "whole number from 0"),
    ],
)
def test_a_slip_that_cannot_be_stored_is_refused_with_the_reason(
    game: Game, players: list[Player], word: str, ref: str, score: int, message: str
) -> None:
    r = open_round(game)
    with pytest.raises(SlipRefused, match=message):
        slip_submit(player=players[0], round=r, word=word, ref=ref, score=score, at=T0)
    assert not Submission.objects.exists()


def test_a_slip_for_a_round_that_is_not_open_or_from_another_event_is_refused(
    game: Game, players: list[Player]
) -> None:
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    with pytest.raises(SlipRefused, match="Round 1 is not open"):
        slip_submit(player=players[0], round=drawn, word="WROTE", ref="H4", score=24, at=T0)
    opened = clock.round_open(round=drawn, actor=None, now=T0)
    stranger = PlayerFactory(event=EventFactory())
    with pytest.raises(SlipRefused, match="is not registered in") as refused:
        slip_submit(player=stranger, round=opened, word="WROTE", ref="H4", score=24, at=T0)
    assert refused.value.data == {"code": "not_your_event"}


def test_a_revoked_player_cannot_submit(game: Game, players: list[Player]) -> None:
    r = open_round(game)
    Player.objects.filter(pk=players[0].pk).update(token_revoked_at=T0)
    with pytest.raises(SlipRefused, match="revoked"):
        slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24, at=T0)


def test_an_arbiter_enters_paper_slips_after_the_deadline_marked_as_theirs(
    game: Game, players: list[Player]
) -> None:
    r = open_round(game)
    arbiter = UserFactory(username="paper")
    clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=190))
    slip = slip_submit(
        player=players[2],
        round=r,
        word="WROTE",
        ref="H4",
        score=24,
        at=T0 + dt.timedelta(seconds=400),
        source=Submission.Source.ARBITER,
        entered_by=arbiter,
    )
    assert (slip.source, slip.entered_by) == (Submission.Source.ARBITER, arbiter)
    with pytest.raises(SlipRefused, match="says who entered it"):
        slip_submit(
            player=players[1],
            round=r,
            word="WROTE",
            ref="H4",
            score=24,
            source=Submission.Source.ARBITER,
        )


def play_round_one(game: Game, players: list[Player]) -> Round:
    r = open_round(game)
    at = T0 + dt.timedelta(seconds=100)
    slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24, at=at)  # the top
    slip_submit(
        player=players[1], round=r, word="TROWEL", ref="H3", score=22, at=at
    )  # worth 20: warning
    return finish_round(r, T0)


def test_rulings_give_the_real_score_a_warning_zero_for_the_missing_and_the_solo(
    game: Game, players: list[Player]
) -> None:
    Event.objects.filter(pk=game.event_id).update(solo_min_players=2)  # Ann and Bob play
    r = play_round_one(game, players)
    by_name = {ru.player.name: ru for ru in Ruling.objects.filter(round=r).select_related("player")}
    ann, bob, cleo = by_name["Ann"], by_name["Bob"], by_name["Cleo"]
    assert (ann.code, ann.points, ann.rank, ann.found_top, ann.solo) == ("valid", 24, 1, True, 10)
    assert (bob.code, bob.points, bob.warning, bob.found_top, bob.solo) == (
        "valid_warning",
        20,
        True,
        False,
        0,
    )
    assert bob.rank is not None and bob.rank > 1
    assert (cleo.code, cleo.points, cleo.submission) == ("missing", 0, None)
    assert (
        "warning" in bob.reason
    )  # the solo is derived: it is in the ruling's solo, not its reason


def test_the_ruling_reads_the_players_current_slip_whichever_was_written_last(
    game: Game, players: list[Player]
) -> None:
    r = open_round(game)
    at = T0 + dt.timedelta(seconds=100)
    first = slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24, at=at)
    later = slip_submit(player=players[0], round=r, word="TROWEL", ref="H3", score=22, at=at)
    Submission.objects.filter(pk=later.pk).update(is_current=False)  # an earlier slip made
    Submission.objects.filter(pk=first.pk).update(is_current=True)  # current again
    finish_round(r, T0)
    ruling = Ruling.objects.get(round=r, player=players[0])
    assert (ruling.submission_id, ruling.code, ruling.points) == (first.pk, "valid", 24)


def test_a_round_ruled_again_has_its_rulings_replaced(game: Game, players: list[Player]) -> None:
    r = play_round_one(game, players)
    before = set(Ruling.objects.filter(round=r).values_list("pk", flat=True))
    again = rulings.round_rule(round=r, now=T0 + dt.timedelta(hours=1))
    after = Ruling.objects.filter(round=r)
    assert len(again) == after.count() == len(players)
    assert not before & set(after.values_list("pk", flat=True))
    assert sorted(after.values_list("code", flat=True)) == ["missing", "valid", "valid_warning"]


def test_a_player_ruled_again_without_a_slip_is_missing(game: Game, players: list[Player]) -> None:
    r = play_round_one(game, players)
    before = Ruling.objects.get(round=r, player=players[2])
    again = rulings.player_rule(round=r, player=players[2], now=T0 + dt.timedelta(hours=1))
    assert (again.code, again.submission_id, again.points) == ("missing", None, 0)
    assert Ruling.objects.get(round=r, player=players[2]).pk != before.pk


def test_standings_add_points_and_solos_less_penalties_with_gap_and_percentage(
    game: Game, players: list[Player]
) -> None:
    Event.objects.filter(pk=game.event_id).update(solo_min_players=2)  # Ann and Bob play
    play_round_one(game, players)
    table = standings_game(game=game)
    assert table.top_total == 24 and table.rounds == 1
    rows = {row.name: row for row in table.rows}
    assert (
        rows["Ann"].rank,
        rows["Ann"].total,
        rows["Ann"].gap,
        rows["Ann"].top_pct,
        rows["Ann"].tops,
        rows["Ann"].solos,
    ) == (1, 34, 10, 141.67, 1, 10)
    assert (rows["Bob"].rank, rows["Bob"].total, rows["Bob"].gap, rows["Bob"].warnings) == (
        2,
        20,
        -4,
        1,
    )
    assert (rows["Cleo"].rank, rows["Cleo"].total, rows["Cleo"].top_pct) == (3, 0, 0.0)
    s2 = standings_event(event=game.event, category="S2")
    assert [(row.name, row.rank, row.overall_rank) for row in s2.rows] == [("Cleo", 1, 3)]


def test_equal_totals_share_a_rank(game: Game, players: list[Player]) -> None:
    r = open_round(game)
    for p in players[:2]:
        slip_submit(player=p, round=r, word="WROTE", ref="H4", score=24, at=T0)
    finish_round(r, T0)
    assert [(row.name, row.rank) for row in standings_game(game=game).rows] == [
        ("Ann", 1),
        ("Bob", 1),
        ("Cleo", 3),
    ]


def test_an_amended_ruling_moves_the_standings_and_is_audited(
    game: Game, players: list[Player]
) -> None:
    r = play_round_one(game, players)
    cleo = Ruling.objects.get(round=r, player__name="Cleo")
    with pytest.raises(ApplicationError, match="needs its reason"):
        corrections.ruling_amend(ruling=cleo, points=12, reason="", actor=None)
    director = UserFactory(username="dir")
    corrections.ruling_amend(
        ruling=cleo, points=12, reason="average of the room for a second zero", actor=director
    )
    cleo.refresh_from_db()
    assert cleo.amended and cleo.points == 12 and "(amended; was no slip, 0 points)" in cleo.reason
    assert standings_game(game=game).row_of(cleo.player_id).total == 12  # type: ignore[union-attr]
    entry = r.audit_entries.get(action="arbiter.ruling.amended")
    assert entry.actor == director and entry.data["before"]["points"] == 0


def test_the_fourth_warning_of_a_game_costs_five_points(game: Game, players: list[Player]) -> None:
    now = T0
    for _ in range(4):
        r = open_round(game, now=now)
        scoring.round_tops_compute(round_id=r.pk, now=now)
        r.refresh_from_db()
        top = (r.tops[0]["word"], r.tops[0]["ref"])
        slip_submit(player=players[0], round=r, word=top[0], ref=top[1], score=None, at=now)
        finish_round(r, now)
        now += dt.timedelta(minutes=5)
    penalties = list(
        Ruling.objects.filter(player=players[0])
        .order_by("round__number")
        .values_list("warning", "warning_penalty", "penalty")
    )
    assert penalties == [(True, 0, 0), (True, 0, 0), (True, 0, 0), (True, 5, 0)]


@pytest.mark.parametrize("after", [-1, 0, 1])  # microseconds around the deadline plus the grace
@pytest.mark.parametrize("paused", [False, True])
def test_the_slip_service_and_the_clock_follow_the_rounds_one_deadline(
    game: Game, players: list[Player], after: int, paused: bool
) -> None:
    """The slip service refuses what ``Round.slip_refusal`` refuses, with its code, and the
    clock closes the round exactly when ``Round.is_due_to_close`` says (one rule, three uses)."""
    r = open_round(game)
    if paused:
        r = clock.round_pause(round=r, actor=None, now=T0 + dt.timedelta(seconds=60))
    r = Round.objects.select_related("game__event").get(pk=r.pk)
    grace = r.game.event.grace
    closes_at = r.closes_at(grace=grace)
    assert closes_at is not None
    at = closes_at + dt.timedelta(microseconds=after)
    expected = r.slip_refusal(at=at, grace=grace)
    try:
        slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24, at=at)
        refused = None
    except SlipRefused as refusal:
        refused = refusal.code
    if paused:  # stopped a minute in: only a slip sent before then counts
        assert refused == expected == "round_paused"
    else:
        assert refused == expected == ("deadline_passed" if after > 0 else None)
    assert clock.round_close(round_id=r.pk, now=at) is r.is_due_to_close(at=at, grace=grace)
    assert r.is_due_to_close(at=at, grace=grace) is (not paused and after >= 0)
