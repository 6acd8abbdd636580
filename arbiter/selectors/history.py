"""A player's history and a club's season (rules.md, "A player's history", "Season ranking").

Both read the standings the events' own pages and workbooks read (``standings_game``,
``standings_event``), so their numbers add up with them by construction: a game's total, its
percentage of the top, its tops; the solos found are the rulings with a solo bonus.

A player is known across events by their licence number (``Player.licence``); a season's
players without a licence are known by their name and club (accents and case aside).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field

from arbiter.selectors.standings import standings_event, standings_game
from tournament.models import Event, Game, Player, Round, Ruling, Season
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
