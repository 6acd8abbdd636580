"""A remote room's results file read (docs/interchange.md, "Room results"): the file's rounds
and players, each field checked, every problem listed with where it is. What is done with them
(matched to the room's players, stored) is ``arbiter.services.rooms``'s.

Bounded in CPU and memory whatever the file: its size is checked first (``MAX_BYTES``), then
its encoding (UTF-8, a byte order mark allowed; another encoding is named as such), then its
nesting and how many objects and lists it holds, counted in C before anything is built
(``engine.interchange.check_json_depth``); then it is read in a stream (ijson's C backend): the
players one at a time, each kept only as the few fields the import needs, so memory follows
the rulings kept, not the document (``json.loads`` of a 40 MB file held 0.9 GB). At most
``MAX_PROBLEMS`` problems are listed.
"""

from __future__ import annotations

import codecs
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import ijson  # type: ignore[import-untyped]  # ships no type information
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext

from engine.interchange import InterchangeError, check_json_depth, check_size, check_utf8
from tournament.categories import AGE_CATEGORIES
from tournament.errors import ApplicationError
from tournament.vocabulary import (
    TABLE_MAX,
    TABLE_MIN,
    RulingCode,
    control_character_in,
    is_noncharacter,
)

_CODES = frozenset(c.value for c in RulingCode)
ROOM_RESULTS_FORMAT = "duplicate-room-results"
ROOM_RESULTS_VERSION = 1
MAX_BYTES = 40 * 1024 * 1024  # about 300 bytes a ruling: 1,000 players x 5 games of 20 rounds
MAX_DEPTH = 6  # {"players": [{"rulings": [{...}]}]} is 4
# Objects and lists, counted in C before anything is read: a ruling is one, a player two, a
# round one. 30,000 is about 25,000 rulings (1,000 players of 25 rounds, 200 of 125), an import
# of a few seconds; a file of 320,000 rulings took 87 s of a web thread that nothing can stop
# (docs/reliability.md, "Hostile files"), so a larger one is refused before any work.
MAX_CONTAINERS = 30_000
MAX_RULINGS = 1_000  # one player's rulings: 10 games of 100 rounds
MAX_NUMBER = 999_999_999
MAX_PROBLEMS = 200


