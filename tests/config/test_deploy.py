"""``manage.py check --deploy`` is clean with the documented production environment (README,
"With Redis and PostgreSQL": DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, SECURE_COOKIES=true)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.config.settings_probe import ROOT

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k3Yq8vJ2mW5xR9tB1nH6cL4pZ7sD0fG3aE8uI2oV5yT9wQ1rX6",
    "ALLOWED_HOSTS": "scrabble.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://scrabble.example.org",
    "SECURE_COOKIES": "true",
}


def check_deploy(tmp_path, **extra: str) -> subprocess.CompletedProcess[str]:
    keep = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "PYTHONPATH"}}
    env = {
        **keep,
        **PRODUCTION,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path),
        **extra,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_documented_production_environment(tmp_path) -> None:
    result = check_deploy(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_when_https_is_not_declared(tmp_path) -> None:
    result = check_deploy(tmp_path, SECURE_COOKIES="false")
    assert result.returncode != 0
    assert "security.W012" in result.stderr + result.stdout  # SESSION_COOKIE_SECURE
