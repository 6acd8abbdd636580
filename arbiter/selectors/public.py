"""Reads for the audience's page (rules.md, "Results for the audience"): what the room's screen
shows, for anyone, and nothing more.

The event's current game: its board, the rack in play (as the screen shows it), the clock's
deadline, every published round's top with how many found it and who had the solo, and the
game's and the event's standings from published rounds. A player is shown by name, or by
initials when the director chose so (``Event.public_initials``); no club, licence, table,
token or id leaves here, nor any slip or ruling before publication.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from arbiter.selectors.standings import Standings, standings_event, standings_game
from tournament.models import Event, Game, Round, Ruling
from tournament.selectors import game_current, round_current
from tournament.typography import percent_text


def initials(name: str) -> str:
    """``Anne-Marie de la Tour`` -> ``A.-M. d. l. T.``: each word's first letter, hyphens kept."""
    words = []
    for word in name.split():
        parts = [p[:1].upper() + "." for p in word.split("-") if p]
        words.append("-".join(parts))
    return " ".join(words)


def _shown(event: Event) -> Any:
    return initials if event.public_initials else (lambda name: name)


def _rows(standings: Standings, event: Event) -> list[dict[str, Any]]:
    say = _shown(event)
    return [
        {
            "rank": row.rank,
            "name": say(row.name),
            "total": row.total,
            "gap": row.gap,
            "top_pct": row.top_pct,
            "top_pct_text": percent_text(row.top_pct, event.language),
        }
        for row in standings.rows
    ]


def public_results(*, event: Event, now: datetime) -> dict[str, Any]:
    """The audience's page's state (what ``web.public`` caches per version of the event)."""
    game: Game | None = game_current(event_id=event.pk)
    state: dict[str, Any] = {"event": event.name, "warning_seconds": event.warning_seconds}
    if game is None:
        return state | {"game": None}
    current = round_current(game_id=game.pk)
    in_play = current is not None and current.status != Round.Status.PUBLISHED
    published = list(
        Round.objects.filter(game=game, status=Round.Status.PUBLISHED).order_by("number")
    )
    say = _shown(event)
    found: dict[int, int] = {}
    solos: dict[int, str] = {}
    for number, solo, name in Ruling.objects.filter(
        round__in=published, found_top=True
    ).values_list("round__number", "solo", "player__name"):
        found[number] = found.get(number, 0) + 1
        if solo:
            solos[number] = say(name)
    cumulative = 0
    tops = []
    for r in published:
        cumulative += r.played_score or 0
        tops.append(
            {
                "round": r.number,
                "rack": r.rack,
                "ref": r.played_ref,
                "word": r.played_word,
                "score": r.played_score,
                "cumulative": cumulative,
                "found": found.get(r.number, 0),
                "solo": solos.get(r.number, ""),
            }
        )
    game_standings = standings_game(game=game)
    event_standings = standings_event(event=event)
    several = event_standings.rounds > game_standings.rounds  # other games count too
    return state | {
        "game": game.number,
        "board": game.board,
        "board_layout": game.board_layout,
        "tile_set": game.tile_set,
        "round": None if current is None else current.number,
        "status": None if current is None else current.status,
        "rack": current.rack if in_play and current is not None else "",
        "deadline": current.deadline.isoformat()
        if in_play and current is not None and current.deadline is not None
        else None,
        "paused_remaining": current.paused_remaining.total_seconds()
        if in_play and current is not None and current.paused_remaining is not None
        else None,
        "tops": tops,
        "standings_rounds": game_standings.rounds,
        "standings": _rows(game_standings, event) if game_standings.rounds else [],
        "event_standings": _rows(event_standings, event) if several else [],
        "finished": game.status == Game.Status.FINISHED,
    }
