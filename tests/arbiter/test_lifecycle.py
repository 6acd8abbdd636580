"""The round lifecycle as services: draw -> open -> closed -> scored -> published -> next."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter import tasks
from arbiter.services import clock, corrections, publishing, racks, scoring
from engine.board import Board
from engine.game import DuplicateGame, autoplay
from engine.lexicon import Lexicon
from engine.tiles import TileSet
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.factories import GameFactory
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Game, Round, Ruling

pytestmark = pytest.mark.django_db


def test_the_first_rack_is_the_engines_seeded_draw(game: Game) -> None:
    drawn = racks.round_draw(game=game, actor=None)
    expected = DuplicateGame(tiles=TileSet.load("en"), lexicon=Lexicon.load(), seed=7).draw()
    assert drawn is not None and expected is not None
    assert (drawn.number, drawn.rack, drawn.status) == (1, expected.rack, Round.Status.DRAWN)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_it_refuses_to_draw_while_a_round_is_in_play(game: Game) -> None:
    racks.round_draw(game=game, actor=None)
    with pytest.raises(ApplicationError, match="Round 1 is drawn: publish or annul it"):
        racks.round_draw(game=game, actor=None)


def test_opening_sets_the_deadline_and_queues_the_tops_and_the_close_after_commit(
    game: Game, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent = []
    monkeypatch.setattr(tasks.round_tops_compute, "delay", lambda *a: sent.append(("tops", a)))
    monkeypatch.setattr(
        tasks.round_close, "apply_async", lambda args, eta: sent.append(("close", args, eta))
    )
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        opened = clock.round_open(round=drawn, actor=None, now=T0)
    assert sent == []  # nothing leaves before the commit
    for callback in callbacks:
        callback()
    assert opened.deadline == T0 + dt.timedelta(seconds=180)
    assert sent == [("tops", (opened.pk,)), ("close", (opened.pk,), T0 + dt.timedelta(seconds=190))]


def test_a_round_closes_only_once_its_deadline_and_grace_have_passed(game: Game) -> None:
    r = open_round(game)
    assert not clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=185))
    assert clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=190))
    assert not clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=191)), "closed twice"
    r.refresh_from_db()
    assert r.status == Round.Status.CLOSED and r.closed_at == T0 + dt.timedelta(seconds=190)


def test_a_game_played_through_the_services_is_the_engines_game(game: Game) -> None:
    engine = autoplay(seed=7, tiles=TileSet.load("en"), lexicon=Lexicon.load())
    now = T0
    for expected in engine.rounds[:4]:
        r = open_round(game, now=now)
        assert (r.number, r.rack, r.leftover) == (expected.number, expected.rack, expected.leftover)
        r = finish_round(r, now)
        assert (r.played_ref, r.played_word, r.played_score) == (
            expected.ref,
            expected.word,
            expected.score,
        )
        now += dt.timedelta(minutes=5)
    game.refresh_from_db()
    board = Board()
    for record in engine.rounds[:4]:
        board.play(record.move)
    assert game.board == board.to_lines()


def test_scoring_rules_every_player_and_a_second_run_changes_nothing(game: Game, players) -> None:
    r = open_round(game)
    closing = T0 + dt.timedelta(seconds=190)
    assert clock.round_close(round_id=r.pk, now=closing)
    assert scoring.round_score(round_id=r.pk, now=closing) is not None
    first = list(
        Ruling.objects.filter(round=r).order_by("player").values_list("player", "code", "points")
    )
    assert len(first) == len(players) and {c for _, c, _ in first} == {"missing"}
    assert scoring.round_score(round_id=r.pk, now=closing) is None  # already scored: nothing to do
    tasks.round_score(r.pk)  # a task delivered twice
    assert (
        list(
            Ruling.objects.filter(round=r)
            .order_by("player")
            .values_list("player", "code", "points")
        )
        == first
    )


def test_the_sweep_closes_and_scores_an_overdue_round_whose_task_was_lost(game: Game) -> None:
    r = open_round(game)
    assert clock.rounds_sweep(now=T0 + dt.timedelta(seconds=100))["closed"] == 0
    done = clock.rounds_sweep(now=T0 + dt.timedelta(seconds=200))
    assert done["closed"] == 1 and done["scored"] == 1
    r.refresh_from_db()
    assert r.status == Round.Status.SCORED and r.played_word


def test_a_crash_between_close_and_score_is_recovered_by_the_sweep(game: Game) -> None:
    r = open_round(game)
    assert clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=190))
    # the worker died before round_score ran: the round stays closed...
    assert clock.rounds_sweep(now=T0 + dt.timedelta(seconds=300))["scored"] == 1
    r.refresh_from_db()
    assert r.status == Round.Status.SCORED


def test_extend_pause_resume_and_close_early_move_the_deadline(game: Game) -> None:
    r = open_round(game)
    r = clock.round_extend(round=r, seconds=30, actor=None)
    assert r.deadline == T0 + dt.timedelta(seconds=210)
    r = clock.round_pause(round=r, actor=None, now=T0 + dt.timedelta(seconds=60))
    assert r.paused_remaining == dt.timedelta(seconds=150)
    assert not clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=400)), (
        "a paused round does not close"
    )
    r = clock.round_resume(round=r, actor=None, now=T0 + dt.timedelta(seconds=500))
    assert r.deadline == T0 + dt.timedelta(seconds=650) and r.paused_remaining is None
    r = clock.round_close_early(round=r, actor=None, now=T0 + dt.timedelta(seconds=520))
    assert r.deadline == T0 + dt.timedelta(seconds=520)
    assert clock.round_close(round_id=r.pk, now=T0 + dt.timedelta(seconds=530))
    actions = list(AuditEntry.objects.filter(round=r).values_list("action", flat=True))
    for action in ("opened", "extended", "paused", "resumed", "closed_early", "closed"):
        assert f"arbiter.round.{action}" in actions


def test_each_action_refuses_a_round_in_the_wrong_state(game: Game) -> None:
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    for action in (clock.round_extend,):
        with pytest.raises(ApplicationError, match="only a round that is open"):
            action(round=drawn, seconds=10, actor=None)
    with pytest.raises(ApplicationError, match="only a round that is scored can be published"):
        publishing.round_publish(round=drawn, actor=None)
    with pytest.raises(ApplicationError, match="positive number of seconds"):
        clock.round_extend(round=drawn, seconds=0, actor=None)


def test_an_annulled_round_is_drawn_again_with_a_new_rack_under_the_same_number(game: Game) -> None:
    r = open_round(game)
    with pytest.raises(ApplicationError, match="Say why"):
        corrections.round_annul(round=r, reason=" ", actor=None)
    corrections.round_annul(round=r, reason="rack called wrongly", actor=None)
    again = racks.round_draw(game=game, actor=None)
    assert again is not None and again.number == 1 and again.rack != r.rack


def test_the_director_may_choose_another_equal_top_or_override_it(game: Game) -> None:
    r = open_round(game)
    closing = T0 + dt.timedelta(seconds=190)
    clock.round_close(round_id=r.pk, now=closing)
    r = scoring.round_score(round_id=r.pk, now=closing)
    assert r is not None and r.played_by == Round.PlayedBy.ENGINE
    lesser = r.tops[-1]
    chosen = publishing.round_top_choose(
        round=r, ref=lesser["ref"], word=lesser["word"], actor=None
    )
    assert (chosen.played_word, chosen.played_by) == (lesser["word"], Round.PlayedBy.DIRECTOR)
    entry = AuditEntry.objects.filter(action="arbiter.round.top_chosen").get()
    assert entry.data["kind"] == (
        "equal top" if lesser["score"] == r.tops[0]["score"] else "override"
    )
    with pytest.raises(ApplicationError, match="cannot be played"):
        publishing.round_top_choose(round=r, ref="A1", word="ZZZ", actor=None)
    published = publishing.round_publish(round=chosen, actor=None, now=closing)
    game.refresh_from_db()
    assert published.status == Round.Status.PUBLISHED and any(
        ch != "." for ch in "".join(game.board)
    )


def test_typed_racks_are_checked_like_drawn_ones(room, players) -> None:
    game = GameFactory(event=room, number=2, seed=None, source=Game.Source.MANUAL)
    with pytest.raises(ApplicationError, match="the bag does not hold|needs|tiles"):
        racks.round_rack_enter(game=game, rack="QQQQQQQ", actor=None)
    with pytest.raises(ApplicationError, match="consonant.*Put the whole rack back"):
        racks.round_rack_enter(game=game, rack="AEIOUAE", actor=None)
    game.refresh_from_db()
    assert game.pending_rejected == ["AAEEIOU"]
    r = racks.round_rack_enter(game=game, rack="AEINRST", actor=None)
    assert (r.number, r.rack, r.rejected) == (1, "AEINRST", ["AAEEIOU"])
    with pytest.raises(ApplicationError, match="typed in"):
        racks.round_draw(game=game, actor=None)


def test_a_predrawn_game_plays_the_federations_racks(room, players) -> None:
    document = autoplay(seed=11, tiles=TileSet.load("en"), lexicon=Lexicon.load()).to_document()
    game = GameFactory(
        event=room, number=3, seed=None, source=Game.Source.PREDRAWN, predrawn=document
    )
    now = T0
    for planned in document["rounds"][:3]:
        r = open_round(game, now=now)
        assert (r.rack, r.leftover) == (planned["rack"], planned["leftover"])
        r = finish_round(r, now)
        assert r.played_score == planned["score"]
        now += dt.timedelta(minutes=5)


def test_a_finished_game_refuses_another_draw(game: Game) -> None:
    game.status = Game.Status.FINISHED
    game.end_reason = "the bag and the rack are empty"
    game.save()
    with pytest.raises(ApplicationError, match="is over: the bag"):
        racks.round_draw(game=game, actor=None)
