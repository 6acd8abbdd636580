from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.stack import Stack


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One migrated SQLite file, copied by each stack (migrating takes seconds)."""
    folder = tmp_path_factory.mktemp("migrated")
    Stack(folder).migrate()
    return folder / "db.sqlite3"


@pytest.fixture
def stack(tmp_path: Path, migrated_database: Path) -> Iterator[Stack]:
    stack = Stack(tmp_path)
    stack.migrate(template=migrated_database)
    try:
        yield stack
    finally:
        stack.close()
