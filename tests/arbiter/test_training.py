"""Training on a finished game (rules.md, "Training"): every slip of the room, replayed in a
training, gets the ruling the room gave it; topping scores the time; nothing of the room moves.
"""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.standings import standings_game
from arbiter.selectors.training import room_rounds, training_summary
from arbiter.services.training import (
    TOPPING_TIMEOUT_PENALTY,
    TrainingRefused,
    training_next,
    training_slip_submit,
    training_start,
    training_time_up,
)
from arbiter.simulation import simulate_event
from tournament.models import Game, Round, Ruling, Submission, TrainingAttempt

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 6, 1, 19, 0, tzinfo=dt.UTC)


@pytest.fixture
def played() -> Game:
    summary = simulate_event(players=7, games=1, seed=29)
    game = Game.objects.select_related("event").get(event_id=summary["event"], number=1)
    game.training_open = True
    game.save(update_fields=["training_open"])
    return game


def _room_snapshot(game: Game) -> list[tuple[object, ...]]:
    return list(
        Ruling.objects.filter(round__game=game)
        .order_by("pk")
        .values_list("pk", "code", "points", "penalty", "warning_penalty", "solo", "rank")
    )


def test_each_players_slips_replayed_in_training_get_the_rooms_rulings_on_every_round(
    played: Game,
) -> None:
    before = _room_snapshot(played)
    rounds = list(played.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))
    assert len(rounds) > 5
    compared = set()
    standings = standings_game(game=played)
    for player in played.event.players.all():
        now = T0
        attempt = training_start(
            game=played, user=None, name=player.name, mode="replay", round_seconds=None, now=now
        )
        for r in rounds:
            assert attempt.round_number == r.number
            ruling = Ruling.objects.get(round=r, player=player)
            slip = Submission.objects.filter(round=r, player=player, is_current=True).first()
            if slip is None:
                # nothing handed in: the clock runs out, as in the room
                trained = training_time_up(
                    attempt=attempt, now=now + dt.timedelta(seconds=attempt.round_seconds)
                )
                assert trained is not None
            else:
                seconds = attempt.round_seconds + played.event.grace_seconds + 1 if slip.late else 5
                trained = training_slip_submit(
                    attempt=attempt,
                    word=slip.word,
                    ref=slip.ref,
                    score=slip.announced_score,
                    now=now + dt.timedelta(seconds=seconds),
                ).slip
            room = (ruling.code, ruling.penalty, ruling.warning, ruling.move_score, ruling.rank)
            mine = (
                trained.code,
                trained.penalty,
                trained.warning,
                trained.move_score,
                trained.rank,
            )
            assert mine == room, (r.number, player.name, slip)
            assert trained.found_top == ruling.found_top
            if not ruling.averaged:
                assert trained.points == ruling.points
            compared.add(ruling.code)
            now += dt.timedelta(seconds=attempt.round_seconds + 60)
            attempt = training_next(attempt=attempt, now=now)
        assert attempt.is_finished
        summary = training_summary(attempt)
        row = standings.row_of(player.pk)
        assert row is not None
        # a training has no solo; everything else adds up as the room's standings
        assert summary.total == row.total - row.solos
        assert summary.top_total == standings.top_total
        assert summary.room_rank == 1 + sum(1 for o in standings.rows if o.total > summary.total)
    assert {"valid", "missing"} <= compared
    assert len(compared) >= 4, compared  # the simulation's mix: warnings, wrong refs, misspelt...
    assert _room_snapshot(played) == before  # the room's rulings are untouched


def test_a_replay_round_takes_one_slip_and_a_second_is_refused(played: Game) -> None:
    attempt = training_start(
        game=played, user=None, name="Zoé", mode="replay", round_seconds=60, now=T0
    )
    top = played.rounds.get(number=1)
    outcome = training_slip_submit(
        attempt=attempt,
        word=top.played_word,
        ref=top.played_ref,
        score=top.played_score,
        now=T0 + dt.timedelta(seconds=20),
    )
    assert outcome.round_over and outcome.slip.found_top and outcome.slip.code == "valid"
    with pytest.raises(TrainingRefused) as refused:
        training_slip_submit(attempt=attempt, word="AA", ref="H8", score=2, now=T0)
    assert refused.value.code == "training_round_over"
    assert training_time_up(attempt=attempt, now=T0 + dt.timedelta(seconds=999)) is None


