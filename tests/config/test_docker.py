"""Docker cannot run here: check instead that compose and the settings agree."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from config.healthcheck import probe_host
from tests.config.embedded import free_port, python_run, wait_for_port
from tests.config.settings_probe import ROOT, SCRUBBED, settings_chosen
from tests.conftest import services_required

DOCKER = ROOT / "docker"
APP_SERVICES = ["web", "worker", "wordlists", "beat"]
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
    assert set(services) == {"web", "balancer", "worker", "wordlists", "beat", "redis", "postgres"}
    for name in ["web", "worker", "wordlists", "redis", "postgres"]:
        assert "healthcheck" in services[name], name
    for name in APP_SERVICES:
        conditions = services[name]["depends_on"]
        assert conditions["redis"]["condition"] == "service_healthy"
    assert services["web"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert "gunicorn config.asgi" in services["web"]["command"]
    assert services["worker"]["command"][:6] == ["python", "-m", "celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:6] == ["python", "-m", "celery", "-A", "config", "beat"]


def test_word_lists_compile_in_a_worker_of_their_own_with_a_memory_ceiling(compose):
    """The rounds' worker never takes a compile: the ``wordlists`` queue has its own service,
    one compile at a time, its pool process replaced when a compile left it large, and the
    container capped (WORDLISTS_MEMORY_LIMIT)."""
    from django.conf import settings

    services = compose["services"]
    assert settings.CELERY_TASK_ROUTES["tournament.word_list_compile"] == {"queue": "wordlists"}
    worker, wordlists = services["worker"]["command"], services["wordlists"]["command"]
    assert worker[worker.index("-Q") + 1].split(",") == ["celery", "tops"]
    assert wordlists[wordlists.index("-Q") + 1] == "wordlists"
    assert wordlists[wordlists.index("--concurrency") + 1] == "1"
    assert int(wordlists[wordlists.index("--max-memory-per-child") + 1]) > 0
    assert services["wordlists"]["mem_limit"] == "${WORDLISTS_MEMORY_LIMIT:-3g}"


def test_web_runs_as_two_replicas_behind_the_haproxy_balancer(compose):
    services = compose["services"]
    web, balancer = services["web"], services["balancer"]
    assert web["deploy"]["replicas"] >= 2
    assert "ports" not in web  # only the balancer is published: replicas cannot share a port
    assert balancer["image"].startswith("haproxy:")
    assert balancer["ports"] == ["${WEB_PORT:-8000}:8000"]
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in balancer["volumes"]
    assert balancer["depends_on"]["web"]["condition"] == "service_healthy"
    config = (DOCKER / "haproxy.cfg").read_text()
    assert "server-template web" in config and "web:8000" in config
    assert "balance leastconn" in config and "option redispatch" in config


def test_the_balancers_configuration_is_one_haproxy_accepts():
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        reason = "haproxy is not installed (.ci/run installs Debian's)"
        if services_required():
            pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    checked = subprocess.run(
        [haproxy, "-c", "-f", str(DOCKER / "haproxy.cfg")], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


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


# --- The web container's healthcheck ---------------------------------------------------------


@contextlib.contextmanager
def gunicorn_serving(tmp_path: Path, allowed_hosts: str) -> Iterator[int]:
    """The web container's server (gunicorn with config/gunicorn.py, DEBUG off) on a free port,
    answering only to ``allowed_hosts``."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env.update(
        DEBUG="false",
        SECRET_KEY="s" * 50,
        ALLOWED_HOSTS=allowed_hosts,
        VAR_DIR=str(tmp_path),
        STATIC_ROOT=str(tmp_path / "static"),
    )
    with (tmp_path / "gunicorn.log").open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi", "-c", "config/gunicorn.py"]
            + ["--bind", f"127.0.0.1:{port}", "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for_port(port, server, tmp_path / "gunicorn.log")
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def web_healthcheck(compose: dict, port: int, tmp_path: Path) -> subprocess.CompletedProcess:
    """compose's web healthcheck command, run as the container runs it: with the web
    service's environment (the example .env's values), on ``port`` instead of 8000."""
    kind, *command = compose["services"]["web"]["healthcheck"]["test"]
    assert kind == "CMD" and command[0] == "python"
    values = env_example() | {"ALLOWED_HOSTS": "scrabble.example.org"}
    service = {
        key: interpolate(str(value), values)
        for key, value in compose["services"]["web"]["environment"].items()
    }
    return python_run(*command[1:], env=service | {"PORT": str(port)})


def test_the_web_healthcheck_passes_when_allowed_hosts_leaves_out_127_0_0_1(compose, tmp_path):
    with gunicorn_serving(tmp_path, "scrabble.example.org") as port:
        # What the healthcheck used to do: ask as 127.0.0.1, which this site refuses.
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz?checks=database,broker")
        assert refused.value.code == 400
        probe = web_healthcheck(compose, port, tmp_path)
        assert (probe.returncode, probe.stdout, probe.stderr) == (0, "", "")
        # The whole /healthz also wants a worker's heartbeat: none runs here, so it says so.
        whole = python_run(
            "-m",
            "config.healthcheck",
            "/healthz",
            env={"PORT": str(port), "ALLOWED_HOSTS": "scrabble.example.org"},
        )
        assert whole.returncode == 1
        assert whole.stderr.startswith("healthcheck: /healthz as scrabble.example.org answered 503")
        assert whole.stderr.count("\n") == 1
    gone = web_healthcheck(compose, port, tmp_path)
    assert gone.returncode == 1
    assert gone.stderr.startswith(f"healthcheck: 127.0.0.1:{port} did not answer")


@pytest.mark.parametrize(
    ("allowed", "public_url", "host"),
    [
        (["scrabble.example.org", "127.0.0.1"], None, "scrabble.example.org"),
        ([".example.org"], None, "example.org"),
        (["*"], None, "localhost"),
        (["*", "b.org"], None, "b.org"),
        ([], "http://192.168.1.20:8000", "192.168.1.20"),
        ([], "http://[fd00::2]:8000", "[fd00::2]"),
        ([], None, "localhost"),
    ],
)
def test_the_probe_asks_under_a_name_the_site_accepts(allowed, public_url, host):
    assert probe_host(allowed, public_url) == host


def test_docker_env_with_its_secrets_is_ignored_by_git_and_the_example_is_not():
    def ignored(path: str) -> bool:
        result = subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT)
        assert result.returncode in {0, 1}
        return result.returncode == 0

    assert ignored("docker/.env")
    assert not ignored("docker/.env.example")
