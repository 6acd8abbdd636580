"""docs/rules.md, "Rulings in detail": every numbered case, through the services.

The rulebook's board: HORN at H6 in round 1 (racks typed in, the director plays HORN), then
the rack AFMEIOT (or AF?EIOT, for the blanks) in round 2, slips from phones and paper.
"""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.selectors.standings import standings_game
from arbiter.services import clock, corrections, publishing, racks, scoring
from arbiter.services.slips import Existing, SlipRefused, slip_submit
from tests.arbiter.conftest import T0
from tests.factories import EventFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import Game, Player, Round, Ruling, Submission

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve"]
CLOSING = dt.timedelta(seconds=190)  # the 3-minute round plus the 10 s grace
ROUND_2 = T0 + dt.timedelta(minutes=10)


@pytest.fixture
def paper_room() -> list[Player]:
    event = EventFactory(solo_min_players=3)
    return [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate(NAMES)]


@pytest.fixture
def director():
    return UserFactory(username="director")


def horn_game(players: list[Player], second_rack: str = "AFMEIOT") -> tuple[Game, Round]:
    """Round 1 played (HORN at H6, everyone missing), round 2 open with ``second_rack``."""
    game = GameFactory(event=players[0].event, source=Game.Source.MANUAL, seed=None)
    first = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    first = clock.round_open(round=first, actor=None, now=T0)
    assert clock.round_close(round_id=first.pk, now=T0 + CLOSING)
    scored = scoring.round_score(round_id=first.pk, now=T0 + CLOSING)
    assert scored is not None
    publishing.round_top_choose(round=scored, ref="H6", word="HORN", actor=None)
    publishing.round_publish(round=scored, actor=None, now=T0 + CLOSING)
    second = racks.round_rack_enter(game=game, rack=second_rack, actor=None)
    return game, clock.round_open(round=second, actor=None, now=ROUND_2)


def phone(player: Player, round: Round, word: str, ref: str, score: int | None) -> Submission:
    return slip_submit(
        player=player, round=round, word=word, ref=ref, score=score, at=ROUND_2 + seconds(30)
    )


def paper(player: Player, round: Round, word: str, ref: str, score: int | None, **kw) -> None:
    arbiter = UserFactory()
    slip_submit(
        player=player,
        round=round,
        word=word,
        ref=ref,
        score=score,
        source=Submission.Source.ARBITER,
        entered_by=arbiter,
        **kw,
    )


def seconds(n: int) -> dt.timedelta:
    return dt.timedelta(seconds=n)


def score(round: Round) -> Round:
    assert clock.round_close(round_id=round.pk, now=ROUND_2 + CLOSING)
    scored = scoring.round_score(round_id=round.pk, now=ROUND_2 + CLOSING)
    assert scored is not None
    return scored


def rulings(round: Round) -> dict[str, Ruling]:
    return {r.player.name: r for r in Ruling.objects.filter(round=round).select_related("player")}


def net(r: Ruling) -> int:
    return r.points - r.penalty


# 1, 2 -------------------------------------------------------------------------------------------


def test_1_a_valid_slip_gets_its_score_and_2_a_wrong_or_missing_score_a_warning(paper_room) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 12)
    phone(paper_room[2], r, "FARM", "8F", None)
    got = rulings(score(r))
    assert (got["Ann"].code, got["Ann"].points, got["Ann"].warning) == ("valid", 9, False)
    for name in ("Bob", "Cleo"):
        assert (got[name].code, got[name].points, got[name].warning) == ("valid_warning", 9, True)


# 3 ----------------------------------------------------------------------------------------------


def test_3_a_blank_not_marked_or_marked_on_the_wrong_letter_is_scored_where_it_must_be(
    paper_room,
) -> None:
    _, r = horn_game(paper_room, second_rack="AF?EIOT")  # no M: the blank must be the M
    paper(paper_room[0], r, "FARm", "8F", 6)  # marked right
    paper(paper_room[1], r, "FARM", "8F", 6)  # not marked
    paper(paper_room[2], r, "fARM", "8F", 6)  # marked on the wrong letter
    paper(paper_room[3], r, "FARM", "8F", 9)  # not marked, score also wrong: still one warning
    got = rulings(score(r))
    assert (got["Ann"].code, got["Ann"].points, got["Ann"].warning) == ("valid", 6, False)
    for name in ("Bob", "Cleo", "Dan"):
        assert (got[name].code, got[name].points, got[name].warning) == ("valid_warning", 6, True)
        assert "FARm" in got[name].reason


