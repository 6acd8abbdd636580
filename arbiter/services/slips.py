"""Slips: a player's word, grid reference and announced score for the open round.

A player's slip is accepted from a player registered in the round's event when it arrived
before the deadline plus the grace on the server clock; a newer one replaces the older (both
are kept, the newer is current). An arbiter enters paper slips from the opening until the
round is published (rules.md, rule 12), and says what an entry is when the player already has
a slip (rule 7). Every refusal says why; a slip recorded is always ruled.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from arbiter.selectors.sudden_death import game_eliminations
from arbiter.services.rulings import player_rule
from engine.formula import SUDDEN_DEATH
from tournament.changes import SLIP, change_announce
from tournament.compiled import Compiled
from tournament.errors import ApplicationError
from tournament.models import Event, Player, Round, Submission
from tournament.selectors import unique_or_none
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open

_ROUND_COLUMNS = (
    "number",
    "status",
    "rack",
    "leftover",
    "deadline",
    "paused_remaining",
    "game__number",
    "game__board",
    "game__board_layout",
    "game__formula",
    "game__event__name",
    "game__event__grace_seconds",
    "game__event__status",
)


# The reads of every slip, compiled once (tournament.compiled): building them cost Django more
# processor than PostgreSQL took to answer them.
_ROUND_READ = Compiled(
    Round,
    lambda pk: (
        Round.objects.select_related("game__event")
        .only(*_ROUND_COLUMNS)
        .filter(pk=pk)
        .order_by()[:2]
    ),
    pk=int,
)
_PLAYER_LOCKED = Compiled(
    Player,
    lambda pk: (
        Player.objects.select_for_update()
        .only("pk", "event_id", "name", "table", "token_revoked_at", "withdrawn_at")
        .filter(pk=pk)
        .order_by()[:2]
    ),
    pk=int,
)
_CURRENT = Compiled(
    Submission,
    lambda round, player: Submission.objects.filter(
        is_current=True, round=round, player=player
    ).order_by()[:3],
    round=int,
    player=int,
)
_CURRENT_OR_ATTEMPT = Compiled(
    Submission,
    lambda round, player, attempt: Submission.objects.filter(
        Q(is_current=True) | Q(attempt=attempt), round=round, player=player
    ).order_by()[:3],
    round=int,
    player=int,
    attempt=str,
)


class SlipRefused(ApplicationError):
    """A slip that is not accepted; the message says why."""


def clean_entry(word: str, ref: str, score: int | None) -> tuple[str, str]:
    """A slip is recorded as the player wrote it, from a phone as on paper, even unreadable
    (the ruling says so: an unreadable word is "malformed", an unreadable reference counts as
    none, a word needing a blank not marked is ruled as rules.md's rule 3 says); only what
    cannot be stored is refused. One cleaning for every channel: the same slip gets the same
    ruling whoever typed it."""
    word, ref = word.strip(), ref.strip().upper()
    if not word:
        raise SlipRefused(_("Type the word as the slip has it."), code="malformed_word")
    if len(word) > 15:
        raise SlipRefused(
            _("The word %(word)s has %(letters)s letters: at most 15.")
            % {"word": word, "letters": len(word)},
            code="malformed_word",
        )
    if len(ref) > 4:
        raise SlipRefused(
            _(
                "The reference %(ref)s is longer than a grid reference (H8, 8H, 12O, O12) "
                "or junction letters (two to four: HOR)."
            )
            % {"ref": ref},
            code="malformed_reference",
        )
    if score is not None and not 0 <= score <= 9999:
        raise SlipRefused(
            _("The announced score is a whole number from 0 to 9999."),
            code="malformed_score",
        )
    return word, ref


def slip_record(
    *,
    round: Round,
    player: Player,
    word: str,
    ref: str,
    score: int | None,
    at: datetime,
    source: str,
    entered_by: User | None,
    late: bool = False,
    multiple: bool = False,
    current: bool = True,
    replaces: bool = True,
    attempt: str = "",
    fallacious: bool = False,
) -> Submission:
    """Store a slip as the player's current one for the round; the earlier one stays, no longer
    current (the callers have checked it may be recorded). With ``current`` False the slip only
    joins the round's history. ``replaces`` False: the caller read, under the player's lock,
    that the player has no current slip for the round (nothing to retire)."""
    if current and replaces:
        Submission.objects.filter(round=round, player=player, is_current=True).update(
            is_current=False
        )
    return Submission.objects.create(
        round=round,
        player=player,
        word=word,
        ref=ref,
        announced_score=score,
        received_at=at,
        source=source,
        entered_by=entered_by,
        is_current=current,
        late=late,
        multiple=multiple,
        attempt=attempt,
        fallacious=fallacious,
    )


def slip_listed(slip: Submission, *, round_number: int, round_status: str) -> dict[str, object]:
    """A slip as the player's phone lists it (``arbiter.selectors.play.play_personal_many``),
    before any ruling is shown: JSON-ready. ``game`` (the game's id) is not listed: the live
    stream merges the slip only into a list of that game's slips."""
    return {
        "game": slip.round.game_id,
        "id": slip.pk,
        "round": round_number,
        "round_status": round_status,
        "word": slip.word,
        "ref": slip.ref,
        "score": slip.announced_score,
        "received_at": slip.received_at.isoformat(),
        "source": slip.source,
        "current": slip.is_current,
        "late": slip.late,
        "ruling": None,
    }


def round_share_lock(round_id: int) -> None:
    """Hold the round's row in share mode until the transaction ends: any number of slips hold
    it at once, but the close (an UPDATE of the row) waits until they have committed, and a
    slip that comes during the close waits for it and then sees the round closed. SQLite runs
    one writing transaction at a time (BEGIN IMMEDIATE), which serialises them anyway."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(Round._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR SHARE", [round_id])


class Existing(enum.StrEnum):
    """What an arbiter's entry is, when the player already has a slip for the round (rule 7)."""

    CORRECTION = "correction"  # it replaces the slip: a typing error
    MULTIPLE = "multiple"  # the player handed in several slips: ruled 0, "multiple"


def _current_json(slip: Submission) -> dict[str, object]:
    return {
        "word": slip.word,
        "ref": slip.ref,
        "score": slip.announced_score,
        "source": slip.source,
        "late": slip.late,
    }


def _check_arbiter_entry(round: Round, entered_by: User | None) -> None:
    if entered_by is None:
        raise SlipRefused(_("A slip entered by an arbiter says who entered it."), code="no_arbiter")
    if round.status == Round.Status.PUBLISHED:
        raise SlipRefused(
            _(
                "Round %(round)s is published: amend the player's ruling instead "
                "(it says why and who)."
            )
            % {"round": round.number},
            code="round_published",
        )
    if round.status not in (Round.Status.OPEN, Round.Status.CLOSED, Round.Status.SCORED):
        raise SlipRefused(
            _(
                "Round %(round)s is %(status)s: slips are entered once it is open, "
                "until it is published."
            )
            % {"round": round.number, "status": round.get_status_display().lower()},
            code="round_not_open",
        )


def _check_taken(event: Event, player: Player) -> None:
    """No slip, from any source, in a closed event or from or for a withdrawn player."""
    event_require_open(event, refused=SlipRefused)
    if player.is_withdrawn:
        raise SlipRefused(
            _(
                "%(player)s has withdrawn from %(event)s: no slip is taken from or for them "
                "(the director can reinstate them)."
            )
            % {"player": player.name, "event": event.name},
            code="withdrawn",
        )


def _check_still_in(round: Round, player: Player) -> None:
    """In mort subite (FISF 2023 3.8.3) no slip is taken from or for a player eliminated at
    an earlier round already scored (``game_eliminations``)."""
    if round.game.formula != SUDDEN_DEATH:
        return
    out_at = game_eliminations(game=round.game, published_only=False, before=round.number).get(
        player.pk
    )
    if out_at is not None:
        raise SlipRefused(
            _(
                "%(player)s was eliminated at round %(out)s of this mort subite game: no slip "
                "is taken from or for them (FISF 2023, 3.8.3)."
            )
            % {"player": player.name, "out": out_at},
            code="eliminated",
            data={"eliminated_at": out_at},
        )


def _minutes(left: timedelta | None) -> str:
    seconds = int(left.total_seconds()) if left is not None else 0
    return f"{seconds // 60}:{seconds % 60:02d}"


def _check_phone_slip(round: Round, player: Player, at: datetime, late: bool) -> None:
    """A player's own slip counts when it arrived (``at``, stamped when the request came in)
    before the deadline plus the grace, even if the round has closed since."""
    if late:
        raise SlipRefused(_("Only an arbiter marks a slip late."), code="not_an_arbiter")
    if not player.token_is_active:
        raise SlipRefused(
            _("This player's access has been revoked: ask the director."),
            code="revoked",
        )
    refusal = round.slip_refusal(at=at, grace=round.game.event.grace)
    if refusal == "round_not_open":
        raise SlipRefused(
            _("Round %(round)s is not open (it is %(status)s).")
            % {"round": round.number, "status": round.get_status_display().lower()},
            code="round_not_open",
        )
    if refusal == "round_paused":
        raise SlipRefused(
            _(
                "The clock is stopped in round %(round)s: hand in your slip when it starts "
                "again (%(left)s left)."
            )
            % {"round": round.number, "left": _minutes(round.paused_remaining)},
            code="round_paused",
        )
    if refusal == "deadline_passed":
        assert round.deadline is not None
        raise SlipRefused(
            _(
                "The deadline has passed: round %(round)s closed at %(deadline)s and this slip "
                "arrived at %(arrived)s (server clock, local time)."
            )
            % {
                "round": round.number,
                "deadline": f"{timezone.localtime(round.deadline):%H:%M:%S}",
                "arrived": f"{timezone.localtime(at):%H:%M:%S}",
            },
            code="deadline_passed",
        )


@transaction.atomic
def slip_submit(
    *,
    player: Player,
    round: Round,
    word: str,
    ref: str,
    score: int | None,
    source: str = Submission.Source.PHONE,
    at: datetime | None = None,
    entered_by: User | None = None,
    late: bool = False,
    existing: Existing | None = None,
    attempt: str = "",
    fallacious: bool = False,
) -> Submission:
    """Record a slip (``slip_hand_in`` says what the phone's receipt reads). ``late``,
    ``existing`` and ``fallacious`` are what an arbiter's entry of a paper slip says (the
    last: FISF 2023 5.3.3, the word forms a fallacious junction)."""
    return _slip_submit(
        player=player,
        round=round,
        word=word,
        ref=ref,
        score=score,
        source=source,
        at=at,
        entered_by=entered_by,
        late=late,
        existing=existing,
        attempt=attempt,
        fallacious=fallacious,
    ).slip


@dataclass(frozen=True)
class Handed:
    """A slip stored (or found again: a retry of the same attempt) and what its receipt says,
    known inside the transaction that wrote it: the answer never reads after the commit."""

    slip: Submission
    round_number: int
    replaced_previous: bool
    again: bool  # a retry of an attempt already stored: this is the original slip

    def receipt(self) -> dict[str, object]:
        return {
            "id": self.slip.pk,
            "round": self.round_number,
            "word": self.slip.word,
            "ref": self.slip.ref,
            "score": self.slip.announced_score,
            "received_at": self.slip.received_at,
            "replaced_previous": self.replaced_previous,
        }


@transaction.atomic
def slip_hand_in(
    *,
    player: Player,
    round: Round,
    word: str,
    ref: str,
    score: int | None,
    source: str = Submission.Source.PHONE,
    at: datetime | None = None,
    attempt: str = "",
) -> Handed:
    """A player's slip (phone, API), with the receipt its answer carries. With ``attempt`` (the
    phone's identity for the slip, the same on every retry) a retry of a slip already stored
    is answered with that slip, whenever it comes: never a second slip, never "deadline
    passed" for a slip that counts."""
    return _slip_submit(
        player=player,
        round=round,
        word=word,
        ref=ref,
        score=score,
        source=source,
        at=at,
        attempt=attempt,
    )


def _attempt_again(
    *,
    round: Round,
    stored: Submission | None,
    word: str,
    ref: str,
    score: int | None,
) -> Handed | None:
    """``stored``, the slip already stored for this attempt (read under the player's lock), as
    this retry's answer; a different slip under the same identity is refused."""
    if stored is None:
        return None
    if (stored.word, stored.ref, stored.announced_score) != (
        word.strip(),
        ref.strip().upper(),
        score,
    ):
        raise SlipRefused(
            _(
                "This slip carries the identity of another slip already received for round "
                "%(round)s (%(slip)s): send it as a new slip."
            )
            % {"round": round.number, "slip": f"{stored.ref or '-'} {stored.word}"},
            code="attempt_reused",
        )
    earlier = Submission.objects.filter(
        round_id=round.pk, player_id=stored.player_id, pk__lt=stored.pk
    ).exists()
    stored.round = round
    return Handed(slip=stored, round_number=round.number, replaced_previous=earlier, again=True)


def _current_and_attempt(
    round: Round, player: Player, attempt: str
) -> tuple[Submission | None, Submission | None]:
    """The player's current slip for the round and the one stored for ``attempt``, in one
    query (this runs for every slip of a room handing in at the deadline)."""
    if attempt:
        rows = _CURRENT_OR_ATTEMPT.all(round=round.pk, player=player.pk, attempt=attempt)
    else:
        rows = _CURRENT.all(round=round.pk, player=player.pk)
    current = next((row for row in rows if row.is_current), None)
    stored = next((row for row in rows if attempt and row.attempt == attempt), None)
    return current, stored


def _slip_submit(
    *,
    player: Player,
    round: Round,
    word: str,
    ref: str,
    score: int | None,
    source: str = Submission.Source.PHONE,
    at: datetime | None = None,
    entered_by: User | None = None,
    late: bool = False,
    existing: Existing | None = None,
    attempt: str = "",
    fallacious: bool = False,
) -> Handed:
    """Record a slip; the player's earlier slip for the round stays, no longer current.

    A player's slip (phone, API) counts when it arrived before the deadline plus the grace;
    a later one replaces it. An arbiter's entry counts from the opening until the round is
    published, on time unless the arbiter marks it late; when the player already has a slip,
    the arbiter says what the entry is (``existing``: a correction, or several slips handed in)
    - never a silent replacement. A slip recorded once the round is scored is ruled at once.

    The round is locked first (``round_share_lock``): a slip and the round's close are
    serialised, so every slip recorded here is ruled (by the scoring, or at once when the
    round is already scored), while the slips of a room still run side by side.
    """
    at = at or timezone.now()
    round_share_lock(round.pk)
    round = _ROUND_READ.get(pk=round.pk)
    # One slip at a time per player (locked). Only the columns used here are read: this runs
    # for every slip of a room handing in at the deadline.
    player = _PLAYER_LOCKED.get(pk=player.pk)
    event = round.game.event
    current, stored = _current_and_attempt(round, player, attempt)
    again = _attempt_again(round=round, stored=stored, word=word, ref=ref, score=score)
    if again is not None:  # a retry: the slip was stored (and counts) when it first came
        return again
    if player.event_id != event.pk:
        raise SlipRefused(
            _("%(player)s is not registered in %(event)s.")
            % {"player": player.name, "event": event.name},
            code="not_your_event",
        )
    _check_taken(event, player)
    _check_still_in(round, player)
    arbiter = source == Submission.Source.ARBITER
    if arbiter:
        _check_arbiter_entry(round, entered_by)
    else:
        _check_phone_slip(round, player, at, late)
    word, ref = clean_entry(word, ref, score)
    if arbiter and current is not None and existing is None:
        raise SlipRefused(
            _(
                "%(player)s already has a slip for round %(round)s (%(slip)s, %(source)s): say "
                "whether this entry corrects it or whether several slips were handed in."
            )
            % {
                "player": player.name,
                "round": round.number,
                "slip": f"{current.ref or '-'} {current.word} {current.announced_score}",
                "source": current.get_source_display().lower(),
            },
            code="slip_exists",
            data={"existing": _current_json(current)},
        )
    slip = slip_record(
        round=round,
        player=player,
        word=word,
        ref=ref,
        score=score,
        at=at,
        source=source,
        entered_by=entered_by,
        late=late,
        multiple=arbiter and current is not None and existing is Existing.MULTIPLE,
        # Two slips from one phone handled out of order: the one that arrived last stands.
        current=arbiter or current is None or current.received_at <= at,
        replaces=current is not None,
        attempt=attempt,
        fallacious=fallacious,
    )
    if arbiter:
        audit_record(
            event=event,
            game=round.game,
            round=round,
            action="arbiter.slip.entered",
            actor=entered_by,
            data={
                "player": player.pk,
                "table": player.table,
                "word": word,
                "ref": ref,
                "score": score,
                "late": late,
                "existing": None if current is None else str(existing),
                "replaced": None if current is None else _current_json(current),
                "round_status": round.status,
            },
        )
    if round.status == Round.Status.SCORED:
        scored = Round.objects.select_related("game__event").get(pk=round.pk)
        player_rule(round=scored, player=player, now=timezone.now())
    # The player's phone lists it as soon as it is stored (web.live): what play_slips says of it.
    change_announce(
        event_id=event.pk,
        what=SLIP,
        player_id=player.pk,
        data=slip_listed(slip, round_number=round.number, round_status=round.status),
    )
    return Handed(
        slip=slip, round_number=round.number, replaced_previous=current is not None, again=False
    )


@transaction.atomic
def slip_check(
    *,
    player: Player,
    round: Round,
    word: str,
    ref: str,
    score: int | None,
    checked_by: User,
) -> bool:
    """Double arbitration: a second arbiter enters the same paper slip again. Nothing is
    replaced; the entry is compared with the player's current slip and a disagreement is
    flagged (audited) for the director. True when both entries agree."""
    round = Round.objects.select_related("game__event").get(pk=round.pk)
    current = unique_or_none(Submission.objects.filter(round=round, player=player, is_current=True))
    second = {"word": word.strip(), "ref": ref.strip().upper(), "score": score}
    first = (
        None
        if current is None
        else {"word": current.word, "ref": current.ref, "score": current.announced_score}
    )
    agree = first == second
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action="arbiter.slip.checked",
        actor=checked_by,
        data={
            "player": player.pk,
            "name": player.name,
            "table": player.table,
            "agree": agree,
            "first": first,
            "second": second,
        },
    )
    return agree
