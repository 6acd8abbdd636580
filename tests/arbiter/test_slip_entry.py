"""Slips as they come in (rules 7 and 12, docs/rules.md): what a phone and an arbiter may hand
in, each refusal with the code a client reads and a message a person reads, an arbiter's entry
over an existing slip (correction or "multiple"), the late mark, the audit trail, and double
arbitration (a second arbiter types the same paper slip again).

The board is the rulebook's: HORN at H6 after round 1, the rack AFMEIOT in round 2.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from arbiter.services import clock, publishing, racks, scoring
from arbiter.services.slips import Existing, SlipRefused, slip_check, slip_submit
from tests.arbiter.conftest import T0
from tests.factories import EventFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import AuditEntry, Game, Player, Round, Ruling, Submission

pytestmark = pytest.mark.django_db

ROUND_2 = T0 + dt.timedelta(minutes=10)
CLOSING = dt.timedelta(seconds=190)  # the 3-minute round plus the 10 s grace
PHONE = ROUND_2 + dt.timedelta(seconds=30)


@pytest.fixture
def room() -> list[Player]:
    event = EventFactory(solo_min_players=3)
    return [PlayerFactory(event=event, name=n, table=i + 1) for i, n in enumerate("ABC")]


@pytest.fixture
def arbiter() -> User:
    return UserFactory(username="paper")


def first_round(game: Game, rack: str = "HORNAEI") -> Round:
    first = racks.round_rack_enter(game=game, rack=rack, actor=None)
    return clock.round_open(round=first, actor=None, now=T0)


def horn_game(room: list[Player], *, slip_in_round_1: bool = False) -> tuple[Round, Round]:
    """Round 1 (HORN played at H6, published; the first player's slip HORN H6 14 in it when
    ``slip_in_round_1``) and round 2, open, with the rack AFMEIOT."""
    game = GameFactory(event=room[0].event, source=Game.Source.MANUAL, seed=None)
    first = first_round(game)
    if slip_in_round_1:
        slip_submit(player=room[0], round=first, word="HORN", ref="H6", score=14, at=T0)
    assert clock.round_close(round_id=first.pk, now=T0 + CLOSING)
    scored = scoring.round_score(round_id=first.pk, now=T0 + CLOSING)
    assert scored is not None
    publishing.round_top_choose(round=scored, ref="H6", word="HORN", actor=None)
    first = publishing.round_publish(round=scored, actor=None, now=T0 + CLOSING)
    second = racks.round_rack_enter(game=game, rack="AFMEIOT", actor=None)
    return first, clock.round_open(round=second, actor=None, now=ROUND_2)


def phone(player: Player, r: Round, word: str, ref: str, score: int | None, **kw) -> Submission:
    kw.setdefault("at", PHONE)
    return slip_submit(player=player, round=r, word=word, ref=ref, score=score, **kw)


def paper(
    player: Player, r: Round, word: str, ref: str, score: int | None, by: User, **kw
) -> Submission:
    return slip_submit(
        player=player,
        round=r,
        word=word,
        ref=ref,
        score=score,
        source=Submission.Source.ARBITER,
        entered_by=by,
        **kw,
    )


def refused(call, *args, **kw) -> SlipRefused:
    with pytest.raises(SlipRefused) as caught:
        call(*args, **kw)
    return caught.value


# -- a phone's slip ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "ref", "score", "code", "message"),
    [
        ("", "8F", 9, "malformed_word", "Type the word as the slip has it"),
        ("FARMSTEADINGSXYZ", "8F", 9, "malformed_word", "has 16 letters: at most 15"),
        ("FARM", "H8 ac", 9, "malformed_reference", "longer than a grid reference"),
        ("FARM", "8F", -1, "malformed_score", "announced score is a whole number from 0"),
        ("FARM", "8F", 10_000, "malformed_score", "announced score is a whole number from 0"),
    ],
)
def test_a_phone_slip_that_cannot_be_stored_is_refused_with_a_code_and_the_reason(
    room: list[Player], word: str, ref: str, score: int, code: str, message: str
) -> None:
    _, r = horn_game(room)
    error = refused(phone, room[0], r, word, ref, score)
    assert error.code == code
    assert message in error.message
    assert not Submission.objects.filter(round=r).exists()


def test_a_phone_slip_an_arbiter_would_rule_is_recorded_as_written(room: list[Player]) -> None:
    """What paper takes, the phone takes: an unreadable word or reference, tiles not on the
    rack, a blank not marked; the ruling says what is wrong (tests/arbiter/test_channels.py
    rules the same slips from every channel)."""
    _, r = horn_game(room)
    phone(room[0], r, "FARM!", "8F", 9)
    phone(room[1], r, "WARM", "P8", 9)
    phone(room[2], r, "FARMs", "8F", None)
    slips = {s.player.name: (s.word, s.ref) for s in Submission.objects.filter(round=r)}
    assert slips == {"A": ("FARM!", "8F"), "B": ("WARM", "P8"), "C": ("FARMs", "8F")}


def test_an_announced_score_of_0_or_of_9999_is_a_score(room: list[Player], arbiter: User) -> None:
    _, r = horn_game(room)
    assert phone(room[0], r, "FARM", "8F", 0).announced_score == 0
    assert phone(room[1], r, "FARM", "8F", 9999).announced_score == 9999
    assert paper(room[2], r, "FARM", "8F", 0, arbiter).announced_score == 0
    got = {x.player.name: x for x in Ruling.objects.filter(round=score(r)).select_related("player")}
    assert [(got[n].code, got[n].points, got[n].warning) for n in "ABC"] == [
        ("valid_warning", 9, True),
        ("valid_warning", 9, True),
        ("valid_warning", 9, True),
    ]


def close(r: Round) -> Round:
    assert clock.round_close(round_id=r.pk, now=ROUND_2 + CLOSING)
    return Round.objects.get(pk=r.pk)


def test_a_phone_slip_counts_up_to_the_deadline_plus_the_grace_and_not_a_second_after(
    room: list[Player],
) -> None:
    _, r = horn_game(room)
    assert r.deadline == ROUND_2 + dt.timedelta(seconds=180)
    phone(room[0], r, "FARM", "8F", 9, at=ROUND_2 + CLOSING)
    error = refused(
        phone, room[1], r, "FARM", "8F", 9, at=ROUND_2 + CLOSING + dt.timedelta(microseconds=1)
    )
    assert error.code == "deadline_passed"


def test_a_stopped_clock_refuses_phone_slips_until_it_starts_again_and_keeps_earlier_ones(
    room: list[Player],
) -> None:
    _, r = horn_game(room)
    stopped = ROUND_2 + dt.timedelta(seconds=60)
    r = clock.round_pause(round=r, actor=None, now=stopped)
    # sent before the clock stopped, handled after: it counts
    phone(room[0], r, "FARM", "8F", 9, at=stopped)
    error = refused(phone, room[1], r, "FARM", "8F", 9, at=stopped + dt.timedelta(seconds=1))
    assert (error.code, error.message) == (
        "round_paused",
        "The clock is stopped in round 2: hand in your slip when it starts again (2:00 left).",
    )
    restarted = stopped + dt.timedelta(seconds=600)  # past the deadline the round had
    r = clock.round_resume(round=r, actor=None, now=restarted)
    phone(room[1], r, "FARM", "8F", 9, at=restarted + dt.timedelta(seconds=119))
    assert Submission.objects.filter(round=r, is_current=True).count() == 2
    error = refused(phone, room[2], r, "FARM", "8F", 9, at=r.deadline + dt.timedelta(seconds=30))
    assert error.code == "deadline_passed"


def test_an_arbiter_types_paper_slips_while_the_clock_is_stopped(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    stopped = ROUND_2 + dt.timedelta(seconds=60)
    r = clock.round_pause(round=r, actor=None, now=stopped)
    paper(room[0], r, "FARM", "8F", 9, arbiter, at=stopped + dt.timedelta(seconds=30))
    assert Submission.objects.get(round=r, player=room[0]).source == Submission.Source.ARBITER


def test_only_an_arbiter_marks_a_slip_late_and_a_revoked_player_hands_in_nothing(
    room: list[Player],
) -> None:
    _, r = horn_game(room)
    error = refused(phone, room[0], r, "FARM", "8F", 9, late=True)
    assert (error.code, error.message) == ("not_an_arbiter", "Only an arbiter marks a slip late.")
    Player.objects.filter(pk=room[1].pk).update(token_revoked_at=T0)
    error = refused(phone, room[1], r, "FARM", "8F", 9)
    assert error.code == "revoked" and "revoked" in error.message
    assert not Submission.objects.exists()


def test_a_phone_slip_for_a_round_not_yet_open_is_refused(room: list[Player]) -> None:
    game = GameFactory(event=room[0].event, source=Game.Source.MANUAL, seed=None)
    drawn = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    error = refused(phone, room[0], drawn, "HORN", "H6", 14, at=T0)
    assert error.code == "round_not_open" and "Round 1 is not open" in error.message


def test_each_new_phone_slip_replaces_the_last_and_all_are_kept(room: list[Player]) -> None:
    _, r = horn_game(room)
    for seconds, score in ((10, 7), (20, 8), (30, 9)):
        phone(room[0], r, "FARM", "8F", score, at=ROUND_2 + dt.timedelta(seconds=seconds))
    slips = Submission.objects.filter(round=r, player=room[0]).order_by("received_at")
    assert [(s.announced_score, s.is_current) for s in slips] == [
        (7, False),
        (8, False),
        (9, True),
    ]


def test_a_slip_for_this_round_leaves_the_players_slip_of_the_last_round_alone(
    room: list[Player], arbiter: User
) -> None:
    first, second = horn_game(room, slip_in_round_1=True)
    paper(room[0], second, "FARM", "8F", 9, arbiter)  # no slip yet in this round: no question
    phone(room[0], second, "FARM", "8F", 9)
    assert Submission.objects.get(round=first, player=room[0]).is_current
    assert Submission.objects.filter(round=second, player=room[0], is_current=True).count() == 1


# -- an arbiter's entry --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "ref", "score", "code", "message"),
    [
        ("  ", "8F", 9, "malformed_word", "Type the word as the slip has it."),
        ("A" * 16, "8F", 9, "malformed_word", "has 16 letters: at most 15"),
        ("FARM", "12OOO", 9, "malformed_reference", "longer than a grid reference"),
        ("FARM", "8F", -1, "malformed_score", "from 0 to 9999"),
        ("FARM", "8F", 10_000, "malformed_score", "from 0 to 9999"),
    ],
)
def test_an_arbiters_entry_is_refused_only_when_it_cannot_be_stored(
    room: list[Player], arbiter: User, word: str, ref: str, score: int, code: str, message: str
) -> None:
    _, r = horn_game(room)
    error = refused(paper, room[0], r, word, ref, score, arbiter)
    assert error.code == code and message in error.message
    assert not Submission.objects.filter(round=r).exists()


def test_an_arbiter_records_the_paper_as_it_is_even_unreadable(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    paper(room[0], r, " FARMZZZZZZZZZZZ ", " 12oo ", 9999, arbiter)  # 15 letters, 4 characters
    paper(room[1], r, "FARM", "8f", None, arbiter)
    got = {s.player.name: (s.word, s.ref, s.announced_score) for s in Submission.objects.all()}
    assert got == {"A": ("FARMZZZZZZZZZZZ", "12OO", 9999), "B": ("FARM", "8F", None)}


def test_an_arbiter_entry_says_who_and_is_refused_before_the_opening_and_once_published(
    room: list[Player], arbiter: User
) -> None:
    first, r = horn_game(room)
    error = refused(paper, room[0], r, "FARM", "8F", 9, None)
    assert (error.code, error.message) == (
        "no_arbiter",
        "A slip entered by an arbiter says who entered it.",
    )
    error = refused(paper, room[0], first, "HORN", "H6", 14, arbiter)
    assert error.code == "round_published" and "Round 1 is published" in error.message
    game = GameFactory(event=room[0].event, number=2, source=Game.Source.MANUAL, seed=None)
    drawn = racks.round_rack_enter(game=game, rack="HORNAEI", actor=None)
    error = refused(paper, room[0], drawn, "HORN", "H6", 14, arbiter)
    assert error.code == "round_not_open" and "Round 1 is drawn" in error.message
    assert not Submission.objects.exists()


def test_an_entry_over_a_slip_shows_that_slip_and_waits_for_the_arbiters_choice(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    paper(room[0], r, "FARM", "", 9, arbiter)
    error = refused(paper, room[0], r, "FARM", "8F", 9, arbiter)
    assert error.code == "slip_exists"
    assert (
        "A already has a slip for round 2 (- FARM 9, entered by an arbiter): say whether"
        in error.message
    )
    assert error.data["existing"] == {
        "word": "FARM",
        "ref": "",
        "score": 9,
        "source": "arbiter",
        "late": False,
    }
    phone(room[1], r, "FARM", "8F", None)
    error = refused(paper, room[1], r, "FARM", "8F", 9, arbiter)
    assert "B already has a slip for round 2 (8F FARM None, player's phone)" in error.message


def test_a_correction_replaces_the_slip_and_several_slips_handed_in_are_ruled_multiple(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    phone(room[0], r, "FARM", "8F", 12)
    phone(room[1], r, "FARM", "8F", 9)
    corrected = paper(room[0], r, "FARM", "8F", 9, arbiter, existing=Existing.CORRECTION)
    several = paper(room[1], r, "MOTIF", "9B", 20, arbiter, existing=Existing.MULTIPLE)
    first = paper(room[2], r, "FARM", "8F", 9, arbiter, existing=Existing.MULTIPLE)
    assert (corrected.multiple, several.multiple, first.multiple) == (False, True, False)
    assert Submission.objects.filter(round=r, is_current=True).count() == 3
    got = {x.player.name: x for x in Ruling.objects.filter(round=score(r)).select_related("player")}
    assert [(got[n].code, got[n].points) for n in "ABC"] == [
        ("valid", 9),
        ("multiple", 0),
        ("valid", 9),
    ]


def score(r: Round) -> Round:
    scored = scoring.round_score(round_id=close(r).pk, now=ROUND_2 + CLOSING)
    assert scored is not None
    return scored


def test_a_slip_the_arbiter_marks_late_is_ruled_late(room: list[Player], arbiter: User) -> None:
    _, r = horn_game(room)
    late = paper(room[0], r, "FARM", "8F", 9, arbiter, late=True)
    on_time = paper(room[1], r, "FARM", "8F", 9, arbiter)
    assert (late.late, on_time.late) == (True, False)
    got = {x.player_id: x for x in Ruling.objects.filter(round=score(r))}
    assert (got[room[0].pk].code, got[room[0].pk].points) == ("late", 0)
    assert (got[room[1].pk].code, got[room[1].pk].points) == ("valid", 9)


def test_every_arbiters_entry_is_audited_with_who_what_and_what_it_replaced(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    paper(room[0], r, "FARM", "8f", 9, arbiter)
    phone(room[1], r, "FARM", "8F", 12)
    paper(room[1], r, "FARM", "8F", 9, arbiter, existing=Existing.CORRECTION, late=True)
    entries = list(AuditEntry.objects.filter(action="arbiter.slip.entered").order_by("pk"))
    assert len(entries) == 2
    for entry in entries:
        assert (entry.actor, entry.round, entry.game, entry.event) == (
            arbiter,
            r,
            r.game,
            r.game.event,
        )
    assert entries[0].data == {
        "player": room[0].pk,
        "table": 1,
        "word": "FARM",
        "ref": "8F",
        "score": 9,
        "late": False,
        "existing": None,
        "replaced": None,
        "round_status": "open",
    }
    assert entries[1].data == {
        "player": room[1].pk,
        "table": 2,
        "word": "FARM",
        "ref": "8F",
        "score": 9,
        "late": True,
        "existing": "correction",
        "replaced": {"word": "FARM", "ref": "8F", "score": 12, "source": "phone", "late": False},
        "round_status": "open",
    }
    assert not AuditEntry.objects.filter(action="arbiter.slip.entered", data__player=room[2].pk)


def test_a_slip_typed_after_the_scoring_is_ruled_at_once_and_replaces_that_ruling(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    r = score(r)
    assert Ruling.objects.get(round=r, player=room[0]).code == "missing"
    paper(room[0], r, "FARM", "8F", 12, arbiter)
    assert Ruling.objects.get(round=r, player=room[0]).code == "valid_warning"
    paper(room[0], r, "FARM", "8F", 9, arbiter, existing=Existing.CORRECTION)
    ruling = Ruling.objects.get(round=r, player=room[0])
    assert (ruling.code, ruling.points, ruling.submission.announced_score) == ("valid", 9, 9)
    assert Ruling.objects.filter(round=r).count() == 3


# -- double arbitration --------------------------------------------------------------------------


def test_a_second_arbiters_entry_of_the_same_slip_agrees_and_is_audited(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room)
    phone(room[0], r, "FARM", "8F", 12, at=ROUND_2 + dt.timedelta(seconds=5))
    phone(room[0], r, "FARM", "8F", 9)  # the current slip
    second = UserFactory(username="second")
    assert slip_check(
        player=room[0], round=r, word=" FARM ", ref=" 8f ", score=9, checked_by=second
    )
    entry = AuditEntry.objects.get(action="arbiter.slip.checked")
    assert (entry.actor, entry.round, entry.game, entry.event) == (second, r, r.game, r.game.event)
    assert entry.data == {
        "player": room[0].pk,
        "name": "A",
        "table": 1,
        "agree": True,
        "first": {"word": "FARM", "ref": "8F", "score": 9},
        "second": {"word": "FARM", "ref": "8F", "score": 9},
    }
    assert Submission.objects.filter(round=r, is_current=True).get().announced_score == 9


@pytest.mark.parametrize(
    ("word", "ref", "score"),
    [("FORM", "8F", 9), ("FARM", "8G", 9), ("FARM", "8F", 8), ("FARM", "8F", None)],
)
def test_a_second_entry_that_differs_in_anything_is_flagged(
    room: list[Player], arbiter: User, word: str, ref: str, score: int | None
) -> None:
    _, r = horn_game(room)
    phone(room[0], r, "FARM", "8F", 9)
    assert not slip_check(
        player=room[0], round=r, word=word, ref=ref, score=score, checked_by=arbiter
    )
    entry = AuditEntry.objects.get(action="arbiter.slip.checked")
    assert entry.data["agree"] is False
    assert entry.data["first"] == {"word": "FARM", "ref": "8F", "score": 9}
    assert entry.data["second"] == {"word": word, "ref": ref, "score": score}


def test_a_second_entry_for_a_player_with_no_slip_disagrees(
    room: list[Player], arbiter: User
) -> None:
    _, r = horn_game(room, slip_in_round_1=True)  # the player's slip of round 1 is not this one
    phone(room[1], r, "FARM", "8F", 9)  # nor another player's
    assert not slip_check(
        player=room[0], round=r, word="FARM", ref="8F", score=9, checked_by=arbiter
    )
    entry = AuditEntry.objects.get(action="arbiter.slip.checked")
    assert (entry.data["first"], entry.data["agree"], entry.data["player"]) == (
        None,
        False,
        room[0].pk,
    )


def test_the_slip_that_arrived_last_stands_even_when_the_server_handles_it_first(
    room: list[Player],
) -> None:
    _, r = horn_game(room)
    phone(room[0], r, "FARM", "8F", 9, at=ROUND_2 + dt.timedelta(seconds=50))
    phone(room[0], r, "FARM", "8F", 12, at=ROUND_2 + dt.timedelta(seconds=40))  # handled late
    assert Submission.objects.get(round=r, player=room[0], is_current=True).announced_score == 9


def test_of_slips_handed_in_out_of_order_the_last_arrival_stands_and_on_a_tie_the_last_handled(
    room: list[Player],
) -> None:
    _, r = horn_game(room)
    for seconds, score in ((10, 7), (20, 8), (15, 12)):  # the one of 15 s is handled last
        phone(room[0], r, "FARM", "8F", score, at=ROUND_2 + dt.timedelta(seconds=seconds))
    current = Submission.objects.get(round=r, player=room[0], is_current=True)
    assert current.announced_score == 8
    assert Submission.objects.filter(round=r, player=room[0]).count() == 3
    same = ROUND_2 + dt.timedelta(seconds=40)
    for score in (10, 9):
        phone(room[1], r, "FARM", "8F", score, at=same)
    assert Submission.objects.get(round=r, player=room[1], is_current=True).announced_score == 9
