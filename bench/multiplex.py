"""A multiplex at scale (issue 38): one host, ``--rooms`` remote rooms of ``--players`` players
each, simulated as processes speaking the protocol (docs/interchange.md 5.1) over HTTP.

    .venv/bin/python bench/multiplex.py --rooms 100 --players 50 --rounds 3 --json

The host is ``manage.py run_embedded`` (SQLite, the folder broker, its worker and beat; the
production web server) in a temporary folder. Its director's event has ``--rooms`` remote
rooms, each with its key. Each room is a process that polls the feed every ``--poll`` seconds
from its cursor and, when the host publishes a round (its ``top``), sends that round's rulings
for its players (half find the top, half hand in nothing) and waits for the acknowledgement:
the room's "publication" is the moment it sends. The host draws and publishes each round at
once (the rooms' own play is not what is measured). This process polls the host's one ranking
(``/api/v1/events/<host>/simultaneous/standings``) every 0.5 s.

Reported (``--json``): ``rooms``, ``players``, ``rounds``; ``acknowledged`` and ``refused``
(results messages; every one must be acknowledged); ``ack_p50_ms``/``ack_p99_ms`` (a room's
send to the host's answer); ``ranked_p50_ms``/``ranked_p99_ms``/``ranked_max_ms`` (a room's
send to the first ranking that counts that round for its players); ``ranked_within_5s``
(the share); ``unranked`` (room rounds not in the ranking after ``--wait`` seconds);
``host_cpu_ms_per_room_round`` (the host's processes' processor time from each
round's publication to every room ranked, per room and round, the feed's polls included);
``host_cpu_ms_per_feed_poll`` (the same over an idle spell of polls); and the load average
before and after.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

SETUP = """
import datetime as dt, json
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from arbiter.services.multiplex import room_key_issue
from tournament.models import Event
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.rooms import room_create
director = User.objects.create_user("centre", password="x" * 12)
host = event_create(name="Bench multiplex", slug="bench", starts_on=dt.date(2026, 5, 1),
                    actor=director)
Event.objects.filter(pk=host.pk).update(solo_min_players=999)
host = Event.objects.get(pk=host.pk)
game_create(event=host, actor=director, seed=5)
keys = []
for i in range({rooms}):
    room = room_create(host=host, name="Room %d" % i, remote=True, actor=director)
    keys.append(room_key_issue(room=room, actor=director)[1])
