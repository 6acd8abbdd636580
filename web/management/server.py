"""The embedded run's web server: the production server itself (gunicorn with
``config/gunicorn.py``: uvicorn workers, the arrival stamp, the live stream, WhiteNoise's static
files), as a child process with one worker: without Redis the live versions live in the one web
process's memory (``web.live_store``), and SQLite takes one writer at a time anyway. A child, not
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


# A child's first lines (the server's and the worker's), before its program's: on Linux it asks
# for a SIGTERM when run_embedded is gone (even killed: PR_SET_PDEATHSIG), and leaves at once if
# it already is; then it runs as ``python -m MODULE`` would. In the child itself, so no code runs
# between fork and exec. Arguments: run_embedded's pid, the module, the module's arguments.
CHILD_BOOT = """
import os, runpy, signal, sys
if sys.platform.startswith("linux"):
    import ctypes
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    if os.getppid() != int(sys.argv[1]):
        sys.exit(0)
sys.argv = [sys.argv[2], *sys.argv[3:]]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def child_command(parent_pid: int, module: str, *args: str) -> list[str]:
    """``python -m module args``, ended with run_embedded (``CHILD_BOOT``)."""
    return [sys.executable, "-c", CHILD_BOOT, str(parent_pid), module, *args]


def server_command(host: str, port: int) -> list[str]:
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    config = str(Path(settings.BASE_DIR) / "config" / "gunicorn.py")
    return child_command(os.getpid(), "gunicorn", APPLICATION, "-c", config, "-b", bind, "-w", "1")


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
