"""Simultaneous events, the remote rooms' side: a room's results file imported
(``room_results_import``). The file is read by ``arbiter.services.room_files`` (bounded, every
field checked); the whole game the rooms play is drawn by ``arbiter.services.simultaneous``.

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
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from arbiter.reasons import end_text
from arbiter.services.common import Actor
from arbiter.services.room_files import (
    MAX_PROBLEMS,
    FilePlayer,
    FileRound,
    FileRuling,
    RoomResultsError,
    listed,
    room_results_read,
)
from engine.board import Board, Layout
from engine.move import Move
from engine.tiles import sort_tiles
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Player, Round, Ruling, Submission
from tournament.models.choices import Rulebook
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.vocabulary import RulingCode


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


def planned_rounds(game: Game) -> list[dict[str, Any]]:
    """The rounds a room's game plays: its pre-drawn document's; for a game its host draws
    live (a multiplex), the host's rounds published so far (docs/design.md, "Multiplex")."""
    document = game.predrawn or {}
    if not document.get("multiplex") or game.event.host_id is None:
        return list(document.get("rounds", []))
    published = Round.objects.filter(
        game__event_id=game.event.host_id,
        game__number=game.number,
        status=Round.Status.PUBLISHED,
    ).order_by("number")
    return [
        {
            "number": r.number,
            "rack": r.rack,
            "leftover": r.leftover,
            "rejected": list(r.rejected),
            "ref": r.played_ref,
            "word": r.played_word,
            "score": r.played_score or 0,
        }
        for r in published
    ]


def _host_game_over(game: Game) -> bool:
    host = game.event.host_id
    finished = Game.objects.filter(number=game.number, status=Game.Status.FINISHED)
    return host is not None and finished.filter(event_id=host).exists()


# -- checking the file against the simultaneous ---------------------------------------------


def _rounds_checked(room: Event, rounds: list[FileRound], problems: list[str]) -> None:
    """Each round of the file is the simultaneous's round of that number, and the file holds
    at least the rounds already imported."""
    games = {g.number: g for g in room.games.all()}
    count = Counter(r.game for r in rounds)
    for r in rounds:
        game = games.get(r.game)
        planned = (planned_rounds(game) if game else [])[r.number - 1 : r.number]
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
    room: Event, players: list[FilePlayer], conflicts: list[str]
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
    players: list[FilePlayer], rounds: list[FileRound], problems: list[str]
) -> None:
    known = {(r.game, r.number) for r in rounds}
    for fp in players:
        if len(problems) > MAX_PROBLEMS:
            return  # enough said: ``listed`` says there are more
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
            % {"event": room.name},
            code="not_a_remote_room",
        )
    event_require_open(room)
    read = room_results_read(raw)
    rounds, players, problems = read.rounds, read.players, read.problems
    ruled_by = read.rulebook or Rulebook.BEFORE_2023  # a file written before the rulebooks
    if ruled_by != room.rulebook and any(fp.rulings for fp in players):
        problems.append(
            gettext(
                "The file's rulings were made by the rulebook %(file)s; %(event)s plays by "
                "%(rulebook)s: its standings would not compare with the other rooms'."
            )
            % {"file": ruled_by, "event": room.name, "rulebook": room.rulebook}
        )
    _rounds_checked(room, rounds, problems)
    _rulings_checked(players, rounds, problems)
    if problems:
        raise RoomResultsError("bad_file", listed(problems))
    conflicts: list[str] = []
    matched = _players_matched(room, players, conflicts)
    if conflicts:
        raise RoomResultsError("player_conflicts", listed(conflicts))
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
    room: Event, rounds: list[FileRound], report: RoomImport, now: Any
) -> dict[tuple[int, int], Round]:
    """The file's rounds as the room's published rounds (those not there yet are added, and
    the game's board follows)."""
    stored: dict[tuple[int, int], Round] = {}
    for game in room.games.order_by("number"):
        have = {r.number: r for r in game.rounds.filter(status=Round.Status.PUBLISHED)}
        planned = planned_rounds(game)
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
            live = (game.predrawn or {}).get("multiplex") and not _host_game_over(game)
            _board_follows(game, [have[n] for n in sorted(have)], 10**6 if live else len(planned))
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
    room: Event, players: list[FilePlayer], matched: dict[int, Player | None], report: RoomImport
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


_CHUNK = 2_000  # rulings stored at a time: memory follows the chunk, not the file


def _rulings_stored(
    rulings: list[tuple[Round, Player, FileRuling]], report: RoomImport, now: Any
) -> None:
    """The file's rulings, each unless the same one is there already (its slip too); a ruling
    that differs replaces the old one and its slip. Stored a chunk at a time, and the rulings
    already there compared as plain values, so that a file of 300,000 rulings holds no
    300,000 model objects at once."""
    rounds = {r.pk for r, _, _ in rulings}
    old = {
        (row[0], row[1]): (row[2], row[3:])
        for row in Ruling.objects.filter(round_id__in=rounds).values_list(
            "round_id", "player_id", "pk", *_COMPARED
        )
    }
    fresh: list[tuple[Round, Player, FileRuling]] = []
    replaced: list[int] = []
    for round, player, fr in rulings:
        before = old.get((round.pk, player.pk))
        if before is None:
            report.rulings_added += 1
        elif before[1] == _compared(fr):
            report.rulings_unchanged += 1
            continue
        else:
            report.rulings_changed += 1
            replaced.append(before[0])
        fresh.append((round, player, fr))
    del old
    if replaced:
        gone = Ruling.objects.filter(pk__in=replaced)
        keys = list(gone.values_list("round_id", "player_id"))
        gone.delete()
        for round_id, player_id in keys:
            Submission.objects.filter(round_id=round_id, player_id=player_id).delete()
    for start in range(0, len(fresh), _CHUNK):
        chunk = fresh[start : start + _CHUNK]
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
                for round, player, fr in chunk
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
                for round, player, fr in chunk
            ],
            batch_size=500,
        )


# A ruling as the file says it, and as stored: its slip's word, ref and announced score (empty
# and None without a slip), then its own fields.
_COMPARED = ("submission__word", "submission__ref", "submission__announced_score", *_STORED)


def _compared(fr: FileRuling) -> tuple[Any, ...]:
    slip = (fr.word, fr.ref, fr.announced) if fr.word else (None, None, None)
    return (*slip, *(getattr(fr, f) for f in _STORED))


__all__ = ["RULING_FIELDS", "RoomImport", "planned_rounds", "room_results_import"]
