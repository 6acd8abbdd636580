"""Export benchmark (issue 7): the event workbook of a 1,000-player, 5-game event.

    .venv/bin/python bench/export.py [--players 1000] [--games 5] [--seed 1] [--folder DIR]

Simulates the event (``arbiter.simulation.simulate_event``) on a fresh SQLite file in a
temporary folder (several minutes for 1,000 players), prints the simulation time, then times
the workbook export (``web.exports.event_workbook_write``) and prints its size and
seconds. ``--folder DIR`` reuses a folder from an earlier run (its ``db.sqlite3`` already holds
the event), so the export can be timed again without simulating again.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path, help="reuse this folder's database (no simulation)")
    args = parser.parse_args()

    folder = args.folder or Path(tempfile.mkdtemp(prefix="bench-export-"))
    reuse = args.folder is not None and (folder / "db.sqlite3").exists()
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/db.sqlite3"
    os.environ["VAR_DIR"] = str(folder / "var")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    from tournament.models import Event

    print(f"folder: {folder}", flush=True)
    if reuse:
        event = Event.objects.order_by("-pk").first()
        assert event is not None, f"no event in {folder}/db.sqlite3"
        print(f"reusing event {event.pk} ({event.slug})", flush=True)
    else:
        from arbiter.simulation import simulate_event

        call_command("migrate", verbosity=0)
        t = time.perf_counter()
        summary = simulate_event(players=args.players, games=args.games, seed=args.seed)
        print(
            f"simulation: {summary['players']} players, {summary['games']} games, "
            f"{summary['rounds']} rounds in {time.perf_counter() - t:.1f} s",
            flush=True,
        )
        event = Event.objects.get(pk=summary["event"])

    from web.exports import event_workbook_write

    path = folder / "event.xlsx"
    t = time.perf_counter()
    with path.open("wb") as out:
        event_workbook_write(event=event, out=out)
    seconds = time.perf_counter() - t
    size = path.stat().st_size
    print(f"export: {path.name} {size / 1e6:.2f} MB ({size} bytes) in {seconds:.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
