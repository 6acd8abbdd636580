"""A round's judge: each slip sent to the rulebook of its event (``Policy.rulebook``).

The nullities come first whatever the rulebook (FISF 2023, 5.7: "absence de remise de bulletin",
"remise de plusieurs bulletins de jeu non vierges", "remise d'un bulletin de jeu écrit après la
fin du coup", a blank or unreadable slip); then ``fisf-2023`` rules the slip article by article
(``arbiter.rules.fisf2023``) and ``before-2023`` as events played before it were ruled
(``arbiter.rules.before2023``).
"""

from __future__ import annotations

from arbiter.reasons import error_text
from arbiter.rules.base import Ruled, Slip
from arbiter.rules.before2023 import Before2023
from arbiter.rules.fisf2023 import Fisf2023Judge
from arbiter.rules.rulebook import Article, Code, Fisf2023
from engine.errors import EngineError
from engine.notation import parse_word
from tournament.vocabulary import gettext_noop as _


class RoundJudge(Fisf2023Judge, Before2023):
    """Rules every slip of one round, by its event's rulebook (see ``JudgeBase`` for what it
    holds)."""

    def _rule(self, slip: Slip | None) -> Ruled:
        fisf_2023 = self.policy.fisf_2023
        nullity = Fisf2023.NULLITY if fisf_2023 else Article.ZERO
        if slip is None:
            return Ruled(Code.MISSING, self.say(_("no slip handed in: 0")), article=nullity)
        if slip.multiple:
            return Ruled(
                Code.MULTIPLE,
                self.say(_("several slips handed in for the round: 0")),
                article=Fisf2023.NULLITY if fisf_2023 else Article.MULTIPLE,
            )
        if slip.late:
            return Ruled(
                Code.LATE, self.say(_("slip handed in after the deadline: 0")), article=nullity
            )
        try:
            word = parse_word(slip.word)
        except EngineError as exc:
            reason = self.say(_("the word cannot be read (%(error)s): 0")) % {
                "error": error_text(exc, self.say)
            }
            return Ruled(Code.MALFORMED, reason, article=nullity)
        if fisf_2023:
            return self._rule_fisf_2023(word, slip)
        return self._rule_before_2023(word, slip)
