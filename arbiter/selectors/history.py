"""A player's history and a club's season (rules.md, "A player's history", "Season ranking").

Both read the standings the events' own pages and workbooks read (``standings_game``,
``standings_event``), so their numbers add up with them by construction: a game's total, its
percentage of the top, its tops; the solos found are the rulings with a solo bonus.

A player is known across events by their licence number (``Player.licence``); a season's
players without a licence are known by their name and club (accents and case aside).

Who reads which events of a licence's history (``history_events``, rules.md "A player's
history"): a licence typed at registration proves nothing (anyone may create an event and type
any licence), so a phone sees its own registration's event, and other events only where both
registrations' licences were confirmed by a list imported by someone the other event trusts: the
federation (a superuser's or the command line's import), or a director of that event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User

from arbiter.selectors.standings import standings_event, standings_game
from tournament.models import (
    Event,
    EventRole,
    Game,
    LicenceConfirmation,
    Player,
    Round,
    Ruling,
    Season,
)
from tournament.vocabulary import name_key


@dataclass(frozen=True)
class HistoryGame:
    event: Event
    game: Game
    name: str  # as registered in that event
    club: str
    rank: int
    players: int
    total: int
    top_total: int
    top_pct: float
    tops: int
    solos: int  # rounds where the player alone found the top (a solo bonus)
    rounds: int


@dataclass
class History:
    licence: str
    games: list[HistoryGame] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.games[-1].name if self.games else ""

    @property
    def total(self) -> int:
        return sum(g.total for g in self.games)

    @property
    def top_total(self) -> int:
        return sum(g.top_total for g in self.games)

    @property
    def top_pct(self) -> float:
        return round(100 * self.total / self.top_total, 2) if self.top_total else 0.0

    def trend(self) -> list[tuple[dt.date, float]]:
        """Each game's percentage of the top, oldest first (what the page's line draws)."""
        return [(g.event.starts_on, g.top_pct) for g in self.games]


def history_events(
    *, licence: str, user: User | AnonymousUser, phone: Player | None
) -> list[int] | None:
    """The events whose games ``licence``'s history shows this reader (None: every one; an
    empty list: none, which the page answers 404).

    - a superuser: every event;
    - a director or arbiter: the events they have a role in;
    - the phone of a registration holding ``licence`` (an active token): its own event; other
      events only for a confirmed licence, where the other registration's licence is confirmed
      too and the phone's confirmation is the federation's, or the director's who confirmed it
      directs that event;
    - anyone: the events whose results are public with names shown (``public_results``, not
      ``public_initials``), where the licence is confirmed.
    """
    if not licence:
        return []
    if user.is_authenticated and user.is_superuser:
        return None
    registrations = Player.objects.filter(licence=licence)
    confirmed = registrations.exclude(licence_confirmed=LicenceConfirmation.TYPED)
    events: set[int] = set(
        confirmed.filter(event__public_results=True, event__public_initials=False).values_list(
            "event_id", flat=True
        )
    )
    if user.is_authenticated:
        events |= set(
            registrations.filter(
                event_id__in=EventRole.objects.filter(user=user).values("event_id")
            ).values_list("event_id", flat=True)
        )
    if phone is not None and phone.licence == licence and phone.token_is_active:
        events.add(phone.event_id)
        if phone.licence_confirmed == LicenceConfirmation.FEDERATION:
            events |= set(confirmed.values_list("event_id", flat=True))
        elif (
            phone.licence_confirmed == LicenceConfirmation.DIRECTOR
            and phone.licence_confirmed_by_id is not None
        ):
            directed = EventRole.objects.filter(
                user_id=phone.licence_confirmed_by_id, role=EventRole.Role.DIRECTOR
            ).values("event_id")
            events |= set(
                confirmed.filter(event_id__in=directed).values_list("event_id", flat=True)
            )
    return sorted(events)


def player_history(*, licence: str, events: Iterable[int] | None = None) -> History:
    """Every game played under ``licence`` on this installation (in ``events`` only, when
    given: the events the reader may see), oldest first."""
    history = History(licence=licence)
    if not licence:
        return history
    registrations = Player.objects.filter(licence=licence).select_related("event")
    if events is not None:
        registrations = registrations.filter(event_id__in=list(events))
    for player in sorted(registrations, key=lambda p: (p.event.starts_on, p.event.pk)):
        games = Game.objects.filter(
            event=player.event, rounds__status=Round.Status.PUBLISHED
        ).distinct()
        for game in games.order_by("number"):
            standings = standings_game(game=game)
            row = standings.row_of(player.pk)
            if row is None:
                continue
            solos = Ruling.objects.filter(
                player=player, round__game=game, round__status=Round.Status.PUBLISHED, solo__gt=0
            ).count()
            history.games.append(
                HistoryGame(
                    event=player.event,
                    game=game,
                    name=player.name,
                    club=player.club,
                    rank=row.rank,
                    players=len(standings.rows),
                    total=row.total,
                    top_total=standings.top_total,
                    top_pct=row.top_pct,
                    tops=row.tops,
                    solos=solos,
                    rounds=standings.rounds,
                )
            )
    return history


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    key: str  # the licence, or the name and club
    licence: str
    name: str
    club: str
    nights: int  # nights played
    counted: tuple[float, ...]  # the percentages that count, best first
    score: float  # their sum
    by_event: dict[int, float]  # event id -> the night's percentage of the top


@dataclass(frozen=True)
class SeasonRanking:
    season: Season
    events: list[Event]
    rows: list[SeasonRow]


def season_ranking(*, season: Season) -> SeasonRanking:
    """The season's players ranked by the sum of their nights' percentages of the top (every
    night, or each one's best ``best_n``); equal scores share a rank."""
    events = list(season.events.order_by("starts_on", "pk"))
    per: dict[str, dict[int, float]] = {}
    who: dict[str, tuple[str, str, str]] = {}
    for event in events:
        standings = standings_event(event=event)
        if not standings.rounds:
            continue
        for row in standings.rows:
            key = (
                f"licence:{row.licence}"
                if row.licence
                else f"name:{name_key(row.name)[0]}|{name_key(row.club)[0]}"
            )
            per.setdefault(key, {})[event.pk] = row.top_pct
            who[key] = (row.licence, row.name, row.club)
    best = season.best_n if season.method == Season.Method.BEST else None
    entries = []
    for key, nights in per.items():
        ranked = sorted(nights.values(), reverse=True)
        counted = tuple(ranked[:best] if best else ranked)
        entries.append((round(sum(counted), 2), key, nights, counted))
    entries.sort(key=lambda e: (-e[0], name_key(who[e[1]][1])))
    rows: list[SeasonRow] = []
    for i, (score, key, nights, counted) in enumerate(entries):
        rank = rows[i - 1].rank if i and rows[i - 1].score == score else i + 1
        licence, name, club = who[key]
        rows.append(
            SeasonRow(
                rank=rank,
                key=key,
                licence=licence,
                name=name,
                club=club,
                nights=len(nights),
                counted=counted,
                score=score,
                by_event=dict(nights),
            )
        )
    return SeasonRanking(season=season, events=events, rows=rows)
