"""Simultaneous events, the arbitration's side: a whole game drawn in advance for the rooms, and
a remote room's results file imported (``room_results_import``).

The file is the one ``arbiter.selectors.rooms.room_results`` writes on the installation where
the room played (docs/interchange.md, "Room results"). Its rounds must be the simultaneous's
own (the same racks and moves, in order); its players are matched to the room's by licence
number, then by name and club. Whatever is ambiguous is listed and nothing is imported: a
licence that names one player while the name and club name another, a licence already
registered in another room, two players of the file on one of the room's, a name and club that
fit several. Importing the same file twice changes nothing; a newer file of the same room
adds its new rounds and corrects the rulings that changed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from arbiter.reasons import end_text
from arbiter.services.common import Actor
from arbiter.state import lexicon_for, lexicon_require_ready
from engine.board import Board, Layout
from engine.game import autoplay
from engine.move import Move
from engine.tiles import TileSet, sort_tiles
from tournament.categories import AGE_CATEGORIES
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Player, Round, Ruling, Submission
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.services.games import game_create
from tournament.vocabulary import RulingCode

_CODES = frozenset(c.value for c in RulingCode)
ROOM_RESULTS_FORMAT = "duplicate-room-results"
ROOM_RESULTS_VERSION = 1
MAX_BYTES = 40 * 1024 * 1024  # about 300 bytes a ruling: 1,000 players x 5 games of 20 rounds


@transaction.atomic
def game_draw_whole(*, event: Event, actor: Actor, seed: int | None = None) -> Game:
    """The whole game drawn now, every rack and top (the engine's ``game``), as a pre-drawn
    game of ``event``: what the rooms of a simultaneous event play."""
    lexicon_require_ready(event.lexicon)
    seed = secrets.randbelow(2**32) if seed is None else seed
    if not 0 <= seed < 2**32:
        raise ApplicationError(gettext("A seed is a whole number from 0 to 4294967295."))
    played = autoplay(
        seed=seed,
        tiles=TileSet.load(event.tile_set),
        lexicon=lexicon_for(event.lexicon),
        layout=Layout.load(event.board_layout),
    )
    document: dict[str, Any] = dict(played.to_document())
    return game_create(
        event=event, actor=actor, source=Game.Source.PREDRAWN, seed=seed, predrawn=document
    )


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
            data={"code": code, "errors": errors},
        )
        self.errors = errors


@dataclass
class RoomImport:
    """What an import did (all zero but ``unchanged`` when the file was imported before)."""

    rounds_added: int = 0
    players_added: int = 0
    players_matched: int = 0
    rulings_added: int = 0
    rulings_changed: int = 0
    rulings_unchanged: int = 0
    added_names: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(
            self.rounds_added or self.players_added or self.rulings_added or self.rulings_changed
        )


def _fold(text: str) -> str:
    """A name or club as compared: accents, case and spacing aside."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


# -- reading the file -----------------------------------------------------------------------


@dataclass(frozen=True)
class _FileRound:
    game: int
    number: int
    rack: str
    ref: str
    word: str
    score: int


@dataclass(frozen=True)
class _FileRuling:
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


@dataclass(frozen=True)
class _FilePlayer:
    line: int  # the player's position in the file, from 1
    name: str
    club: str
    licence: str
    category: str
    series: int | None
    age_category: str
    table: int | None
    rulings: tuple[_FileRuling, ...]

    def label(self) -> str:
        licence = f", licence {self.licence}" if self.licence else ""
        club = f" ({self.club})" if self.club else ""
        return f"#{self.line} {self.name}{club}{licence}"


class _Reader:
    """The file's parts, each checked; every problem is kept to be listed together."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def _int(self, value: Any, where: str, *, optional: bool = False) -> int | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.problems.append(
                gettext("%(where)s: a whole number of 0 or more, not %(value)s.")
                % {"where": where, "value": json.dumps(value)}
            )
            return None
        return int(value)

    def _text(self, value: Any, where: str, *, limit: int) -> str:
        if value is None:
            return ""
        if not isinstance(value, str) or len(value) > limit:
            self.problems.append(
                gettext("%(where)s: a text of at most %(limit)d characters.")
                % {"where": where, "limit": limit}
            )
            return ""
        return value.strip()

    def rounds(self, games: Any) -> list[_FileRound]:
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
            for i, r in enumerate(played, start=1):
                where = gettext("game %(game)d, round %(round)d") % {"game": number, "round": i}
                if not isinstance(r, dict) or r.get("number") != i:
                    self.problems.append(
                        gettext("%(where)s: the rounds are numbered 1, 2, 3... in order.")
                        % {"where": where}
                    )
                    break
                score = self._int(r.get("score"), where)
                rounds.append(
                    _FileRound(
                        number,
                        i,
                        self._text(r.get("rack"), where, limit=7),
                        self._text(r.get("ref"), where, limit=4),
                        self._text(r.get("word"), where, limit=15),
                        score or 0,
                    )
                )
        return rounds

    def ruling(self, data: Any, where: str) -> _FileRuling | None:
        if not isinstance(data, dict):
            self.problems.append(gettext("%(where)s: a ruling is an object.") % {"where": where})
            return None
        code = data.get("code")
        if not isinstance(code, str) or code not in _CODES:
            self.problems.append(
                gettext("%(where)s: unknown ruling code %(code)s.")
                % {"where": where, "code": json.dumps(code)}
            )
            return None
        game = self._int(data.get("game"), where)
        number = self._int(data.get("round"), where)
        if game is None or number is None:
            return None
        rank = self._int(data.get("rank"), where, optional=True)
        return _FileRuling(
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

    def players(self, players: Any) -> list[_FilePlayer]:
        if not isinstance(players, list):
            self.problems.append(gettext('"players": a list of the room\'s players.'))
            return []
        read = []
        for line, p in enumerate(players, start=1):
            where = gettext("player #%(line)d") % {"line": line}
            if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not p["name"]:
                self.problems.append(
                    gettext("%(where)s: a player needs a name.") % {"where": where}
                )
                continue
            rulings = p.get("rulings", [])
            if not isinstance(rulings, list):
                self.problems.append(gettext('%(where)s: "rulings" is a list.') % {"where": where})
                continue
            series = self._int(p.get("series"), where, optional=True)
            age_category = self._text(p.get("age_category"), where, limit=16)
            if age_category and age_category not in AGE_CATEGORIES:
                self.problems.append(
                    gettext("%(where)s: unknown age category %(value)s.")
                    % {"where": where, "value": json.dumps(age_category)}
                )
            read.append(
                _FilePlayer(
                    line=line,
                    name=self._text(p["name"], where, limit=120),
                    club=self._text(p.get("club"), where, limit=120),
                    licence=self._text(p.get("licence"), where, limit=40),
                    category=self._text(p.get("category"), where, limit=40),
                    series=series,
                    age_category=age_category,
                    table=self._int(p.get("table"), where, optional=True) or None,
                    rulings=tuple(
                        r for r in (self.ruling(d, where) for d in rulings) if r is not None
                    ),
                )
            )
        return read


def room_results_read(raw: bytes) -> dict[str, Any]:
    """The file's JSON document, or a clear refusal."""
    if len(raw) > MAX_BYTES:
        raise RoomResultsError(
            "bad_file",
            [gettext("The file is over %(mb)d MB.") % {"mb": MAX_BYTES // (1024 * 1024)}],
        )
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RoomResultsError(
            "bad_file", [gettext("Not a JSON file: %(exc)s.") % {"exc": exc}]
        ) from None
    if (
        not isinstance(document, dict)
        or document.get("format") != ROOM_RESULTS_FORMAT
        or document.get("version") != ROOM_RESULTS_VERSION
    ):
        raise RoomResultsError(
            "bad_file",
            [
                gettext(
                    'Not a room results file: it starts {"format": "%(format)s", "version": '
                    "%(version)d} (the file a room's event page exports)."
                )
                % {"format": ROOM_RESULTS_FORMAT, "version": ROOM_RESULTS_VERSION}
            ],
        )
    return document


# -- checking the file against the simultaneous ---------------------------------------------


def _rounds_checked(room: Event, rounds: list[_FileRound], problems: list[str]) -> None:
    """Each round of the file is the simultaneous's round of that number, and the file holds
    at least the rounds already imported."""
    games = {g.number: g for g in room.games.all()}
    count = Counter(r.game for r in rounds)
    for r in rounds:
        game = games.get(r.game)
        planned = ((game.predrawn or {}).get("rounds", []) if game else [])[r.number - 1 : r.number]
        if not planned:
            problems.append(
                gettext("Game %(game)d has no round %(round)d in %(host)s.")
                % {"game": r.game, "round": r.number, "host": room.host}
            )
            continue
        want = planned[0]
        if (sort_tiles(r.rack), r.ref, r.word, r.score) != (
            sort_tiles(want["rack"]),
            want["ref"],
            want["word"],
            want["score"],
        ):
            problems.append(
                gettext(
                    "Game %(game)d, round %(round)d: the file played %(rack)s -> %(word)s "
                    "%(ref)s %(score)d; the simultaneous plays %(want_rack)s -> %(want_word)s "
                    "%(want_ref)s %(want_score)d. It is not this simultaneous's game."
                )
                % {
                    "game": r.game,
                    "round": r.number,
                    "rack": r.rack,
                    "word": r.word,
                    "ref": r.ref,
                    "score": r.score,
                    "want_rack": want["rack"],
                    "want_word": want["word"],
                    "want_ref": want["ref"],
                    "want_score": want["score"],
                }
            )
    for number, game in games.items():
        imported = game.rounds.filter(status=Round.Status.PUBLISHED).count()
        if count.get(number, 0) < imported:
            problems.append(
                gettext(
                    "Game %(game)d: the file has %(file)d rounds, %(imported)d are already "
                    "imported. Is it an older file?"
                )
                % {"game": number, "file": count.get(number, 0), "imported": imported}
            )


def _players_matched(
    room: Event, players: list[_FilePlayer], conflicts: list[str]
) -> dict[int, Player | None]:
    """{file line: the room's player, or None for a new one}; each ambiguity in ``conflicts``."""
    own = list(room.players.all())
    by_licence = {p.licence: p for p in own if p.licence}
    by_name: dict[tuple[str, str], list[Player]] = {}
    for p in own:
        by_name.setdefault((_fold(p.name), _fold(p.club)), []).append(p)
    elsewhere = dict(
        Player.objects.filter(event__in=_other_rooms(room))
        .exclude(licence="")
        .values_list("licence", "event__name")
    )
    repeated = {lic for lic, n in Counter(p.licence for p in players if p.licence).items() if n > 1}
    matched: dict[int, Player | None] = {}
    for fp in players:
        named = by_name.get((_fold(fp.name), _fold(fp.club)), [])
        said = {"player": fp.label()}
        if fp.licence in repeated:
            conflicts.append(gettext("%(player)s: the licence is in the file twice.") % said)
        elif fp.licence in elsewhere:
            conflicts.append(
                gettext("%(player)s: that licence already plays in %(room)s.")
                % {**said, "room": elsewhere[fp.licence]}
            )
        elif fp.licence in by_licence:
            player = by_licence[fp.licence]
            others = [p for p in named if p.pk != player.pk]
            if others:
                conflicts.append(
                    gettext(
                        "%(player)s: the licence is %(one)s's, the name and club are %(other)s's."
                    )
                    % {**said, "one": player.name, "other": others[0].name}
                )
            else:
                matched[fp.line] = player
        elif len(named) > 1:
            conflicts.append(
                gettext("%(player)s: %(count)d of the room's players have this name and club.")
                % {**said, "count": len(named)}
            )
        elif named and fp.licence and named[0].licence:
            conflicts.append(
                gettext("%(player)s: the room's %(name)s has another licence, %(licence)s.")
                % {**said, "name": named[0].name, "licence": named[0].licence}
            )
        else:
            matched[fp.line] = named[0] if named else None
    taken = Counter(p.pk for p in matched.values() if p is not None)
    for fp in players:
        twice = matched.get(fp.line)
        if twice is not None and taken[twice.pk] > 1:
            conflicts.append(
                gettext("%(player)s: another player of the file is also %(name)s.")
                % {"player": fp.label(), "name": twice.name}
            )
    return matched


def _other_rooms(room: Event) -> list[int]:
    """The host and the other rooms of the simultaneous ``room`` belongs to."""
    host_id = room.simultaneous_id
    rooms = Event.objects.filter(Q(pk=host_id) | Q(host_id=host_id)).exclude(pk=room.pk)
    return list(rooms.values_list("pk", flat=True))


def _rulings_checked(
    players: list[_FilePlayer], rounds: list[_FileRound], problems: list[str]
) -> None:
    known = {(r.game, r.number) for r in rounds}
    for fp in players:
        seen: set[tuple[int, int]] = set()
        for r in fp.rulings:
            key = (r.game, r.round)
            said = {"player": fp.label(), "game": r.game, "round": r.round}
            if key not in known:
                problems.append(
                    gettext(
                        "%(player)s: a ruling for game %(game)d round %(round)d, not in the file."
                    )
                    % said
                )
            elif key in seen:
                problems.append(
                    gettext("%(player)s: two rulings for game %(game)d round %(round)d.") % said
                )
            elif (r.code == RulingCode.MISSING) != (not r.word):
                problems.append(
                    gettext(
                        "%(player)s, game %(game)d round %(round)d: a slip has a word; only "
                        "a missing slip has none."
                    )
                    % said
                )
            seen.add(key)


# -- importing ------------------------------------------------------------------------------


@transaction.atomic
def room_results_import(*, room: Event, raw: bytes, actor: Actor) -> RoomImport:
    """Import a remote room's results file (see the module's docstring); nothing is imported
    when anything is wrong, and every problem or conflict is listed."""
    room = Event.objects.select_for_update().get(pk=room.pk)
    if room.host_id is None or not room.remote:
        raise ApplicationError(
            gettext(
                "%(event)s is not a remote room of a simultaneous event: its results are its "
                "own rulings, not a file."
            )
            % {"event": room.name}
        )
    event_require_open(room)
    document = room_results_read(raw)
    reader = _Reader()
    rounds = reader.rounds(document.get("games"))
    players = reader.players(document.get("players"))
    problems = reader.problems
    _rounds_checked(room, rounds, problems)
    _rulings_checked(players, rounds, problems)
    if problems:
        raise RoomResultsError("bad_file", problems)
    conflicts: list[str] = []
    matched = _players_matched(room, players, conflicts)
    if conflicts:
        raise RoomResultsError("player_conflicts", conflicts)
    now = timezone.now()
    report = RoomImport()
    round_of = _rounds_stored(room, rounds, report, now)
    stored = _players_stored(room, players, matched, report)
    _rulings_stored(
        [
            (round_of[(fr.game, fr.round)], stored[fp.line], fr)
            for fp in players
            for fr in fp.rulings
        ],
        report,
        now,
    )
    audit_record(
        event=room,
        action="arbiter.room.results_imported",
        actor=actor,
        data={
            "sha256": hashlib.sha256(raw).hexdigest(),
            "rounds_added": report.rounds_added,
            "players_added": report.players_added,
            "rulings_added": report.rulings_added,
            "rulings_changed": report.rulings_changed,
        },
    )
    return report


def _rounds_stored(
    room: Event, rounds: list[_FileRound], report: RoomImport, now: Any
) -> dict[tuple[int, int], Round]:
    """The file's rounds as the room's published rounds (those not there yet are added, and
    the game's board follows)."""
    stored: dict[tuple[int, int], Round] = {}
    for game in room.games.order_by("number"):
        have = {r.number: r for r in game.rounds.filter(status=Round.Status.PUBLISHED)}
        planned = (game.predrawn or {}).get("rounds", [])
        mine = [r for r in rounds if r.game == game.number]
        added = 0
        for r in mine:
            if r.number not in have:
                want = planned[r.number - 1]
                have[r.number] = Round.objects.create(
                    game=game,
                    number=r.number,
                    rack=r.rack,
                    leftover=want.get("leftover", ""),
                    rejected=list(want.get("rejected", [])),
                    status=Round.Status.PUBLISHED,
                    drawn_at=now,
                    closed_at=now,
                    scored_at=now,
                    published_at=now,
                    tops=[{"ref": r.ref, "word": r.word, "score": r.score}],
                    played_ref=r.ref,
                    played_word=r.word,
                    played_score=r.score,
                    played_by=Round.PlayedBy.PREDRAWN,
                )
                added += 1
            stored[(game.number, r.number)] = have[r.number]
        report.rounds_added += added
        if added:
            _board_follows(game, [have[n] for n in sorted(have)], len(planned))
    return stored


def _board_follows(game: Game, published: list[Round], planned: int) -> None:
    board = Board(Layout.load(game.board_layout))
    for r in published:
        if r.played_word:
            board.play(Move.from_ref(r.played_ref, r.played_word))
    game.board = board.to_lines()
    done = len(published) >= planned
    game.status = Game.Status.FINISHED if done else Game.Status.RUNNING
    end = str((game.predrawn or {}).get("end") or "") if done else ""
    with translation.override(game.event.language):  # said in the room's language
        game.end_reason = end_text(end, gettext) if end else ""
    game.save(update_fields=["board", "status", "end_reason"])


def _players_stored(
    room: Event, players: list[_FilePlayer], matched: dict[int, Player | None], report: RoomImport
) -> dict[int, Player]:
    """{file line: the room's player}: the matched ones (a licence the room lacked is filled
    in), the others added (at their table when it is free)."""
    stored: dict[int, Player] = {}
    tables = set(room.players.exclude(table=None).values_list("table", flat=True))
    fresh: list[tuple[int, Player]] = []
    for fp in players:
        player = matched[fp.line]
        if player is not None:
            report.players_matched += 1
            if fp.licence and not player.licence:
                player.licence = fp.licence
                player.save(update_fields=["licence"])
            stored[fp.line] = player
            continue
        report.players_added += 1
        report.added_names.append(fp.name)
        table = fp.table if fp.table is not None and fp.table not in tables else None
        tables.add(table)
        fresh.append(
            (
                fp.line,
                Player(
                    event=room,
                    name=fp.name,
                    club=fp.club,
                    licence=fp.licence,
                    category=fp.category,
                    series=fp.series if fp.series in range(1, 8) else None,
                    age_category=fp.age_category,
                    table=table,
                ),
            )
        )
    created = Player.objects.bulk_create([p for _, p in fresh], batch_size=500)
    stored.update(zip((line for line, _ in fresh), created, strict=True))
    return stored


# A ruling's own fields in the file, besides its code and its slip's word, ref and announced
# score (what ``arbiter.selectors.rooms.room_results`` writes and the import keeps).
RULING_FIELDS = (
    "move_score",
    "points",
    "warning",
    "penalty",
    "warning_penalty",
    "solo",
    "found_top",
    "rank",
    "averaged",
    "reason",
)
_STORED = ("code", *RULING_FIELDS)


def _rulings_stored(
    rulings: list[tuple[Round, Player, _FileRuling]], report: RoomImport, now: Any
) -> None:
    """The file's rulings, each unless the same one is there already (its slip too); a ruling
    that differs replaces the old one and its slip."""
    rounds = {r.pk for r, _, _ in rulings}
    old = {
        (r.round_id, r.player_id): r
        for r in Ruling.objects.filter(round_id__in=rounds).select_related("submission")
    }
    fresh: list[tuple[Round, Player, _FileRuling]] = []
    replaced: list[int] = []
    for round, player, fr in rulings:
        before = old.get((round.pk, player.pk))
        if before is None:
            report.rulings_added += 1
        elif _same(before, fr):
            report.rulings_unchanged += 1
            continue
        else:
            report.rulings_changed += 1
            replaced.append(before.pk)
        fresh.append((round, player, fr))
    if replaced:
        gone = Ruling.objects.filter(pk__in=replaced)
        keys = list(gone.values_list("round_id", "player_id"))
        gone.delete()
        for round_id, player_id in keys:
            Submission.objects.filter(round_id=round_id, player_id=player_id).delete()
    slips = Submission.objects.bulk_create(
        [
            Submission(
                round=round,
                player=player,
                word=fr.word,
                ref=fr.ref,
                announced_score=fr.announced,
                received_at=now,
                source=Submission.Source.ROOM_FILE,
            )
            for round, player, fr in fresh
            if fr.word
        ],
        batch_size=500,
    )
    slip_of = {(s.round_id, s.player_id): s for s in slips}
    Ruling.objects.bulk_create(
        [
            Ruling(
                round=round,
                player=player,
                submission=slip_of.get((round.pk, player.pk)),
                ruled_at=now,
                **{f: getattr(fr, f) for f in _STORED},
            )
            for round, player, fr in fresh
        ],
        batch_size=500,
    )


def _same(ruling: Ruling, fr: _FileRuling) -> bool:
    slip = ruling.submission
    same_slip = (slip is None and not fr.word) or (
        slip is not None
        and (slip.word, slip.ref, slip.announced_score) == (fr.word, fr.ref, fr.announced)
    )
    return same_slip and all(getattr(ruling, f) == getattr(fr, f) for f in _STORED)
