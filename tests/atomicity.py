"""For the tests that a service writes all or nothing: a snapshot of every stored row, and a
way to make the audit write fail (the last write of every service)."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers

from tournament.models import AuditEntry


def database_snapshot() -> dict[str, str]:
    """Every row of the tournament's tables and of the accounts, serialized."""
    models = [*apps.get_app_config("tournament").get_models(), get_user_model()]
    return {
        model._meta.label: serializers.serialize("json", model.objects.order_by("pk"))
        for model in models
    }


class AuditDown(RuntimeError):
    """The audit log could not be written."""


def audit_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, writing an audit entry raises ``AuditDown``."""

    def refuse(self: AuditEntry, *args: Any, **kwargs: Any) -> None:
        raise AuditDown("the audit log is down")

    monkeypatch.setattr(AuditEntry, "save", refuse)
