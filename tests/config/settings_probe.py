"""Load the settings in a fresh process with a given environment and report what they chose."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json
from django.conf import settings
settings.INSTALLED_APPS  # force the settings module to load
from config.env import READ_VARIABLES
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY": settings.SECRET_KEY,
    "DATABASE_ENGINE": settings.DATABASES["default"]["ENGINE"],
    "DATABASE_NAME": settings.DATABASES["default"]["NAME"],
    "DATABASE_HOST": settings.DATABASES["default"].get("HOST", ""),
    "BROKER_URL": settings.CELERY_BROKER_URL,
    "TIME_ZONE": settings.TIME_ZONE,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "CSRF_TRUSTED_ORIGINS": settings.CSRF_TRUSTED_ORIGINS,
    "PUBLIC_URL": settings.PUBLIC_URL,
    "PORT": settings.PORT,
    "READ_VARIABLES": sorted(READ_VARIABLES),
}))
"""

# Variables of this machine that would leak into a child process and change what settings choose.
SCRUBBED = {
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "REDIS_URL",
    "ALLOWED_HOSTS",
    "TIME_ZONE",
    "CSRF_TRUSTED_ORIGINS",
    "LOG_LEVEL",
    "LEXICONS",
    "SECURE_COOKIES",
    "STATIC_ROOT",
    "LAN",
    "PUBLIC_URL",
    "PORT",
    "HEALTH_HEARTBEAT_SECONDS",
    "ROUNDS_SWEEP_SECONDS",
    "VAR_DIR",
}


def settings_probe(env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the probe; VAR_DIR defaults to ``tmp_path`` so nothing is written in the checkout."""
    base = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    base.update({"DJANGO_SETTINGS_MODULE": "config.settings", "VAR_DIR": str(tmp_path)})
    base.update(env)
    return subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_chosen(env: dict[str, str], tmp_path: Path) -> dict[str, object]:
    result = settings_probe(env, tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
