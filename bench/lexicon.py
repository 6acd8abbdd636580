"""Word-list benchmark: compiling a list (DAWG and GADDAG) and loading it from the disk cache,
each in a fresh process, with its time and peak memory.

    .venv/bin/python bench/lexicon.py [--lexicon enable|PATH] [--playable-only] [--json]

``--playable-only`` first keeps only the lines ``engine.wordlist`` accepts (a dictionary such
as Debian's wfrench, ``/usr/share/dict/french``, also holds hyphenated and multi-word
entries); the product ships no French list (clubs bring theirs). Targets (issue 15): a French
list of 400,000+ words compiles in under 60 s and loads from the cache in under 0.5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# A child process loads the list and prints its size and the seconds Lexicon.load took.
CHILD = """
import json, sys, time
from engine.lexicon import Lexicon
start = time.perf_counter()
lexicon = Lexicon.load(sys.argv[1])
seconds = time.perf_counter() - start
print(json.dumps({"words": lexicon.words, "seconds": seconds,
                  "gaddag_nodes": len(lexicon.gaddag[0])}))
"""


def _run(source: str, cache: Path) -> dict[str, float]:
    """Load ``source`` in a fresh process; its answer with the process's peak memory (MB)."""
    env = {**os.environ, "DUPLICATE_ENGINE_CACHE": str(cache)}
    process = subprocess.Popen(
        [sys.executable, "-c", CHILD, source], stdout=subprocess.PIPE, env=env, cwd=ROOT
    )
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"bench/lexicon.py: loading {source} failed (status {status})")
    answer: dict[str, float] = json.loads(out)
    answer["peak_mb"] = usage.ru_maxrss / 1024  # kilobytes on Linux
    # The processor time the process used: what the compile costs whatever else the machine
    # runs (the wall-clock seconds grow with the load average).
    answer["cpu_seconds"] = usage.ru_utime + usage.ru_stime
    return answer


def _playable_copy(source: Path, folder: Path) -> Path:
    from engine.wordlist import fold

    words = []
    for line in source.read_text("utf-8").splitlines():
        word = fold(line.strip())
        if word.isascii() and word.isalpha():
            words.append(line.strip())
    copy = folder / source.name
    copy.write_text("\n".join(words) + "\n", "utf-8")
    return copy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="enable", help="enable (default) or a word-list file")
    parser.add_argument(
        "--playable-only", action="store_true", help="drop the lines that are not words first"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-lexicon-") as tmp:
        folder = Path(tmp)
        source = args.lexicon
        if source != "enable" and args.playable_only:
            source = str(_playable_copy(Path(source), folder))
        started = time.perf_counter()
        compiled = _run(source, folder / "cache")
        compile_wall = time.perf_counter() - started
        loaded = _run(source, folder / "cache")
    result = {
        "lexicon": args.lexicon,
        "words": int(compiled["words"]),
        "gaddag_nodes": int(compiled["gaddag_nodes"]),
        "compile_seconds": round(compiled["seconds"], 2),
        "compile_process_seconds": round(compile_wall, 2),
        "compile_process_cpu_seconds": round(compiled["cpu_seconds"], 2),
        "compile_peak_mb": round(compiled["peak_mb"], 1),
        "cached_load_seconds": round(loaded["seconds"], 3),
        "cached_process_peak_mb": round(loaded["peak_mb"], 1),
        "load_average": round(os.getloadavg()[0], 2),
        "targets": {"compile_seconds": 60, "cached_load_seconds": 0.5},
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['lexicon']}: {result['words']:,} words, GADDAG {result['gaddag_nodes']:,} "
            f"nodes\n  compile {result['compile_seconds']} s (process "
            f"{result['compile_process_seconds']} s, processor "
            f"{result['compile_process_cpu_seconds']} s), peak {result['compile_peak_mb']} MB\n"
            f"  cached load {result['cached_load_seconds']} s, process peak "
            f"{result['cached_process_peak_mb']} MB\n  load average {result['load_average']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
