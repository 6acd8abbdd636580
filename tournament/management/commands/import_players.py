"""``python manage.py import_players EVENT PATH``: a player list (.xlsx or .csv), all or nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.selectors import event_by_ref
from tournament.services.player_imports import PlayerImportError, players_import


class Command(BaseCommand):
    help = "Register the players of a .xlsx or .csv file (name, club, category, licence, table)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="the event's id or slug")
        parser.add_argument("path", type=Path, help="the .xlsx or .csv file")

    def handle(self, *args: Any, **options: Any) -> None:
        event = event_by_ref(options["event"])
        if event is None:
            raise CommandError(f"No event with the id or slug {options['event']!r}.")
        path: Path = options["path"]
        if not path.is_file():
            raise CommandError(f"No file at {path}.")
        try:
            created = players_import(
                event=event, file_name=path.name, content=path.read_bytes(), actor=None
            )
        except PlayerImportError as exc:
            for error in exc.errors:
                self.stderr.write(str(error))
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Imported {len(created)} players into {event.name}.")
