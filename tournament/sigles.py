"""The results as the federation's ranking software (SIGLES) reads them, the lines Eliot's
``extras/reports/sigles.py`` writes (docs/interchange.md, section 2).

One line per table from 1 to the highest table, three quoted comma-separated fields, ``\\n``
at the end of each, the file in Windows-1252: ``"<table>","<name>","<total>"``; a table nobody
sits at gives ``"<n>","--table vide--","-1"`` (``empty=False`` leaves them out, as the
script's ``-n``). Byte for byte what the script writes from the same game (checked by
``bench/interchange_real.py`` against Eliot's own ``sigles.py``). The file never has more than
``MAX_LINES`` lines: a table numbered higher (a number a user typed) refuses the file with
empty tables, naming the player, rather than writing a line per number up to it. Keyed by
licence instead (``sigles_lines`` with ``key="licence"``), one line per player in licence
order: ``"<licence>","<name>","<total>"``.

Eliot writes names as they are in Latin-1 (a ``"`` breaks the line, a letter outside Latin-1
stops its script). SIGLES is a Windows program, which reads a text file in the system's code page:
Windows-1252 in France, Belgium, Switzerland and Quebec, Latin-1 with œ, Œ, Ÿ and a few more
where Latin-1 has control characters. So the file is written in Windows-1252: the same bytes as
Eliot's for every name Latin-1 can write, and Lebœuf or Cœurdevey written as they are. A letter
Windows-1252 lacks is written without its accent when that makes it one it has (ő as o); a name
still left with one (Łukasz, 王) or with a ``"`` or a line break is refused with the player
named, so that no file is wrong.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from tournament.errors import ApplicationError

EMPTY_TABLE = "--table vide--"
KEYS = ("table", "licence")
MAX_LINES = 10_000  # the lines of a file with its empty tables: tables up to 10,000
ENCODING = "cp1252"  # Windows-1252, what SIGLES (a Windows program) reads; Latin-1 and œ


def sigles_name(name: str) -> str | None:
    """The name as the file writes it: as it is when Windows-1252 has every letter, else each
    letter it lacks without its accents (ő as o, ǆ as dž); None when a letter is still left
    that it cannot write."""
    try:
        name.encode(ENCODING)
        return name
    except UnicodeEncodeError:
        pass
    letters = []
    for ch in name:
        try:
            ch.encode(ENCODING)
            letters.append(ch)
        except UnicodeEncodeError:
            base = "".join(
                c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
            )
            letters.append(base)
    folded = "".join(letters)
    try:
        folded.encode(ENCODING)
    except UnicodeEncodeError:
        return None
    return folded


@dataclass(frozen=True)
class ResultLine:
    name: str
    total: int
    table: int | None
    licence: str = ""


def _field(text: str) -> str:
    return f'"{text}"'


def sigles_lines(results: Sequence[ResultLine], *, key: str = "table", empty: bool = True) -> bytes:
    """The SIGLES file (Windows-1252 bytes); ``empty``: a line for each table nobody sits at.
    Raises ``ApplicationError`` naming every player whose name cannot be written, who has no
    table (or licence, when keyed by licence), who shares a table or licence with another, or
    whose table would make the file longer than ``MAX_LINES`` lines with its empty tables."""
    if key not in KEYS:
        raise ApplicationError(
            gettext("Unknown SIGLES key %(key)s: table or licence.") % {"key": repr(key[:20])},
            code="invalid",
        )
    problems = []
    for r in results:
        said: dict[str, object] = {"name": r.name}
        if '"' in r.name or "\n" in r.name or "\r" in r.name:
            problems.append(
                gettext('%(name)s: a name with a double quote (") or a line break breaks the line')
                % said
            )
        if sigles_name(r.name) is None:
            problems.append(
                gettext("%(name)s: the name has a letter that Windows-1252 cannot write") % said
            )
    if key == "table":
        seen: dict[int, str] = {}
        for r in results:
            said = {"name": r.name, "table": r.table}
            if r.table is None:
                problems.append(gettext("%(name)s has no table number") % said)
            elif r.table in seen:
                problems.append(
                    gettext("%(name)s and %(other)s share table %(table)d")
                    % {**said, "other": seen[r.table]}
                )
            elif empty and not 1 <= r.table <= MAX_LINES:
                problems.append(
                    gettext(
                        "%(name)s is at table %(table)d: with a line for each empty table the "
                        "file would have %(table)d lines (at most %(limit)d); number the tables "
                        "from 1, or leave the empty tables out"
                    )
                    % {**said, "limit": MAX_LINES}
                )
            else:
                seen[r.table] = r.name
    else:
        licences: dict[str, str] = {}
        for r in results:
            said = {"name": r.name, "licence": r.licence}
            if not r.licence:
                problems.append(gettext("%(name)s has no licence number") % said)
            elif r.licence in licences:
                problems.append(
                    gettext("%(name)s and %(other)s share licence %(licence)s")
                    % {**said, "other": licences[r.licence]}
                )
            elif '"' in r.licence or not r.licence.isascii() or not r.licence.isprintable():
                problems.append(
                    gettext("%(name)s: licence %(licence)s cannot be written")
                    % {**said, "licence": repr(r.licence)}
                )
            else:
                licences[r.licence] = r.name
    if problems:
        raise ApplicationError(
            gettext("The SIGLES file cannot be written: %(problems)s.")
            % {"problems": "; ".join(problems[:20]) + ("; ..." if len(problems) > 20 else "")},
            code="sigles_refused",
            data={"problems": problems},
        )
    lines = []
    if key == "table":
        by_table = {r.table: r for r in results if r.table is not None}
        # Bounded: with empty tables every table is at most MAX_LINES (checked above); without
        # them, one line per player.
        tables = range(1, max(by_table, default=0) + 1) if empty else sorted(by_table)
        for table in tables:
            at = by_table.get(table)
            if at is None:
                lines.append(f"{_field(str(table))},{_field(EMPTY_TABLE)},{_field('-1')}")
            else:
                name = sigles_name(at.name)
                lines.append(f"{_field(str(table))},{_field(str(name))},{_field(str(at.total))}")
    else:
        for r in sorted(results, key=lambda r: r.licence):
            lines.append(
                f"{_field(r.licence)},{_field(str(sigles_name(r.name)))},{_field(str(r.total))}"
            )
    return "".join(line + "\n" for line in lines).encode(ENCODING)


__all__ = [
    "EMPTY_TABLE",
    "ENCODING",
    "KEYS",
    "MAX_LINES",
    "ResultLine",
    "sigles_lines",
    "sigles_name",
]
