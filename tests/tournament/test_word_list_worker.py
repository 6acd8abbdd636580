"""A real Celery worker compiles an uploaded word list: the upload goes through the broker (the
embedded folder broker: no outside service) on the ``wordlists`` queue, the worker of that queue
claims and compiles it, the row says
ready with the word count, and the compiled lexicon is in the engine's cache the web reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.arbiter.test_workers import _env, manage, query, wait_for, worker

FRENCH = Path(__file__).resolve().parent.parent / "data" / "fr-words.txt"

UPLOAD = """
import json
from pathlib import Path
from tournament.services.word_lists import word_list_upload
word_list, new = word_list_upload(
    data=Path({path!r}).read_bytes(), name="Mots", tile_set="fr", actor=None
)
print(json.dumps({{"id": word_list.pk, "new": new}}))
"""

LOAD = """
from arbiter.state import lexicon_for
lexicon = lexicon_for("upload:{id}")
print(lexicon.words, "CHEVAUX" in lexicon, "HORSES" in lexicon)
"""


@pytest.mark.slow
def test_a_worker_compiles_an_uploaded_list_that_the_web_then_plays(tmp_path: Path) -> None:
    env = {**_env(tmp_path, None), "DUPLICATE_ENGINE_CACHE": str(tmp_path / "cache")}
    manage(env, "migrate", "-v0")
    sent = json.loads(manage(env, "shell", "-c", UPLOAD.format(path=str(FRENCH))).splitlines()[-1])
    assert sent["new"] is True
    assert query(tmp_path, "SELECT status FROM tournament_wordlist") == [("queued",)]
    log = tmp_path / "worker.log"
    with worker(env, log, beat=False, queues="wordlists"):  # the compile's own queue
        wait_for(
            tmp_path,
            "SELECT status FROM tournament_wordlist WHERE id = ?",
            sent["id"],
            expect="ready",
            seconds=90,
            logs=[log],
        )
    assert query(tmp_path, "SELECT words, progress FROM tournament_wordlist") == [(295, 100)]
    assert len(list((tmp_path / "cache").glob("lexicon-*"))) == 1
    assert manage(env, "shell", "-c", LOAD.format(id=sent["id"])).splitlines()[-1].split() == [
        "295",
        "True",
        "False",
    ]
