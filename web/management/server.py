"""The embedded run's web server: the production server itself (gunicorn with
``config/gunicorn.py``: uvicorn workers, the arrival stamp, the live stream, WhiteNoise's static
files), as a child process with one worker: without Redis the live versions live in the one web
process's memory (``web.live.store``), and SQLite takes one writer at a time anyway. A child, not
gunicorn's arbiter in this process: its workers are forked, and a fork of this process would
carry the worker supervisor with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from django.conf import settings

APPLICATION = "config.asgi:application"  # named, not imported: config sits above web


def server_command(host: str, port: int) -> list[str]:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    config = str(Path(settings.BASE_DIR) / "config" / "gunicorn.py")
    return [sys.executable, "-m", "gunicorn", APPLICATION, "-c", config, "-b", bind, "-w", "1"]


def serve(host: str, port: int) -> int:
    """Run the server until it stops (Ctrl-C reaches it too), or until this process is told
    to stop (``SystemExit``): then stop it (SIGTERM, gunicorn's graceful stop) and wait."""
    server = subprocess.Popen(server_command(host, port), cwd=settings.BASE_DIR, env=os.environ)
    try:
        return server.wait()
    finally:
        if server.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
