"""A multiplex, the remote room's side (docs/design.md, "Multiplex"): this installation plays a
host's rounds in its own room, with its own clock, arbiters, phones and paper slips.

- ``link_create``: the director gives the host's address and the room key; the event takes the
  host's rules (``SHARED_RULES``).
- ``link_follow``: the host's feed read from the link's cursor (outbound only: the club opens
  no port); each game becomes a pre-drawn game here whose document grows round by round (the
  rack when the host draws it, the top when the host publishes it), so the round is drawn,
  opened, closed, scored and published here as any pre-drawn round (``arbiter.services``).
- ``results_enqueue``: each published round's rulings, put in the outbox (a new version when
  they change: an amendment, a slip typed late) until the host acknowledges them.
- ``outbox_push``: the outbox sent in order, each message retried with backoff (2, 4, 8... up
  to 60 s) until acknowledged; a restart loses nothing (the outbox is a table).
- ``link_status``: what the room waits for, in words, for its console.

Every call to the host carries the key in ``Authorization: Room <key>``; the key is never
written in a log, an error or the audit log.
"""

from __future__ import annotations

import hashlib
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from arbiter.selectors.rooms import room_results
from arbiter.services.common import Actor
from arbiter.services.corrections import round_annul
from arbiter.services.multiplex import FEED_FORMAT, PROTOCOL_VERSION, RESULTS_FORMAT
from tournament.errors import ApplicationError
from tournament.models import Event, Game, MultiplexLink, MultiplexOutbox, Round
from tournament.selectors import event_round_in_play
from tournament.services.audit import audit_record
from tournament.services.closing import event_require_open
from tournament.services.events import event_policy_update

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 5.0
BACKOFF_FIRST = 2.0
BACKOFF_MAX = 60.0
BUSY_SECONDS = 60.0  # a tick's claim on its link, if its worker dies mid-way
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class LinkError(Exception):
    """The host could not be reached, or refused: ``code`` is the host's code or ours."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def _url(link_url: str, path: str, query: dict[str, Any] | None = None) -> str:
    url = link_url.rstrip("/") + path
    return url + ("?" + urllib.parse.urlencode(query) if query else "")


def host_call(
    url: str, key: str, path: str, *, query: dict[str, Any] | None = None, body: bytes | None = None
) -> dict[str, Any]:
    """One request to the host's API with the room key; its JSON answer, or ``LinkError``."""
    request = urllib.request.Request(
        _url(url, path, query),
        data=body,
        method="POST" if body is not None else "GET",
        headers={
            "Authorization": f"Room {key}",
            "Accept": "application/json",
            **({"Content-Type": "application/json"} if body is not None else {}),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            answer = json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        try:
            said = json.loads(exc.read() or b"{}")
        except ValueError:
            said = {}
        detail = str(said.get("detail") or exc.reason)
        errors = said.get("errors") or []
        if errors:
            detail += " " + " ".join(str(e) for e in errors[:3])
        raise LinkError(str(said.get("code") or f"http_{exc.code}"), detail, exc.code) from None
    except (OSError, ValueError) as exc:  # refused, timed out, name unknown, not JSON
        raise LinkError(
            "host_unreachable",
            gettext("The host cannot be reached: %(why)s.") % {"why": type(exc).__name__},
        ) from None
    if not isinstance(answer, dict):
        raise LinkError("bad_answer", gettext("The host's answer is not a JSON object."))
    return answer


# -- set-up ---------------------------------------------------------------------------------


def _url_checked(url: str) -> str:
    url = url.strip()
    parts = urllib.parse.urlsplit(url)
    if not parts.hostname or parts.scheme not in {"https", "http"}:
        raise ApplicationError(
            gettext("The host's address is a web address such as https://centre.example.org/."),
            code="bad_host_url",
        )
    if parts.scheme == "http" and parts.hostname not in LOOPBACK:
        raise ApplicationError(
            gettext(
                "The host's address must start with https:// (the room key travels with each "
                "request); http:// is for an installation on this machine only."
            ),
            code="host_url_not_https",
        )
    return url.rstrip("/")


@transaction.atomic
def link_create(*, event: Event, host_url: str, key: str, actor: Actor) -> MultiplexLink:
    """Link ``event`` to a host's multiplex: the host is asked (its rules, its name) with the
    key; the event takes the host's rules. Given again, the address and key change and the
    feed goes on from where it was."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event_require_open(event)
    if event.host_id is not None or event.rooms.exists():
        raise ApplicationError(
            gettext(
                "%(event)s is part of a simultaneous event on this installation: a multiplex "
                "room is an event of its own."
            )
            % {"event": event.name},
            code="link_not_for_a_simultaneous",
        )
    existing = MultiplexLink.objects.filter(event=event).first()
    if existing is None and event.games.exists():
        raise ApplicationError(
            gettext(
                "%(event)s already has games: a multiplex room plays the host's games only. "
                "Start another event."
            )
            % {"event": event.name},
            code="link_event_has_games",
        )
    url = _url_checked(host_url)
    key = key.strip()
    if not key:
        raise ApplicationError(gettext("Paste the room key the host gave."), code="key_required")
    try:
        feed = host_call(url, key, "/api/v1/multiplex/feed", query={"after": 0, "limit": 1})
    except LinkError as exc:
        raise ApplicationError(
            gettext("The host refused or cannot be reached: %(why)s") % {"why": exc.message},
            code="host_refused",
        ) from None
    if feed.get("format") != FEED_FORMAT or feed.get("version") != PROTOCOL_VERSION:
        raise ApplicationError(
            gettext("That address does not answer as a multiplex host (protocol version 1)."),
            code="not_a_host",
        )
    _rules_take(event, feed.get("rules") or {}, actor)
    link, _ = MultiplexLink.objects.update_or_create(
        event=event,
        defaults={
            "host_url": url,
            "key": key,
            "host_event": str(feed.get("host", {}).get("name", ""))[:200],
            "room_name": str(feed.get("room", {}).get("name", ""))[:200],
            "last_contact_at": timezone.now(),
            "last_error": "",
            "last_error_code": "",
            "failures": 0,
        },
    )
    audit_record(
        event=event,
        action="arbiter.multiplex.linked",
        actor=actor,
        data={"host_url": url, "host_event": link.host_event, "room": link.room_name},
    )
    return link


def _rules_take(event: Event, rules: dict[str, Any], actor: Actor) -> None:
    """The host's rules on this event; a word list uploaded on the host (``upload:<id>``) names
    nothing here: the event keeps its own, which its director makes the same list."""
    from tournament.services.events import SHARED_RULES

    values = {k: v for k, v in rules.items() if k in SHARED_RULES}
    if str(values.get("lexicon", "")).startswith("upload:"):
        values.pop("lexicon")
    changed = {k: v for k, v in values.items() if getattr(event, k) != v}
    if changed:
        event_policy_update(event=event, actor=actor, **changed)


# -- following the host's feed --------------------------------------------------------------


def _claimed(link: MultiplexLink) -> bool:
    now = timezone.now()
    claimed = (
        MultiplexLink.objects.filter(pk=link.pk)
        .exclude(busy_until__gt=now)
        .update(busy_until=now + timedelta(seconds=BUSY_SECONDS))
    )
    return bool(claimed)


def _release(link: MultiplexLink) -> None:
    MultiplexLink.objects.filter(pk=link.pk).update(busy_until=None)


def link_tick(link: MultiplexLink) -> dict[str, int]:
    """One turn of the link (a Celery task runs it every few seconds): the feed followed, the
    published rounds' results put in the outbox, the outbox pushed. Two turns never run at once
    on one link."""
    if not _claimed(link):
        return {"skipped": 1}
    try:
        applied = link_follow(link)
        queued = results_enqueue(link)
        reached = link.last_error_code != "host_unreachable"
        sent = outbox_push(link) if reached else 0  # the next turn tries again
    finally:
        _release(link)
    return {"applied": applied, "queued": queued, "sent": sent}


def _link_failed(link: MultiplexLink, exc: LinkError) -> None:
    MultiplexLink.objects.filter(pk=link.pk).update(
        last_error=exc.message[:2000], last_error_code=exc.code[:64], failures=link.failures + 1
    )
    link.refresh_from_db()
    log.warning("multiplex link of event %s: %s (%s)", link.event_id, exc.code, exc.status)


def link_follow(link: MultiplexLink) -> int:
    """Read the host's feed from the link's cursor and apply each message in order (each in
    its own transaction with the cursor, so a cut or a crash resumes exactly after the last
    one applied). How many were applied."""
    applied = 0
    while True:
        try:
            feed = host_call(
                link.host_url, link.key, "/api/v1/multiplex/feed", query={"after": link.cursor}
            )
        except LinkError as exc:
            _link_failed(link, exc)
            return applied
        applied += feed_apply(link, feed)
        if not feed.get("more"):
            return applied


def feed_apply(link: MultiplexLink, feed: dict[str, Any]) -> int:
    """One answer of the host's feed applied: each message in its own transaction with the
    cursor; the link marked in contact; the round time followed while no round is in play."""
    applied = 0
    for message in feed.get("messages", []):
        with transaction.atomic():
            _apply(link, message)
            link.cursor = int(message["seq"])
            MultiplexLink.objects.filter(pk=link.pk).update(cursor=link.cursor)
        applied += 1
    link.cursor = max(link.cursor, int(feed.get("cursor", link.cursor)))
    MultiplexLink.objects.filter(pk=link.pk).update(
        cursor=link.cursor,
        last_contact_at=timezone.now(),
        last_error="",
        last_error_code="",
        failures=0,
    )
    rules = feed.get("rules") or {}
    if rules.get("round_seconds") and event_round_in_play(event_id=link.event_id) is None:
        seconds = int(rules["round_seconds"])
        Event.objects.filter(pk=link.event_id).exclude(round_seconds=seconds).update(
            round_seconds=seconds
        )
    return applied


def _game_of(link: MultiplexLink, message: dict[str, Any]) -> Game:
    event = Event.objects.get(pk=link.event_id)
    number = int(message["game"])
    game = Game.objects.select_for_update().filter(event=event, number=number).first()
    if game is not None:
        return game
    game = Game.objects.create(
        event=event,
        number=number,
        source=Game.Source.PREDRAWN,
        predrawn={"multiplex": True, "rounds": [], "end": ""},
        seed=0,
        tile_set=message.get("tile_set") or event.tile_set,
        lexicon=event.lexicon,
        board_layout=message.get("board_layout") or event.board_layout,
        formula=message.get("formula") or Game._meta.get_field("formula").default,
    )
    audit_record(
        event=event,
        game=game,
        action="tournament.game.created",
        data={"number": number, "source": game.source, "multiplex": True},
    )
    return game


def _apply(link: MultiplexLink, message: dict[str, Any]) -> None:
    kind = message.get("type")
    game = _game_of(link, message)
    document = dict(game.predrawn or {"multiplex": True, "rounds": [], "end": ""})
    rounds: list[dict[str, Any]] = list(document.get("rounds", []))
    index = int(message.get("round", 0)) - 1
    local = (
        game.rounds.exclude(status=Round.Status.ANNULLED).filter(number=index + 1).first()
        if index >= 0
        else None
    )
    if kind == "round":
        planned = {
            "number": index + 1,
            "rack": message["rack"],
            "leftover": message.get("leftover", ""),
            "rejected": list(message.get("rejected", [])),
        }
        if index == len(rounds):
            rounds.append(planned)
        elif (
            index < len(rounds)
            and rounds[index].get("rack") != planned["rack"]
            and (local is None or local.status != Round.Status.PUBLISHED)
        ):
            rounds[index : index + 1] = [planned]  # the host drew again after an annulment
    elif kind == "top" and index < len(rounds):
        rounds[index] = {
            **rounds[index],
            "ref": message["ref"],
            "word": message["word"],
            "score": message["score"],
        }
        if local is not None and local.status == Round.Status.SCORED:
            Round.objects.filter(pk=local.pk).update(
                played_ref=message["ref"],
                played_word=message["word"],
                played_score=message["score"],
                played_by=Round.PlayedBy.PREDRAWN,
            )
    elif kind == "annulled" and index < len(rounds) and not rounds[index].get("word"):
        if rounds[index].get("rack") == message.get("rack"):
            del rounds[index:]
            if local is not None and local.status in Round.IN_PLAY:
                round_annul(
                    round=local,
                    reason=gettext("Annulled by the host of the multiplex."),
                    actor=None,
                )
    elif kind == "end":
        document["end"] = str(message.get("reason", ""))
    document["rounds"] = rounds
    game.predrawn = document
    game.save(update_fields=["predrawn"])


# -- results back to the host -------------------------------------------------------------


def _digest(content: dict[str, Any]) -> str:
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def results_enqueue(link: MultiplexLink) -> int:
    """Each published round whose rulings are not in the outbox as they are now gets a new
    version there (1 at its publication, 2, 3... at each change). How many were queued."""
    event = Event.objects.get(pk=link.event_id)
    if not Round.objects.filter(game__event=event, status=Round.Status.PUBLISHED).exists():
        return 0
    whole = room_results(event)
    room = {k: v for k, v in whole["room"].items() if k != "exported_at"}
    last: dict[tuple[int, int], tuple[int, str]] = {}
    for g, r, v, sha in MultiplexOutbox.objects.filter(link=link).values_list(
        "game_number", "round_number", "version", "sha256"
    ):
        if v > last.get((g, r), (0, ""))[0]:
            last[(g, r)] = (v, sha)
    queued = 0
    for game in whole["games"]:
        for played in game["rounds"]:
            g, r = game["number"], played["number"]
            content = {
                "format": whole["format"],
                "version": whole["version"],
                "room": room,
                "games": [{"number": g, "rounds": [played]}],
                "players": [
                    {
                        **{k: v for k, v in p.items() if k != "rulings"},
                        "rulings": [x for x in p["rulings"] if (x["game"], x["round"]) == (g, r)],
                    }
                    for p in whole["players"]
                ],
            }
            sha = _digest(content)
            version, before = last.get((g, r), (0, ""))
            if sha == before:
                continue
            header = {"format": RESULTS_FORMAT, "game": g, "round": r, "version": version + 1}
            MultiplexOutbox.objects.get_or_create(
                link=link,
                game_number=g,
                round_number=r,
                version=version + 1,
                defaults={"payload": {**content, "multiplex": header}, "sha256": sha},
            )
            queued += 1
    return queued


def _backoff(attempts: int) -> float:
    return float(min(BACKOFF_FIRST * 2 ** max(attempts - 1, 0), BACKOFF_MAX))


def outbox_push(link: MultiplexLink, *, now: datetime | None = None) -> int:
    """Send the outbox in order until one is not acknowledged (it waits for its next try, and
    the ones after it wait behind it). How many were acknowledged."""
    sent = 0
    for item in MultiplexOutbox.objects.filter(link=link, acked_at__isnull=True).order_by("pk"):
        now = timezone.now()
        if item.next_try_at > now:
            break
        body = json.dumps(item.payload, ensure_ascii=False, separators=(",", ":")).encode()
        try:
            host_call(link.host_url, link.key, "/api/v1/multiplex/results", body=body)
        except LinkError as exc:
            attempts = item.attempts + 1
            MultiplexOutbox.objects.filter(pk=item.pk).update(
                attempts=attempts,
                next_try_at=now + timedelta(seconds=_backoff(attempts)),
                last_error=f"{exc.code}: {exc.message}"[:2000],
            )
            if exc.code == "host_unreachable":
                _link_failed(link, exc)
            break
        MultiplexOutbox.objects.filter(pk=item.pk).update(
            acked_at=timezone.now(), attempts=item.attempts + 1, last_error=""
        )
        sent += 1
    return sent


def links_tick() -> dict[str, int]:
    """Every link's turn (the Celery beat task)."""
    totals = {"links": 0, "applied": 0, "queued": 0, "sent": 0}
    for link in MultiplexLink.objects.filter(event__status__in=("planned", "running")):
        done = link_tick(link)
        totals["links"] += 1
        for k in ("applied", "queued", "sent"):
            totals[k] += done.get(k, 0)
    return totals


# -- what the room's console says -----------------------------------------------------------


@dataclass(frozen=True)
class LinkStatus:
    connected: bool
    host_event: str
    room_name: str
    last_contact_at: datetime | None
    error: str
    waiting: list[str]  # sentences: what the room waits for
    outbox_pending: int


OFFLINE_SECONDS = 30


def link_status(link: MultiplexLink) -> LinkStatus:
    now = timezone.now()
    seen = link.last_contact_at
    connected = (
        not link.last_error_code
        and seen is not None
        and (now - seen).total_seconds() <= OFFLINE_SECONDS
    )
    waiting: list[str] = []
    for game in link.event.games.order_by("number"):
        document = game.predrawn or {}
        planned = document.get("rounds", [])
        rounds = game.rounds.exclude(status=Round.Status.ANNULLED)
        current = rounds.order_by("-number").first()
        if game.status == Game.Status.FINISHED:
            continue
        if current is None or current.status == Round.Status.PUBLISHED:
            nxt = (current.number if current else 0) + 1
            if nxt > len(planned) and not document.get("end"):
                waiting.append(
                    gettext("Game %(game)d: waiting for round %(round)d's rack from the host.")
                    % {"game": game.number, "round": nxt}
                )
        elif current.number <= len(planned) and not planned[current.number - 1].get("word"):
            waiting.append(
                gettext(
                    "Game %(game)d, round %(round)d: the room plays it; its top comes when the "
                    "host publishes it (the round is published here after that)."
                )
                % {"game": game.number, "round": current.number}
            )
    pending = MultiplexOutbox.objects.filter(link=link, acked_at__isnull=True)
    first = pending.order_by("pk").first()
    if first is not None:
        waiting.append(
            gettext(
                "%(count)d result messages wait to be acknowledged by the host, the first game "
                "%(game)d round %(round)d (attempt %(attempts)d)."
            )
            % {
                "count": pending.count(),
                "game": first.game_number,
                "round": first.round_number,
                "attempts": first.attempts,
            }
        )
    return LinkStatus(
        connected=connected,
        host_event=link.host_event,
        room_name=link.room_name,
        last_contact_at=seen,
        error=link.last_error,
        waiting=waiting,
        outbox_pending=pending.count(),
    )


def multiplex_status(*, event_id: int) -> LinkStatus | None:
    """What the event's console says of its multiplex link; None for an event with none."""
    link = MultiplexLink.objects.select_related("event").filter(event_id=event_id).first()
    return None if link is None else link_status(link)


__all__ = [
    "LinkError",
    "LinkStatus",
    "host_call",
    "link_create",
    "link_follow",
    "link_status",
    "link_tick",
    "links_tick",
    "multiplex_status",
    "outbox_push",
    "results_enqueue",
]
