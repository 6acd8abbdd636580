"""The interchange files against the real programs (issue 23; docs/interchange.md, "Checked
against Eliot" and "Checked against Quackle"). Not part of the test suite: the programs are
built outside the repository (``../shared/tools/eliot/build.sh``; Quackle's libraries with
CMake and a small driver over ``QuackleIO::GCGIO``); each part is skipped, with the reason,
when its program is not given.

1. **Export**: ``--games`` events are played here (``simulate_event``: slips with wrong scores,
   wrong references, misspelt words, late and missing slips; solos with 16 players or more;
   some events charge warnings otherwise than Eliot; some rulings amended to the round's
   average), each game's ``eliot.xml`` is loaded by ``eliottxt`` with every dictionary given
   (``c FILE``, ``a S``), and Eliot's total of each player compared with the standings here
   (a player the file says Eliot cannot count is compared with the total the file says);
   Eliot saves it again (``s``), the product imports that file, and its racks, tops and
   scores must be the game's. With ``--sigles-py``, Eliot's ``extras/reports/sigles.py`` run
   on Eliot's own save must write the product's ``sigles.txt`` byte for byte. With
   ``--quackle``, the driver reads the game's ``tops.gcg``: the top player's total must be
   the top total, the room's 0, and no line an error.
2. **Import**: every ``*.xml`` of ``--eliot-files`` (save games written by real Eliot) is
   loaded by ``eliottxt`` again, then imported here as a pre-drawn game; its racks, tops and
   scores must be the file's.

    .venv/bin/python bench/interchange_real.py --eliot /tmp/eliot-build \\
        [--dawg enable.dawg --dawg enable-full.dawg] [--games 20] [--eliot-files DIR] \\
        [--sigles-py ELIOT_SRC/extras/reports/sigles.py] \\
        [--quackle DRIVER --quackle-data QUACKLE_SRC/data] [--json]

Runs on a fresh SQLite file in a temporary folder. Prints what each program printed that was
compared, and the counts.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
_SCORE = re.compile(r"^Score (\d+):\s+(-?\d+)\s*$", re.MULTILINE)


def eliottxt(prefix: Path, dawg: str, folder: Path, commands: list[str]) -> str:
    """Run eliottxt on ``commands`` in ``folder`` (file names are plain there) and return what
    it printed."""
    run = subprocess.run(
        [str(prefix / "bin" / "eliottxt"), str(prefix / dawg), "1"],
        input="\n".join([*commands, "q", "q", "q"]) + "\n",
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=120,
        check=False,
    )
    return run.stdout + run.stderr


def eliot_load(prefix: Path, dawg: str, folder: Path, name: str, save: str = "") -> dict[str, Any]:
    """Eliot loads ``name``: each player's total (``a S``), and the game saved again."""
    out = eliottxt(prefix, dawg, folder, [f"c {name}", "a S", *([f"s {save}"] if save else [])])
    loaded = "Error loading the game" not in out and (
        "mode arbitrage" in out or "mode duplicate" in out
    )
    totals = {int(i): int(t) for i, t in _SCORE.findall(out)}
    error = next((line for line in out.splitlines() if "Error" in line or "rror" in line), "")
    return {"loaded": loaded and bool(totals), "totals": totals, "error": error, "out": out}


