"""Where Celery's messages go: Redis when ``REDIS_URL`` is set, otherwise folders on disk.

The embedded broker is kombu's ``filesystem://`` transport, writing each file whole
(``config.filesystem_broker``): each message is a file in one folder that every process of
this checkout shares (web, worker, beat), so tasks really run in another process with no
outside service. It suits one machine and a club night; it does not suit several hosts or
heavy traffic (see README, "Embedded mode").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def embedded_broker_folders(celery_dir: Path) -> dict[str, Path]:
    """The folders the filesystem transport needs, by transport option name."""
    return {
        "data_folder_in": celery_dir / "queue",
        "data_folder_out": celery_dir / "queue",
        "control_folder": celery_dir / "control",
        "processed_folder": celery_dir / "processed",
        # Where config.filesystem_broker writes a file before renaming it into place.
        "tmp_folder": celery_dir / "tmp",
    }


def embedded_broker_options(celery_dir: Path) -> dict[str, Any]:
    """kombu transport options for the filesystem broker rooted at ``celery_dir``."""
    options: dict[str, Any] = {
        name: str(path) for name, path in embedded_broker_folders(celery_dir).items()
    }
    options.update(store_processed=False, polling_interval=0.25)
    return options


def embedded_broker_prepare(celery_dir: Path) -> None:
    """Create the folders (kombu does not); safe to call from every process."""
    for path in embedded_broker_folders(celery_dir).values():
        path.mkdir(parents=True, exist_ok=True)
