"""A bad value in the environment stops ``manage.py`` with one line naming the variable and
what it allows: no traceback, exit code 1. One case per helper of ``config/env.py`` (and the
checks the settings make on top of them), each through a real ``manage.py`` process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.config.embedded import python_run
from tests.config.settings_probe import ROOT, SCRUBBED

# variable (and any other needed to reach it), the helper that reads it, what the line says
CASES = {
    "env_bool": ({"DEBUG": "maybe"}, "DEBUG='maybe' is not valid: expected one of 1/0, true/false"),
    "env_bool SECURE_COOKIES": (
        {"SECURE_COOKIES": "sometimes"},
        "SECURE_COOKIES='sometimes' is not valid: expected one of 1/0, true/false",
    ),
    "env_int": ({"PORT": "abc"}, "PORT='abc' is not valid: expected an integer"),
    "env_int bounded": (
        {"HEALTH_HEARTBEAT_SECONDS": "0"},
        "HEALTH_HEARTBEAT_SECONDS='0' is not valid: expected an integer >= 1",
    ),
    "env_time_zone": (
        {"TIME_ZONE": "Mars/Olympus"},
        "TIME_ZONE='Mars/Olympus' is not valid: expected an IANA time zone name",
    ),
    "env_database_url": (
        {"DATABASE_URL": "nonsense"},
        "DATABASE_URL='nonsense' is not valid: expected a sqlite:/// or postgres:// URL",
    ),
    "env_redis_url": (
        {"REDIS_URL": "http://cache"},
        "REDIS_URL='http://cache' is not valid: expected redis://host:6379/0",
    ),
    "env_public_url": (
        {"PUBLIC_URL": "192.168.1.20"},
        "PUBLIC_URL='192.168.1.20' is not valid: expected http://ADDRESS:PORT",
    ),
    "env_path": ({"VAR_DIR": "{file}"}, "VAR_DIR='{file}' is not valid: expected a folder"),
    "env_optional_str": (
        {"DEBUG": "false"},
        "SECRET_KEY is not set: it is required when DEBUG is false",
    ),
    "env_str": ({"LOG_LEVEL": "loud"}, "LOG_LEVEL='loud' is not valid: expected DEBUG, INFO"),
    "env_list": ({"LEXICONS": "nwl"}, "LEXICONS='nwl' is not valid: expected name=path"),
}


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str, Path]]:
    """Every case's ``manage.py check``, run side by side: (exit code, stdout, stderr, file)."""
    base = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    running = {}
    for case, (variables, _) in CASES.items():
        folder = tmp_path_factory.mktemp("env")
        a_file = folder / "not-a-folder"
        a_file.write_text("")
        env = base | {"VAR_DIR": str(folder / "var")}
        env |= {k: v.format(file=a_file) for k, v in variables.items()}
        running[case] = (
            subprocess.Popen(
                [sys.executable, "manage.py", "check"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            ),
            a_file,
        )
    done = {}
    for case, (process, a_file) in running.items():
        out, err = process.communicate(timeout=120)
        done[case] = (process.returncode, out, err, a_file)
    return done


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_value_stops_manage_py_with_one_line_naming_the_variable(answers, case):
    code, out, err, a_file = answers[case]
    expected = CASES[case][1].format(file=a_file)
    assert code == 1, (out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"Configuration error: {expected}"), err
    assert "Traceback" not in err


def test_the_same_settings_with_good_values_pass_the_check(tmp_path):
    env = {"VAR_DIR": str(tmp_path), "PORT": "8123", "PUBLIC_URL": "http://192.168.1.20:8123"}
    result = python_run("manage.py", "check", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
