"""The tournament's words that the rules and the tables share, with no Django in them.

``arbiter.rules`` (pure, also run by the ruling CLI) and ``tournament.models`` both import
from here, so a ruling code or a slip's total is defined once.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

# A player's table number is 1 to TABLE_MAX (docs/rules.md, "Decisions where the rules above are
# silent"): the largest festival seats a few thousand; an export or a print never counts to a
# number typed beyond it.
TABLE_MIN, TABLE_MAX = 1, 9_999


class RulingCode(enum.StrEnum):
    """Why a slip earned what it did (rules.md, "Rulings in detail")."""

    VALID = "valid"
    VALID_WARNING = "valid_warning"
    REFERENCE_PENALTY = "reference_penalty"
    FINAL_LETTER_PENALTY = "final_letter_penalty"
    INVALID_WORD = "invalid_word"
    NOT_ON_RACK = "not_on_rack"
    DOES_NOT_FIT = "does_not_fit"
    BAD_REFERENCE = "bad_reference"
    MALFORMED = "malformed"
    LATE = "late"
    MISSING = "missing"
    MULTIPLE = "multiple"
    FALLACIOUS = "fallacious_junction"  # FISF 2023, 5.3.3: the arbiter's decision

    @property
    def label(self) -> str:
        return RULING_LABELS[self]


def gettext_noop(message: str) -> str:
    """Marks words for the catalogues (``makemessages`` knows the name) without translating
    them: this module and ``arbiter.rules`` import no Django. The ruling labels are translated
    by ``tournament.models.slip.RULING_CHOICES_SHOWN``, the rulings' reasons by the judge's
    ``say`` (``arbiter.services.rulings.judge_for``)."""
    return message


RULING_LABELS: dict[RulingCode, str] = {
    RulingCode.VALID: gettext_noop("Valid"),
    RulingCode.VALID_WARNING: gettext_noop("Valid, with a warning (announced score)"),
    RulingCode.REFERENCE_PENALTY: gettext_noop("Reference wrong or missing: penalty"),
    RulingCode.FINAL_LETTER_PENALTY: gettext_noop(
        "Final letter left out or changed: penalty (before 2023)"
    ),
    RulingCode.INVALID_WORD: gettext_noop("Word not in the lexicon"),
    RulingCode.NOT_ON_RACK: gettext_noop("Tiles not on the rack"),
    RulingCode.DOES_NOT_FIT: gettext_noop("Does not fit the board"),
    RulingCode.BAD_REFERENCE: gettext_noop("Wrong reference"),
    RulingCode.MALFORMED: gettext_noop("Blank or unreadable slip"),
    RulingCode.LATE: gettext_noop("Late"),
    RulingCode.MISSING: gettext_noop("No slip"),
    RulingCode.MULTIPLE: gettext_noop("Several slips handed in"),
    RulingCode.FALLACIOUS: gettext_noop("Fallacious junction"),
}

RULING_CHOICES: list[tuple[str, str]] = [(code.value, code.label) for code in RulingCode]


@dataclass(frozen=True)
class PolicyDefaults:
    """The numbers of the rules policy an event starts with (rules.md): the event's columns
    (``tournament.models.Event``), the pure rulings' ``arbiter.rules.Policy`` and the
    simulation take them from here, the one place they are written."""

    round_seconds: int = 180
    grace_seconds: int = 10
    warning_seconds: int = 30
    warnings_free: int = 3
    warning_penalty: int = 5
    reference_rule_2016: bool = True
    reference_penalty: int = 5
    solo_bonus: int = 10
    solo_min_players: int = 16


POLICY_DEFAULTS = PolicyDefaults()


def slips_end(*, deadline: datetime, grace: timedelta) -> datetime:
    """The last instant a slip counts: the deadline plus the grace (the grace covers a slip sent
    just before the deadline). The one definition of the deadline for slips: a round's
    (``Round.slip_refusal``, ``Round.is_due_to_close``) and a training attempt's."""
    return deadline + grace


def ruling_total(*, points: int, solo: int, penalty: int, warning_penalty: int) -> int:
    """What a ruling adds to a player's total: the move's points, plus the solo, less the
    reference penalty and the warning's penalty. Standings, phones and sheets count with this."""
    return points + solo - penalty - warning_penalty


# Never text, whatever the field (the one definition: ``web.inputs`` refuses these at every
# door of the faces, the imports through ``control_character_in``): the C0 and C1 controls but
# tab, line feed and carriage return; lone surrogates (no encoding holds them: PostgreSQL and
# UTF-8 refuse them); Unicode's 66 non-characters, U+FDD0 to U+FDEF and the last two code
# points of every plane (U+FFFE, U+FFFF, U+1FFFE ... U+10FFFF), which are "never interchanged"
# and which XML refuses (U+FFFE, U+FFFF): an eliot.xml holding one is not well-formed.
NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17)
)
NOT_TEXT = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{NONCHARACTERS}]")


def is_noncharacter(ch: str) -> bool:
    """``ch`` is one of Unicode's non-characters (not a control: a code point kept out of text)."""
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def not_text_in(text: str) -> str | None:
    """The first character of ``text`` that no text holds (``NOT_TEXT``), if any."""
    match = NOT_TEXT.search(text)
    return None if match is None else match.group()


def control_character_in(text: str) -> str | None:
    """The first control or format character of a one-line text (a line break, a tab, an
    escape, a zero-width space...), lone surrogate or non-character, if any: such a text
    breaks the lines of the exports (SIGLES, Eliot's XML) and is never typed in a name."""
    return not_text_in(text) or next(
        (ch for ch in text if unicodedata.category(ch) in ("Cc", "Cf", "Cs")), None
    )


def name_key(name: str) -> tuple[str, str]:
    """How people's names sort, in any language of the interface: by their letters with the
    accents and the case set aside (Élodie with the Es, before Yves), then as written (so the
    order is total). A collation key, not the code points' order, which puts É after Z."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    letters = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return letters.replace("œ", "oe").replace("æ", "ae").replace("ß", "ss"), name
