"""The embedded broker writes each message whole and survives one that is not
(config.filesystem_broker)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import kombu
import pytest
from kombu.exceptions import ChannelError

from config.brokers import embedded_broker_folders, embedded_broker_options, embedded_broker_prepare
from tests.config.settings_probe import ROOT
from tests.config.test_celery_workers import SEND, _env, celery_worker


def channel_on(celery_dir: Path) -> kombu.Connection:
    embedded_broker_prepare(celery_dir)
    return kombu.Connection(
        "filesystem://",
        transport="config.filesystem_broker:Transport",
        transport_options=embedded_broker_options(celery_dir),
    )


def test_a_message_goes_into_the_queue_whole_and_comes_out_once(tmp_path: Path) -> None:
    folders = embedded_broker_folders(tmp_path)
    with channel_on(tmp_path) as connection:
        channel = connection.default_channel
        channel._put("celery", {"body": "x" * 100_000})
        [name] = os.listdir(folders["data_folder_in"])
        assert name.endswith(".celery.msg")
        assert json.loads((folders["data_folder_in"] / name).read_text())["body"] == "x" * 100_000
        assert os.listdir(folders["tmp_folder"]) == []
        assert channel._get("celery") == {"body": "x" * 100_000}
        assert os.listdir(folders["data_folder_in"]) == os.listdir(folders["processed_folder"])
        assert os.listdir(folders["data_folder_in"]) == []


def test_a_message_cut_off_while_written_never_reaches_the_queue(tmp_path: Path, monkeypatch):
    folders = embedded_broker_folders(tmp_path)
    with channel_on(tmp_path) as connection:
        channel = connection.default_channel

        def disk_full(fd: int) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "fsync", disk_full)
        with pytest.raises(ChannelError):
            channel._put("celery", {"body": "lost"})
        assert os.listdir(folders["data_folder_in"]) == []  # nothing half-written to read
        assert os.listdir(folders["tmp_folder"]) == []  # and nothing left behind


def test_a_worker_skips_a_half_written_message_and_runs_the_next_task(tmp_path: Path) -> None:
    """What stopped the embedded worker (and its beat) once: a message file read before it was
    written out, as kombu's own transport allows. It is set aside now, and the worker goes on."""
    env = _env(tmp_path, None)
    queue = f"test-{uuid.uuid4().hex[:12]}"
    embedded_broker_prepare(tmp_path / "celery")
    half = tmp_path / "celery" / "queue" / f"0_{uuid.uuid4()}.{queue}.msg"
    half.write_text('{"body": "eyJzdGFtcCI6IC', encoding="utf-8")
    stamp = uuid.uuid4().hex
    heartbeat = tmp_path / "celery" / "heartbeat.json"
    log = tmp_path / "worker.log"
    with celery_worker(env, queue, log) as worker:
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import django; django.setup(); " + SEND.format(stamp=stamp, queue=queue),
            ],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=60,
            capture_output=True,
        )
        deadline = time.monotonic() + 45
        while not (heartbeat.exists() and json.loads(heartbeat.read_text())["stamp"] == stamp):
            assert worker.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert worker.poll() is None
    assert (tmp_path / "celery" / "processed" / f"{half.name}.unreadable").exists()
    assert "Skipped an unreadable message" in log.read_text()