# 4 ----------------------------------------------------------------------------------------------


def test_4_the_2016_rule_on_the_rulebook_board(paper_room) -> None:
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8F", 9)  # right: 9
    paper(paper_room[1], r, "FARM", "8G", 9)  # does not fit there: 9 - 5
    paper(paper_room[2], r, "FARM", "10E", 9)  # fits, but bad cross-word and R not on the rack: 4
    paper(paper_room[3], r, "FARM", "", 9)  # no reference: either direction, 4
    paper(paper_room[4], r, "FARM", "10E", 8)  # score also wrong: 0
    got = rulings(score(r))
    assert [net(got[n]) for n in NAMES] == [9, 4, 4, 4, 0]
    assert [got[n].code for n in NAMES[1:4]] == ["reference_penalty"] * 3
    assert got["Eve"].code == "not_on_rack"


def test_4_the_direction_is_what_the_reference_says_and_an_unreadable_one_is_missing(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "F8", 9)  # across: FARM is legal only down here
    paper(paper_room[1], r, "FARM", "8?", 9)  # unreadable: counts as missing
    paper(paper_room[2], r, "FARM", "P8", 9)  # across (row letter first), but off the board
    got = rulings(score(r))
    assert (got["Ann"].code, net(got["Ann"])) == ("bad_reference", 0)
    assert (got["Bob"].code, net(got["Bob"])) == ("reference_penalty", 4)
    assert (got["Cleo"].code, net(got["Cleo"])) == ("bad_reference", 0)


def test_4_without_the_2016_rule_a_wrong_reference_is_zero(paper_room) -> None:
    paper_room[0].event.__class__.objects.filter(pk=paper_room[0].event_id).update(
        reference_rule_2016=False
    )
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8G", 9)
    assert (rulings(score(r))["Ann"].code, net(rulings(r)["Ann"])) == ("bad_reference", 0)


# 5 ----------------------------------------------------------------------------------------------


def test_5_the_first_move_is_credited_at_its_best_position_with_no_2016_penalty(paper_room) -> None:
    game = GameFactory(event=paper_room[0].event, source=Game.Source.MANUAL, seed=None)
    first = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    first = clock.round_open(round=first, actor=None, now=T0)
    for player, ref in zip(paper_room[:3], ("H6", "", "8H"), strict=True):
        slip_submit(player=player, round=first, word="HORN", ref=ref, score=14, at=T0 + seconds(9))
    assert clock.round_close(round_id=first.pk, now=T0 + CLOSING)
    scored = scoring.round_score(round_id=first.pk, now=T0 + CLOSING)
    assert scored is not None
    got = rulings(scored)
    for name in ("Ann", "Bob", "Cleo"):
        assert (got[name].code, got[name].points, got[name].penalty) == ("valid", 14, 0), name
        assert "best position" in got[name].reason


# 6 ----------------------------------------------------------------------------------------------


def test_6_zero_for_a_word_not_in_the_lexicon_tiles_not_on_the_rack_no_fit_late_no_slip(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARMZ", "8F", 9)
    paper(
        paper_room[1], r, "FIRM", "8F", 9
    )  # no second I on the rack? AFMEIOT has one I: R is on board
    paper(paper_room[2], r, "QUIZ", "8F", 30)
    paper(paper_room[3], r, "FARM", "8F", 9, late=True)
    got = rulings(score(r))
    assert got["Ann"].code == "invalid_word" and got["Ann"].points == 0
    assert got["Cleo"].code in {"not_on_rack", "does_not_fit"} and got["Cleo"].points == 0
    assert (got["Dan"].code, got["Dan"].points) == ("late", 0)
    assert (got["Eve"].code, got["Eve"].points, got["Eve"].submission) == ("missing", 0, None)


# 7 ----------------------------------------------------------------------------------------------


def test_7_two_slips_from_a_phone_the_last_before_the_deadline_stands(paper_room) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 12)
    slip_submit(
        player=paper_room[0], round=r, word="FARM", ref="8F", score=9, at=ROUND_2 + seconds(60)
    )
    assert Submission.objects.filter(round=r, player=paper_room[0]).count() == 2
    assert (rulings(score(r))["Ann"].code, rulings(r)["Ann"].points) == ("valid", 9)


