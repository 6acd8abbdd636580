"""The results as the federation's ranking software (SIGLES) reads them, the lines Eliot's
``extras/reports/sigles.py`` writes (docs/interchange.md, section 2). No Django here.

One line per table from 1 to the highest table, three quoted comma-separated fields, ``\\n``
at the end of each, the file in Latin-1: ``"<table>","<name>","<total>"``; a table nobody
sits at gives ``"<n>","--table vide--","-1"``. Keyed by licence instead (``sigles_lines`` with
``key="licence"``), one line per player in licence order: ``"<licence>","<name>","<total>"``.

Eliot writes names as they are (a ``"`` breaks the line, a letter outside Latin-1 stops its
script); here such a name is refused with the player named, so that no file is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from tournament.errors import ApplicationError

EMPTY_TABLE = "--table vide--"
KEYS = ("table", "licence")


@dataclass(frozen=True)
class ResultLine:
    name: str
    total: int
    table: int | None
    licence: str = ""


def _field(text: str) -> str:
    return f'"{text}"'


def sigles_lines(results: Sequence[ResultLine], *, key: str = "table") -> bytes:
    """The SIGLES file (Latin-1 bytes). Raises ``ApplicationError`` naming every player whose
    name cannot be written, who has no table (or licence, when keyed by licence), or who
    shares a table or licence with another."""
    if key not in KEYS:
        raise ApplicationError(
            gettext("Unknown SIGLES key %(key)r: %(keys)s.")
            % {"key": key, "keys": " | ".join(KEYS)}
        )
    problems = []
    for r in results:
        if '"' in r.name:
            problems.append(
                gettext('%(name)s: a name with a double quote (") breaks the line')
                % {"name": r.name}
            )
        try:
            r.name.encode("latin-1")
        except UnicodeEncodeError:
            problems.append(
                gettext("%(name)s: the name has a letter that Latin-1 cannot write")
                % {"name": r.name}
            )
    if key == "table":
        seen: dict[int, str] = {}
        for r in results:
            if r.table is None:
                problems.append(gettext("%(name)s has no table number") % {"name": r.name})
            elif r.table in seen:
                problems.append(
                    gettext("%(name)s and %(other)s share table %(table)s")
                    % {"name": r.name, "other": seen[r.table], "table": r.table}
                )
            else:
                seen[r.table] = r.name
    else:
        licences: dict[str, str] = {}
        for r in results:
            if not r.licence:
                problems.append(gettext("%(name)s has no licence number") % {"name": r.name})
            elif r.licence in licences:
                problems.append(
                    gettext("%(name)s and %(other)s share licence %(licence)s")
                    % {"name": r.name, "other": licences[r.licence], "licence": r.licence}
                )
            elif '"' in r.licence or not r.licence.isascii():
                problems.append(
                    gettext("%(name)s: licence %(licence)r cannot be written")
                    % {"name": r.name, "licence": r.licence}
                )
            else:
                licences[r.licence] = r.name
    if problems:
        raise ApplicationError(
            gettext("The SIGLES file cannot be written: %(problems)s.")
            % {"problems": gettext("; ").join(problems)},
            data={"problems": problems},
        )
    lines = []
    if key == "table":
        by_table = {r.table: r for r in results if r.table is not None}
        for table in range(1, max(by_table, default=0) + 1):
            at = by_table.get(table)
            if at is None:
                lines.append(f"{_field(str(table))},{_field(EMPTY_TABLE)},{_field('-1')}")
            else:
                lines.append(f"{_field(str(table))},{_field(at.name)},{_field(str(at.total))}")
    else:
        for r in sorted(results, key=lambda r: r.licence):
            lines.append(f"{_field(r.licence)},{_field(r.name)},{_field(str(r.total))}")
    return "".join(line + "\n" for line in lines).encode("latin-1")


__all__ = ["EMPTY_TABLE", "KEYS", "ResultLine", "sigles_lines"]
