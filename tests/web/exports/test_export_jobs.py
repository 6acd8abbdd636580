"""Background exports (the job, its task, its progress), downloads and the export command."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from openpyxl import load_workbook

from arbiter.simulation import simulate_event
from tests.factories import EventRoleFactory
from tournament.models import AuditEntry, Event, ExportJob
from web import tasks
from web.exports.jobs import export_job_request, export_job_run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _var_dir(settings, tmp_path: Path) -> None:
    settings.VAR_DIR = tmp_path


@pytest.fixture
def rehearsal(director) -> Event:
    summary = simulate_event(players=4, games=2, seed=3)
    event = Event.objects.get(pk=summary["event"])
    EventRoleFactory(event=event, user=director, role="director")
    return event


def test_requesting_an_export_queues_the_task_only_after_commit(
    rehearsal: Event, director, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(tasks.export_job_run, "delay", lambda job_id: sent.append(job_id))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job = export_job_request(event=rehearsal, actor=director)
    queued = [c for c in callbacks if not hasattr(c, "announces")]  # not the live update
    assert sent == [] and len(queued) == 1
    queued[0]()
    assert sent == [job.pk]
    assert job.status == ExportJob.Status.QUEUED
    assert AuditEntry.objects.filter(event=rehearsal, action="tournament.export.requested").exists()


def test_the_task_writes_the_workbook_reporting_progress_and_runs_once(
    rehearsal: Event, director, monkeypatch
) -> None:
    job = ExportJob.objects.create(event=rehearsal, requested_by=director)
    seen: list[tuple[int, str]] = []
    from web.exports import jobs as exports

    real = exports._report

    def spy(job_id: int, percent: int, message: str) -> None:
        real(job_id, percent, message)
        row = ExportJob.objects.get(pk=job_id)
        seen.append((row.progress, row.status))

    monkeypatch.setattr(exports, "_report", spy)
    tasks.export_job_run(job.pk)  # the task function itself, as a worker runs it
    job.refresh_from_db()
    assert job.status == ExportJob.Status.DONE and job.progress == 100 and job.finished_at
    progress = [p for p, _ in seen]
    assert progress == sorted(progress) and progress[0] < 20 and progress[-1] == 100
    assert all(status == ExportJob.Status.RUNNING for _, status in seen)
    assert len(seen) >= 9  # a report per sheet, and more
    wb = load_workbook(job.path)
    assert wb.sheetnames[:2] == ["Event", "Standings"] and "Slips G2" in wb.sheetnames
    assert job.size == job.path.stat().st_size
    # a second delivery finds nothing to claim and does nothing
    assert export_job_run(job_id=job.pk) is None
    assert [p.name for p in job.path.parent.iterdir()] == [job.path.name]


def test_a_failing_export_marks_the_job_failed_with_the_reason(
    rehearsal: Event, monkeypatch
) -> None:
    from web.exports import jobs as exports

    def boom(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(exports, "event_workbook_write", boom)
    job = ExportJob.objects.create(event=rehearsal)
    export_job_run(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == ExportJob.Status.FAILED and "disk full" in job.message
    assert not list(Path(job.path or exports.exports_dir()).parent.glob("*.part"))


def test_the_director_follows_the_job_page_and_downloads_the_workbook(
    rehearsal: Event, director, client_for, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    monkeypatch.setattr(tasks.export_job_run, "delay", lambda job_id: None)
    client = client_for(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/events/{rehearsal.slug}/exports/")
    job = ExportJob.objects.get(event=rehearsal)
    assert (
        response.status_code == 302
        and response["Location"] == f"/events/{rehearsal.slug}/exports/{job.pk}/"
    )
    page = client.get(response["Location"])
    assert b"Queued" in page.content and b'data-pending="1"' in page.content  # read again
    assert client.get(f"/events/{rehearsal.slug}/exports/{job.pk}/download").status_code == 404
    export_job_run(job_id=job.pk)
    page = client.get(response["Location"])
    assert b"Download" in page.content and b"data-pending" not in page.content
    download = client.get(f"/events/{rehearsal.slug}/exports/{job.pk}/download")
    assert download.status_code == 200
    book = load_workbook(io.BytesIO(b"".join(download.streaming_content)))
    assert book.sheetnames[:2] == ["Event", "Standings"]


def test_the_director_downloads_the_workbooks_and_the_csv_and_an_outsider_gets_404(
    rehearsal: Event, director, outsider, client_for
) -> None:
    client = client_for(director)
    page = client.get(f"/events/{rehearsal.slug}/")
    assert f"/events/{rehearsal.slug}/export.xlsx".encode() in page.content
    event_book = client.get(f"/events/{rehearsal.slug}/export.xlsx")
    assert event_book.status_code == 200 and "attachment" in event_book["Content-Disposition"]
    assert len(load_workbook(io.BytesIO(event_book.content)).sheetnames) == 11
    game_book = client.get(f"/events/{rehearsal.slug}/games/2/export.xlsx")
    assert load_workbook(io.BytesIO(game_book.content)).sheetnames == [
        "Event",
        "Standings",
        "Rounds",
        "Scores",
        "Slips",
        "Categories",
    ]
    csv = client.get(f"/events/{rehearsal.slug}/standings.csv")
    assert csv.content.decode("utf-8-sig").startswith("Rank,Player,Club,Category,Total,Top %,Gap")
    other = client_for(outsider)
    for url in ("export.xlsx", "games/1/export.xlsx", "standings.csv"):
        assert other.get(f"/events/{rehearsal.slug}/{url}").status_code == 404
    assert other.post(f"/events/{rehearsal.slug}/exports/").status_code == 404
    assert not ExportJob.objects.exists()


def test_a_large_event_is_sent_to_the_background_export(
    rehearsal: Event, director, client_for, monkeypatch
) -> None:
    from web.exports import views as views_exports

    monkeypatch.setattr(views_exports, "DIRECT_MAX_RULINGS", 3)
    client = client_for(director)
    response = client.get(f"/events/{rehearsal.slug}/export.xlsx")
    assert response.status_code == 302
    assert client.get(f"/api/v1/events/{rehearsal.slug}/export").status_code == 409


def test_the_api_gives_staff_the_workbook_and_export_jobs(
    rehearsal: Event,
    director,
    outsider,
    client_for,
    django_capture_on_commit_callbacks,
    monkeypatch,
) -> None:
    monkeypatch.setattr(tasks.export_job_run, "delay", lambda job_id: None)
    client = client_for(director)
    book = client.get(f"/api/v1/events/{rehearsal.slug}/export")
    assert book.status_code == 200 and load_workbook(io.BytesIO(book.content)).sheetnames[:2] == [
        "Event",
        "Standings",
    ]
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post(f"/api/v1/events/{rehearsal.slug}/export", {"game": 1})
    assert created.status_code == 202
    body = created.json()
    assert body["status"] == "queued" and body["download"] is None
    export_job_run(job_id=body["id"])
    state = client.get(f"/api/v1/events/{rehearsal.slug}/exports/{body['id']}").json()
    assert (
        state["status"] == "done"
        and state["progress"] == 100
        and state["download"].endswith("/download")
    )
    assert client_for(outsider).get(f"/api/v1/events/{rehearsal.slug}/export").status_code == 404
    from django.test import Client

    assert Client().get(f"/api/v1/events/{rehearsal.slug}/export").status_code == 403


def test_the_export_command_writes_the_workbook_and_the_csv(
    rehearsal: Event, tmp_path: Path
) -> None:
    out = io.StringIO()
    call_command(
        "export_event", rehearsal.slug, xlsx=tmp_path / "e.xlsx", csv=tmp_path / "s.csv", stdout=out
    )
    assert load_workbook(tmp_path / "e.xlsx").sheetnames[:2] == ["Event", "Standings"]
    assert (tmp_path / "s.csv").read_text(encoding="utf-8").startswith("Rank,Player")
    call_command(
        "export_event",
        str(rehearsal.pk),
        "--xlsx",
        str(tmp_path / "g.xlsx"),
        "--game",
        "1",
        stdout=out,
    )
    assert load_workbook(tmp_path / "g.xlsx").sheetnames == [
        "Event",
        "Standings",
        "Rounds",
        "Scores",
        "Slips",
        "Categories",
    ]


def test_simulate_event_writes_the_workbook_when_asked(tmp_path: Path) -> None:
    out = io.StringIO()
    call_command(
        "simulate_event",
        "--players",
        "3",
        "--games",
        "1",
        "--seed",
        "2",
        "--export",
        str(tmp_path / "sim.xlsx"),
        stdout=out,
    )
    assert f"Wrote {tmp_path / 'sim.xlsx'}" in out.getvalue()
    assert load_workbook(tmp_path / "sim.xlsx").sheetnames == [
        "Event",
        "Standings",
        "Rounds",
        "Scores",
        "Slips",
        "Categories",
    ]