def _shown(value: Any) -> str:
    """A value of the file as a problem shows it (at most 60 characters)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class RoomResultsError(ApplicationError):
    """The file was refused; ``data["errors"]`` lists every problem or conflict."""

    def __init__(self, code: str, errors: list[str]) -> None:
        super().__init__(
            ngettext(
                "Nothing imported: %(count)d problem.",
                "Nothing imported: %(count)d problems.",
                len(errors),
            )
            % {"count": len(errors)},
            code=code,
            data={"errors": errors},
        )
        self.errors = errors


@dataclass(frozen=True, slots=True)
class FileRound:
    game: int
    number: int
    rack: str
    ref: str
    word: str
    score: int


@dataclass(frozen=True, slots=True)
class FileRuling:
    game: int
    round: int
    code: str
    word: str
    ref: str
    announced: int | None
    move_score: int | None
    points: int
    warning: bool
    penalty: int
    warning_penalty: int
    solo: int
    found_top: bool
    rank: int | None
    averaged: bool
    reason: str


@dataclass(frozen=True, slots=True)
class FilePlayer:
    line: int  # the player's position in the file, from 1
    name: str
    club: str
    licence: str
    category: str
    series: int | None
    age_category: str
    table: int | None
    rulings: tuple[FileRuling, ...]

    def label(self) -> str:
        licence = f", licence {self.licence}" if self.licence else ""
        club = f" ({self.club})" if self.club else ""
        return f"#{self.line} {self.name}{club}{licence}"


class Reader:
    """The file's parts, each checked; every problem is kept to be listed together."""

    def __init__(self, first_round: int = 1) -> None:
        self.problems: list[str] = []
        # A game's rounds are numbered from 1; a multiplex message holds one round, its own.
        self.first_round = first_round

    def _int(self, value: Any, where: str, *, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.problems.append(
                gettext("%(where)s: a whole number of 0 or more, not %(value)s.")
                % {"where": where, "value": _shown(value)}
            )
            return None
        if value > MAX_NUMBER:
            self.problems.append(
                gettext("%(where)s: a whole number of at most %(limit)d, not %(value)s.")
                % {"where": where, "limit": MAX_NUMBER, "value": _shown(value)}
            )
            return None
        return int(value)

    def _table(self, value: Any, where: str) -> int | None:
        table = self._int(value, where, optional=True) or None
        if table is not None and not TABLE_MIN <= table <= TABLE_MAX:
            self.problems.append(
                gettext(
                    "%(where)s: table %(table)s is not a table number: tables are 1 to %(max)s."
                )
                % {
                    "where": where,
                    "table": table,
                    "max": number_format(TABLE_MAX, force_grouping=True),
                }
            )
            return None
        return table

    def _text(self, value: Any, where: str, *, limit: int) -> str:
        if value is None:
            return ""
        if not isinstance(value, str) or len(value) > limit:
            self.problems.append(
                gettext("%(where)s: a text of at most %(limit)d characters.")
                % {"where": where, "limit": limit}
            )
            return ""
        control = control_character_in(value)
        if control is not None and is_noncharacter(control):
            self.problems.append(
                gettext("%(where)s: %(text)s holds a non-character (U+%(code)04X).")
                % {"where": where, "text": _shown(value), "code": ord(control)}
            )
            return ""
        if control is not None:  # a line break in a name would split a SIGLES record
            self.problems.append(
                gettext("%(where)s: %(text)s holds a control character (U+%(code)04X).")
                % {"where": where, "text": _shown(value), "code": ord(control)}
            )
            return ""
        return value.strip()

    def rounds(self, games: Any) -> list[FileRound]:
        if not isinstance(games, list):
            self.problems.append(gettext('"games": a list of the room\'s games.'))
            return []
        rounds = []
        for g in games:
            number = self._int(g.get("number") if isinstance(g, dict) else None, '"games"')
            played = g.get("rounds") if isinstance(g, dict) else None
            if number is None or not isinstance(played, list):
                self.problems.append(gettext('Each game is {"number": N, "rounds": [...]}.'))
                continue
            for i, r in enumerate(played, start=self.first_round):
                where = gettext("game %(game)d, round %(round)d") % {"game": number, "round": i}
                if not isinstance(r, dict) or r.get("number") != i:
                    self.problems.append(
                        gettext("%(where)s: the rounds are numbered 1, 2, 3... in order.")
                        % {"where": where}
                    )
                    break
                score = self._int(r.get("score"), where)
                rounds.append(
                    FileRound(
                        number,
                        i,
                        self._text(r.get("rack"), where, limit=7),
                        self._text(r.get("ref"), where, limit=4),
                        self._text(r.get("word"), where, limit=15),
                        score or 0,
                    )
                )
        return rounds

    def ruling(self, data: Any, where: str) -> FileRuling | None:
        if not isinstance(data, dict):
            self.problems.append(gettext("%(where)s: a ruling is an object.") % {"where": where})
            return None
        code = data.get("code")
        if not isinstance(code, str) or code not in _CODES:
            self.problems.append(
                gettext("%(where)s: unknown ruling code %(code)s.")
                % {"where": where, "code": _shown(code)}
            )
            return None
        game = self._int(data.get("game"), where)
        number = self._int(data.get("round"), where)
        if game is None or number is None:
            return None
        rank = self._int(data.get("rank"), where, optional=True)
        return FileRuling(
            game=game,
            round=number,
            code=code,
            word=self._text(data.get("word"), where, limit=15),
            ref=self._text(data.get("ref"), where, limit=4),
            announced=self._int(data.get("announced"), where, optional=True),
            move_score=self._int(data.get("move_score"), where, optional=True),
            points=self._int(data.get("points", 0), where) or 0,
            warning=bool(data.get("warning")),
            penalty=self._int(data.get("penalty", 0), where) or 0,
            warning_penalty=self._int(data.get("warning_penalty", 0), where) or 0,
            solo=self._int(data.get("solo", 0), where) or 0,
            found_top=bool(data.get("found_top")),
            rank=rank or None,
            averaged=bool(data.get("averaged")),
            reason=self._text(data.get("reason"), where, limit=2000),
        )

    def player(self, p: Any, line: int) -> FilePlayer | None:
        """The file's player at position ``line`` (from 1), or None when it cannot be read."""
        where = gettext("player #%(line)d") % {"line": line}
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"]:
            self.problems.append(gettext("%(where)s: a player needs a name.") % {"where": where})
            return None
        rulings = p.get("rulings", [])
        if not isinstance(rulings, list):
            self.problems.append(gettext('%(where)s: "rulings" is a list.') % {"where": where})
            return None
        if len(rulings) > MAX_RULINGS:
            self.problems.append(
                gettext("%(where)s: %(count)d rulings, at most %(limit)d are read.")
                % {"where": where, "count": len(rulings), "limit": MAX_RULINGS}
            )
            return None
        series = self._int(p.get("series"), where, optional=True)
        age_category = self._text(p.get("age_category"), where, limit=16)
        if age_category and age_category not in AGE_CATEGORIES:
            self.problems.append(
                gettext("%(where)s: unknown age category %(value)s.")
                % {"where": where, "value": _shown(age_category)}
            )
        return FilePlayer(
            line=line,
            name=self._text(p["name"], where, limit=120),
            club=self._text(p.get("club"), where, limit=120),
            licence=self._text(p.get("licence"), where, limit=40),
            category=self._text(p.get("category"), where, limit=40),
            series=series,
            age_category=age_category,
            table=self._table(p.get("table"), where),
            rulings=tuple(r for r in (self.ruling(d, where) for d in rulings) if r is not None),
        )


@dataclass(frozen=True)
class RoomFile:
    """The file's rounds and players, each read and checked; ``problems`` lists what is
    wrong in it."""

    rounds: list[FileRound]
    players: list[FilePlayer]
    problems: list[str]
    # The rulebook the room ruled its slips by ("room.rulebook"; None in a file written before
    # the rulebooks were: its rulings are before-2023's).
    rulebook: str | None = None


def listed(problems: list[str]) -> list[str]:
    """At most ``MAX_PROBLEMS`` problems, and a line saying there are more (the readers and
    checks stop once past the limit, so how many more is not counted)."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    return [
        *problems[:MAX_PROBLEMS],
        gettext("... and more: the first %(count)d problems are listed.") % {"count": MAX_PROBLEMS},
    ]


def _said(exc: Exception) -> str:
    """The JSON parser's error and the text where it stopped (yajl shows it on the next
    line)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    said = lines[0][:200] if lines else type(exc).__name__
    if len(lines) > 1 and not lines[1].startswith("(right here)"):
        said += gettext(", at: %(text)s") % {"text": lines[1][-60:]}
    return said