def test_7_an_arbiter_entry_over_a_slip_is_an_explicit_choice_never_a_silent_one(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 9)
    with pytest.raises(SlipRefused) as refused:
        paper(paper_room[0], r, "FARM", "8F", 12)
    assert refused.value.code == "slip_exists"
    assert refused.value.data["existing"]["word"] == "FARM"
    paper(paper_room[0], r, "FARM", "8F", 12, existing=Existing.CORRECTION)
    paper(paper_room[1], r, "MOTIF", "9B", 20, existing=Existing.MULTIPLE)
    got = rulings(score(r))
    assert (got["Ann"].code, got["Ann"].points, got["Ann"].warning) == ("valid_warning", 9, True)
    assert (got["Bob"].code, got["Bob"].points) == ("multiple", 0)
    assert Submission.objects.filter(round=r, player=paper_room[1]).count() == 2


# 8 ----------------------------------------------------------------------------------------------


def test_8_warnings_penalties_are_derived_and_follow_an_amendment(paper_room, director) -> None:
    event = paper_room[0].event
    event.__class__.objects.filter(pk=event.pk).update(warnings_free=1, warning_penalty=5)
    game, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", None)  # warning 1 of the game: free
    r = publishing.round_publish(round=score(r), actor=None, now=ROUND_2 + CLOSING)
    third = racks.round_rack_enter(game=game, rack="AEIOTLN", actor=None)
    later = ROUND_2 + dt.timedelta(minutes=10)
    third = clock.round_open(round=third, actor=None, now=later)
    scoring.round_tops_compute(round_id=third.pk, now=later)
    third.refresh_from_db()
    top = third.tops[0]
    slip_submit(
        player=paper_room[0], round=third, word=top["word"], ref=top["ref"], score=None, at=later
    )
    assert clock.round_close(round_id=third.pk, now=later + CLOSING)
    scoring.round_score(round_id=third.pk, now=later + CLOSING)
    ann3 = Ruling.objects.get(round=third, player=paper_room[0])
    assert (ann3.warning, ann3.warning_penalty) == (True, 5)  # the second: beyond the free one
    ann2 = Ruling.objects.get(round=r, player=paper_room[0])
    corrections.ruling_amend(ruling=ann2, warning=False, reason="score was legible", actor=director)
    ann3.refresh_from_db()
    assert (ann3.warning, ann3.warning_penalty) == (True, 0)  # now the first: free
    corrections.ruling_amend(ruling=ann2, warning=True, reason="it was not", actor=director)
    ann3.refresh_from_db()
    assert ann3.warning_penalty == 5


# 9 ----------------------------------------------------------------------------------------------


def test_9_the_top_is_found_whatever_the_reference_penalty_and_a_solo_needs_active_players(
    paper_room,
) -> None:
    game, r = horn_game(paper_room)
    scoring.round_tops_compute(round_id=r.pk, now=ROUND_2)
    r.refresh_from_db()
    top = r.tops[0]
    phone(
        paper_room[0], r, top["word"], "", top["score"]
    )  # the top, no reference: found, penalised
    phone(paper_room[1], r, "FARM", "8F", 9)
    got = rulings(score(r))
    assert got["Ann"].found_top and got["Ann"].code == "reference_penalty"
    assert got["Ann"].solo == 0  # two active players; the event wants 3 for a solo
    paper(paper_room[2], r, "FARM", "8F", 9)  # a third player plays: the solo follows
    assert Ruling.objects.get(round=r, player=paper_room[0]).solo == 10


def test_9_no_one_found_the_top_no_solo(paper_room) -> None:
    _, r = horn_game(paper_room)
    for p in paper_room[:4]:
        phone(p, r, "FARM", "8F", 9)
    assert all(x.solo == 0 and not x.found_top for x in rulings(score(r)).values())


# 10, 11 -----------------------------------------------------------------------------------------


