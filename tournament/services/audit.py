from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User

from tournament.changes import change_announce
from tournament.models import AuditEntry, Event, Game, Round


def audit_record(
    *,
    event: Event,
    action: str,
    actor: User | AnonymousUser | None = None,
    game: Game | None = None,
    round: Round | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one entry to the audit log (call it inside the service's transaction)."""
    if "." not in action:
        raise ValueError(f"audit action {action!r} is not namespaced (app.entity.verb)")
    user = actor if isinstance(actor, AbstractBaseUser) else None
    change_announce(event_id=event.pk, what=action)  # every audited action shows live
    return AuditEntry.objects.create(
        event=event,
        game=game,
        round=round,
        actor=user,
        actor_name=user.get_username() if user is not None else "",
        action=action,
        data=data or {},
    )


def audit_record_many(
    *,
    event: Event,
    action: str,
    actor: User | AnonymousUser | None,
    data: list[dict[str, Any]],
) -> list[AuditEntry]:
    """Append one entry per item of ``data``, in one query per 500 (a whole imported list);
    the same entries as as many ``audit_record`` calls."""
    if "." not in action:
        raise ValueError(f"audit action {action!r} is not namespaced (app.entity.verb)")
    user = actor if isinstance(actor, AbstractBaseUser) else None
    name = user.get_username() if user is not None else ""
    change_announce(event_id=event.pk, what=action)
    entries = [
        AuditEntry(event=event, actor=user, actor_name=name, action=action, data=item)
        for item in data
    ]
    return AuditEntry.objects.bulk_create(entries, batch_size=500)
