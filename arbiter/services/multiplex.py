"""A multiplex, the host's side (docs/design.md, "Multiplex"): the host draws each round live;
each remote room, played on another installation, follows the host's feed with its room key
and sends back each round's rulings, idempotent by (room, game, round, version).

- ``room_key_issue`` / ``room_key_revoke``: the host's director gives a remote room its key
  (only its SHA-256 is kept; issuing a new one revokes the old) or takes it back.
- ``room_key_authenticated``: the key a request presents, or a coded refusal.
- ``multiplex_feed``: the host's rounds after a cursor, read from its audit log (append-only,
  so the cursor, an audit entry's id, says exactly what was sent and resumes after a cut).
- ``room_round_accept``: one round's rulings of the key's room, checked as a room results
  file is (``arbiter.services.rooms``) and stored as that room's; a replay, an older version
  or a message arriving out of order changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from arbiter.services.common import Actor
from arbiter.services.room_files import RoomResultsError, listed, room_results_read
from arbiter.services.rooms import (
    RoomImport,
    _players_matched,
    _players_stored,
    _rulings_checked,
    _rulings_stored,
)
from engine.tiles import sort_tiles
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, Event, Game, RoomKey, RoomReceipt, Round
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.services.events import SHARED_RULES
from tournament.services.games import game_copy

FEED_FORMAT = "duplicate-multiplex-feed"
RESULTS_FORMAT = "duplicate-multiplex-results"
PROTOCOL_VERSION = 1
FEED_LIMIT = 200  # messages in one answer; the room asks again from the last cursor
RESULTS_MAX_BYTES = 256 * 1024  # a JSON body's limit (DATA_UPLOAD_MAX_MEMORY_SIZE): 700 players
KEY_PREFIX = "mxk1_"

# The host's audit actions the feed turns into messages.
FEED_ACTIONS = (
    "tournament.game.created",
    "arbiter.round.drawn",
    "arbiter.round.annulled",
    "arbiter.round.published",
    "arbiter.game.finished",
)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


# -- keys ---------------------------------------------------------------------------------


def _require_remote_room(room: Event) -> None:
    if room.host_id is None or not room.remote:
        raise ApplicationError(
            gettext(
                "%(event)s is not a remote room of a simultaneous event: a room key is for a "
                "room played on another installation."
            )
            % {"event": room.name},
            code="not_a_remote_room",
        )


@transaction.atomic
def room_key_issue(*, room: Event, actor: Actor) -> tuple[RoomKey, str]:
    """A new key for ``room`` (the old one, if any, is revoked): the key itself is returned
    once, to be given to the room's director; only its SHA-256 is kept."""
    room = Event.objects.select_for_update().get(pk=room.pk)
    _require_remote_room(room)
    event_require_open(room)
    now = timezone.now()
    RoomKey.objects.filter(room=room, revoked_at__isnull=True).update(revoked_at=now)
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    stored = RoomKey.objects.create(room=room, key_hash=key_hash(key), hint=key[-4:], issued_at=now)
    audit_record(
        event=room, action="arbiter.room.key_issued", actor=actor, data={"hint": stored.hint}
    )
    return stored, key


