"""Double entry of paper slips: a second arbiter types the same slips again (``slips.slip_check``
compares each with the first entry); a mismatch waits for a third look, where someone picks
the right entry. Picking the first changes no slip; picking the second records it as a
correction of the first (ruled at once when the round is scored). Either way the mismatch is
resolved, with an audit entry naming the check it closes."""

from __future__ import annotations

from typing import Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from arbiter.selectors.console import double_entry_mismatches
from arbiter.services.slips import Existing, SlipRefused, slip_submit
from tournament.models import Player, Round, Submission
from tournament.services.audit import audit_record

Kept = Literal["first", "second"]


@transaction.atomic
def slip_check_resolve(*, round: Round, check: int, kept: Kept, actor: User) -> Submission | None:
    """Close the open mismatch ``check`` (the id of its ``arbiter.slip.checked`` entry) of
    ``round`` by keeping the first entry or the second. Returns the slip recorded when the
    second is kept, else None."""
    round = Round.objects.select_for_update().select_related("game__event").get(pk=round.pk)
    if kept not in ("first", "second"):
        raise SlipRefused(
            gettext("Keep the first entry or the second, not %(kept)r.") % {"kept": kept},
            code="bad_kept",
        )
    mismatch = next((m for m in double_entry_mismatches(round=round) if m.check == check), None)
    if mismatch is None:
        raise SlipRefused(
            gettext(
                "No open double-entry mismatch %(check)s in round %(round)s: "
                "it may have been resolved already."
            )
            % {"check": check, "round": round.number},
            code="no_mismatch",
        )
    chosen = mismatch.first if kept == "first" else mismatch.second
    if chosen is None:
        raise SlipRefused(
            gettext("Table %(table)s has no first entry to keep: keep the second.")
            % {"table": mismatch.table},
            code="no_first_entry",
        )
    slip = None
    if kept == "second":
        player = Player.objects.get(pk=mismatch.player)
        slip = slip_submit(
            player=player,
            round=round,
            word=str(chosen["word"]),
            ref=str(chosen["ref"]),
            score=chosen["score"] if isinstance(chosen["score"], int) else None,
            source=Submission.Source.ARBITER,
            entered_by=actor,
            existing=Existing.CORRECTION,
        )
    audit_record(
        event=round.game.event,
        game=round.game,
        round=round,
        action="arbiter.slip.check_resolved",
        actor=actor,
        data={
            "check": check,
            "kept": kept,
            "player": mismatch.player,
            "table": mismatch.table,
            "slip": chosen,
        },
    )
    return slip
