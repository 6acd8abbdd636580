from __future__ import annotations

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"
    default_auto_field = "django.db.models.BigAutoField"
