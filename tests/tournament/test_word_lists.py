"""Word lists directors upload: every bad input refused with a clear error, one row per content,
one compile per content, the compile task with its progress, and the event's tile set."""

from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import pytest

from tests.factories import EventFactory, UserFactory
from tournament import tasks
from tournament.errors import ApplicationError
from tournament.models import AuditEntry, WordList
from tournament.services import word_lists
from tournament.services.events import event_create, event_policy_update
from tournament.services.word_lists import word_list_compile, word_list_upload

pytestmark = pytest.mark.django_db

FRENCH = Path(__file__).resolve().parent.parent / "data" / "fr-words.txt"


@pytest.fixture(autouse=True)
def _folders(settings, tmp_path: Path, monkeypatch) -> None:
    settings.WORD_LISTS_DIR = tmp_path / "wordlists"
    monkeypatch.setenv("DUPLICATE_ENGINE_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def director(db):
    return UserFactory(username="director")


def upload(data: bytes, tile_set: str = "fr", name: str = "Mots", actor=None):
    return word_list_upload(data=data, name=name, tile_set=tile_set, actor=actor)


def test_an_upload_is_kept_counted_and_queued_for_a_worker_after_commit(
    director, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(tasks.word_list_compile, "delay", lambda list_id: sent.append(list_id))
    data = FRENCH.read_bytes()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        word_list, new = upload(data, actor=director)
    assert new and sent == [] and len(callbacks) == 1
    callbacks[0]()
    assert sent == [word_list.pk]
    assert word_list.status == WordList.Status.QUEUED
    assert word_list.sha256 == hashlib.sha256(data).hexdigest()
    assert word_list.path.read_bytes() == data
    assert word_list.words == 295  # 296 lines; côte and côté fold to one word
    assert word_list.message == "1 line repeated a word already in the list (counted once)"
    assert word_list.uploaded_by == director and word_list.key == f"upload:{word_list.pk}"


def test_a_file_that_is_not_utf8_is_refused_naming_the_line() -> None:
    data = b"chien\nchat\n" + "été\n".encode("latin-1")
    with pytest.raises(ApplicationError, match=r"not UTF-8 text: line 3 .*\(byte 11\)"):
        upload(data)
    assert not WordList.objects.exists()


@pytest.mark.parametrize("data", [b"", b"\n\n  \r\n"])
def test_an_empty_file_is_refused(data: bytes) -> None:
    with pytest.raises(ApplicationError, match="The word list is empty"):
        upload(data)


def test_a_list_of_single_letters_holds_no_word() -> None:
    with pytest.raises(ApplicationError, match="holds no word of 2 to 15 letters"):
        upload(b"a\nb\n")


def test_a_file_over_the_bound_is_refused_with_both_sizes(settings) -> None:
    settings.WORD_LIST_MAX_BYTES = 1024 * 1024
    data = b"chien\n" * (200 * 1024)  # 1.2 MB
    with pytest.raises(ApplicationError, match=r"too large \(1\.2 MB\): at most 1\.0 MB"):
        upload(data)
    assert not WordList.objects.exists()


def test_lines_outside_the_tile_set_are_listed_with_their_numbers_first_twenty_and_the_count():
    lines = ["chien", "søster", "arc-en-ciel", "chat"] + [f"mot{n}" for n in range(25)]
    with pytest.raises(ApplicationError) as caught:
        upload("\n".join(lines).encode())
    message = caught.value.message
    assert message.startswith(
        "27 lines of the word list are not words of the tile set French (102 tiles)"
    )
    assert "line 2: 'søster' ('Ø'); line 3: 'arc-en-ciel' ('-'); line 5: 'mot0' ('0')" in message
    assert "line 22: 'mot17' ('1')" in message and "line 23:" not in message
    assert message.endswith("; and 7 more.")


def test_one_bad_line_is_said_in_the_singular() -> None:
    with pytest.raises(ApplicationError, match=r"^1 line of the word list is not a word .*'Λ'"):
        upload("chien\nλόγος\n".encode())


def test_a_list_with_duplicates_keeps_each_word_once_and_says_so() -> None:
    word_list, _ = upload("Été\nete\nÉTÉ\nchien\nx\nanticonstitutionnellement\n".encode())
    assert word_list.words == 2
    assert word_list.message == (
        "2 lines repeated a word already in the list (counted once); "
        "2 words of one letter or more than 15 left out"
    )


def test_the_same_file_uploaded_again_is_the_same_list_and_is_not_compiled_twice(
    django_capture_on_commit_callbacks,
) -> None:
    data = FRENCH.read_bytes()
    with django_capture_on_commit_callbacks(execute=False) as first:
        one, new = upload(data, name="Mots")
    with django_capture_on_commit_callbacks(execute=False) as second:
        again, again_new = upload(data, name="Other name")
    assert new and not again_new and again.pk == one.pk and again.name == "Mots"
    assert len(first) == 1 and second == []
    assert WordList.objects.count() == 1
    assert [p.name for p in one.path.parent.iterdir()] == [one.path.name]


def test_the_compile_task_reports_progress_marks_the_list_ready_and_runs_once(monkeypatch):
    word_list, _ = upload(FRENCH.read_bytes())
    seen: list[tuple[int, str, str]] = []
    real = word_lists._report

    def spy(list_id: int, percent: int, step: str) -> None:
        real(list_id, percent, step)
        row = WordList.objects.get(pk=list_id)
        seen.append((row.progress, row.status, row.message))

    monkeypatch.setattr(word_lists, "_report", spy)
    tasks.word_list_compile(word_list.pk)  # the task function itself, as a worker runs it
    word_list.refresh_from_db()
    assert word_list.status == WordList.Status.READY and word_list.progress == 100
    assert word_list.words == 295 and word_list.finished_at is not None
    assert word_list.message == "1 line repeated a word already in the list (counted once)"
    progress = [p for p, _, _ in seen]
    assert progress == sorted(progress) and progress[0] < 10 and progress[-1] == 100
    assert all(status == WordList.Status.COMPILING for _, status, _ in seen)
    steps = [m for _, _, m in seen]
    assert "Building the move graph" in steps and steps[-1] == "Compiled"
    # a second delivery finds nothing to claim and does nothing
    assert word_list_compile(word_list_id=word_list.pk) is None


def test_two_lists_of_the_same_content_share_one_compile(monkeypatch) -> None:
    data = FRENCH.read_bytes()
    french, _ = upload(data, tile_set="fr")
    english, new = upload(data, tile_set="en")  # the same file checked for the other tiles
    assert new and english.pk != french.pk and english.path == french.path
    word_list_compile(word_list_id=french.pk)
    steps: list[str] = []
    monkeypatch.setattr(word_lists, "_report", lambda list_id, percent, step: steps.append(step))
    done = word_list_compile(word_list_id=english.pk)
    assert done is not None and done.status == WordList.Status.READY and done.words == 295
    assert steps == ["read from the cache"]  # no compile: the engine's cache had it


def test_a_list_whose_file_is_gone_fails_with_the_reason_and_can_be_uploaded_again() -> None:
    data = FRENCH.read_bytes()
    word_list, _ = upload(data)
    word_list.path.unlink()
    failed = word_list_compile(word_list_id=word_list.pk)
    assert failed is not None and failed.status == WordList.Status.FAILED
    assert failed.message.startswith("Failed: lexicon ") and "cannot be read" in failed.message
    again, new = upload(data)
    assert new and again.pk == word_list.pk and again.status == WordList.Status.QUEUED
    assert word_list_compile(word_list_id=again.pk).status == WordList.Status.READY


def test_an_event_plays_an_uploaded_list_of_its_own_tiles_only(director) -> None:
    french, _ = upload(FRENCH.read_bytes(), tile_set="fr")
    event = EventFactory(tile_set="en")
    with pytest.raises(ApplicationError, match="checked against the French .* plays the English"):
        event_policy_update(event=event, actor=director, lexicon=french.key)
    event_policy_update(event=event, actor=director, tile_set="fr", lexicon=french.key)
    event.refresh_from_db()
    assert event.lexicon == french.key and event.tile_set == "fr"
    assert AuditEntry.objects.filter(event=event, action="tournament.event.policy_changed").count()
    with pytest.raises(ApplicationError, match="checked against the French"):
        event_policy_update(event=event, actor=director, tile_set="en")


def test_an_event_cannot_name_a_list_that_does_not_exist(director) -> None:
    with pytest.raises(ApplicationError, match="Unknown lexicon 'upload:999'"):
        event_create(
            name="Soirée", starts_on=dt.date(2026, 5, 1), actor=director, lexicon="upload:999"
        )


def test_a_compiles_step_is_said_in_the_readers_language_whatever_the_workers(director) -> None:
    """The worker compiles in English (the list is shared by events of any language); the
    page says its step in its reader's: "Construction du graphe des coups" in French."""
    from django.utils import translation

    from arbiter.state import lexicon_info

    word_list, _new = upload(FRENCH.read_bytes())
    WordList.objects.filter(pk=word_list.pk).update(status=WordList.Status.COMPILING)
    with translation.override("fr"):
        word_lists._report(word_list.pk, 60, "the GADDAG")  # as a worker in French would
    assert WordList.objects.get(pk=word_list.pk).message == "Building the move graph"
    with translation.override("fr"):
        assert lexicon_info(word_list.key).message == "Construction du graphe des coups"
    with translation.override("en"):
        assert lexicon_info(word_list.key).message == "Building the move graph"
