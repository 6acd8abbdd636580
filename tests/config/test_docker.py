"""Docker cannot run here: check instead that compose and the settings agree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.config.settings_probe import ROOT, settings_chosen

DOCKER = ROOT / "docker"
APP_SERVICES = ["web", "worker", "beat"]
_VARIABLE = re.compile(r"\$\{(?P<name>[A-Z_][A-Z0-9_]*)(?P<op>:?[-?])?(?P<arg>[^}]*)\}")


def env_example() -> dict[str, str]:
    values = {}
    for line in (DOCKER / ".env.example").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def interpolate(text: str, values: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}, as compose does it."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"] or "", match["arg"]
        value = values.get(name, "")
        if value:
            return value
        if op.endswith("?"):
            raise AssertionError(f"compose needs {name}: {arg}")
        return arg if op.endswith("-") else ""

    return _VARIABLE.sub(one, text.replace("$$", "\0")).replace("\0", "$")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def test_compose_runs_web_worker_beat_redis_and_postgres_with_healthchecks(compose):
    services = compose["services"]
    assert set(services) == {"web", "worker", "beat", "redis", "postgres"}
    for name in ["web", "worker", "redis", "postgres"]:
        assert "healthcheck" in services[name], name
    for name in APP_SERVICES:
        conditions = services[name]["depends_on"]
        assert conditions["redis"]["condition"] == "service_healthy"
    assert services["web"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "gunicorn config.wsgi" in services["web"]["command"]
    assert services["worker"]["command"][:6] == ["python", "-m", "celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:6] == ["python", "-m", "celery", "-A", "config", "beat"]


def test_env_example_lists_every_variable_compose_reads():
    used = {m["name"] for m in _VARIABLE.finditer((DOCKER / "compose.yaml").read_text())}
    assert used == set(env_example())


def test_the_settings_accept_what_compose_sets_and_choose_postgresql_and_redis(compose, tmp_path):
    values = env_example()
    for name in APP_SERVICES:
        environment = {
            key: interpolate(str(value), values)
            for key, value in compose["services"][name]["environment"].items()
        }
        chosen = settings_chosen(environment, tmp_path)
        assert chosen["DEBUG"] is False
        assert chosen["DATABASE_ENGINE"] == "django.db.backends.postgresql"
        assert chosen["DATABASE_HOST"] == "postgres"
        assert str(chosen["BROKER_URL"]).startswith("redis://redis:6379/")
        ignored = set(environment) - set(chosen["READ_VARIABLES"])
        assert not ignored, f"compose sets variables the settings never read: {ignored}"


def test_the_dockerfile_is_multi_stage_non_root_and_collects_static_files():
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert dockerfile.count("FROM python:3.11-slim") == 2
    assert "AS builder" in dockerfile
    assert "USER app" in dockerfile
    assert "collectstatic --noinput" in dockerfile
    for path in ["engine", "config", "tournament", "arbiter", "templates", "manage.py"]:
        assert (Path(ROOT) / path).exists()
        assert path in dockerfile


def _copied(stage: str) -> set[str]:
    """What a stage of the Dockerfile copies from the repository (the sources of its COPY lines)."""
    text = (DOCKER / "Dockerfile").read_text()
    body = text.split(stage, 1)[1].split("\nFROM ", 1)[0]
    return {
        part.rstrip("/")
        for line in body.splitlines()
        if line.startswith("COPY ") and "--from=" not in line
        for part in line.split()[1:-1]
        if not part.startswith("--")
    }


def test_the_image_holds_every_package_and_the_templates_and_static_files() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = {
        name.rstrip("*") for name in pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    }
    assert packages <= _copied("AS builder"), "the builder installs the project from these"
    assert packages | {"templates", "static", "manage.py"} <= _copied("FROM python:3.11-slim\n")
