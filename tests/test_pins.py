"""Each library whose internals we override or rely on is pinned, in pyproject.toml, to the
range the override was checked on, and the internals are still what the override expects.

An upgrade past the pin fails the first test (the installed version outside the range), a pin
moved without its check fails it too (the range here is the one checked), and an internal that
moved fails the test of its hack. Move a range here only with the hack's own tests green."""

from __future__ import annotations

import inspect
import io
import tomllib
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent

# distribution: (the range checked, where the hack is)
PINS = {
    "celery": (">=5.7,<5.8", "config/worker.py (the consumer), config/redis_broker.py"),
    "kombu": (">=5.7,<5.8", "config/redis_broker.py, config/filesystem_broker.py"),
    "openpyxl": (">=3.1.5,<3.2", "web/sheet_writer.py, web/rows_xml.py"),
    "gunicorn": (">=23,<24", "config/gunicorn_worker.py (init_signals, run)"),
    "uvicorn": (">=0.36,<0.55", "config/gunicorn_worker.py (tests/config/test_arrival_*)"),
    "uvicorn-worker": (">=0.4,<0.5", "config/gunicorn_worker.py (CONFIG_KWARGS)"),
    "httptools": (">=0.6,<0.10", "config/gunicorn_worker.py (the httptools protocol)"),
    "django": (">=5.2,<5.3", "tournament/compiled.py (the SQL compiler's row making)"),
}


def _pinned() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = [Requirement(line) for line in project["dependencies"]]
    return {r.name.lower(): r for r in requirements}


@pytest.mark.parametrize("name", sorted(PINS))
def test_each_patched_library_is_pinned_to_the_range_its_hack_was_checked_on(name: str) -> None:
    checked, where = PINS[name]
    requirement = _pinned().get(name)
    assert requirement is not None, f"{name} is not pinned in pyproject.toml ({where})"
    assert requirement.specifier == Requirement(f"{name}{checked}").specifier, where
    assert Version(version(name)) in requirement.specifier, (
        f"{name} {version(name)} is installed, outside {checked}: check {where}"
    )


def test_the_celery_consumer_methods_the_worker_overrides_are_still_there() -> None:
    import kombu
    from celery.worker.consumer import Consumer

    from config.worker import Consumer as Ours

    assert issubclass(Ours, Consumer)
    assert list(inspect.signature(Consumer.ensure_connected).parameters) == ["self", "conn"]
    on_error = Consumer.on_connection_error_after_connected
    assert list(inspect.signature(on_error).parameters) == ["self", "exc"]
    # The reconnect's pace goes through Connection.ensure_connection to this one.
    ensure = inspect.signature(kombu.Connection._ensure_connection).parameters
    assert {"interval_start", "interval_step", "interval_max"} <= set(ensure)


def test_the_kombu_redis_channel_still_builds_its_pool_from_the_transports_client() -> None:
    from kombu.transport import redis

    from config.redis_broker import Channel

    assert issubclass(Channel, redis.Channel)
    params = inspect.signature(redis.Channel._connparams).parameters
    assert list(params) == ["self", "asynchronous"]
    assert "self.connection.client" in inspect.getsource(redis.Channel._connparams)


def test_the_kombu_filesystem_channel_still_has_what_the_whole_file_writer_overrides() -> None:
    from kombu.transport import filesystem

    from config.filesystem_broker import Channel

    assert issubclass(Channel, filesystem.Channel)
    signatures = {
        "_put": ["self", "queue", "payload", "kwargs"],
        "_get": ["self", "queue"],
        "_queue_bind": ["self", "exchange", "routing_key", "pattern", "queue"],
        "_exchange_file": ["self", "exchange"],
        "get_table": ["self", "exchange"],
    }
    for method, parameters in signatures.items():
        assert list(inspect.signature(getattr(filesystem.Channel, method)).parameters) == (
            parameters
        ), method
    assert filesystem.exchange_queue_t._fields == ("routing_key", "pattern", "queue")
    assert callable(filesystem.lock) and callable(filesystem.unlock)
    assert isinstance(filesystem.LOCK_EX, int)
    for option in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        assert hasattr(filesystem.Channel, option), option


def test_openpyxl_still_saves_a_write_only_header_row_the_rows_can_follow() -> None:
    """The splice (``web.sheet_writer._rows_put_in``) puts the rows after the first ``</row>``
    of a saved write-only sheet: that is still the header row's end, inside ``sheetData``; and
    the pieces the row writer asks of openpyxl are still there."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

    book = Workbook(write_only=True)
    sheet = book.create_sheet(title="Rulings")
    assert isinstance(sheet, WriteOnlyWorksheet)
    sheet.column_dimensions["A"].width = 12  # type: ignore[attr-defined]
    sheet.freeze_panes = "A2"
    sheet.append(["Player", "Points"])
    assert isinstance(WriteOnlyCell(sheet).style_id, int)
    assert ILLEGAL_CHARACTERS_RE.sub("", "a\x00b") == "ab"
    saved = io.BytesIO()
    book.save(saved)
    with zipfile.ZipFile(saved) as package:
        xml = package.read(sheet.path.lstrip("/"))
    head, end, tail = xml.partition(b"</row>")
    assert end and b"<row" in head and tail.lstrip().startswith(b"</sheetData>")


def test_the_gunicorn_worker_methods_the_arrival_worker_overrides_are_still_there() -> None:
    import uvicorn
    from gunicorn.workers.base import Worker
    from uvicorn_worker import UvicornWorker

    from config.gunicorn_worker import ArrivalUvicornWorker

    assert issubclass(ArrivalUvicornWorker, UvicornWorker)
    for method in ("init_signals", "run"):
        assert list(inspect.signature(getattr(UvicornWorker, method)).parameters) == ["self"]
    assert {"loop", "http"} <= set(UvicornWorker.CONFIG_KWARGS)
    config = inspect.signature(uvicorn.Config.__init__).parameters
    assert set(ArrivalUvicornWorker.CONFIG_KWARGS) <= set(config)
    assert issubclass(UvicornWorker, Worker)
    assert "sockets" in inspect.signature(Worker.__init__).parameters  # what run() sets up


def test_the_sql_compiler_still_makes_rows_as_the_compiled_queries_do() -> None:
    """tournament/compiled.py keeps a queryset's compiled SQL and makes its rows again with
    the compiler's own pieces (tests/tournament/test_compiled.py checks the rows)."""
    from django.db.models import query
    from django.db.models.sql.compiler import SQLCompiler

    assert callable(query.get_related_populators)
    assert list(inspect.signature(query.get_related_populators).parameters) == [
        "klass_info",
        "select",
        "db",
    ]
    for name in ("as_sql", "get_converters", "apply_converters"):
        assert callable(getattr(SQLCompiler, name)), name
    assert list(inspect.signature(SQLCompiler.apply_converters).parameters) == [
        "self",
        "rows",
        "converters",
    ]
    source = inspect.getsource(SQLCompiler.setup_query)
    for attribute in (
        "self.select",
        "self.klass_info",
        "self.annotation_col_map",
        "self.col_count",
    ):
        assert attribute in source, attribute
