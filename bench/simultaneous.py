"""Simultaneous-event benchmark (issue 16.1): a host and its remote rooms, each room's results
file imported, then the one ranking over every room.

Each room's file is written as a room would hand it in: ``--players`` players, every published
round of the host's first game (``--rounds``), each player's ruling (three in four hand in a
slip; a slip finds the top one time in eight, else scores part of it). The bench times, for
the first room: writing its file (from the imported room, ``room_results``), the first import,
the same file again (nothing changes); then the ranking of every player of every room, live
and on the common rounds, and what a polling screen pays while nothing has changed.

    .venv/bin/python bench/simultaneous.py [--rooms 10] [--players 1000] [--rounds 20] [--json]

Runs on a fresh SQLite file in a temporary folder, or on ``$DATABASE_URL`` when it is set
(PostgreSQL, for instance).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def room_file(planned: list[dict[str, Any]], players: int, room: int, rng: random.Random) -> bytes:
    """A room's results file for the planned rounds: ``players`` players with their rulings."""
    rounds = [
        {"number": i, "rack": r["rack"], "ref": r["ref"], "word": r["word"], "score": r["score"]}
        for i, r in enumerate(planned, start=1)
    ]
    people = []
    for n in range(players):
        rulings = []
        for r in rounds:
            if rng.random() < 0.25:
                rulings.append({"game": 1, "round": r["number"], "code": "missing"})
                continue
            top = rng.random() < 0.125
            points = r["score"] if top else rng.randrange(0, max(1, r["score"]))
            rulings.append(
                {
                    "game": 1,
                    "round": r["number"],
                    "code": "valid",
                    "word": r["word"],
                    "ref": r["ref"],
                    "announced": points,
                    "move_score": points,
                    "points": points,
                    "found_top": top,
                    "reason": f"valid: {points}",
                }
            )
        people.append(
            {
                "name": f"Player {room}-{n}",
                "club": f"Club {n % 40}",
                "licence": f"R{room}-{n}",
                "series": 1 + n % 7,
                "table": n + 1,
                "rulings": rulings,
            }
        )
    document = {
        "format": "duplicate-room-results",
        "version": 1,
        "room": {"name": f"Room {room}"},
        "games": [{"number": 1, "rounds": rounds}],
        "players": people,
    }
    return json.dumps(document, separators=(",", ":")).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--players", type=int, default=1000, help="players per room")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-simultaneous-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/db.sqlite3")
    os.environ.setdefault("VAR_DIR", str(folder / "var"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    import datetime as dt

    from django.core.management import call_command
    from django.db import connection

    from arbiter.selectors.rooms import room_results
    from arbiter.selectors.standings import (
        standings_simultaneous,
        standings_simultaneous_live,
    )
    from arbiter.services.rooms import room_results_import
    from arbiter.services.simultaneous import game_draw_whole
    from tournament.services.events import event_create
    from tournament.services.rooms import room_create

    call_command("migrate", verbosity=0)
    host = event_create(name="Bench simultaneous", starts_on=dt.date(2026, 11, 24), actor=None)
    t = time.perf_counter()
    game = game_draw_whole(event=host, actor=None, seed=2026)
    draw_s = time.perf_counter() - t
    planned = game.predrawn["rounds"][: args.rounds]
    rng = random.Random(7)
    timings: dict[str, float] = {"draw_whole_game": draw_s}
    imports = []
    size = 0
    for n in range(args.rooms):
        room = room_create(host=host, name=f"Room {n}", actor=None, remote=True)
        raw = room_file(planned, args.players, n, rng)
        t = time.perf_counter()
        room_results_import(room=room, raw=raw, actor=None)
        imports.append(time.perf_counter() - t)
        if n == 0:
            size = len(raw)
            t = time.perf_counter()
            again = room_results_import(room=room, raw=raw, actor=None)
            timings["import_same_file_again"] = time.perf_counter() - t
            assert not again.changed
            t = time.perf_counter()
            written = json.dumps(room_results(room), separators=(",", ":")).encode()
            timings["write_room_file"] = time.perf_counter() - t
            timings["written_file_mb"] = len(written) / 1e6
    timings["import_first_room"] = imports[0]
    timings["import_median_room"] = sorted(imports)[len(imports) // 2]
    t = time.perf_counter()
    cpu = time.process_time()
    ranking = standings_simultaneous(host=host)
    timings["ranking"] = time.perf_counter() - t
    timings["ranking_cpu"] = time.process_time() - cpu
    t = time.perf_counter()
    standings_simultaneous(host=host, common=True)
    timings["ranking_common"] = time.perf_counter() - t
    standings_simultaneous_live(host=host)  # what a polling screen asks: computed once...
    t = time.perf_counter()
    standings_simultaneous_live(host=host)  # ...then read while nothing changed
    timings["ranking_live_unchanged"] = time.perf_counter() - t
    report = {
        "database": connection.vendor,
        "rooms": args.rooms,
        "players_per_room": args.players,
        "rounds": len(planned),
        "ranked_players": len(ranking.rows),
        "room_file_mb": round(size / 1e6, 2),
        "seconds": {k: round(v, 3) for k, v in timings.items()},
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['database']}: {args.rooms} rooms x {args.players} players, "
            f"{len(planned)} rounds; a room's file {report['room_file_mb']} MB"
        )
        for k, v in report["seconds"].items():
            print(f"  {k:<24} {v}")
        print(f"  ranked {len(ranking.rows)} players; peak RSS {report['peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