print(json.dumps({{"keys": keys, "token": Token.objects.create(user=director).key}}))
"""

PUBLISH = """
import datetime as dt, json
from arbiter.services import clock, publishing, racks, scoring
from tournament.models import Event
game = Event.objects.get(slug="bench").games.get(number=1)
round = clock.round_open(round=racks.round_draw(game=game, actor=None), actor=None)
closing = round.deadline + dt.timedelta(seconds=game.event.grace_seconds)
clock.round_close(round_id=round.pk, now=closing)
round = scoring.round_score(round_id=round.pk, now=closing)
publishing.round_publish(round=round, actor=None, now=closing)
print(json.dumps({"round": round.number}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(url: str, *, key: str = "", token: str = "", body: bytes | None = None) -> Any:
    headers = {"Accept": "application/json"}
    if key:
        headers["Authorization"] = f"Room {key}"
    if token:
        headers["Authorization"] = f"Token {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def results(index: int, players: int, message: dict[str, Any], rulebook: str) -> bytes:
    g, r = message["game"], message["round"]
    played = {k: message[k] for k in ("rack", "ref", "word", "score")}

    def ruling(j: int) -> dict[str, Any]:
        found = j % 2 == 0
        return {
            "game": g,
            "round": r,
            "code": "valid" if found else "missing",
            "word": message["word"] if found else "",
            "ref": message["ref"] if found else "",
            "announced": message["score"] if found else None,
            "move_score": message["score"] if found else None,
            "points": message["score"] if found else 0,
            "found_top": found,
        }

    document = {
        "format": "duplicate-room-results",
        "version": 1,
        "room": {"name": f"Room {index}", "rulebook": rulebook},
        "games": [{"number": g, "rounds": [{"number": r, **played}]}],
        "players": [
            {
                "name": f"Player {index}-{j}",
                "club": f"Club {index}",
                "licence": f"B{index:03d}{j:03d}",
                "table": j + 1,
                "rulings": [ruling(j)],
            }
            for j in range(players)
        ],
        "multiplex": {
            "format": "duplicate-multiplex-results",
            "game": g,
            "round": r,
            "version": 1,
        },
    }
    return json.dumps(document).encode()


def room_main(index: int, base: str, key: str, players: int, rounds: int, poll: float, out) -> None:
    cursor, sent = 0, 0
    while sent < rounds:
        try:
            feed = call(f"{base}/api/v1/multiplex/feed?after={cursor}", key=key)
        except (OSError, ValueError):
            time.sleep(poll)
            continue
        for message in feed["messages"]:
            if message["type"] != "top":
                continue
            body = results(index, players, message, feed["rules"]["rulebook"])
            started = time.time()
            try:
                answer = call(f"{base}/api/v1/multiplex/results", key=key, body=body)
                status = answer.get("status", "")
            except urllib.error.HTTPError as exc:
                status = f"http_{exc.code}"
            out.put((index, message["round"], started, time.time(), status))
            sent += 1
        cursor = feed["cursor"]
        time.sleep(poll)


def host_cpu_seconds(root: int) -> float:
    """Processor time of the host's processes: run_embedded (``root``) and its descendants (the
    web server and its workers, the Celery worker, its pool and beat), found by parent id (their
    titles hide their environment), not the ``manage.py shell`` this bench runs."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # state, ppid, ... utime (14th of stat), stime (15th)
        stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    family, total = {root}, 0
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _) in stats.items():
            if ppid in family and pid not in family:
                family.add(pid)
                changed = True
    total = sum(ticks for pid, (_, ticks) in stats.items() if pid in family)
    return total / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--poll", type=float, default=2.0, help="the rooms' feed poll, seconds")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of polls measured")
    parser.add_argument("--wait", type=float, default=300, help="seconds a round may take")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-multiplex-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    # every simulated room calls from 127.0.0.1: the per-address limit is one real room's
    env.update(VAR_DIR=str(folder), PYTHONUNBUFFERED="1", DEBUG="true")
    env["MULTIPLEX_CALLS_PER_MINUTE"] = str(300 * max(1, args.rooms))
    load_before = os.getloadavg()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "run_embedded", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=(folder / "run.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    queue: mp.Queue[tuple[int, int, float, float, str]] = mp.Queue()
    rooms: list[mp.Process] = []
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline, (folder / "run.log").read_text()[-2000:]
                time.sleep(0.5)

        def shell(script: str) -> dict[str, Any]:
            done = subprocess.run(
                [sys.executable, "manage.py", "shell", "-c", script],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            return dict(json.loads(done.stdout.strip().splitlines()[-1]))

        made = shell(SETUP.format(rooms=args.rooms))
        keys, token = made["keys"], made["token"]
        for i, key in enumerate(keys):
            process = mp.Process(
                target=room_main,
                args=(i, base, key, args.players, args.rounds, args.poll, queue),
                daemon=True,
            )
            process.start()
            rooms.append(process)
        time.sleep(args.poll * 2)  # every room has polled once
        idle_cpu = host_cpu_seconds(server.pid)
        time.sleep(args.idle)
        idle_cpu = host_cpu_seconds(server.pid) - idle_cpu
        polls = args.rooms * args.idle / args.poll

        sends: dict[tuple[int, int], tuple[float, float, str]] = {}
        ranked: dict[tuple[int, int], float] = {}
        cpu_per_round: list[float] = []
        standings = f"{base}/api/v1/events/bench/simultaneous/standings"
        for number in range(1, args.rounds + 1):
            cpu = host_cpu_seconds(server.pid)
            assert shell(PUBLISH)["round"] == number
            deadline = time.monotonic() + args.wait
            while len([k for k in ranked if k[1] == number]) < args.rooms:
                if time.monotonic() > deadline:
                    break  # reported: ``unranked``
                while not queue.empty():
                    i, r, started, answered, status = queue.get()
                    sends[(i, r)] = (started, answered, status)
                rows = call(standings, token=token)["rows"]
                now = time.time()
                counted = {row["room"] for row in rows if row["room_rounds"] >= number}
                for i in range(args.rooms):
                    if f"Room {i}" in counted and (i, number) not in ranked:
                        ranked[(i, number)] = now
                time.sleep(0.5)
            cpu_per_round.append(host_cpu_seconds(server.pid) - cpu)
        while not queue.empty():
            i, r, started, answered, status = queue.get()
            sends[(i, r)] = (started, answered, status)
        acks = [(a - s) * 1000 for s, a, st in sends.values() if st == "accepted"]
        lags = [(ranked[k] - sends[k][0]) * 1000 for k in ranked if k in sends]
        report = {
            "rooms": args.rooms,
            "players": args.players,
            "rounds": args.rounds,
            "poll_seconds": args.poll,
            "acknowledged": len(acks),
            "refused": sum(1 for *_, st in sends.values() if st != "accepted"),
            "ack_p50_ms": round(percentile(acks, 0.5)),
            "ack_p99_ms": round(percentile(acks, 0.99)),
            "unranked": args.rooms * args.rounds - len(ranked),
            "ranked_p50_ms": round(percentile(lags, 0.5)),
            "ranked_p99_ms": round(percentile(lags, 0.99)),
            "ranked_max_ms": round(max(lags)) if lags else None,
            "ranked_within_5s": round(sum(1 for v in lags if v <= 5000) / max(len(lags), 1), 3),
            "host_cpu_ms_per_room_round": round(
                1000 * statistics.mean(cpu_per_round) / args.rooms, 1
            ),
            "host_cpu_ms_per_feed_poll": round(1000 * idle_cpu / max(polls, 1), 2),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
        }
    finally:
        for process in rooms:
            process.terminate()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
