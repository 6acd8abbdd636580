"""``python manage.py simulate_event --players N --games G --seed S [--json]``: a rehearsal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from arbiter.simulation import simulate_event
from tournament.vocabulary import POLICY_DEFAULTS


class Command(BaseCommand):
    help = "Create an event and play it through the arbitration with simulated players."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", type=int, default=20, help="simulated players (default 20)"
        )
        parser.add_argument("--games", type=int, default=1, help="games (default 1)")
        parser.add_argument(
            "--seed", type=int, default=1, help="seed of the draws and the players (default 1)"
        )
        parser.add_argument(
            "--round-seconds",
            type=int,
            default=POLICY_DEFAULTS.round_seconds,
            help=f"round time (default {POLICY_DEFAULTS.round_seconds})",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON summary")
        parser.add_argument(
            "--export", metavar="PATH", help="then write the event workbook (.xlsx) there"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["players"] < 1 or options["games"] < 1:
            raise CommandError("--players and --games must be at least 1")
        if options["round_seconds"] < 1:
            raise CommandError("--round-seconds must be at least 1")
        summary = simulate_event(
            players=options["players"],
            games=options["games"],
            seed=options["seed"],
            round_seconds=options["round_seconds"],
        )
        if options["export"]:
            call_command(
                "export_event",
                str(summary["event"]),
                xlsx=Path(options["export"]),
                stdout=self.stderr if options["json"] else self.stdout,
            )
        if options["json"]:
            self.stdout.write(json.dumps(summary))
            return
        self.stdout.write(
            f"Event {summary['event']} ({summary['slug']}): {summary['players']} players, "
            f"{summary['games']} game(s), {summary['rounds']} rounds, "
            f"top total {summary['top_total']}"
        )
        winner = summary["winner"]
        if winner:
            self.stdout.write(
                f"Winner: {winner['name']} with {winner['total']} ({winner['top_pct']}% of the top)"
            )
        self.stdout.write(
            "Rulings: " + ", ".join(f"{code} {n}" for code, n in summary["rulings"].items())
        )
        if summary["refused_slips"]:
            self.stdout.write(
                "Slips refused: "
                + ", ".join(f"{code} {n}" for code, n in summary["refused_slips"].items())
            )
        self.stdout.write(f"Played in {summary['seconds']} s.")