def sigles_py(script: Path, save: Path) -> bytes:
    """Eliot's own SIGLES report (Python 2) run under Python 3: ``file`` is ``open``."""
    code = (
        "import builtins, sys; builtins.file = open; sys.argv = sys.argv[1:]; "
        f"sys.path.insert(0, {str(script.parent)!r}); "
        f"exec(compile(open({str(script)!r}).read(), 'sigles.py', 'exec'))"
    )
    out = save.with_suffix(".sigles")
    subprocess.run(
        [sys.executable, "-c", code, "sigles.py", "-s", str(save), "-o", str(out)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return out.read_bytes()


def quackle(driver: Path, data: Path, alphabet: str, gcg: Path) -> dict[str, Any]:
    run = subprocess.run(
        [str(driver), str(data), alphabet, str(gcg)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    totals = {m[0]: int(m[1]) for m in re.findall(r"^total (\S+) .* (-?\d+)$", run.stdout, re.M)}
    errors = [
        line
        for line in (run.stdout + run.stderr).splitlines()
        if "INVALID" in line or "error" in line.lower()
    ]
    return {"totals": totals, "errors": errors, "rc": run.returncode}


def rounds_of(document: dict[str, Any]) -> list[tuple[str, str, str, int]]:
    return [
        ("".join(sorted(r["rack"])), r["ref"], r["word"].upper(), r["score"])
        for r in document["rounds"]
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eliot", type=Path, help="Eliot's build prefix (bin/eliottxt)")
    parser.add_argument("--dawg", action="append", help="dictionaries under the prefix")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--eliot-files", type=Path, help="save games written by real Eliot")
    parser.add_argument("--sigles-py", type=Path, help="Eliot's extras/reports/sigles.py")
    parser.add_argument("--quackle", type=Path, help="the GCGIO driver")
    parser.add_argument("--quackle-data", type=Path, help="Quackle's data folder")
    parser.add_argument("--keep", type=Path, help="keep the files written here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    dawgs = args.dawg or ["enable.dawg", "enable-full.dawg"]
    skipped: list[str] = []
    if args.eliot is None or not (args.eliot / "bin" / "eliottxt").exists():
        skipped.append("Eliot: no --eliot prefix with bin/eliottxt (build.sh builds one)")
        args.eliot = None
    if args.quackle is None or not args.quackle.exists() or args.quackle_data is None:
        skipped.append("Quackle: no --quackle driver and --quackle-data")
        args.quackle = None
    if args.sigles_py is not None and not args.sigles_py.exists():
        skipped.append(f"SIGLES: no {args.sigles_py}")
        args.sigles_py = None

    folder = Path(tempfile.mkdtemp(prefix="bench-interchange-"))
    work = args.keep or folder / "files"
    work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/db.sqlite3")
    os.environ.setdefault("VAR_DIR", str(folder / "var"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command

    from arbiter.selectors.interchange import eliot_bytes, eliot_export, gcg_text, sigles_bytes
    from arbiter.selectors.standings import standings_game
    from arbiter.services.corrections import ruling_amend
    from arbiter.services.interchange import GameImportError, game_import_predrawn
    from arbiter.simulation import simulate_event
    from tournament.models import Event, Game, Round, Ruling
    from tournament.services.events import event_create, event_policy_update

    call_command("migrate", verbosity=0)
    today = dt.date.today()
    report: dict[str, Any] = {"skipped": skipped, "export": [], "import": []}
    counts = {
        "exported": 0,
        "loaded_in_eliot": 0,
        "totals_equal": 0,
        "totals_said_in_file": 0,
        "totals_wrong": 0,
        "round_trip_same": 0,
        "sigles_identical": 0,
        "gcg_quackle_right": 0,
        "eliot_files": 0,
        "eliot_files_reloaded": 0,
        "eliot_files_imported_same": 0,
    }
    problems: list[str] = []
    for n in range(args.games):
        players = (3, 5, 8, 12, 17, 20)[n % 6]
        summary = simulate_event(players=players, games=1, seed=100 + n)
        event = Event.objects.get(pk=summary["event"])
        if n % 5 == 3:  # an event charging warnings otherwise than Eliot
            event_policy_update(event=event, actor=None, warnings_free=1, warning_penalty=3)
        game = Game.objects.get(event=event, number=1)
        zeros = list(
            Ruling.objects.filter(round__game=game, points=0)
            .exclude(code="missing")
            .order_by("round__number")[:2]
        )
        for ruling in zeros[: n % 3]:
            ruling_amend(ruling=ruling, reason="second zero in a row", actor=None, averaged=True)
        export = eliot_export(game)
        gaps = {g.table: g for g in export.gaps}
        name = f"g{n}.xml"
        (work / name).write_bytes(eliot_bytes(game))
        counts["exported"] += 1
        standings = {row.table: row.total for row in standings_game(game=game).rows}
        tables = [p.table for p in export.game.players]
        row: dict[str, Any] = {"file": name, "players": players, "gaps": len(gaps)}
        if args.eliot is not None:
            every = True
            for dawg in dawgs:
                saved = f"g{n}_{dawg.split('.')[0].replace('-', '_')}.xml"
                loaded = eliot_load(args.eliot, dawg, work, name, save=saved)
                row[dawg] = {"loaded": loaded["loaded"], "error": loaded["error"]}
                if not loaded["loaded"]:
                    every = False
                    problems.append(f"{name} with {dawg}: {loaded['error'] or 'not loaded'}")
                    continue
                for pid, table in enumerate(tables):
                    said = loaded["totals"].get(pid)
                    want = gaps[table].eliot if table in gaps else standings.get(table, 0)
                    if said != want:
                        counts["totals_wrong"] += 1
                        problems.append(
                            f"{name} {dawg}: table {table}: Eliot {said}, expected {want}"
                        )
                row[f"{dawg} totals"] = loaded["totals"]
            if every:
                counts["loaded_in_eliot"] += 1
                wrong_here = sum(1 for p in problems if p.startswith(f"{name} "))
                if not wrong_here:
                    counts["totals_equal"] += len(tables) - len(gaps)
                    counts["totals_said_in_file"] += len(gaps)
            resaved = work / f"g{n}_{dawgs[0].split('.')[0].replace('-', '_')}.xml"
            if resaved.exists():
                other = event_create(name=f"Round trip {n}", starts_on=event.starts_on, actor=None)
                try:
                    imported, _read = game_import_predrawn(
                        event=other,
                        file_name=resaved.name,
                        content=resaved.read_bytes(),
                        actor=None,
                    )
                except GameImportError as exc:
                    problems.append(f"{resaved.name}: {exc.message} {exc.lines()[:3]}")
                else:
                    want = [
                        (
                            "".join(sorted(r.rack)),
                            r.played_ref,
                            r.played_word.upper(),
                            r.played_score,
                        )
                        for r in game.rounds.filter(status=Round.Status.PUBLISHED).order_by(
                            "number"
                        )
                    ]
                    if rounds_of(imported.predrawn or {}) == want:
                        counts["round_trip_same"] += 1
                    else:
                        problems.append(f"{resaved.name}: the round trip changed the rounds")
                if args.sigles_py is not None:
                    theirs = sigles_py(args.sigles_py, resaved)
                    ours = sigles_bytes(event=event, game=game)
                    differing = [
                        (a, b)
                        for a, b in zip(ours.splitlines(), theirs.splitlines(), strict=False)
                        if a != b
                    ]
                    said = all(int(a.split(b'","')[0].strip(b'"')) in gaps for a, _b in differing)
                    if ours == theirs:
                        counts["sigles_identical"] += 1
                    elif said and len(ours.splitlines()) == len(theirs.splitlines()):
                        row["sigles_differs_only_where_said"] = len(differing)
                    else:
                        problems.append(f"{name}: SIGLES differs: {differing[:2]}")
        if args.quackle is not None:
            gcg = work / f"g{n}.gcg"
            gcg.write_text(gcg_text(game), encoding="utf-8")
            read = quackle(args.quackle, args.quackle_data, "english", gcg)
            top_total = standings_game(game=game).top_total
            row["quackle"] = read["totals"]
            if read["totals"] == {"top": top_total, "room": 0} and not read["errors"]:
                counts["gcg_quackle_right"] += 1
            else:
                problems.append(f"{gcg.name}: Quackle read {read['totals']} {read['errors'][:2]}")
        report["export"].append(row)

    if args.eliot_files is not None and args.eliot is not None:
        for path in sorted(args.eliot_files.glob("*.xml")):
            counts["eliot_files"] += 1
            plain = work / f"real_{path.name}"
            shutil.copyfile(path, plain)
            for dawg in dawgs:  # the build the file was written with (its WordNb)
                again = eliot_load(args.eliot, dawg, work, plain.name)
                if again["loaded"]:
                    break
            if again["loaded"]:
                counts["eliot_files_reloaded"] += 1
            event = event_create(name=f"Import {path.stem}", starts_on=today, actor=None)
            content = path.read_bytes()
            try:
                imported, read = game_import_predrawn(
                    event=event, file_name=path.name, content=content, actor=None
                )
            except GameImportError as exc:
                problems.append(f"{path.name}: {exc.message} {exc.lines()[:3]}")
                continue
            assert read.eliot is not None
            want = [
                (
                    "".join(sorted(t.rack.tiles if t.rack else "")),
                    t.top.coord if t.top else "",
                    t.top.word.upper() if t.top else "",
                    t.top.points if t.top else 0,
                )
                for t in read.eliot.played
            ]
            same = rounds_of(imported.predrawn or {}) == want and sum(w[3] for w in want) == (
                imported.predrawn or {}
            ).get("total")
            counts["eliot_files_imported_same"] += int(same)
            report["import"].append(
                {
                    "file": path.name,
                    "mode": read.eliot.mode,
                    "players": len(read.eliot.players),
                    "unnamed": len(read.unnamed),
                    "rounds": len(want),
                    "put_back": sum(1 for t in read.eliot.played if t.rack and t.rack.reset),
                    "reloaded_by_eliot": again["loaded"],
                    "same": same,
                }
            )
    report["counts"] = counts
    report["problems"] = problems
    if args.json:
        print(json.dumps(report))
    else:
        for line in skipped:
            print("skipped:", line)
        for key, value in counts.items():
            print(f"  {key:<28} {value}")
        for line in problems:
            print("PROBLEM", line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
