from __future__ import annotations

from django.apps import AppConfig


class ArbiterConfig(AppConfig):
    name = "arbiter"
    verbose_name = "Arbitration"
