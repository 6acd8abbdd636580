"""Standings (reads): per game and per event, from the rulings of published rounds.

total = points + solos - penalties (``ruling_total``); the gap is the total minus the top's
total (the sum of the tops played), the percentage is the total over the top's total; equal
totals share a rank (1, 2, 2, 4). A category, a club, a series or an age category (any of them
together: ``PlayerFilter``) is a filter: ranks are then counted within it, the overall rank
kept beside. Amended rulings count as amended, so the standings follow every correction.
A withdrawn player stays in the standings with the points already earned, marked withdrawn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum

from tournament.models import Event, Game, Player, Round, Ruling
from tournament.vocabulary import ruling_total


@dataclass(frozen=True)
class PlayerFilter:
    """Who the standings show (None: anyone); ranks are counted among them."""

    category: str | None = None
    club: str | None = None
    series: int | None = None
    age_category: str | None = None

    def keeps(self, player: Player) -> bool:
        return (
            (self.category is None or player.category == self.category)
            and (self.club is None or player.club == self.club)
            and (self.series is None or player.series == self.series)
            and (self.age_category is None or player.age_category == self.age_category)
        )

    @property
    def is_empty(self) -> bool:
        return self == PlayerFilter()


@dataclass(frozen=True)
class StandingRow:
    rank: int
    overall_rank: int
    player_id: int
    name: str
    club: str
    category: str
    table: int | None
    points: int
    solos: int
    penalties: int
    warnings: int
    tops: int
    total: int
    gap: int
    top_pct: float
    withdrawn: bool = False  # the player withdrew: shown as such, with the points earned
    licence: str = ""
    series: int | None = None
    age_category: str = ""


@dataclass(frozen=True)
class Standings:
    top_total: int
    rounds: int
    rows: list[StandingRow]

    def row_of(self, player_id: int) -> StandingRow | None:
        return next((r for r in self.rows if r.player_id == player_id), None)


def _ranked(totals: list[tuple[int, Player]]) -> list[int]:
    ranks: list[int] = []
    for i, (total, _) in enumerate(totals):
        ranks.append(ranks[i - 1] if i and totals[i - 1][0] == total else i + 1)
    return ranks


def _standings(
    players: QuerySet[Player],
    rulings: QuerySet[Ruling],
    rounds: QuerySet[Round],
    shown_only: PlayerFilter,
) -> Standings:
    sums = {
        row["player"]: row
        for row in rulings.values("player").annotate(
            points=Sum("points"),
            solos=Sum("solo"),
            penalties=Sum("penalty"),
            warning_penalties=Sum("warning_penalty"),
            warnings=Count("pk", filter=Q(warning=True)),
            tops=Count("pk", filter=Q(found_top=True)),
        )
    }
    top_total = rounds.aggregate(t=Sum("played_score"))["t"] or 0
    everyone = []
    for p in players:
        s = sums.get(p.pk, {})
        total = ruling_total(
            points=s.get("points") or 0,
            solo=s.get("solos") or 0,
            penalty=s.get("penalties") or 0,
            warning_penalty=s.get("warning_penalties") or 0,
        )
        everyone.append((total, p))
    everyone.sort(key=lambda tp: (-tp[0], tp[1].name.lower(), tp[1].pk))
    overall = dict(zip((p.pk for _, p in everyone), _ranked(everyone), strict=True))
    shown = [tp for tp in everyone if shown_only.keeps(tp[1])]
    rows = []
    for rank, (total, p) in zip(_ranked(shown), shown, strict=True):
        s = sums.get(p.pk, {})
        rows.append(
            StandingRow(
                rank=rank,
                overall_rank=overall[p.pk],
                player_id=p.pk,
                name=p.name,
                club=p.club,
                category=p.category,
                table=p.table,
                points=s.get("points") or 0,
                solos=s.get("solos") or 0,
                penalties=(s.get("penalties") or 0) + (s.get("warning_penalties") or 0),
                warnings=s.get("warnings") or 0,
                tops=s.get("tops") or 0,
                total=total,
                gap=total - top_total,
                top_pct=round(100.0 * total / top_total, 2) if top_total else 0.0,
                withdrawn=p.withdrawn_at is not None,
                licence=p.licence,
                series=p.series,
                age_category=p.age_category,
            )
        )
    return Standings(top_total=top_total, rounds=rounds.count(), rows=rows)


def ranks_within(
    standings: Standings, group: Callable[[StandingRow], object | None]
) -> dict[int, int]:
    """{player id: rank among the players of the same group} (a series, an age category, a
    club: ``group`` gives it; None leaves the player out), equal totals sharing a rank as in
    the standings themselves."""
    groups: dict[object, list[StandingRow]] = {}
    for row in standings.rows:
        key = group(row)
        if key is not None:
            groups.setdefault(key, []).append(row)
    ranks: dict[int, int] = {}
    for rows in groups.values():
        previous: StandingRow | None = None
        for i, row in enumerate(rows):  # the rows are in standings order: best first
            same = previous is not None and previous.total == row.total
            ranks[row.player_id] = ranks[previous.player_id] if same and previous else i + 1
            previous = row
    return ranks


def standings_game(
    *, game: Game, category: str | None = None, only: PlayerFilter | None = None
) -> Standings:
    published = Round.objects.filter(game=game, status=Round.Status.PUBLISHED)
    rulings = Ruling.objects.filter(round__in=published)
    shown = _filter(category, only)
    return _standings(Player.objects.filter(event_id=game.event_id), rulings, published, shown)


def standings_event(
    *, event: Event, category: str | None = None, only: PlayerFilter | None = None
) -> Standings:
    published = Round.objects.filter(game__event=event, status=Round.Status.PUBLISHED)
    rulings = Ruling.objects.filter(round__in=published)
    shown = _filter(category, only)
    return _standings(Player.objects.filter(event=event), rulings, published, shown)


def _filter(category: str | None, only: PlayerFilter | None) -> PlayerFilter:
    only = only or PlayerFilter()
    if category is not None:
        only = PlayerFilter(category, only.club, only.series, only.age_category)
    return only