@transaction.atomic
def room_key_revoke(*, room: Event, actor: Actor) -> int:
    """Revoke the room's keys: its installation's next request is refused. How many were."""
    _require_remote_room(room)
    revoked = RoomKey.objects.filter(room=room, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if revoked:
        audit_record(event=room, action="arbiter.room.key_revoked", actor=actor, data={})
    return revoked


def room_key_authenticated(key: str) -> RoomKey:
    """The room key presented, active; a coded refusal otherwise (the key is never said)."""
    found = (
        RoomKey.objects.select_related("room__host").filter(key_hash=key_hash(key.strip())).first()
    )
    if found is None:
        raise ApplicationError(
            gettext("Unknown room key: ask the host's director for the room's key."),
            code="unknown_room_key",
        )
    if found.revoked_at is not None:
        raise ApplicationError(
            gettext("This room key was revoked by the host's director: ask them for a new one."),
            code="room_key_revoked",
        )
    return found


SEEN_EVERY_SECONDS = 5  # a poll that changes nothing writes its time this often at most


def _seen(key: RoomKey, **fields: Any) -> None:
    """The key heard from: written when something changed, or every few seconds (a poll is
    otherwise a read only: a hundred rooms polling make no queue of writes)."""
    now = timezone.now()
    changed = any(getattr(key, name) != value for name, value in fields.items())
    recent = key.last_seen_at is not None and (now - key.last_seen_at).total_seconds() < (
        SEEN_EVERY_SECONDS
    )
    if changed or not recent:
        RoomKey.objects.filter(pk=key.pk).update(last_seen_at=now, **fields)


# -- the feed -----------------------------------------------------------------------------


def host_rules(host: Event) -> dict[str, Any]:
    """The rules every room plays by (``SHARED_RULES``), as the feed gives them."""
    return {name: getattr(host, name) for name in SHARED_RULES}


def _message(entry: AuditEntry, host: Event) -> dict[str, Any] | None:
    data = entry.data or {}
    game = entry.game
    if game is None:
        return None
    base: dict[str, Any] = {"seq": entry.pk, "game": game.number}
    if entry.action == "tournament.game.created":
        return {
            **base,
            "type": "game",
            "formula": game.formula,
            "tile_set": game.tile_set,
            "lexicon": game.lexicon,
            "board_layout": game.board_layout,
        }
    if entry.action == "arbiter.game.finished":
        return {**base, "type": "end", "reason": str(data.get("reason", ""))}
    round = entry.round
    if round is None:
        return None
    base["round"] = round.number
    if entry.action == "arbiter.round.drawn":
        return {
            **base,
            "type": "round",
            "rack": data.get("rack", round.rack),
            "leftover": data.get("leftover", round.leftover),
            "rejected": list(data.get("rejected", round.rejected)),
            "seconds": host.round_seconds,
        }
    if entry.action == "arbiter.round.annulled":
        return {**base, "type": "annulled", "rack": round.rack}
    return {
        **base,
        "type": "top",
        "rack": round.rack,
        "ref": data.get("ref", round.played_ref),
        "word": data.get("word", round.played_word),
        "score": data.get("score", round.played_score),
    }


def multiplex_feed(*, key: RoomKey, after: int, limit: int = FEED_LIMIT) -> dict[str, Any]:
    """The host's rounds as it draws them, after the cursor ``after``: each game's set-up, each
    round's rack and time, its annulment, its retained top, each game's end, in the host's
    order. ``cursor`` is the last message's (or ``after``): the room asks from it next."""
    room = key.room
    host = room.host
    assert host is not None  # a key is only issued to a remote room
    entries = (
        AuditEntry.objects.filter(event=host, pk__gt=after, action__in=FEED_ACTIONS)
        .select_related("game", "round")
        .order_by("pk")[:limit]
    )
    messages = [m for m in (_message(e, host) for e in entries) if m is not None]
    cursor = max([after, *(e.pk for e in entries)])
    _seen(key, last_cursor=cursor)
    return {
        "format": FEED_FORMAT,
        "version": PROTOCOL_VERSION,
        "host": {"name": host.name, "slug": host.slug, "status": host.status},
        "room": {"name": room.name, "slug": room.slug},
        "rules": host_rules(host),
        "messages": messages,
        "cursor": cursor,
        "more": len(entries) == limit,
    }


# -- results ------------------------------------------------------------------------------


@dataclass
class Receipt:
    status: str  # "accepted", "duplicate" or "stale"
    version: int  # the version now held for the round
    report: RoomImport | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "version": self.version}
        if self.report is not None:
            r = self.report
            data.update(
                players_added=r.players_added,
                players_matched=r.players_matched,
                rulings_added=r.rulings_added,
                rulings_changed=r.rulings_changed,
                rulings_unchanged=r.rulings_unchanged,
            )
        return data


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999_999:
        raise ApplicationError(
            gettext("The message's %(field)s is not a whole number from 1 to 999,999.")
            % {"field": name},
            code="bad_message",
        )
    return int(value)


def _header(raw: bytes) -> tuple[int, int, int]:
    if len(raw) > RESULTS_MAX_BYTES:
        raise ApplicationError(
            gettext("A round's results are at most %(limit)d bytes.")
            % {"limit": RESULTS_MAX_BYTES},
            code="too_large",
        )
    try:
        document = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        document = None
    header = document.get("multiplex") if isinstance(document, dict) else None
    if not isinstance(header, dict) or header.get("format") != RESULTS_FORMAT:
        raise ApplicationError(
            gettext(
                "Not a round's results: the body is a room results file with %(header)s."
            )  # the JSON's own names, not words to translate
            % {
                "header": f'"multiplex": {{"format": "{RESULTS_FORMAT}", '
                '"game", "round", "version"}'
            },
            code="bad_message",
        )
    return (
        _whole(header.get("game"), "game"),
        _whole(header.get("round"), "round"),
        _whole(header.get("version"), "version"),
    )


def _host_round(host: Event, game: int, number: int) -> Round:
    found = (
        Round.objects.filter(
            game__event=host, game__number=game, number=number, status=Round.Status.PUBLISHED
        )
        .select_related("game")
        .first()
    )
    if found is None:
        raise ApplicationError(
            gettext(
                "Game %(game)d, round %(round)d is not a published round of %(host)s: its "
                "results cannot be taken."
            )
            % {"game": game, "round": number, "host": host.name},
            code="round_unknown",
        )
    return found