def test_10_a_second_zero_may_become_the_rounds_average_which_follows_amendments(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 12)
    paper(paper_room[2], r, "FARMZ", "8F", 9)
    r = score(r)
    cleo = Ruling.objects.get(round=r, player=paper_room[2])
    corrections.ruling_amend(ruling=cleo, averaged=True, reason="second zero", actor=director)
    cleo.refresh_from_db()
    assert (cleo.averaged, cleo.points) == (True, 9)  # (9 + 9) / 2; Dan and Eve handed in none
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    corrections.ruling_amend(ruling=bob, points=0, code="late", reason="late", actor=director)
    cleo.refresh_from_db()
    assert cleo.points == 4  # (9 + 0) / 2, rounded down


def test_11_a_missing_slip_entered_after_publication_moves_that_round_and_the_standings(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    r = publishing.round_publish(round=score(r), actor=None, now=ROUND_2 + CLOSING)
    before = standings_game(game=r.game).row_of(paper_room[1].pk)
    assert before is not None and before.total == 0
    ruling = corrections.ruling_slip_enter(
        round=r,
        player=paper_room[1],
        word="FARM",
        ref="8F",
        score=9,
        reason="slip found",
        actor=director,
    )
    assert (ruling.code, ruling.points, ruling.amended) == ("valid", 9, True)
    after = standings_game(game=r.game).row_of(paper_room[1].pk)
    assert after is not None and after.total == 9
    entry = r.audit_entries.get(action="arbiter.ruling.slip_entered")
    assert entry.actor == director and entry.data["reason"] == "slip found"


def test_11_an_amendment_sets_a_reference_penalty_or_marks_a_slip_late(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "8F", 9)
    phone(paper_room[1], r, "FARM", "8F", 9)
    r = score(r)
    ann, bob = (
        Ruling.objects.get(round=r, player=paper_room[0]),
        Ruling.objects.get(round=r, player=paper_room[1]),
    )
    corrections.ruling_amend(ruling=ann, penalty=5, reason="reference misread", actor=director)
    corrections.ruling_amend(ruling=bob, late=True, reason="handed in late", actor=director)
    ann.refresh_from_db()
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    assert (ann.points, ann.penalty, ann.total) == (9, 5, 4)
    assert (bob.code, bob.points, bob.amended) == ("late", 0, True)
    with pytest.raises(Exception, match="needs its reason"):
        corrections.ruling_amend(ruling=ann, penalty=0, reason=" ", actor=director)


# 12 ---------------------------------------------------------------------------------------------


def test_12_paper_slips_typed_after_the_close_and_after_the_scoring_are_on_time(paper_room) -> None:
    _, r = horn_game(paper_room)
    assert clock.round_close(round_id=r.pk, now=ROUND_2 + CLOSING)
    paper(paper_room[0], r, "FARM", "8F", 9)  # typed after the close: ruled with the others
    scored = scoring.round_score(round_id=r.pk, now=ROUND_2 + CLOSING)
    assert scored is not None
    assert rulings(scored)["Ann"].points == 9
    paper(paper_room[1], r, "FARM", "8F", 9)  # typed after the scoring: ruled at once
    bob = Ruling.objects.get(round=r, player=paper_room[1])
    assert (bob.code, bob.points, bob.submission.source) == ("valid", 9, "arbiter")
    paper(paper_room[2], r, "FARM", "8F", 9, late=True)  # only the arbiter marks it late
    assert Ruling.objects.get(round=r, player=paper_room[2]).code == "late"
    publishing.round_publish(round=scored, actor=None, now=ROUND_2 + CLOSING)
    with pytest.raises(SlipRefused) as refused:
        paper(paper_room[3], r, "FARM", "8F", 9)
    assert refused.value.code == "round_published"


def test_12_a_phone_slip_that_arrived_on_time_is_ruled_even_when_processed_after_the_close(
    paper_room,
) -> None:
    _, r = horn_game(paper_room)
    assert clock.round_close(round_id=r.pk, now=ROUND_2 + CLOSING)
    scoring.round_score(round_id=r.pk, now=ROUND_2 + CLOSING)
    arrived = ROUND_2 + seconds(185)  # before the deadline plus the grace
    slip_submit(player=paper_room[0], round=r, word="FARM", ref="8F", score=9, at=arrived)
    assert Ruling.objects.get(round=r, player=paper_room[0]).points == 9
    with pytest.raises(SlipRefused) as refused:
        slip_submit(
            player=paper_room[1],
            round=r,
            word="FARM",
            ref="8F",
            score=9,
            at=ROUND_2 + CLOSING + seconds(1),
        )
    assert refused.value.code == "deadline_passed"


def test_9_a_player_who_joins_later_counts_for_the_solos_of_earlier_rounds(paper_room) -> None:
    game, r = horn_game(paper_room)
    scoring.round_tops_compute(round_id=r.pk, now=ROUND_2)
    r.refresh_from_db()
    top = r.tops[0]
    phone(paper_room[0], r, top["word"], top["ref"], top["score"])
    phone(paper_room[1], r, "FARM", "8F", 9)
    r = publishing.round_publish(round=score(r), actor=None, now=ROUND_2 + CLOSING)
    assert Ruling.objects.get(round=r, player=paper_room[0]).solo == 0  # 2 play; 3 are needed
    third = racks.round_rack_enter(game=game, rack="AEIOTLN", actor=None)
    later = ROUND_2 + dt.timedelta(minutes=10)
    third = clock.round_open(round=third, actor=None, now=later)
    slip_submit(player=paper_room[2], round=third, word="TOE", ref="", score=3, at=later)
    assert clock.round_close(round_id=third.pk, now=later + CLOSING)
    scoring.round_score(round_id=third.pk, now=later + CLOSING)
    assert Ruling.objects.get(round=r, player=paper_room[0]).solo == 10  # Cleo plays the game now


# 13 to 20: the federation's sanction catalogue -------------------------------------------------


def test_13_14_15_junction_letters_from_a_phone_and_from_paper(paper_room) -> None:
    _, r = horn_game(paper_room)
    phone(paper_room[0], r, "FARM", "HOR", 9)  # 13: the three letters of HORN it joins
    paper(paper_room[1], r, "FARM", "hor", 9)  # 13: typed as naturally as a reference
    paper(paper_room[2], r, "FARM", "OR", 9)  # 14: two letters: a warning
    phone(paper_room[3], r, "FARM", "HPR", 9)  # 15: altered: a warning
    paper(paper_room[4], r, "FARM", "XYZ", 9)  # 13 then 4: designates nothing: 9 - 5
    got = rulings(score(r))
    assert [(got[n].code, net(got[n]), got[n].warning, got[n].article) for n in NAMES] == [
        ("valid", 9, False, "13"),
        ("valid", 9, False, "13"),
        ("valid_warning", 9, True, "14"),
        ("valid_warning", 9, True, "15"),
        ("reference_penalty", 4, False, "4 · FISF 5.3.1"),
    ]
    assert got["Ann"].submission.ref == "HOR" and got["Bob"].submission.ref == "HOR"


def test_16_17_18_19_20_extension_final_letter_shift_ambiguity_and_no_negative(
    paper_room, director
) -> None:
    _, r = horn_game(paper_room, second_rack="AFMEIO?")
    paper(paper_room[0], r, "HORNs", "A1", 7)  # 16: extends HORN: the reference is not needed
    phone(paper_room[1], r, "OME", "9E", 7)  # 17: OMEN's N left out: 7 - 5
    paper(paper_room[2], r, "FARM", "8G", 9)  # 18: shifted by one square: 9 - 5
    paper(paper_room[3], r, "FAME", "", 26)  # 19: 26 at G5 and at I5: 26 - 5
    r = score(r)
    got = rulings(r)
    assert [(got[n].code, net(got[n]), got[n].article) for n in NAMES[:4]] == [
        ("valid", 7, "16"),
        ("final_letter_penalty", 2, "17 · FISF 5.3.1"),
        ("reference_penalty", 4, "18 · FISF 5.3.1"),
        ("reference_penalty", 21, "19 · FISF 5.3.2"),
    ]
    # 11: an amendment cites rule 11, and the slip's article is kept in the reason's "was"
    amended = corrections.ruling_amend(
        ruling=got["Ann"], warning=True, reason="disciplinary: talking", actor=director
    )
    assert (amended.article, amended.warning, amended.amended) == ("11", True, True)


def test_20_the_event_penalty_never_takes_a_slip_below_zero(paper_room) -> None:
    Event = paper_room[0].event.__class__
    Event.objects.filter(pk=paper_room[0].event_id).update(reference_penalty=20)
    _, r = horn_game(paper_room)
    paper(paper_room[0], r, "FARM", "8G", 9)
    got = rulings(score(r))["Ann"]
    assert (got.points, got.penalty, got.total) == (9, 9, 0)
