"""``python manage.py export_event EVENT [--xlsx PATH] [--csv PATH] [--game N]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Event, Game
from tournament.selectors import event_by_ref
from web.exports import event_workbook_write, game_workbook_write, standings_csv_write


def event_or_command_error(ref: str) -> Event:
    event = event_by_ref(ref)
    if event is None:
        raise CommandError(f"No event with the id or slug {ref!r}.")
    return event


class Command(BaseCommand):
    help = "Write an event's workbook (.xlsx) and/or its standings (.csv)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="the event's id or slug")
        parser.add_argument("--xlsx", type=Path, help="write the workbook here")
        parser.add_argument("--csv", type=Path, help="write the standings CSV here")
        parser.add_argument("--game", type=int, help="only this game's workbook (with --xlsx)")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["xlsx"] and not options["csv"]:
            raise CommandError("Say where to write: --xlsx PATH and/or --csv PATH.")
        event = event_or_command_error(options["event"])
        if options["xlsx"]:
            path: Path = options["xlsx"]
            with path.open("wb") as out:
                if options["game"] is not None:
                    game = Game.objects.filter(event=event, number=options["game"]).first()
                    if game is None:
                        raise CommandError(f"{event.name} has no game {options['game']}.")
                    game_workbook_write(game=game, out=out)
                else:
                    event_workbook_write(event=event, out=out)
            self.stdout.write(f"Wrote {path} ({path.stat().st_size} bytes).")
        if options["csv"]:
            path = options["csv"]
            with path.open("w", encoding="utf-8", newline="") as text:
                rows = standings_csv_write(event=event, out=text)
            self.stdout.write(f"Wrote {path} ({rows} players).")
