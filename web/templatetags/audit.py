"""``{{ entry.action|audit_said }}``: an audit action in the reader's words (web.audit_words)."""

from __future__ import annotations

from django import template

from web.audit_words import audit_said as _said

register = template.Library()


@register.filter
def audit_said(action: str) -> str:
    return _said(action)
