"""A job's progress, written one way for both jobs (``progress_report``): kept within 0-100,
its message cut to each job's column, and only on the rows the caller's filter selects."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory
from tournament.models import ExportJob, WordList
from tournament.services.progress import progress_report

pytestmark = pytest.mark.django_db


def test_both_jobs_report_their_progress_the_same_way_each_within_its_column() -> None:
    export = ExportJob.objects.create(event=EventFactory(), status="running")
    word_list = WordList.objects.create(
        name="Club list",
        sha256="0" * 64,
        tile_set="en",
        file_name="x.txt",
        size=1,
        status="compiling",
    )
    long = "a step " * 200
    assert progress_report(ExportJob.objects.filter(pk=export.pk), percent=140, message=long) == 1
    compiling = WordList.objects.filter(pk=word_list.pk, status="compiling")
    assert progress_report(compiling, percent=-3, message=long) == 1
    export.refresh_from_db()
    word_list.refresh_from_db()
    assert (export.progress, len(export.message)) == (100, 300)
    assert (word_list.progress, len(word_list.message)) == (0, 500)
    WordList.objects.filter(pk=word_list.pk).update(status="failed", message="killed")
    assert progress_report(compiling, percent=50, message="late") == 0  # failed: it keeps why
    assert WordList.objects.get(pk=word_list.pk).message == "killed"
