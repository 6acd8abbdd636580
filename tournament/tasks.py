"""Celery tasks of the tournament app: thin wrappers that call services."""

from __future__ import annotations

from celery import shared_task

from tournament.services.health import health_ping_record
from tournament.services.word_lists import word_list_compile as word_list_compile_service


@shared_task(name="tournament.health_ping")
def health_ping(stamp: str) -> str:
    """Proves the broker and a worker work end to end (tests, and a person debugging)."""
    health_ping_record(stamp=stamp)
    return stamp


@shared_task(name="tournament.word_list_compile", acks_late=True)
def word_list_compile(word_list_id: int) -> None:
    """Compile an uploaded word list (idempotent: the service claims the list first)."""
    word_list_compile_service(word_list_id=word_list_id)
