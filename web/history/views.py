"""A player's history and a club's season ranking (rules.md), with their CSV and workbooks.

- ``/players/<licence>/history/`` (``.csv``, ``.xlsx``): the games played under a licence, in
  the events this reader may see (``arbiter.selectors.history.history_events``: the phone's own
  event, others only for a confirmed licence; the staff's events; a superuser every event;
  public results with names); none: 404.
- ``/seasons/``: one's seasons and a new one; ``/seasons/<slug>/``: the ranking and its
  settings (its owner, or a superuser), ``ranking.xlsx``, ``print/``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from arbiter.selectors.history import (
    History,
    SeasonRanking,
    history_events,
    player_history,
    season_ranking,
)
from tournament.errors import ApplicationError
from tournament.models import Season
from tournament.selectors import player_by_token
from tournament.services.seasons import events_directed, season_create, season_update
from web.authentication import play_cookie_token
from web.permissions import AuthenticatedHttpRequest, public, signed_in
from web.sheet_writer import About, Row, Sheet, csv_write, workbook_write


def _visible_events(request: HttpRequest, licence: str) -> list[int] | None:
    """The events whose games the reader may see in ``licence``'s history (None: all)."""
    user: User | AnonymousUser = request.user
    token = play_cookie_token(request)
    events = history_events(
        licence=licence, user=user, phone=player_by_token(token=token) if token else None
    )
    if events == []:
        raise Http404(gettext("No such history, or it is not yours to see."))
    return events


def _history(request: HttpRequest, licence: str) -> History:
    return player_history(licence=licence, events=_visible_events(request, licence))


def _trend_points(history: History, width: int = 600, height: int = 120) -> str:
    """The percentages of the top as an SVG polyline's points (0 % at the bottom)."""
    values = [pct for _, pct in history.trend()]
    if len(values) < 2:
        return ""
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - max(0.0, min(pct, 100.0)) * height / 100:.1f}"
        for i, pct in enumerate(values)
    )


@public
def history_page(request: HttpRequest, licence: str) -> HttpResponse:
    history = _history(request, licence)
    return render(
        request,
        "history/history.html",
        {"history": history, "trend": _trend_points(history)},
    )


def history_sheet(history: History) -> Sheet:
    def rows() -> Iterator[Row]:
        for g in history.games:
            yield (
                g.event.starts_on,
                g.event.name,
                g.game.number,
                g.name,
                g.club,
                g.rank,
                g.players,
                g.rounds,
                g.total,
                g.top_total,
                g.top_pct,
                g.tops,
                g.solos,
            )

    return Sheet(
        title=gettext("History"),
        header=[
            gettext("Date"),
            gettext("Event"),
            gettext("Game"),
            gettext("Player"),
            gettext("Club"),
            gettext("Rank"),
            gettext("Players"),
            gettext("Rounds"),
            gettext("Total"),
            gettext("Top total"),
            gettext("Top %"),
            gettext("Tops"),
            gettext("Solos"),
        ],
        rows=rows(),
        percents=(10,),
        notes={12: gettext("Rounds where the player alone found the top (a solo bonus).")},
    )


@public
def history_csv(request: HttpRequest, licence: str) -> HttpResponse:
    history = _history(request, licence)
    out = io.StringIO()
    out.write("\ufeff")
    csv_write(history_sheet(history), out)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="history-{licence}.csv"'
    return response


@public
def history_xlsx(request: HttpRequest, licence: str) -> HttpResponse:
    history = _history(request, licence)
    out = io.BytesIO()
    workbook_write([history_sheet(history)], out, about=About(title=history.name or licence))
    response = HttpResponse(
        out.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="history-{licence}.xlsx"'
    return response


# --- seasons -------------------------------------------------------------------------------


def _season_or_404(request: AuthenticatedHttpRequest, slug: str) -> Season:
    season = get_object_or_404(Season, slug=slug)
    if season.owner_id != request.user.pk and not request.user.is_superuser:
        raise Http404(gettext("No such season, or it is not yours."))
    return season


def _form_values(request: HttpRequest) -> dict[str, Any]:
    ids = [int(v) for v in request.POST.getlist("events") if v.isdigit() and len(v) < 12]
    best = request.POST.get("best_n", "").strip()
    return {
        "event_ids": ids,
        "method": request.POST.get("method", Season.Method.SUM),
        "best_n": int(best) if best.isdigit() and len(best) < 6 else None,
    }


@signed_in
def season_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    error = ""
    if request.method == "POST":
        try:
            season = season_create(
                name=request.POST.get("name", ""), owner=request.user, **_form_values(request)
            )
        except ApplicationError as exc:
            error = exc.message
        else:
            return redirect("history:season", slug=season.slug)
    seasons = Season.objects.all() if request.user.is_superuser else request.user.seasons.all()
    return render(
        request,
        "history/seasons.html",
        {
            "seasons": seasons,
            "events": events_directed(request.user),
            "methods": Season.Method.choices,
            "error": error,
        },
        status=400 if error else 200,
    )


@signed_in
def season_page(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    season = _season_or_404(request, slug)
    error = ""
    if request.method == "POST":
        try:
            season_update(season=season, actor=request.user, **_form_values(request))
        except ApplicationError as exc:
            error = exc.message
        else:
            return redirect("history:season", slug=slug)
    ranking = season_ranking(season=season)
    return render(
        request,
        "history/season.html",
        {
            "ranking": ranking,
            "season": season,
            "events": events_directed(request.user),
            "chosen": {e.pk for e in ranking.events},
            "methods": Season.Method.choices,
            "error": error,
            "rows": _season_rows(ranking),
        },
        status=400 if error else 200,
    )


def _season_rows(ranking: SeasonRanking) -> list[dict[str, Any]]:
    return [
        {"row": row, "nights": [row.by_event.get(e.pk) for e in ranking.events]}
        for row in ranking.rows
    ]


@signed_in
def season_print(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    season = _season_or_404(request, slug)
    ranking = season_ranking(season=season)
    return render(
        request,
        "history/season_print.html",
        {"ranking": ranking, "season": season, "rows": _season_rows(ranking)},
    )


def season_sheet(ranking: SeasonRanking) -> Sheet:
    events = ranking.events

    def rows() -> Iterator[Row]:
        for row in ranking.rows:
            yield (
                row.rank,
                row.name,
                row.licence,
                row.club,
                row.nights,
                row.score,
                *(row.by_event.get(e.pk) for e in events),
            )

    header = [
        gettext("Rank"),
        gettext("Player"),
        gettext("Licence"),
        gettext("Club"),
        gettext("Nights"),
        gettext("Score"),
        *(f"{e.starts_on:%Y-%m-%d} {e.name}" for e in events),
    ]
    return Sheet(
        title=gettext("Season"),
        header=header,
        rows=rows(),
        formats={5: "0.00"},  # a sum of percentages, not one
        percents=tuple(range(6, 6 + len(events))),
        notes={
            5: gettext(
                "The sum of the percentages of the top that count (every night, or the best N)."
            )
        },
    )


@signed_in
def season_xlsx(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    season = _season_or_404(request, slug)
    out = io.BytesIO()
    workbook_write(
        [season_sheet(season_ranking(season=season))], out, about=About(title=season.name)
    )
    response = HttpResponse(
        out.getvalue(),
        content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
    response["Content-Disposition"] = f'attachment; filename="{season.slug}.xlsx"'
    return response
