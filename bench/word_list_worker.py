"""Word-list benchmark through the product: a list uploaded as a director would (checked in the
request), compiled by a real Celery worker, then loaded by a fresh process as the web loads it.

    .venv/bin/python bench/word_list_worker.py --list PATH [--tiles fr|en] [--json]

Everything runs in a temporary folder (SQLite, the embedded folder broker, the engine's cache):
no outside service. It reports the upload's check (seconds in the request), the worker's compile
(from its claim to ready, as the row records it), the worker's peak memory (VmHWM of the solo
worker process, which runs the task itself) and processor time (its start-up included: on a
busy machine the wall-clock seconds grow with the load, the processor seconds do not), and the
cached load in a fresh process. The product
ships no French list: bring one (Debian's wfrench, ``/usr/share/dict/french``, less the lines
that are no words: ``bench/lexicon.py --playable-only`` says how). Targets (issue 15): 400,000+
French words compile in under 60 s and load from the cache in under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

UPLOAD = """
import json, time
from pathlib import Path
from tournament.services.word_lists import word_list_upload
data = Path({path!r}).read_bytes()
start = time.perf_counter()
word_list, _ = word_list_upload(data=data, name="bench", tile_set={tiles!r}, actor=None)
print(json.dumps({{"id": word_list.pk, "words": word_list.words,
                   "check_seconds": time.perf_counter() - start}}))
"""

LOAD = """
import json, time
from arbiter.state import lexicon_for
start = time.perf_counter()
lexicon = lexicon_for("upload:{id}")
print(json.dumps({{"words": lexicon.words, "seconds": time.perf_counter() - start}}))
"""


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"bench/word_list_worker.py: manage.py {args[0]} failed:\n{done.stderr}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def _peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _cpu_seconds(pid: int) -> float:
    """Processor seconds the process used so far (its start-up and the compile)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", required=True, help="a word-list file (plain text, UTF-8)")
    parser.add_argument("--tiles", default="fr", choices=["fr", "en"])
    parser.add_argument("--timeout", type=float, default=600, help="seconds to wait the worker")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-word-list-") as tmp:
        var = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
        env |= {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "VAR_DIR": str(var),
            "DATABASE_URL": f"sqlite:///{var}/db.sqlite3",
            "DUPLICATE_ENGINE_CACHE": str(var / "cache"),
        }
        _manage(env, "migrate", "-v0")
        sent = json.loads(
            _manage(env, "shell", "-c", UPLOAD.format(path=str(Path(args.list)), tiles=args.tiles))
        )
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
            + ["-Q", "celery,tops", "--without-mingle", "--without-gossip", "-l", "WARNING"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=(var / "worker.log").open("wb"),
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + args.timeout
            row: tuple[str, float | None] = ("queued", None)
            while time.monotonic() < deadline:
                with sqlite3.connect(var / "db.sqlite3", timeout=10) as db:
                    found = db.execute(
                        "SELECT status, (julianday(finished_at) - julianday(started_at)) * 86400 "
                        "FROM tournament_wordlist WHERE id = ?",
                        (sent["id"],),
                    ).fetchone()
                row = (found[0], found[1])
                if row[0] in {"ready", "failed"}:
                    break
                time.sleep(0.5)
            peak = _peak_mb(worker.pid)
            cpu = _cpu_seconds(worker.pid)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
        if row[0] != "ready":
            log = (var / "worker.log").read_text(errors="replace")[-2000:]
            raise SystemExit(f"bench/word_list_worker.py: the list is {row[0]}:\n{log}")
        loaded = json.loads(_manage(env, "shell", "-c", LOAD.format(id=sent["id"])))
    result = {
        "list": args.list,
        "tiles": args.tiles,
        "words": sent["words"],
        "upload_check_seconds": round(sent["check_seconds"], 2),
        "worker_compile_seconds": round(float(row[1] or 0), 1),
        "worker_peak_mb": round(peak, 1),
        "worker_cpu_seconds": round(cpu, 1),
        "cached_load_seconds": round(loaded["seconds"], 3),
        "load_average": round(os.getloadavg()[0], 2),
        "targets": {"worker_compile_seconds": 60, "cached_load_seconds": 0.5},
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['list']}: {result['words']:,} words ({args.tiles} tiles)\n"
            f"  upload check {result['upload_check_seconds']} s\n"
            f"  worker compile {result['worker_compile_seconds']} s, worker peak "
            f"{result['worker_peak_mb']} MB, worker processor {result['worker_cpu_seconds']} s\n"
            f"  cached load {result['cached_load_seconds']} s\n"
            f"  load average {result['load_average']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
