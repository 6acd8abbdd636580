"""The director's corrections: annul a round still in play; amend a ruling of any round of
the game (with a reason), or enter the slip of a player after publication."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext

from arbiter.rules import Article
from arbiter.services.common import (
    Actor,
    round_audit,
    round_locked,
    round_require,
)
from arbiter.services.rulings import player_rule, rulings_derive
from arbiter.services.slips import clean_entry, slip_record
from tournament.errors import ApplicationError
from tournament.models import Player, Round, Ruling, Submission
from tournament.models.choices import Rulebook
from tournament.models.slip import ruling_label
from tournament.selectors import unique_or_none
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.vocabulary import RulingCode


@transaction.atomic
def round_annul(*, round: Round, reason: str, actor: Actor) -> Round:
    """Annul a round still in play: its rack goes back, its slips and rulings are kept for the
    record but count for nothing, and the round may be drawn again (a new rack)."""
    if not reason.strip():
        raise ApplicationError(gettext("Say why the round is annulled."), code="reason_required")
    round = round_locked(round)
    round_require(round, *Round.IN_PLAY, action=gettext_noop("annulled"))
    round.status = Round.Status.ANNULLED
    round.save(update_fields=["status"])
    round_audit(round, "annulled", actor, reason=reason)
    return round


@transaction.atomic
def ruling_amend(
    *,
    ruling: Ruling,
    reason: str,
    actor: Actor,
    points: int | None = None,
    code: str | None = None,
    penalty: int | None = None,
    warning: bool | None = None,
    averaged: bool | None = None,
    late: bool | None = None,
    fallacious: bool | None = None,
    now: datetime | None = None,
) -> Ruling:
    """Amend a ruling of any scored or published round of the game, until the event is over
    (rules.md, rule 11): its points or code, a warning added or removed, the reference penalty
    set or removed, the round's average given for a second zero in a row (rule 10; FISF 2023
    5.9: only for a word not admitted), the slip marked late or its word a fallacious junction
    (FISF 2023 5.3.3, the arbiter's decision), or not: the slip is ruled again. What the
    game's rulings derive (found-top, solos, warnings' penalties, ranks, standings) follows
    for this round and every later one.
    Says why and who, in the ruling and in the audit log."""
    if not reason.strip():
        raise ApplicationError(
            gettext("An amended ruling needs its reason."), code="reason_required"
        )
    if (points is not None and points < 0) or (penalty is not None and penalty < 0):
        raise ApplicationError(
            gettext("Points and penalties are not negative."), code="negative_points"
        )
    if code is not None and code not in set(RulingCode):
        raise ApplicationError(
            gettext("Unknown ruling '%(code)s'.") % {"code": code}, code="unknown_ruling_code"
        )
    ruling = (
        Ruling.objects.select_for_update(of=("self",))
        .select_related("round__game__event", "submission", "player")
        .get(pk=ruling.pk)
    )
    round = ruling.round
    round_require(
        round, Round.Status.SCORED, Round.Status.PUBLISHED, action=gettext_noop("amended")
    )
    event_require_open(round.game.event)
    if code is not None and (code == RulingCode.MISSING) != (ruling.submission_id is None):
        raise ApplicationError(
            gettext(
                "A player who handed in no slip keeps the ruling 'missing': enter the slip instead."
            )
            if ruling.submission_id is None
            else gettext("A player who handed in a slip cannot be ruled 'missing'."),
            code="no_slip",
        )
    before = _facts(ruling)
    for flag, value in (("late", late), ("fallacious", fallacious)):
        slip = ruling.submission
        if value is None or value == (slip is not None and getattr(slip, flag)):
            continue
        if slip is None:
            raise ApplicationError(
                gettext("A player who handed in no slip has no slip to mark late.")
                if flag == "late"
                else gettext("A player who handed in no slip has no word to rule fallacious."),
                code="no_slip",
            )
        setattr(slip, flag, value)
        slip.save(update_fields=[flag])
        ruling = player_rule(round=round, player=ruling.player, now=now or timezone.now())
    if points is not None:
        ruling.points = points
    if code is not None:
        ruling.code = code
    if penalty is not None:
        ruling.penalty = penalty
    if warning is not None:
        ruling.warning = warning
    if averaged is not None:
        _average_allowed(ruling, averaged)
        ruling.averaged = averaged
    ruling.amended = True
    ruling.article = Article.AMENDED
    # Said in the event's language, as the reason it follows (whoever amends).
    with translation.override(round.game.event.language):
        ruling.reason = ngettext(
            "%(reason)s (amended; was %(code)s, %(points)s point)",
            "%(reason)s (amended; was %(code)s, %(points)s points)",
            int(str(before["points"])),
        ) % {
            "reason": reason.strip(),
            "code": str(ruling_label(str(before["code"]))).lower(),
            "points": before["points"],
        }
    ruling.save()
    rulings_derive(game=round.game, from_round=round.number)
    ruling.refresh_from_db()
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action="arbiter.ruling.amended",
        actor=actor,
        data={
            "player": ruling.player_id,
            "before": before,
            "after": _facts(ruling),
            "reason": reason,
        },
    )
    return ruling


@transaction.atomic
def ruling_slip_enter(
    *,
    round: Round,
    player: Player,
    word: str,
    ref: str,
    score: int | None,
    reason: str,
    actor: User,
    late: bool = False,
    now: datetime | None = None,
) -> Ruling:
    """An amendment: the slip of a player ruled "missing" (or a correction of the slip typed),
    entered after the round was published; the player is ruled again and what the game's
    rulings derive follows."""
    if not reason.strip():
        raise ApplicationError(
            gettext("An amended ruling needs its reason."), code="reason_required"
        )
    round = (
        Round.objects.select_for_update(of=("self",)).select_related("game__event").get(pk=round.pk)
    )
    round_require(
        round, Round.Status.PUBLISHED, action=gettext_noop("given a slip after publication")
    )
    event_require_open(round.game.event)
    old = unique_or_none(Ruling.objects.filter(round=round, player=player))
    before = None if old is None else _facts(old)
    word, ref = clean_entry(word, ref, score)
    slip_record(
        round=round,
        player=player,
        word=word,
        ref=ref,
        score=score,
        at=now or timezone.now(),
        source=Submission.Source.ARBITER,
        entered_by=actor,
        late=late,
    )
    ruling = player_rule(round=round, player=player, now=now or timezone.now())
    ruling.amended = True
    ruling.reason = f"{ruling.reason} ({reason.strip()}: slip entered after publication)"
    ruling.save(update_fields=["amended", "reason"])
    ruling.refresh_from_db()
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action="arbiter.ruling.slip_entered",
        actor=actor,
        data={
            "player": player.pk,
            "slip": {"word": word, "ref": ref, "score": score, "late": late},
            "before": before,
            "after": _facts(ruling),
            "reason": reason,
        },
    )
    return ruling


def _average_allowed(ruling: Ruling, averaged: bool) -> None:
    """FISF 2023, 5.9: the average replaces the zero of a word not admitted, played again (or
    formed again across) before the player was told; "cette compensation n'est jamais accordée
    au joueur qui répète une faute due à un mauvais placement de mot sur sa grille ou à
    l'utilisation d'une lettre absente du tirage annoncé". Under before-2023 the director gave
    it for any second zero (rule 10)."""
    event = ruling.round.game.event
    if not averaged or event.rulebook != Rulebook.FISF_2023:
        return
    if ruling.code != RulingCode.INVALID_WORD:
        raise ApplicationError(
            gettext(
                "The average is given only for a word not admitted played again (FISF 2023, "
                "5.9): this ruling is '%(code)s'."
            )
            % {"code": ruling_label(ruling.code)},
            code="average_not_allowed",
        )


def _facts(ruling: Ruling) -> dict[str, object]:
    return {
        "code": ruling.code,
        "points": ruling.points,
        "penalty": ruling.penalty,
        "warning": ruling.warning,
        "warning_penalty": ruling.warning_penalty,
        "averaged": ruling.averaged,
        "solo": ruling.solo,
    }
