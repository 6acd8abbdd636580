"""The secret key the room's network run keeps (``make run-lan``): generated once under
``VAR_DIR`` (``var/secret_key``, readable by its owner only) and read again at every start, so
sessions and signed cookies survive a restart and the key is no one else's. The public
development key (``settings.DEV_SECRET_KEY``) is for ``make run`` alone, which only this machine
reaches.

Two processes starting at once (the web server and its worker) both end up with the first key
written: the file is created whole under a temporary name, then linked into place, which fails
for the second.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

SECRET_KEY_FILE = "secret_key"
MIN_LENGTH = 50


def secret_key_kept(var_dir: Path) -> str:
    """The key kept in ``var_dir/secret_key``, created (50 random URL-safe bytes) if missing."""
    path = var_dir / SECRET_KEY_FILE
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        temporary = var_dir / f".{SECRET_KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(MIN_LENGTH) + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temporary, path)  # fails if another process got there first: keep its key
        except FileExistsError:
            pass
        finally:
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
    key = path.read_text().strip()
    if len(key) < MIN_LENGTH:
        from config.env import EnvironmentValueError

        raise EnvironmentValueError(
            f"{path} holds a secret key shorter than {MIN_LENGTH} characters: delete the file "
            "(a new key is generated at the next start; everyone signs in again)"
        )
    return key