def _round_stored(room: Event, played: Round, now: datetime) -> Round:
    """The host's published round as the room's (its game copied when the room lacks it)."""
    game = room.games.filter(number=played.game.number).first()
    if game is None:
        game = game_copy(game=played.game, room=room)
    if game.status == Game.Status.SETUP:
        game.status = Game.Status.RUNNING
        game.save(update_fields=["status"])
    round, _ = Round.objects.get_or_create(
        game=game,
        number=played.number,
        status=Round.Status.PUBLISHED,
        defaults={
            "rack": played.rack,
            "leftover": played.leftover,
            "rejected": list(played.rejected),
            "drawn_at": now,
            "closed_at": now,
            "scored_at": now,
            "published_at": now,
            "tops": [
                {"ref": played.played_ref, "word": played.played_word, "score": played.played_score}
            ],
            "played_ref": played.played_ref,
            "played_word": played.played_word,
            "played_score": played.played_score,
            "played_by": Round.PlayedBy.PREDRAWN,
        },
    )
    return round


@transaction.atomic
def room_round_accept(*, key: RoomKey, raw: bytes) -> Receipt:
    """One round's rulings of the key's room (a room results file holding that one round, and
    ``"multiplex": {"format", "game", "round", "version"}``). A version already held with the
    same content, or an older one, changes nothing; the same version with other content is
    refused; a newer one adds and corrects rulings as a newer results file does."""
    game_number, round_number, version = _header(raw)
    room = Event.objects.select_for_update().select_related("host").get(pk=key.room_id)
    host = room.host
    assert host is not None
    event_require_open(room)
    digest = hashlib.sha256(raw).hexdigest()
    receipt = RoomReceipt.objects.filter(
        room=room, game_number=game_number, round_number=round_number
    ).first()
    if receipt is not None and version < receipt.version:
        _seen(key)
        return Receipt("stale", receipt.version)
    if receipt is not None and version == receipt.version:
        if receipt.sha256 != digest:
            raise ApplicationError(
                gettext(
                    "Version %(version)d of game %(game)d, round %(round)d was received with "
                    "other content: an amendment is sent as a new version."
                )
                % {"version": version, "game": game_number, "round": round_number},
                code="version_conflict",
            )
        _seen(key)
        return Receipt("duplicate", version)
    played = _host_round(host, game_number, round_number)
    read = room_results_read(raw, first_round=round_number)
    problems = list(read.problems)
    if [(r.game, r.number) for r in read.rounds] != [(game_number, round_number)]:
        problems.append(
            gettext("The message must hold game %(game)d, round %(round)d and no other round.")
            % {"game": game_number, "round": round_number}
        )
    for r in read.rounds:
        if (sort_tiles(r.rack), r.ref, r.word, r.score) != (
            sort_tiles(played.rack),
            played.played_ref,
            played.played_word,
            played.played_score,
        ):
            problems.append(
                gettext(
                    "Game %(game)d, round %(round)d: the room played %(rack)s -> %(word)s "
                    "%(ref)s %(score)d; the host played %(want_rack)s -> %(want_word)s "
                    "%(want_ref)s %(want_score)d."
                )
                % {
                    "game": r.game,
                    "round": r.number,
                    "rack": r.rack,
                    "word": r.word,
                    "ref": r.ref,
                    "score": r.score,
                    "want_rack": played.rack,
                    "want_word": played.played_word,
                    "want_ref": played.played_ref,
                    "want_score": played.played_score or 0,
                }
            )
    if read.rulebook and read.rulebook != room.rulebook:
        problems.append(
            gettext(
                "The rulings were made by the rulebook %(file)s; %(event)s plays by "
                "%(rulebook)s: its standings would not compare with the other rooms'."
            )
            % {"file": read.rulebook, "event": room.name, "rulebook": room.rulebook}
        )
    _rulings_checked(read.players, read.rounds, problems)
    if problems:
        raise RoomResultsError("bad_message", listed(problems))
    conflicts: list[str] = []
    matched = _players_matched(room, read.players, conflicts)
    if conflicts:
        raise RoomResultsError("player_conflicts", listed(conflicts))
    now = timezone.now()
    report = RoomImport()
    round = _round_stored(room, played, now)
    stored = _players_stored(room, read.players, matched, report)
    _rulings_stored(
        [(round, stored[fp.line], fr) for fp in read.players for fr in fp.rulings], report, now
    )
    RoomReceipt.objects.update_or_create(
        room=room,
        game_number=game_number,
        round_number=round_number,
        defaults={"version": version, "sha256": digest, "received_at": now},
    )
    _seen(key, last_results_at=now)
    audit_record(
        event=room,
        game=round.game,
        round=round,
        action="arbiter.room.round_received",
        data={
            "game": game_number,
            "round": round_number,
            "version": version,
            "sha256": digest,
            "rulings_added": report.rulings_added,
            "rulings_changed": report.rulings_changed,
        },
    )
    return Receipt("accepted", version, report)


__all__ = [
    "FEED_FORMAT",
    "PROTOCOL_VERSION",
    "RESULTS_FORMAT",
    "Receipt",
    "host_rules",
    "multiplex_feed",
    "room_key_authenticated",
    "room_key_issue",
    "room_key_revoke",
    "room_round_accept",
]
