"""The round lifecycle: draw (or type) the rack -> open -> closed at the deadline -> scored ->
published -> next rack; and the director's corrections: extend, pause, resume, close early,
annul, choose or override the top, amend a ruling.

Every function is keyword-only, atomic, audited (``arbiter.round.*``), and returns what it
changed. Tasks are sent only after commit. Concurrency is handled by claiming a row with a
conditional UPDATE (close, score): when nothing is updated another process got there first, and
the caller does nothing; every task can run twice, or after a crash, with the same result.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from arbiter.rules import RoundJudge, Slip, score_counts, solo_winner, warning_penalties
from arbiter.services.state import board_of, engine_game, lexicon_for, policy_for
from config.errors import ApplicationError
from engine.errors import EngineError, RackError, RackRejected
from engine.game import DuplicateGame, choose_top
from engine.move import Move
from engine.movegen import ScoredMove, generate
from engine.tiles import TileSet
from engine.validate import validate
from tournament.models import Event, Game, Player, Round, Ruling, Submission
from tournament.services.audit import audit_record

Actor = AbstractBaseUser | None
TOPS_KEPT = 20  # moves kept on the round for the console, beyond every move of the top score


def _later(fn: Callable[[], Any]) -> None:
    transaction.on_commit(fn)


def _schedule_close(round: Round) -> None:  # noqa: A002
    """The fast path: a task due when the round should close. The periodic sweep is the truth."""
    from arbiter import tasks

    assert round.deadline is not None
    due = round.deadline + timedelta(seconds=round.game.event.grace_seconds)
    round_id = round.pk
    _later(lambda: tasks.round_close.apply_async((round_id,), eta=due))


def _locked(round: Round) -> Round:  # noqa: A002
    return Round.objects.select_for_update().select_related("game__event").get(pk=round.pk)


def _require(round: Round, *statuses: str, action: str) -> None:  # noqa: A002
    if round.status not in statuses:
        allowed = " or ".join(statuses)
        raise ApplicationError(f"Round {round.number} is {round.status}: only a round that is {allowed} can be {action}.")


def _audit(round: Round, action: str, actor: Actor, **data: Any) -> None:  # noqa: A002
    audit_record(event=round.game.event, game=round.game, round=round, action=f"arbiter.round.{action}", actor=actor, data=data)


def _in_play(game: Game) -> Round | None:
    return game.rounds.filter(status__in=Round.IN_PLAY).first()


# -- the rack -----------------------------------------------------------------------------------


def _check_can_draw(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise ApplicationError(f"Game {game.number} is over: {game.end_reason or 'finished'}.")
    current = _in_play(game)
    if current is not None:
        raise ApplicationError(
            f"Round {current.number} is {current.status}: publish or annul it before drawing the next rack."
        )


def _game_over(game: Game, reason: str, actor: Actor) -> None:
    game.status = Game.Status.FINISHED
    game.end_reason = reason
    game.save(update_fields=["status", "end_reason"])
    audit_record(event=game.event, game=game, action="arbiter.game.finished", actor=actor, data={"reason": reason})


def _round_create(game: Game, *, number: int, rack: str, leftover: str, rejected: list[str], actor: Actor, how: str) -> Round:
    round = Round.objects.create(
        game=game, number=number, rack=rack, leftover=leftover, rejected=rejected, status=Round.Status.DRAWN
    )
    game.pending_rejected = []
    if game.status == Game.Status.SETUP:
        game.status = Game.Status.RUNNING
    game.save(update_fields=["pending_rejected", "status"])
    audit_record(
        event=game.event,
        game=game,
        round=round,
        action="arbiter.round.drawn",
        actor=actor,
        data={"number": number, "rack": rack, "leftover": leftover, "rejected": rejected, "how": how},
    )
    return round


@transaction.atomic
def round_draw(*, game: Game, actor: Actor) -> Round | None:
    """Draw the next rack at random (seeded by the game) or take it from the pre-drawn game.
    None when the game is over (no rack can meet the minimum, or the bag is empty)."""
    game = Game.objects.select_for_update().select_related("event").get(pk=game.pk)
    if game.source == Game.Source.MANUAL:
        raise ApplicationError(f"Game {game.number}'s racks are typed in from the bag: enter the rack instead.")
    _check_can_draw(game)
    state = engine_game(game)
    number = state.round_number
    if game.source == Game.Source.PREDRAWN:
        return _predrawn_round(game, state, number, actor)
    reason = state.exhausted()
    if reason is not None:
        _game_over(game, reason, actor)
        return None
    redraw = game.rounds.filter(number=number, status=Round.Status.ANNULLED).count()
    drawn = state.draw(redraw=redraw)
    if drawn is None:
        _game_over(game, state.end_reason, actor)
        return None
    return _round_create(
        game, number=number, rack=drawn.rack, leftover=drawn.leftover, rejected=list(drawn.rejected), actor=actor, how="random"
    )


def _offer_rejected(state: DuplicateGame, racks: list[str]) -> None:
    """Replay the racks already refused this round: their tiles went back to the bag."""
    for rack in racks:
        with contextlib.suppress(RackRejected):
            state.offer_rack(rack)


def _predrawn_round(game: Game, state: DuplicateGame, number: int, actor: Actor) -> Round | None:
    document = game.predrawn or {}
    rounds = document.get("rounds", [])
    if number > len(rounds):
        _game_over(game, str(document.get("end") or "the pre-drawn game has no more rounds"), actor)
        return None
    planned = rounds[number - 1]
    try:
        _offer_rejected(state, planned.get("rejected", []))
        rack = state.offer_rack(planned["rack"])
    except (EngineError, KeyError) as exc:
        raise ApplicationError(f"Round {number} of the pre-drawn game cannot be drawn here: {exc}") from None
    return _round_create(
        game,
        number=number,
        rack=rack,
        leftover=state.leftover,
        rejected=list(planned.get("rejected", [])),
        actor=actor,
        how="predrawn",
    )


@dataclass(frozen=True)
class RackEntry:
    round: Round | None
    refused: str  # why the typed rack was refused ("" when accepted)


def round_rack_enter(*, game: Game, rack: str, actor: Actor) -> Round:
    """A rack drawn from a physical bag and typed in. A rack that breaks the minimum is
    recorded as rejected (its tiles and the leftover go back to the bag) and refused with the
    reason; the next rack typed is then seven fresh tiles."""
    entry = _rack_enter(game=game, rack=rack, actor=actor)
    if entry.round is None:
        raise ApplicationError(entry.refused)
    return entry.round


@transaction.atomic
def _rack_enter(*, game: Game, rack: str, actor: Actor) -> RackEntry:
    game = Game.objects.select_for_update().select_related("event").get(pk=game.pk)
    _check_can_draw(game)
    if game.source != Game.Source.MANUAL:
        raise ApplicationError(f"Game {game.number} draws its racks itself ({game.get_source_display().lower()}).")
    state = engine_game(game)
    reason = state.exhausted()
    if reason is not None:
        _game_over(game, reason, actor)
        return RackEntry(None, f"Game {game.number} is over: {reason}.")
    _offer_rejected(state, game.pending_rejected)
    try:
        accepted = state.offer_rack(rack)
    except RackRejected as exc:
        typed = TileSet.load(game.tile_set).parse_rack(rack)
        game.pending_rejected = [*game.pending_rejected, typed]
        game.save(update_fields=["pending_rejected"])
        audit_record(event=game.event, game=game, action="arbiter.rack.rejected", actor=actor, data={"rack": typed, "reason": str(exc)})
        return RackEntry(None, f"{exc}. Put the whole rack back in the bag and draw seven tiles again.")
    except (RackError, EngineError) as exc:
        raise ApplicationError(f"Rack {rack!r} cannot be entered: {exc}") from None
    return RackEntry(
        _round_create(
            game,
            number=state.round_number,
            rack=accepted,
            leftover=state.leftover,
            rejected=list(game.pending_rejected),
            actor=actor,
            how="typed",
        ),
        "",
    )


# -- the clock ----------------------------------------------------------------------------------


@transaction.atomic
def round_open(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:  # noqa: A002
    """Start the clock: deadline = now + the event's round time. The tops are computed in the
    background meanwhile, and a task is due at the deadline (plus grace) to close the round."""
    from arbiter import tasks

    now = now or timezone.now()
    round = _locked(round)
    _require(round, Round.Status.DRAWN, action="opened")
    event = round.game.event
    round.status = Round.Status.OPEN
    round.opened_at = now
    round.deadline = now + timedelta(seconds=event.round_seconds)
    round.save(update_fields=["status", "opened_at", "deadline"])
    _audit(round, "opened", actor, deadline=round.deadline.isoformat())
    round_id = round.pk
    _later(lambda: tasks.round_tops_compute.delay(round_id))
    _schedule_close(round)
    return round


@transaction.atomic
def round_extend(*, round: Round, seconds: int, actor: Actor) -> Round:  # noqa: A002
    if seconds <= 0:
        raise ApplicationError("An extension is a positive number of seconds.")
    round = _locked(round)
    _require(round, Round.Status.OPEN, action="extended")
    assert round.deadline is not None
    if round.paused_remaining is not None:
        round.paused_remaining += timedelta(seconds=seconds)
    round.deadline += timedelta(seconds=seconds)
    round.save(update_fields=["deadline", "paused_remaining"])
    _audit(round, "extended", actor, seconds=seconds, deadline=round.deadline.isoformat())
    if round.paused_remaining is None:
        _schedule_close(round)
    return round


@transaction.atomic
def round_pause(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:  # noqa: A002
    now = now or timezone.now()
    round = _locked(round)
    _require(round, Round.Status.OPEN, action="paused")
    if round.paused_remaining is not None:
        raise ApplicationError(f"Round {round.number} is already paused.")
    assert round.deadline is not None
    if round.deadline <= now:
        raise ApplicationError(f"Round {round.number}'s deadline has passed: it can no longer be paused.")
    round.paused_remaining = round.deadline - now
    round.save(update_fields=["paused_remaining"])
    _audit(round, "paused", actor, remaining_seconds=round.paused_remaining.total_seconds())
    return round


@transaction.atomic
def round_resume(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:  # noqa: A002
    now = now or timezone.now()
    round = _locked(round)
    _require(round, Round.Status.OPEN, action="resumed")
    if round.paused_remaining is None:
        raise ApplicationError(f"Round {round.number} is not paused.")
    round.deadline = now + round.paused_remaining
    round.paused_remaining = None
    round.save(update_fields=["deadline", "paused_remaining"])
    _audit(round, "resumed", actor, deadline=round.deadline.isoformat())
    _schedule_close(round)
    return round


@transaction.atomic
def round_close_early(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:  # noqa: A002
    """Stop the clock now; slips already on their way (within the grace) still count."""
    now = now or timezone.now()
    round = _locked(round)
    _require(round, Round.Status.OPEN, action="closed early")
    round.deadline = now
    round.paused_remaining = None
    round.save(update_fields=["deadline", "paused_remaining"])
    _audit(round, "closed_early", actor, deadline=now.isoformat())
    _schedule_close(round)
    return round


def round_close(*, round_id: int, now: datetime | None = None) -> bool:
    """Close the round if its deadline plus grace has passed (and it is not paused). Claimed by
    a conditional UPDATE: False when it was not due, or another process closed it first."""
    from arbiter import tasks

    now = now or timezone.now()
    round = Round.objects.select_related("game__event").filter(pk=round_id).first()
    if round is None:
        return False
    grace = timedelta(seconds=round.game.event.grace_seconds)
    with transaction.atomic():
        claimed = Round.objects.filter(
            pk=round_id, status=Round.Status.OPEN, paused_remaining__isnull=True, deadline__lte=now - grace
        ).update(status=Round.Status.CLOSED, closed_at=now)
        if not claimed:
            return False
        _audit(round, "closed", None, at=now.isoformat())
        _later(lambda: tasks.round_score.delay(round_id))
    return True


# -- the tops and the rulings -------------------------------------------------------------------


def _move_json(m: ScoredMove) -> dict[str, Any]:
    return {"ref": m.ref, "word": m.word, "score": m.score, "used": m.used}


def round_tops_compute(*, round_id: int, now: datetime | None = None) -> bool:
    """Every legal move for the round's rack: the tops (every move of the top score, and the
    next best for the console) and how many moves score what (for ranks). Idempotent."""
    round = Round.objects.select_related("game").filter(pk=round_id).first()
    if round is None or round.tops_ready_at is not None:
        return False
    game = round.game
    moves = generate(board_of(game), round.rack, lexicon_for(game.lexicon), TileSet.load(game.tile_set))
    best = moves[0].score if moves else 0
    kept = [m for i, m in enumerate(moves) if m.score == best or i < TOPS_KEPT]
    counts = score_counts(m.score for m in moves)
    return bool(
        Round.objects.filter(pk=round_id, tops_ready_at__isnull=True).update(
            tops=[_move_json(m) for m in kept],
            score_counts={str(score): n for score, n in counts.items()},
            moves_total=len(moves),
            tops_ready_at=now or timezone.now(),
        )
    )


def _tops(round: Round) -> list[ScoredMove]:  # noqa: A002
    return [ScoredMove(Move.from_ref(t["ref"], t["word"]), t["score"], t["used"]) for t in round.tops]


def round_score(*, round_id: int, now: datetime | None = None) -> Round | None:
    """Rule every registered player's slip (or its absence), give the solo, choose the top to
    play. Claimed by a conditional UPDATE (closed -> scored) in the same transaction as the
    rulings, so a crash leaves the round closed for the sweep, and a second run does nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        claimed = Round.objects.filter(pk=round_id, status=Round.Status.CLOSED).update(status=Round.Status.SCORED, scored_at=now)
        if not claimed:
            return None
        round = Round.objects.select_related("game__event").get(pk=round_id)
        if round.tops_ready_at is None:
            round_tops_compute(round_id=round_id, now=now)
            round.refresh_from_db()
        game = round.game
        event = game.event
        judge = RoundJudge(
            board=board_of(game),
            rack=round.rack,
            lexicon=lexicon_for(game.lexicon),
            tiles=TileSet.load(game.tile_set),
            round_number=round.number,
            top_score=round.tops[0]["score"] if round.tops else 0,
            score_counts={int(s): n for s, n in round.score_counts.items()},
            policy=policy_for(event),
        )
        rulings = _rule_all(round, event, judge, now)
        Ruling.objects.filter(round=round).delete()
        Ruling.objects.bulk_create(rulings, batch_size=500)
        if not round.played_word and round.tops:
            top = choose_top(_tops(round), round.rack, TileSet.load(game.tile_set))
            round.played_ref, round.played_word, round.played_score = top.ref, top.word, top.score
            round.played_by = Round.PlayedBy.ENGINE
            round.save(update_fields=["played_ref", "played_word", "played_score", "played_by"])
        codes: dict[str, int] = {}
        for r in rulings:
            codes[r.code] = codes.get(r.code, 0) + 1
        audit_record(event=event, game=game, round=round, action="arbiter.round.scored", data={"rulings": codes, "top": round.played_word})
    return round


