"""The audit log's actions in words, for the people who read the journal (the game's audit
page): one table keyed by the action's code, which stays what programs read (the API, the
data). An action without words here reads as its code; a new action is a line here and its
French in the catalogue."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

AUDIT_WORDS: dict[str, Promise] = {
    "arbiter.round.drawn": _("rack drawn"),
    "arbiter.rack.rejected": _("rack refused (the minimum of vowels and consonants)"),
    "arbiter.round.opened": _("clock started"),
    "arbiter.round.paused": _("clock stopped"),
    "arbiter.round.resumed": _("clock started again"),
    "arbiter.round.extended": _("time added"),
    "arbiter.round.closed": _("round closed"),
    "arbiter.round.closed_early": _("round closed early"),
    "arbiter.round.annulled": _("round annulled"),
    "arbiter.round.scored": _("slips ruled"),
    "arbiter.round.top_chosen": _("top chosen"),
    "arbiter.round.published": _("round published"),
    "arbiter.slip.entered": _("slip typed in by an arbiter"),
    "arbiter.slip.checked": _("slip typed a second time (double entry)"),
    "arbiter.slip.check_resolved": _("double entry settled"),
    "arbiter.ruling.amended": _("ruling amended"),
    "arbiter.ruling.slip_entered": _("slip added after publication"),
    "arbiter.discipline.warned": _("disciplinary warning"),
    "arbiter.discipline.withdrawn": _("disciplinary warning withdrawn"),
    "arbiter.game.finished": _("game over"),
    "arbiter.game.imported": _("game imported from Eliot"),
    "arbiter.room.results_imported": _("room's results imported"),
    "arbiter.room.round_received": _("a room's round received live (multiplex)"),
    "arbiter.multiplex.linked": _("linked to a multiplex host"),
    "arbiter.room.key_issued": _("room key issued (multiplex)"),
    "arbiter.room.key_revoked": _("room key revoked (multiplex)"),
    "tournament.game.created": _("game added"),
    "tournament.game.training_opened": _("game opened for training"),
    "tournament.game.training_closed": _("game closed for training"),
}


def audit_said(action: str) -> str:
    """The action in the reader's words, else its code."""
    words = AUDIT_WORDS.get(action)
    return action if words is None else str(words)
