"""Training on a finished game (rules.md, "Training"): a player replays its rounds alone.

Each slip is ruled by the round's own judge (``judge_for``: the board the round was played on,
its rack, the event's word list, tiles and policy, the tops and score counts of the room), so
the same slip gets the same ruling it got (or would have got) in the room. A slip is late when
it comes after the attempt's clock for the round plus the event's grace, and is ruled "late"
as the room's would be. Nothing here writes a room's slip, ruling or standings, nor the audit
log (a training is not a director's action, and the room's pages do not follow it).

Modes: ``replay``, one slip per round as in the room; ``topping`` (FISF 2023 3.8.4, after
Eliot's), tries until one is a move worth the top; the round scores the seconds it took, and a
round whose time runs out scores its time plus ``TOPPING_TIMEOUT_PENALTY``, 3.8.4's 20 s: « Si
la solution n'est pas trouvée dans le temps imparti (généralement, une minute par coup), elle
est donnée au joueur moyennant une pénalité de 20 secondes. » Its time is a minute a round
(``TOPPING_SECONDS``) unless the player chooses another.

Claims: a round ends once (a conditional UPDATE on ``round_started_at``); a second request for
the same round (a double tap, the clock's own timeout) finds nothing to claim and changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils.translation import gettext as _

from arbiter.rules import PLACED_CODES, Ruled, Slip
from arbiter.services.rulings import judge_for
from arbiter.services.slips import clean_entry
from tournament.errors import ApplicationError
from tournament.models import Game, Round, TrainingAttempt, TrainingSlip
from tournament.selectors import round_last_published
from tournament.services.audit import audit_record
from tournament.vocabulary import slips_end

# FISF 2023 3.8.4: the top not found in the time given is given with a 20-second penalty; the
# time given is « généralement, une minute par coup ».
TOPPING_TIMEOUT_PENALTY = 20
TOPPING_SECONDS = 60
ROUND_SECONDS_MIN, ROUND_SECONDS_MAX = 10, 3600


class TrainingRefused(ApplicationError):
    """A training request that cannot be done; the message says why."""


def training_rounds(game: Game) -> list[Round]:
    """The rounds a training replays: the game's published ones, in order."""
    return list(
        Round.objects.filter(game=game, status=Round.Status.PUBLISHED)
        .select_related("game__event")
        .order_by("number")
    )


def _round_of(attempt: TrainingAttempt) -> Round:
    found = (
        Round.objects.filter(
            game_id=attempt.game_id, status=Round.Status.PUBLISHED, number=attempt.round_number
        )
        .select_related("game__event")
        .first()
    )
    if found is None:
        raise TrainingRefused(
            _("This game has no round %(number)s any more.") % {"number": attempt.round_number},
            code="training_round_gone",
        )
    return found


def training_start(
    *,
    game: Game,
    user: User | AnonymousUser | None,
    name: str,
    mode: str,
    round_seconds: int | None,
    now: datetime,
) -> TrainingAttempt:
    """A new attempt at ``game``, its first round's clock running from ``now``."""
    if not game.is_open_for_training:
        raise TrainingRefused(_("This game is not open for training."), code="training_closed")
    if mode not in TrainingAttempt.Mode.values:
        raise TrainingRefused(
            _("Unknown training mode %(mode)s.") % {"mode": mode}, code="training_mode"
        )
    if round_seconds is not None:
        seconds = round_seconds
    elif mode == TrainingAttempt.Mode.TOPPING:
        seconds = TOPPING_SECONDS
    else:
        seconds = game.event.round_seconds
    if not ROUND_SECONDS_MIN <= seconds <= ROUND_SECONDS_MAX:
        raise TrainingRefused(
            _("The time per round is from %(low)s to %(high)s seconds.")
            % {"low": ROUND_SECONDS_MIN, "high": ROUND_SECONDS_MAX},
            code="training_seconds",
        )
    if not training_rounds(game):
        raise TrainingRefused(
            _("This game has no published round to replay."), code="training_empty"
        )
    return TrainingAttempt.objects.create(
        game=game,
        user=user if isinstance(user, User) else None,
        name=name.strip()[:120],
        mode=mode,
        round_seconds=seconds,
        started_at=now,
        round_number=1,
        round_started_at=now,
    )


@dataclass(frozen=True)
class TrainingOutcome:
    slip: TrainingSlip
    round_over: bool


def _late(attempt: TrainingAttempt, round: Round, now: datetime) -> bool:
    deadline = attempt.deadline()
    assert deadline is not None
    return now > slips_end(deadline=deadline, grace=round.game.event.grace)


def _claim_round_end(attempt: TrainingAttempt, now: datetime) -> bool:
    """The round in play ends: True for the one request that ended it."""
    claimed = TrainingAttempt.objects.filter(
        pk=attempt.pk,
        round_number=attempt.round_number,
        round_started_at=attempt.round_started_at,
        finished_at__isnull=True,
    ).update(round_started_at=None)
    if claimed:
        attempt.round_started_at = None
    return bool(claimed)