def _rule_all(round: Round, event: Event, judge: RoundJudge, now: datetime) -> list[Ruling]:  # noqa: A002
    policy = judge.policy
    players = list(Player.objects.filter(event=event).only("pk"))
    slips = {s.player_id: s for s in Submission.objects.filter(round=round, is_current=True)}
    warnings_before = dict(
        Ruling.objects.filter(round__game=round.game, round__number__lt=round.number, warning=True)
        .exclude(round__status=Round.Status.ANNULLED)
        .values_list("player")
        .annotate(n=Count("pk"))
    )
    rulings: list[Ruling] = []
    for player in players:
        slip = slips.get(player.pk)
        ruled = judge.rule(None if slip is None else Slip(slip.word, slip.ref, slip.announced_score, slip.late))
        extra = warning_penalties(warnings_before.get(player.pk, 0), ruled.warning, policy)
        reason = ruled.reason + (f"; warning beyond the {policy.warnings_free} free ones: -{extra}" if extra else "")
        rulings.append(
            Ruling(
                round=round,
                player_id=player.pk,
                submission=slip,
                code=ruled.code.value,
                reason=reason,
                move_score=ruled.move_score,
                points=ruled.points,
                warning=ruled.warning,
                penalty=ruled.penalty + extra,
                rank=ruled.rank,
                found_top=ruled.found_top,
                ruled_at=now,
            )
        )
    solo = solo_winner([r.player_id for r in rulings if r.found_top], len(players), policy)
    for r in rulings:
        if r.player_id == solo:
            r.solo = policy.solo_bonus
            r.reason += f"; the only player to find the top: +{policy.solo_bonus} (solo)"
    return rulings


