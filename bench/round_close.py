"""Round-close benchmark (issues 4 and 17): 1,000 players' slips in one round; the time from
the deadline to published results (close, rule every slip, choose the top, publish, standings
with ranks), with the tops already computed while the clock ran. It prints the wall time and
the CPU time this process spent (on a busy machine the wall time waits for the other
processes); ``--profile`` prints where the time goes.

    .venv/bin/python bench/round_close.py [--players 1000] [--round 6] [--seed 2026] [--json]
        [--profile]

Runs on a fresh SQLite file in a temporary folder, or on ``$DATABASE_URL`` when it is set
(PostgreSQL, for instance). Targets on the 2-core machine: 1,000 players at most 0.3 s,
10,000 players at most 2 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument(
        "--rulebook",
        choices=("fisf-2023", "before-2023"),
        default="fisf-2023",
        help="the event's rulebook (docs/rules.md; default the regulation in force)",
    )
    parser.add_argument(
        "--round", type=int, default=6, help="which round of the game to time (default 6, mid-game)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=2026,
        help="the game's seed (2026; 26: round 7 has 2 blanks)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="print pyinstrument's profile of deadline -> published (to standard error)",
    )
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-round-close-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/db.sqlite3")
    os.environ.setdefault("VAR_DIR", str(folder / "var"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from arbiter import simulation
    from arbiter.selectors.standings import standings_game
    from arbiter.services import clock, publishing, racks, scoring
    from arbiter.services.slips import SlipRefused, slip_submit
    from arbiter.state import board_of, lexicon_for
    from engine.movegen import generate
    from engine.tiles import TileSet
    from tournament.models import Player, Round
    from tournament.services.events import event_create
    from tournament.services.games import game_create

    call_command("migrate", verbosity=0)
    start = dt.datetime(2026, 5, 1, 20, 0, tzinfo=dt.UTC)
    event = event_create(name="Bench", starts_on=start.date(), actor=None, rulebook=args.rulebook)
    Player.objects.bulk_create(
        [Player(event=event, name=f"Player {i}", table=i + 1) for i in range(args.players)]
    )
    players = list(Player.objects.filter(event=event))
    game = game_create(event=event, actor=None, seed=args.seed)
    now = start
    for _ in range(args.round - 1):  # earlier rounds, without slips, to reach a mid-game board
        r = clock.round_open(round=racks.round_draw(game=game, actor=None), actor=None, now=now)
        now = r.deadline + dt.timedelta(seconds=event.grace_seconds)
        clock.round_close(round_id=r.pk, now=now)
        publishing.round_publish(
            round=scoring.round_score(round_id=r.pk, now=now), actor=None, now=now
        )
        game.refresh_from_db()
    r = clock.round_open(round=racks.round_draw(game=game, actor=None), actor=None, now=now)
    scoring.round_tops_compute(round_id=r.pk, now=now)  # done by the tops queue during the round
    moves = generate(board_of(game), r.rack, lexicon_for(game.lexicon), TileSet.load(game.tile_set))
    rng = random.Random(1)
    mix = simulation.Mix()
    slips = 0
    t = time.perf_counter()
    for p in players:
        word, ref, score = simulation._slip_for(moves, rng.uniform(0.15, 0.85), mix, rng)
        try:
            slip_submit(
                player=p,
                round=r,
                word=word,
                ref=ref,
                score=score,
                at=now + dt.timedelta(seconds=rng.uniform(5, 170)),
            )
            slips += 1
        except SlipRefused:
            pass
    submit_s = time.perf_counter() - t

    deadline = r.deadline + dt.timedelta(seconds=event.grace_seconds)
    timings = {}
    profiler = None
    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0005)
        profiler.start()
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    assert clock.round_close(round_id=r.pk, now=deadline)
    timings["close"] = time.perf_counter() - t0
    t = time.perf_counter()
    scored = scoring.round_score(round_id=r.pk, now=deadline)
    timings["rule_all_slips"] = time.perf_counter() - t
    t = time.perf_counter()
    publishing.round_publish(round=scored, actor=None, now=deadline)
    timings["publish"] = time.perf_counter() - t
    t = time.perf_counter()
    table = standings_game(game=game)
    timings["standings"] = time.perf_counter() - t
    total = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    if profiler is not None:
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False, show_all=False), file=sys.stderr)
    r = Round.objects.get(pk=r.pk)
    report = {
        "database": connection.vendor,
        "players": len(players),
        "slips": slips,
        "round": r.number,
        "rack": r.rack,
        "legal_moves": r.moves_total,
        "deadline_to_published_s": round(total, 3),
        "deadline_to_published_cpu_s": round(cpu, 3),
        "phases_s": {k: round(v, 3) for k, v in timings.items()},
        "standings_rows": len(table.rows),
        "submit_1000_slips_s": round(submit_s, 3),
        "target_s": 0.3 if len(players) <= 1000 else 2.0,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['database']}: {slips} slips from {len(players)} players, "
            f"round {r.number} (rack {r.rack}, {r.moves_total} legal moves)"
        )
        print(
            f"  deadline -> published results: {total:.3f} s, {cpu:.3f} s of CPU in this process"
            f"   (target <= {report['target_s']} s)"
        )
        for k, v in timings.items():
            print(f"    {k:<16} {v:.3f} s")
        print(f"  (submitting the slips one by one through the service took {submit_s:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