def _refused(problems: list[str]) -> RoomResultsError:
    return RoomResultsError("bad_file", problems)


def _items(raw: bytes, prefix: str) -> Iterator[Any]:
    """The values at ``prefix`` of the document, one at a time (ijson, C backend)."""
    return iter(ijson.items(io.BytesIO(raw), prefix, use_float=True))


def room_results_read(raw: bytes, *, first_round: int = 1) -> RoomFile:
    """Read a room's results file with every limit checked before and while it is read; a
    file that is not one at all is refused at once (``RoomResultsError``), the problems of a
    room results file are listed in the ``RoomFile`` for the import to refuse with the rest."""
    try:
        check_size(raw, MAX_BYTES)
        raw = raw.removeprefix(codecs.BOM_UTF8)
        check_utf8(raw)
        check_json_depth(raw, MAX_DEPTH, max_containers=MAX_CONTAINERS)
    except InterchangeError as exc:
        said = [capfirst(p.text(gettext)) + "." for p in exc.problems]
        if any(p.params.get("limit") == MAX_CONTAINERS for p in exc.problems):
            said.append(
                gettext(
                    "A room's results file holds at most about %(rulings)s rulings (1,000 "
                    "players of 25 rounds): a larger import would hold the server for minutes."
                )
                % {"rulings": number_format(25_000, force_grouping=True)}
            )
        raise _refused(said) from None
    reader = Reader(first_round)
    try:
        header = {key: next(_items(raw, key), None) for key in ("format", "version")}
        if header != {"format": ROOM_RESULTS_FORMAT, "version": ROOM_RESULTS_VERSION}:
            raise _refused(
                [
                    gettext(
                        'Not a room results file: it starts {"format": "%(format)s", '
                        '"version": %(version)d} (the file a room\'s event page exports).'
                    )
                    % {"format": ROOM_RESULTS_FORMAT, "version": ROOM_RESULTS_VERSION}
                ]
            )
        rounds = reader.rounds(next(_items(raw, "games"), None))
        players: list[FilePlayer] = []
        for line, item in enumerate(_items(raw, "players.item"), start=1):
            player = reader.player(item, line)
            if player is not None:
                players.append(player)
            if len(reader.problems) > MAX_PROBLEMS:
                break
        else:
            if not players and not isinstance(next(_items(raw, "players"), None), list):
                reader.problems.append(gettext('"players": a list of the room\'s players.'))
    except ijson.JSONError as exc:
        raise _refused([gettext("Not a JSON file: %(exc)s.") % {"exc": _said(exc)}]) from None
    problems = reader.problems
    rulebook = next(_items(raw, "room.rulebook"), None)
    return RoomFile(rounds, players, problems, rulebook if isinstance(rulebook, str) else None)


__all__ = [
    "MAX_BYTES",
    "ROOM_RESULTS_FORMAT",
    "ROOM_RESULTS_VERSION",
    "FilePlayer",
    "FileRound",
    "FileRuling",
    "RoomFile",
    "RoomResultsError",
    "listed",
    "room_results_read",
]