# -- publishing and corrections -----------------------------------------------------------------


@transaction.atomic
def round_publish(*, round: Round, actor: Actor, now: datetime | None = None) -> Round:  # noqa: A002
    """Place the chosen top on everyone's board; the next rack may then be drawn."""
    now = now or timezone.now()
    round = _locked(round)
    _require(round, Round.Status.SCORED, action="published")
    game = Game.objects.select_for_update().select_related("event").get(pk=round.game_id)
    board = board_of(game)
    if round.played_word:
        move = Move.from_ref(round.played_ref, round.played_word)
        verdict = validate(board, move, rack=round.rack, lexicon=lexicon_for(game.lexicon), tiles=TileSet.load(game.tile_set))
        if not verdict.valid:
            raise ApplicationError(f"The top to play, {move}, is not valid: {verdict.problems[0].message}.")
        board.play(move)
        game.board = board.to_lines()
        game.save(update_fields=["board"])
    round.status = Round.Status.PUBLISHED
    round.published_at = now
    round.save(update_fields=["status", "published_at"])
    audit_record(event=game.event, game=game, round=round, action="arbiter.round.published", actor=actor, data={"ref": round.played_ref, "word": round.played_word, "score": round.played_score})
    if not round.played_word:
        _game_over(game, f"no move is possible with the rack {round.rack}", actor)
    else:
        reason = engine_game(game).exhausted()
        if reason is not None:
            _game_over(game, reason, actor)
    return round