def _slip_row(
    attempt: TrainingAttempt,
    ruled: Ruled,
    *,
    slip: Slip | None,
    now: datetime,
    elapsed: float,
    counts: bool,
    topping_seconds: int | None = None,
) -> TrainingSlip:
    return TrainingSlip.objects.create(
        attempt=attempt,
        round_number=attempt.round_number,
        word="" if slip is None else slip.word,
        ref="" if slip is None else slip.ref,
        announced_score=None if slip is None else slip.announced,
        received_at=now,
        elapsed=elapsed,
        late=bool(slip and slip.late),
        counts=counts,
        code=ruled.code.value,
        reason=ruled.reason,
        move_score=ruled.move_score,
        points=ruled.points,
        penalty=ruled.penalty,
        warning=ruled.warning,
        rank=ruled.rank,
        found_top=ruled.found_top,
        topping_seconds=topping_seconds,
    )


def _in_play(attempt: TrainingAttempt) -> None:
    if attempt.is_finished:
        raise TrainingRefused(_("This training is over."), code="training_finished")
    if attempt.round_started_at is None:
        raise TrainingRefused(
            _("This round is over: go on to the next one."), code="training_round_over"
        )


def training_slip_submit(
    *, attempt: TrainingAttempt, word: str, ref: str, score: int | None, now: datetime
) -> TrainingOutcome:
    """One slip (replay) or one try (topping) for the round in play, ruled by the event's
    judge. A replay slip ends the round; a topping try ends it when it finds the top, or when
    it comes after the time."""
    with transaction.atomic():
        attempt = TrainingAttempt.objects.select_for_update().get(pk=attempt.pk)
        _in_play(attempt)
        word, ref = clean_entry(word, ref, score)
        round = _round_of(attempt)
        assert attempt.round_started_at is not None
        elapsed = max((now - attempt.round_started_at).total_seconds(), 0.0)
        late = _late(attempt, round, now)
        slip = Slip(word, ref, score, late=late)
        ruled = judge_for(round).rule(slip)
        if attempt.mode == TrainingAttempt.Mode.REPLAY:
            _claim_round_end(attempt, now)
            row = _slip_row(attempt, ruled, slip=slip, now=now, elapsed=elapsed, counts=True)
            return TrainingOutcome(row, True)
        found = ruled.found_top and ruled.code in PLACED_CODES
        if late:
            _claim_round_end(attempt, now)
            row = _slip_row(
                attempt,
                ruled,
                slip=slip,
                now=now,
                elapsed=elapsed,
                counts=True,
                topping_seconds=attempt.round_seconds + TOPPING_TIMEOUT_PENALTY,
            )
            return TrainingOutcome(row, True)
        if found:
            _claim_round_end(attempt, now)
            row = _slip_row(
                attempt,
                ruled,
                slip=slip,
                now=now,
                elapsed=elapsed,
                counts=True,
                topping_seconds=int(elapsed + 0.999),
            )
            return TrainingOutcome(row, True)
        row = _slip_row(attempt, ruled, slip=slip, now=now, elapsed=elapsed, counts=False)
        return TrainingOutcome(row, False)


def training_time_up(*, attempt: TrainingAttempt, now: datetime) -> TrainingSlip | None:
    """The round's clock ran out with no slip that ended it: ruled as the room rules no slip
    (replay), or the time and the penalty (topping). None when the time is not up yet or the
    round already ended."""
    with transaction.atomic():
        attempt = TrainingAttempt.objects.select_for_update().get(pk=attempt.pk)
        deadline = attempt.deadline()
        if deadline is None or now < deadline:
            return None
        round = _round_of(attempt)
        if not _claim_round_end(attempt, now):
            return None
        ruled = judge_for(round).rule(None)
        elapsed = float(attempt.round_seconds)
        topping = (
            attempt.round_seconds + TOPPING_TIMEOUT_PENALTY
            if attempt.mode == TrainingAttempt.Mode.TOPPING
            else None
        )
        return _slip_row(
            attempt,
            ruled,
            slip=None,
            now=now,
            elapsed=elapsed,
            counts=True,
            topping_seconds=topping,
        )


def training_next(*, attempt: TrainingAttempt, now: datetime) -> TrainingAttempt:
    """After a round's result: the next round's clock starts, or the attempt ends after the
    last round. Resuming an attempt whose round is still in play changes nothing."""
    with transaction.atomic():
        attempt = TrainingAttempt.objects.select_for_update().get(pk=attempt.pk)
        if attempt.is_finished or attempt.round_started_at is not None:
            return attempt
        last = round_last_published(game_id=attempt.game_id)
        if last is None or attempt.round_number >= last.number:
            attempt.finished_at = now
            attempt.save(update_fields=["finished_at"])
            return attempt
        attempt.round_number += 1
        attempt.round_started_at = now
        attempt.save(update_fields=["round_number", "round_started_at"])
        return attempt


def game_training_set(*, game: Game, open: bool, actor: User | AnonymousUser | None) -> Game:
    """A director opens (or closes) one game for training; audited."""
    with transaction.atomic():
        game.training_open = open
        game.save(update_fields=["training_open"])
        audit_record(
            event=game.event,
            action="tournament.game.training_opened" if open else "tournament.game.training_closed",
            actor=actor,
            game=game,
        )
    return game