def test_topping_keeps_trying_until_the_top_and_scores_the_seconds(played: Game) -> None:
    attempt = training_start(
        game=played, user=None, name="Zoé", mode="topping", round_seconds=120, now=T0
    )
    top = played.rounds.get(number=1)
    miss = training_slip_submit(
        attempt=attempt, word="ZZZZ", ref="H8", score=None, now=T0 + dt.timedelta(seconds=7)
    )
    assert not miss.round_over and not miss.slip.counts
    found = training_slip_submit(
        attempt=attempt,
        word=top.played_word,
        ref=top.played_ref,
        score=None,
        now=T0 + dt.timedelta(seconds=31.2),
    )
    assert found.round_over and found.slip.counts and found.slip.topping_seconds == 32
    attempt = training_next(attempt=attempt, now=T0 + dt.timedelta(seconds=40))
    assert attempt.round_number == 2
    timed_out = training_time_up(attempt=attempt, now=T0 + dt.timedelta(seconds=161))
    assert timed_out is not None
    assert timed_out.topping_seconds == 120 + TOPPING_TIMEOUT_PENALTY
    assert training_summary(attempt).topping_seconds == 32 + 120 + TOPPING_TIMEOUT_PENALTY


def test_topping_keeps_the_texts_minute_and_gives_a_top_not_found_with_20_seconds(
    played: Game,
) -> None:
    """FISF 2023 3.8.4: « Si la solution n'est pas trouvée dans le temps imparti
    (généralement, une minute par coup), elle est donnée au joueur moyennant une pénalité de
    20 secondes. » With no time chosen a topping round has a minute (a replay, the game's)."""
    attempt = training_start(
        game=played, user=None, name="", mode="topping", round_seconds=None, now=T0
    )
    assert attempt.round_seconds == 60 != played.event.round_seconds
    replay = training_start(
        game=played, user=None, name="", mode="replay", round_seconds=None, now=T0
    )
    assert replay.round_seconds == played.event.round_seconds
    # A wrong try within the minute: the round goes on; the minute out, nothing found yet.
    miss = training_slip_submit(
        attempt=attempt, word="ZZZZ", ref="H8", score=None, now=T0 + dt.timedelta(seconds=59)
    )
    assert not miss.round_over
    assert training_time_up(attempt=attempt, now=T0 + dt.timedelta(seconds=59.5)) is None
    given = training_time_up(attempt=attempt, now=T0 + dt.timedelta(seconds=60))
    assert given is not None and given.counts and not given.found_top
    assert given.topping_seconds == 60 + 20
    # A try after the minute (and the grace) ends the round the same way: the time and 20 s.
    attempt = training_next(attempt=attempt, now=T0 + dt.timedelta(seconds=70))
    late = training_slip_submit(
        attempt=attempt,
        word="ZZZZ",
        ref="H8",
        score=None,
        now=T0 + dt.timedelta(seconds=70 + 60 + played.event.grace_seconds + 1),
    )
    assert late.round_over and late.slip.topping_seconds == 60 + 20
    assert training_summary(attempt).topping_seconds == 80 + 80


def test_a_game_not_open_for_training_is_refused(played: Game) -> None:
    played.training_open = False
    played.save(update_fields=["training_open"])
    with pytest.raises(TrainingRefused) as refused:
        training_start(game=played, user=None, name="", mode="replay", round_seconds=None, now=T0)
    assert refused.value.code == "training_closed"
    played.event.training_open = True
    played.event.save(update_fields=["training_open"])
    played.refresh_from_db()
    assert training_start(
        game=played, user=None, name="", mode="replay", round_seconds=None, now=T0
    ).round_seconds == (played.event.round_seconds)
    assert TrainingAttempt.objects.count() == 1


def test_the_rooms_round_results_count_every_player(played: Game) -> None:
    room = room_rounds(played)
    players = played.event.players.count()
    assert set(room) == set(
        played.rounds.filter(status=Round.Status.PUBLISHED).values_list("number", flat=True)
    )
    for number, result in room.items():
        assert result.players == players
        assert (
            result.found_top
            == Ruling.objects.filter(
                round__game=played, round__number=number, found_top=True
            ).count()
        )