@transaction.atomic
def round_top_choose(*, round: Round, ref: str, word: str, actor: Actor) -> Round:  # noqa: A002
    """The director's choice of the move to play: another of the equal tops, or an override
    with any legal move (said so in the audit log)."""
    round = _locked(round)
    _require(round, Round.Status.CLOSED, Round.Status.SCORED, action="given another top")
    game = round.game
    try:
        move = Move.from_ref(ref, word)
    except EngineError as exc:
        raise ApplicationError(f"That move cannot be read: {exc}") from None
    verdict = validate(board_of(game), move, rack=round.rack, lexicon=lexicon_for(game.lexicon), tiles=TileSet.load(game.tile_set))
    if not verdict.valid:
        raise ApplicationError(f"{move} cannot be played: {'; '.join(p.message for p in verdict.problems)}.")
    top_score = round.tops[0]["score"] if round.tops else verdict.score
    round.played_ref, round.played_word, round.played_score = move.ref, move.word, verdict.score
    round.played_by = Round.PlayedBy.DIRECTOR
    round.save(update_fields=["played_ref", "played_word", "played_score", "played_by"])
    kind = "equal top" if verdict.score == top_score else "override"
    audit_record(event=game.event, game=game, round=round, action="arbiter.round.top_chosen", actor=actor, data={"ref": move.ref, "word": move.word, "score": verdict.score, "kind": kind})
    return round


