"""Player-import bombs (issue 25, items 4 and 5): the time and memory each costs before it is
refused (or read), measured on the real reader (``tournament.services.player_imports``).

    .venv/bin/python bench/imports.py [--json]

Cases: an .xlsx of a few KB whose one row is numbered 2,000,000,000 (openpyxl's own
``iter_rows`` would count to it: about 85 min of processor); a 2 MB CSV of one column of
control characters; a 2 MB UTF-16 list of 40,000 rows (read, over the player bound); a 2 MB
Shift-JIS list (refused by name); 2 MB of blank lines and a header of two million commas
(counted in C before the csv module reads a line); 5,000 players whose last sits at table
10,000 (read whole, refused at that row). Each is run in this process on a fresh SQLite database in
memory, timed (wall and processor) with its peak of Python allocations (tracemalloc).
Target: each refused or read in well under a second and a few tens of MB.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "sqlite:///:memory:")


def _xlsx_far_row() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["x"])
    out = io.BytesIO()
    book.save(out)
    sheet = (
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>'
        '<row r="2000000000"><c r="A2000000000" t="inlineStr"><is><t>Far</t></is></c></row>'
        "</sheetData></worksheet>"
    )
    rewritten = io.BytesIO()
    with zipfile.ZipFile(out) as src, zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as z:
        for item in src.infolist():
            data = sheet.encode() if item.filename == "xl/worksheets/sheet1.xml" else src.read(item)
            z.writestr(item, data)
    return rewritten.getvalue()


def cases() -> dict[str, tuple[str, bytes]]:
    rows = "".join(f"Joueur {i},Club {i % 50}\n" for i in range(40_000))
    return {
        "xlsx row 2,000,000,000": ("far.xlsx", _xlsx_far_row()),
        "csv of control characters (2 MB)": ("ctl.csv", b"name\n" + b"\x1b\x07\n" * 699_000),
        "utf-16 csv, 40,000 rows (2 MB)": (
            "u16.csv",
            ("name,club\n" + rows).encode("utf-16")[: 2 * 2**20],
        ),
        "csv of 2 MB of blank lines (19 s before)": (
            "blank.csv",
            b"name\n" + b"\n" * (2 * 2**20 - 10),
        ),
        "csv header of 2 million commas": ("commas.csv", b"name" + b"," * (2 * 2**20 - 10) + b"\n"),
        "csv of 5,000 players, 1 table at 10,000": (
            "far.csv",
            (
                "name,table\n" + "".join(f"P{i},{i}\n" for i in range(1, 5000)) + "Far,10000\n"
            ).encode(),
        ),
        "shift-jis csv (2 MB)": (
            "sj.csv",
            ("name,club\n" + "山田太郎,東京\n" * 150_000).encode("shift_jis")[: 2 * 2**20],
        ),
    }


def measure() -> list[dict[str, Any]]:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.factories import EventFactory
    from tournament.services.player_imports import PlayerImportError, players_check

    event = EventFactory()
    results = []
    for name, (file_name, content) in cases().items():
        tracemalloc.start()
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            players_check(event=event, file_name=file_name, content=content)
            outcome = "read"
        except PlayerImportError as exc:
            outcome = str(exc.errors[0])[:100]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        results.append(
            {
                "case": name,
                "bytes": len(content),
                "wall_s": round(wall, 3),
                "cpu_s": round(cpu, 3),
                "peak_mb": round(peak / 2**20, 1),
                "outcome": outcome,
            }
        )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = measure()
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"load": load, "cases": results}, ensure_ascii=False))
    else:
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        for r in results:
            print(
                f"{r['case']:36} {r['bytes']:>9} B  {r['wall_s']:6.3f} s wall  "
                f"{r['cpu_s']:6.3f} s cpu  {r['peak_mb']:6.1f} MB peak  {r['outcome']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
