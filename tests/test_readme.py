"""The command examples of README.md and engine/README.md run as typed.

Every indented line that runs something is an example. Those that start ``.venv/bin/`` (or
pipe into it) run here, each block in order in one temporary folder (``VAR_DIR``), with the
block's ``export`` applied: each must exit 0 with nothing on stderr, no warning, and print what
it should (``SHAPES``: an example with no expected shape fails the test). Two kinds of line are
not run and are named: ``make`` (a server, or this test suite) and ``curl`` (asks a running
server with a player's token). In the deployment block, whose ``export`` names a PostgreSQL
account that does not exist here, the database is a SQLite file and Redis the tests' own; its
servers are checked, not left running: gunicorn with ``--check-config`` (reads its
configuration and loads the site), Celery with ``--help`` (loads the app); ``createsuperuser``
runs with ``--noinput``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.config.settings_probe import ROOT, SCRUBBED
from tests.conftest import test_redis_url

READMES = ["README.md", "engine/README.md"]
RUN = re.compile(r"^(\.venv/bin/\S+|(echo|printf) .*\| \.venv/bin/\S+)")
NOT_RUN = {
    "make": re.compile(r"^(\S+=\S+ )*make (run|run-lan|test)\b"),
    "curl": re.compile(r"^curl "),
    # A server must be running: tests/web/api/test_director_api.py runs it against one.
    "server": re.compile(r"^\.venv/bin/python examples/api_round\.py "),
}
COMMENT = re.compile(r"\s{2,}#.*$")
# A Python warning ("RuntimeWarning: ..."), a log line's level, a traceback.
WARNING = re.compile(r"\b[A-Za-z]*Warning: |\bWARNING\b|Traceback")


@dataclass
class Example:
    readme: str
    line: int
    command: str
    env: dict[str, str] = field(default_factory=dict)


def blocks(text: str) -> list[list[tuple[int, str]]]:
    """The indented blocks (4 spaces) outside lists, backslash continuations joined."""
    found: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    previous_blank = True
    pending = ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("    ") and (current or previous_blank):
            pending += line.strip()
            if pending.endswith("\\"):
                pending = pending[:-1] + " "
                continue
            current.append((number, pending))
            pending = ""
        elif line.strip() and current:
            found.append(current)
            current = []
        previous_blank = not line.strip()
    if current:
        found.append(current)
    return found


def examples(readme: str) -> tuple[list[list[Example]], list[tuple[str, int, str]]]:
    """The examples to run, block by block, and the lines not run with the reason's name."""
    run, skipped = [], []
    for block in blocks((ROOT / readme).read_text()):
        env: dict[str, str] = {}
        runs = []
        for number, line in block:
            command = COMMENT.sub("", line).strip()
            if command.startswith("export "):
                env |= dict(word.split("=", 1) for word in shlex.split(command)[1:])
                continue
            kind = next((k for k, pattern in NOT_RUN.items() if pattern.match(command)), None)
            if kind is not None:
                skipped.append((kind, number, command))
            elif RUN.match(command):
                runs.append(Example(readme, number, command, dict(env)))
        if runs:
            run.append(runs)
    return run, skipped


# What each example prints (a pattern searched line by line), by a pattern of its command.
SHAPES = {
    r"engine top --rack 'AEIRST\?' --n 5$": r"\A(\s+[1-5]\.\s+H\d+\s+[A-Za-z]{7}\s+\d+\n){5}\Z",
    r"engine top .* --json$": (
        r'\A\{"moves": \[(\{"ref": "\w+", "word": "\w+", "score": \d+\}(, )?){3}\]\}\n\Z'
    ),
    r"engine score .* --json$": r'\A\{"valid": true, "score": 16, "words": \[\{"word": "WORD"',
    r"engine game --seed 7 --json$": r'\A\{"tiles": "en", "seed": 7, "rounds": \[\{"number": 1, ',
    r"engine game --seed 7$": (
        r"\ADuplicate game: seed 7.*\n(.*\n)+\nTotal \d+ in \d+ rounds\. End: "
    ),
    r"engine batch$": r'\A(\{"(valid|moves)": [^\n]*\}\n)+\Z',
    r"arbiter batch$": r'\A\{"code": "valid_warning", "points": 66, [^\n]*\}\n\Z',
    r"manage.py migrate$": r"Apply all migrations|No migrations to apply",
    r"simulate_event --players 12 --games 1 --seed 3$": r"^Event \d+ \(.*\): 12 players, 1 game",
    r"simulate_event .* --json$": r'\A\{"event": \d+, .*"players": 12, "games": 1, ',
    r"collectstatic --noinput$": r"^\d+ static files? copied",
    r"createsuperuser .*--noinput$": r"\ASuperuser created successfully\.\n\Z",
    r"manage.py migrate --verbosity 0$": r"\A\Z",  # nothing said
    r"drf_create_token scripts$": r"\AGenerated token [0-9a-f]{40} for user scripts\n\Z",
    r"gunicorn config.asgi .* --check-config$": r"\A\Z",  # exit 0 and nothing said
    r"celery -A config (worker|beat) .* --help$": r"\AUsage: celery (worker|beat) ",
}


def as_run_here(example: Example, folder: Path) -> tuple[str, dict[str, str]]:
    """The command and its environment (see the module's docstring for what changes)."""
    command = example.command
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env |= {"VAR_DIR": str(folder), "STATIC_ROOT": str(folder / "static")} | example.env
    if "DATABASE_URL" in example.env:  # the deployment block
        env |= {
            "DATABASE_URL": f"sqlite:///{folder}/deployment.sqlite3",
            "REDIS_URL": test_redis_url(),
            "DJANGO_SUPERUSER_PASSWORD": "readme-example",
        }
    if command.startswith(".venv/bin/gunicorn "):
        command += " --check-config"
    elif command.startswith(".venv/bin/celery "):
        command += " --help"
    elif command.endswith("createsuperuser"):
        command += " --username readme --email readme@example.org --noinput"
    return command, env


BLOCKS = [block for readme in READMES for block in examples(readme)[0]]


def test_every_line_that_runs_something_is_run_or_named() -> None:
    for readme in READMES:
        run, skipped = examples(readme)
        assert run, readme
        for kind, number, command in skipped:
            assert kind in NOT_RUN, (readme, number, command)
        if readme == "README.md":
            assert {"make run", "make run-lan", "make test"} <= {c for _, _, c in skipped}
    assert sum(len(block) for block in BLOCKS) >= 15


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: f"{b[0].readme}:{b[0].line}")
def test_the_examples_run_as_typed(block: list[Example], tmp_path: Path) -> None:
    for example in block:
        command, env = as_run_here(example, tmp_path)
        shape = next((s for pattern, s in SHAPES.items() if re.search(pattern, command)), None)
        assert shape is not None, f"no expected shape for {command!r}: add one to SHAPES"
        result = subprocess.run(
            ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])
        assert result.stderr == "", (command, result.stderr[-3000:])
        if "--help" not in command:  # a help names --loglevel WARNING
            warned = [line for line in result.stdout.splitlines() if WARNING.search(line)]
            assert not warned, (command, warned)
        assert re.search(shape, result.stdout, re.MULTILINE), (command, result.stdout[:3000])


def test_the_readme_starts_with_exactly_two_commands() -> None:
    """The first lines give one command that installs and runs the product on its embedded
    defaults and one that runs the whole test suite, nothing else."""
    text = (ROOT / "README.md").read_text()
    first_block = text.split("\n\n")[1]
    commands = [line.split("#")[0].strip() for line in first_block.splitlines()]
    assert commands == ["make run", "make test"]
