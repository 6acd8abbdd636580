"""Time and memory of every importer of another program's file on hostile files (issues 23 and
25; docs/reliability.md, "Hostile files"): Eliot's XML, the engine's JSON (a pre-drawn game) and
a room's results file, each given deep nesting, a DOCTYPE, 50 MB, a file cut short, Latin-1,
UTF-16, a file of newlines, a million objects; and, for the room results, a valid file of
about 40 MB (the case that held 0.9 GB, then took 87 s to import: now refused by its count of
objects) and a valid file at the bound (1,250 players of 20 rounds: 25,000 rulings) imported.

Each case runs in a child process of its own (on a fresh SQLite database, DEBUG off): wall and CPU
seconds of the service call (``game_import_predrawn``, ``room_results_import``) and the peak
memory of the child above what it held before the call, with what the refusal said.

    .venv/bin/python bench/interchange_bombs.py [--json] [--case NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MB = 1024 * 1024
REAL = ROOT / "tests" / "data" / "eliot" / "real" / "arbitration_named_1019.xml"


def _room_file(players: int, rounds: int) -> bytes:
    """A valid room results file: ``players`` players with a ruling per round."""
    people = []
    for n in range(players):
        rulings = [
            {
                "game": 1,
                "round": r,
                "code": "valid",
                "word": "QUARTZ",
                "ref": "H8",
                "announced": 60,
                "move_score": 60,
                "points": 60,
                "found_top": False,
                "reason": "valid: 60 points, the score announced",
            }
            for r in range(1, rounds + 1)
        ]
        people.append(
            {"name": f"Player {n}", "licence": f"L{n}", "table": n + 1, "rulings": rulings}
        )
    games = [{"number": 1, "rounds": []}]
    return json.dumps(
        {"format": "duplicate-room-results", "version": 1, "games": games, "players": people}
    ).encode()


def cases() -> dict[str, tuple[str, Callable[[], bytes]]]:
    """Each case's kind and how to make its file (made only in the child that runs it)."""
    real = REAL.read_bytes()
    room = b'{"format": "duplicate-room-results", "version": 1, "games": [], "players": ['
    return {
        "eliot: nested 200,000 deep": ("predrawn", lambda: b"<EliotGame>" + b"<a>" * 200_000),
        "eliot: DOCTYPE": (
            "predrawn",
            lambda: b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY a "aaaaaaaaaa">]><EliotGame/>',
        ),
        "eliot: 50 MB": ("predrawn", lambda: b"<" * (50 * MB)),
        "eliot: cut short": ("predrawn", lambda: real[: len(real) // 2]),
        "eliot: Latin-1": ("predrawn", lambda: real.replace(b"Dupont", "Dupönt".encode("latin-1"))),
        "eliot: UTF-16": ("predrawn", lambda: real.decode("utf-8").encode("utf-16")),
        "eliot: 2 MB of newlines": (
            "predrawn",
            lambda: b"<EliotGame>" + b"\n" * (2 * MB - 30) + b"</EliotGame>",
        ),
        "eliot: 300,000 elements": ("predrawn", lambda: b"<EliotGame><Game>" + b"<a/>" * 300_000),
        "json: nested 2 MB deep": ("predrawn", lambda: b"[" * (2 * MB)),
        "json: 50 MB": ("predrawn", lambda: b" " * (50 * MB)),
        "json: cut short": (
            "predrawn",
            lambda: b'{"tiles": "en", "rounds": [' + b'{"a": 1},' * 1000,
        ),
        "json: UTF-16": ("predrawn", lambda: '{"tiles": "en"}'.encode("utf-16")),
        "json: 2 MB of newlines": ("predrawn", lambda: b"\n" * (2 * MB - 10)),
        "json: a million [] pairs": ("predrawn", lambda: b"[" + b"[]," * 600_000 + b"[]]"),
        "room: nested 40 MB deep": ("room", lambda: b"[" * (40 * MB)),
        "room: 50 MB": ("room", lambda: b" " * (50 * MB)),
        "room: 13 million objects": ("room", lambda: room + b"{}," * (13 * MB) + b"{}]}"),
        "room: cut short": ("room", lambda: room + b'{"name": "A", "rulings": [' * 1),
        "room: Latin-1": ("room", lambda: room + '{"name": "Zoé"}]}'.encode("latin-1")),
        "room: 40 MB of newlines": ("room", lambda: b"\n" * (40 * MB - 10)),
        "room: a valid file of 40 MB": ("room", lambda: b""),  # made in the child
        "room: a valid file at the bound": ("room", lambda: b""),  # made in the child
    }


def run_case(name: str) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-bombs-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/db.sqlite3")
    os.environ.setdefault("VAR_DIR", str(folder / "var"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    # As in production: with DEBUG on, Django keeps every query's SQL (a bulk insert of
    # 300,000 rulings is tens of MB of it).
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)
    import django

    django.setup()
    from django.core.management import call_command

    from arbiter.services.interchange import GameImportError, game_import_predrawn
    from arbiter.services.room_files import RoomResultsError
    from arbiter.services.rooms import room_results_import
    from tournament.models import Game, Ruling
    from tournament.services.events import event_create
    from tournament.services.rooms import room_create

    call_command("migrate", verbosity=0)
    import datetime as dt

    host = event_create(name="Host", starts_on=dt.date(2026, 11, 25), actor=None)
    room = room_create(host=host, name="Room", actor=None, remote=True)
    kind, make = cases()[name]
    content = make()
    if not content:  # a valid file of the simultaneous's own game: imported whole
        from arbiter.services.simultaneous import game_draw_whole
        from bench.simultaneous import room_file

        game = game_draw_whole(event=host, actor=None, seed=2026)
        players = 16_000 if "40 MB" in name else 1_250
        made = Path(tempfile.gettempdir()) / f"bench-bombs-room-file-{players}.json"
        if os.environ.get("BENCH_MAKE_ROOM_FILE"):  # the file made in a process of its own
            planned = (game.predrawn or {})["rounds"][:20]
            made.write_bytes(room_file(planned, players, 0, random.Random(7)))
            return {"case": name, "made": str(made)}
        content = made.read_bytes()
    # tracemalloc slows an import tenfold (25,000 rulings: 14 s of processor traced, 3.8 s
    # not): the valid files are measured by their RSS only.
    traced = len(content) < 30 * MB and "valid" not in name
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if traced:
        tracemalloc.start()
    wall, cpu = time.perf_counter(), time.process_time()
    said = ""
    try:
        if kind == "predrawn":
            game_import_predrawn(event=host, file_name="x", content=content, actor=None)
        else:
            room_results_import(room=room, raw=content, actor=None)
    except GameImportError as exc:
        said = exc.lines()[0]
    except RoomResultsError as exc:
        said = exc.errors[0]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    allocated = tracemalloc.get_traced_memory()[1] if traced else 0
    tracemalloc.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    loads = None
    if name == "room: a valid file of 40 MB":  # what json.loads of the same file holds
        tracemalloc.start()
        json.loads(content)
        loads = round(tracemalloc.get_traced_memory()[1] / MB, 1)
        tracemalloc.stop()
    return {
        "case": name,
        "file_mb": round(len(content) / MB, 2),
        "seconds": round(wall, 3),
        "cpu_seconds": round(cpu, 3),
        "peak_mb_above_start": round((peak - before) / 1024, 1),
        "peak_rss_mb": round(peak / 1024, 1),
        "python_peak_mb": round(allocated / MB, 1) if traced else None,
        **({"json_loads_python_peak_mb": loads} if loads is not None else {}),
        "refused": said[:160],
        "stored": Game.objects.count() + Ruling.objects.count(),
        "rulings_stored": Ruling.objects.count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--case", help="run one case in this process (what the parent does)")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case)))
        return 0
    for made in ("room: a valid file of 40 MB", "room: a valid file at the bound"):
        subprocess.run(
            [sys.executable, __file__, "--case", made],
            env={**os.environ, "BENCH_MAKE_ROOM_FILE": "1"},
            check=True,
            capture_output=True,
            timeout=600,
        )
    results = []
    for name in cases():
        child = subprocess.run(
            [sys.executable, __file__, "--case", name],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        lines = [line for line in child.stdout.splitlines() if line.startswith("{")]
        results.append(
            json.loads(lines[-1]) if lines else {"case": name, "error": child.stderr[-500:]}
        )
    load = os.getloadavg()
    report = {"load": [round(x, 2) for x in load], "cases": results}
    if args.json:
        print(json.dumps(report))
    else:
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        for r in results:
            if "error" in r:
                print(f"  {r['case']:<32} ERROR {r['error']}")
                continue
            print(
                f"  {r['case']:<32} {r['file_mb']:>6} MB {r['seconds']:>7} s "
                f"{r['python_peak_mb']} MB (RSS peak {r['peak_rss_mb']} MB, "
                f"+{r['peak_mb_above_start']} MB) "
                f"stored {r['stored']}  {r['refused'][:70]}"
                + (
                    f"  [json.loads: {r['json_loads_python_peak_mb']} MB]"
                    if "json_loads_python_peak_mb" in r
                    else ""
                )
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