@transaction.atomic
def round_annul(*, round: Round, reason: str, actor: Actor) -> Round:  # noqa: A002
    """Annul a round still in play: its rack goes back, its slips and rulings are kept for the
    record but count for nothing, and the round may be drawn again (a new rack)."""
    if not reason.strip():
        raise ApplicationError("Say why the round is annulled.")
    round = _locked(round)
    _require(round, *Round.IN_PLAY, action="annulled")
    round.status = Round.Status.ANNULLED
    round.save(update_fields=["status"])
    _audit(round, "annulled", actor, reason=reason)
    return round


@transaction.atomic
def ruling_amend(*, ruling: Ruling, points: int, reason: str, actor: Actor, code: str | None = None, penalty: int | None = None) -> Ruling:
    """Change a ruling after scoring (before or after publication); standings follow."""
    if not reason.strip():
        raise ApplicationError("An amended ruling needs its reason.")
    if points < 0 or (penalty is not None and penalty < 0):
        raise ApplicationError("Points and penalties are not negative.")
    if code is not None and code not in Ruling.Code.values:
        raise ApplicationError(f"Unknown ruling {code!r}.")
    ruling = Ruling.objects.select_for_update().select_related("round__game__event").get(pk=ruling.pk)
    _require(ruling.round, Round.Status.SCORED, Round.Status.PUBLISHED, action="amended")
    if code is not None and (code == Ruling.Code.MISSING) != (ruling.submission_id is None):
        raise ApplicationError(
            "A player who handed in no slip keeps the ruling 'missing' (the points can still be changed)."
            if ruling.submission_id is None
            else "A player who handed in a slip cannot be ruled 'missing'."
        )
    before = {"code": ruling.code, "points": ruling.points, "penalty": ruling.penalty}
    ruling.points = points
    ruling.code = code or ruling.code
    if penalty is not None:
        ruling.penalty = penalty
    ruling.amended = True
    ruling.reason = f"{reason.strip()} (amended; was {before['code']}, {before['points']} points)"
    ruling.save(update_fields=["points", "code", "penalty", "amended", "reason"])
    round = ruling.round
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action="arbiter.ruling.amended",
        actor=actor,
        data={"player": ruling.player_id, "before": before, "after": {"code": ruling.code, "points": points, "penalty": ruling.penalty}, "reason": reason},
    )
    return ruling


def rounds_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The periodic safety net (the deadline in the database is the truth): close every
    overdue round, score every closed one, compute missing tops. Returns what it did."""
    now = now or timezone.now()
    closed = sum(round_close(round_id=pk, now=now) for pk in Round.objects.filter(status=Round.Status.OPEN, paused_remaining__isnull=True, deadline__lte=now).values_list("pk", flat=True))
    scored = sum(round_score(round_id=pk, now=now) is not None for pk in Round.objects.filter(status=Round.Status.CLOSED).values_list("pk", flat=True))
    tops = sum(round_tops_compute(round_id=pk, now=now) for pk in Round.objects.filter(Q(status=Round.Status.OPEN), tops_ready_at__isnull=True).values_list("pk", flat=True))
    return {"closed": closed, "scored": scored, "tops": tops}
