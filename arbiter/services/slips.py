"""Slips: a player's word, grid reference and announced score for the open round.

A slip is accepted only from a player registered in the round's event, for the open round,
before the deadline plus the grace on the server clock. A newer slip replaces the older one
(both are kept, the newer is current). An arbiter may enter a slip for a player (paper events)
while the round is open or closed, marked as such. Every refusal says why.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from arbiter.state import board_of
from engine.errors import EngineError, NotationError
from engine.move import Move
from engine.notation import parse_ref, parse_word
from engine.tiles import BLANK, sort_tiles
from tournament.errors import ApplicationError
from tournament.models import Player, Round, Submission
from tournament.services.audit import audit_record

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
    "game__event__name",
    "game__event__grace_seconds",
)


class SlipRefused(ApplicationError):
    """A slip that is not accepted; the message says why."""


def _clean(round: Round, word: str, ref: str, score: int | None) -> tuple[str, str]:
    try:
        word = parse_word(word)
    except EngineError as exc:
        raise SlipRefused(f"Malformed word: {exc}.", data={"code": "malformed_word"}) from None
    ref = ref.strip().upper()
    if ref:
        try:
            parse_ref(ref)
        except NotationError as exc:
            raise SlipRefused(
                f"Malformed reference: {exc}.", data={"code": "malformed_reference"}
            ) from None
        except EngineError as exc:
            raise SlipRefused(
                f"Reference off the board: {exc}.", data={"code": "malformed_reference"}
            ) from None
    if score is not None and not 0 <= score <= 9999:
        raise SlipRefused(
            "The announced score is a whole number from 0 upwards.",
            data={"code": "malformed_score"},
        )
    _check_rack(round, word, ref)
    return word, ref


def _check_rack(round: Round, word: str, ref: str) -> None:
    """Refuse at once a slip whose new tiles are not on the rack (the player can still fix it).
    Only when the word can be placed at its reference; otherwise the ruling will say why."""
    board = board_of(round.game)
    if board.is_empty:
        needed = word
    elif ref:
        move = Move.from_ref(ref, word)
        if not move.fits or any(
            board[r, c] and board[r, c].upper() != ch.upper() for r, c, ch in move.squares()
        ):
            return
        needed = "".join(ch for _, _, ch in board.placed_by(move))
    else:
        return
    tiles = Counter(BLANK if ch.islower() else ch for ch in needed)
    missing = tiles - Counter(round.rack)
    if missing:
        letters = [t for t in sort_tiles("".join(t * n for t, n in missing.items())) if t != BLANK]
        blanks = missing[BLANK]
        shown = ", ".join(
            letters + ([f"{blanks} blank{'s' if blanks > 1 else ''}"] if blanks else [])
        )
        raise SlipRefused(
            f"Rack letters missing: {word} needs {shown}, not on the rack {round.rack} "
            "(write a blank in lower case).",
            data={"code": "rack_letters_missing"},
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
) -> Submission:
    """Record a slip; the player's earlier slip for the round stays, no longer current."""
    at = at or timezone.now()
    # One slip at a time per player. Only the columns used here are read: this runs for every
    # slip of a room handing in at the deadline.
    player = (
        Player.objects.select_for_update()
        .only("pk", "event_id", "name", "table", "token_revoked_at")
        .get(pk=player.pk)
    )
    round = Round.objects.select_related("game__event").only(*_ROUND_COLUMNS).get(pk=round.pk)
    event = round.game.event
    if player.event_id != event.pk:
        raise SlipRefused(
            f"{player.name} is not registered in {event.name}.", data={"code": "not_your_event"}
        )
    if source == Submission.Source.ARBITER:
        if entered_by is None:
            raise SlipRefused(
                "A slip entered by an arbiter says who entered it.", data={"code": "no_arbiter"}
            )
        if round.status not in (Round.Status.OPEN, Round.Status.CLOSED):
            raise SlipRefused(
                f"Round {round.number} is {round.status}: "
                "slips are entered while it is open or closed.",
                data={"code": "round_not_open"},
            )
    else:
        if late:
            raise SlipRefused("Only an arbiter marks a slip late.", data={"code": "not_an_arbiter"})
        if not player.token_is_active:
            raise SlipRefused(
                "This player's access has been revoked: ask the director.", data={"code": "revoked"}
            )
        if round.status != Round.Status.OPEN:
            raise SlipRefused(
                f"Round {round.number} is not open (it is {round.status}).",
                data={"code": "round_not_open"},
            )
        grace = timedelta(seconds=event.grace_seconds)
        if not round.accepts_slips(at=at, grace=grace):
            assert round.deadline is not None
            raise SlipRefused(
                f"The deadline has passed: round {round.number} "
                f"closed at {round.deadline:%H:%M:%S} "
                f"and this slip arrived at {at:%H:%M:%S} (server time).",
                data={"code": "deadline_passed"},
            )
    word, ref = _clean(round, word, ref, score)
    Submission.objects.filter(round=round, player=player, is_current=True).update(is_current=False)
    slip = Submission.objects.create(
        round=round,
        player=player,
        word=word,
        ref=ref,
        announced_score=score,
        received_at=at,
        source=source,
        entered_by=entered_by,
        is_current=True,
        late=late,
    )
    if source == Submission.Source.ARBITER:
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
            },
        )
    return slip


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
    current = Submission.objects.filter(round=round, player=player, is_current=True).first()
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
