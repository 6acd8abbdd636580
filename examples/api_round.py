"""Run one round of an event from a terminal, through the director API (README, "The director
API"): the event's game (a new one when it has none in play), a rack drawn, the round opened,
the paper slips typed in, the round closed, scored by the worker, published, the standings.

    .venv/bin/python examples/api_round.py --url http://127.0.0.1:8000 --token KEY \\
        --event club-night --slip 1:H8:WORD:24 --slip 2:8H:WORM:18

``--token``: a director's or arbiter's personal token (``manage.py drf_create_token NAME``;
a new game needs a director). ``--slip TABLE:REF:WORD:SCORE`` enters a slip for a table, as an
arbiter types a paper one. Only the standard library: copy it anywhere.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any


class Api:
    def __init__(self, url: str, token: str) -> None:
        self.base = url.rstrip("/") + "/api/v1/"
        self.token = token

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Token {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as refused:
            said = json.load(refused)  # every refusal: {"detail": for people, "code": for us}
            detail, code = said.get("detail", refused.reason), said.get("code", "")
            raise SystemExit(f"{method} {path}: {refused.code} {code}: {detail}") from None

    def action(self, event: str, game: int, name: str, **body: Any) -> str:
        return str(self.call("POST", f"events/{event}/games/{game}/{name}", body)["detail"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="your personal API token")
    parser.add_argument("--event", required=True, help="the event's slug (its address)")
    parser.add_argument("--slip", action="append", default=[], help="TABLE:REF:WORD:SCORE")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait for scoring")
    args = parser.parse_args()
    api = Api(args.url, args.token)

    games = api.call("GET", f"events/{args.event}/games")
    running = [g for g in games if g["status"] != "finished"]
    number = (
        running[-1]["number"]
        if running
        else api.call("POST", f"events/{args.event}/games", {})["number"]
    )
    state = api.call("GET", f"events/{args.event}/games/{number}")
    if state["round"] is None or state["round"]["status"] == "published":
        print(api.action(args.event, number, "draw"))
    print(api.action(args.event, number, "open"))
    for slip in args.slip:
        table, ref, word, score = slip.split(":")
        print(api.action(args.event, number, "slip", table=table, ref=ref, word=word, score=score))
    print(api.action(args.event, number, "close"))

    deadline = time.monotonic() + args.wait
    while True:  # the worker closes the round once the grace is over, then scores it
        state = api.call("GET", f"events/{args.event}/games/{number}")
        if state["round"]["status"] == "scored":
            break
        if time.monotonic() > deadline:
            print(f"not scored after {args.wait:.0f} s: is the worker running?", file=sys.stderr)
            return 1
        time.sleep(1)
    print(api.action(args.event, number, "publish"))
    standings = api.call("GET", f"events/{args.event}/standings")
    for row in standings["rows"][:10]:
        print(f"{row['rank']:>4}  {row['name']:<24} {row['total']:>5}  {row['gap']:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
