"""The workbook's first sheet, ``Event``: what the event was and what the columns count.

So that a workbook read on its own says where it comes from: the event's name (the header
row), its date and place, its word list (``word_list_shown``), its rules policy (every rule of
``POLICY_FIELDS``, named as the set-up form names them), the time of the export, and a legend
of the columns whose count is not obvious (``COLUMN_NOTES``: the same words are notes on those
header cells). Three columns: what, its value, a remark (the time zone of the export time, the
sheet of a column in the legend).

``Event`` comes first because the workbook opens on it, and design.md's readers find their
sheets by name (only ``Categories`` has a fixed place, last); see design.md, "Spreadsheet
exports".
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterator, Sequence

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from arbiter.selectors.standings import PlayerFilter
from arbiter.state import lexicon_info
from tournament.models import Event
from tournament.models.choices import Formula
from tournament.services.events import AUDIENCE_FIELDS, POLICY_FIELDS
from web.forms import EVENT_LABELS
from web.sheet_writer import Cell, Row, Sheet
from web.standings_filter import player_filter_label

# What a column counts, by its header (the msgid): a note on the header cell and a line of the
# Event sheet's legend. The numbers (solo bonus, free warnings...) are the rules policy's.
COLUMN_NOTES = {
    "Tops": gettext_noop(
        "How many rounds the player found the top (a move worth the round's top score, "
        "whatever the reference penalty)."
    ),
    "Solos": gettext_noop(
        "The solo bonus points (not a count): the bonus the player earned each time they "
        "alone found the top, when enough players played (the rules policy)."
    ),
    "Warnings": gettext_noop("How many warnings the player received."),
    "Penalties": gettext_noop(
        "The points taken off: reference penalties (the 2016 rule's, or one the "
        "director set in an amendment) and the cost of the warnings beyond the free ones."
    ),
    "Solo": gettext_noop("The solo bonus this ruling earned, in points."),
    "Penalty": gettext_noop(
        "Every point this ruling lost: its reference penalty and its warning penalty."
    ),
    "Reference penalty": gettext_noop(
        "The 2016 rule's penalty, or a penalty the director set in an "
        "amendment (then Amended says yes and Reason says why)."
    ),
    "Warning penalty": gettext_noop("What this warning cost, beyond the game's free warnings."),
    "Article": gettext_noop(
        "The case of the rules (docs/rules.md, Rulings in detail) that ruled the slip, with the "
        "federation's article where its texts number it (4 · FISF 5.3.1); 11 for an amendment."
    ),
}
# The legend: (the sheet, the column), in the order of the workbook.
LEGEND = (
    (gettext_noop("Standings"), "Tops"),
    (gettext_noop("Standings"), "Solos"),
    (gettext_noop("Standings"), "Warnings"),
    (gettext_noop("Standings"), "Penalties"),
    (gettext_noop("Slips"), "Solo"),
    (gettext_noop("Slips"), "Penalty"),
    (gettext_noop("Slips"), "Reference penalty"),
    (gettext_noop("Slips"), "Warning penalty"),
    (gettext_noop("Slips"), "Article"),
)


def column_notes(header: Sequence[str]) -> dict[int, str]:
    """{column index: its note in the language in force}, for a header of msgids."""
    return {i: gettext(COLUMN_NOTES[name]) for i, name in enumerate(header) if name in COLUMN_NOTES}


def word_list_shown(event: Event) -> str:
    """The event's word list as the Event sheet shows it: its name and word count
    (``arbiter.state.lexicon_info``), as the pages and the screen say it."""
    return lexicon_info(event.lexicon).label


def _policy_value(event: Event, name: str) -> Cell:
    value = getattr(event, name)
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if name == "publish_after_seconds" and value is None:
        return gettext("the director publishes")
    display = getattr(event, f"get_{name}_display", None)
    if display is not None:  # a choice: its label (the tile set's, the board's, the language's)
        return str(display())
    if isinstance(value, int | str):
        return value
    raise TypeError(f"{name}: a rule the Event sheet cannot show ({type(value).__name__})")


def event_sheet(
    event: Event, *, only: PlayerFilter | None = None, now: dt.datetime | None = None
) -> Sheet:
    """The Event sheet of ``event``'s workbook (of the players ``only`` keeps: a category's,
    said in a row), exported at ``now`` (the present by default), shown in the event's time
    zone (``Event.time_zone``)."""
    zone = zoneinfo.ZoneInfo(event.time_zone)
    exported = timezone.localtime(now or timezone.now(), zone).replace(tzinfo=None, microsecond=0)

    def rows() -> Iterator[Row]:
        yield (str(EVENT_LABELS["starts_on"]), event.starts_on, None)
        yield (str(EVENT_LABELS["venue"]), event.venue, None)
        yield (gettext("Word list"), word_list_shown(event), None)
        # Each game played in an original formula (FISF 2023 3.8; docs/formulas.md), named
        for game in event.games.exclude(formula=Formula.STANDARD).order_by("number"):
            yield (
                gettext("Formula"),
                str(game.get_formula_display()),
                gettext("Game %(number)s") % {"number": game.number},
            )
        yield (gettext("Exported at"), exported, event.time_zone)
        if only is not None and not only.is_empty:
            yield (gettext("Players shown"), player_filter_label(only), None)
        yield (None, None, None)
        yield (gettext("Rules policy"), None, None)
        for name in POLICY_FIELDS:
            if name != "lexicon" and name not in AUDIENCE_FIELDS:  # the word list, above
                yield (str(EVENT_LABELS[name]), _policy_value(event, name), None)
        yield (None, None, None)
        yield (gettext("What the columns count"), None, None)
        for sheet, name in LEGEND:
            yield (gettext(name), gettext(COLUMN_NOTES[name]), gettext(sheet))

    return Sheet(title=gettext("Event"), header=[gettext("Event"), event.name, ""], rows=rows())
