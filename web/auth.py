"""Signing in: django-axes's rate limit on the login forms (settings: ``AXES_*``), and what it
stores of a failed sign-in without tokens."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from django.http import HttpRequest, QueryDict

from web.redaction import redact


class RateLimitedLoginBackend(AxesStandaloneBackend):  # type: ignore[misc]  # axes is untyped
    """Axes's check of a login form: refuses a locked-out username and address before any
    password is tried. A sign-in with no request (``Client.login`` in tests, a management
    command) is no login form, so it is left to the next backend instead of refused."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)
        return None


def _redacted(fields: QueryDict) -> QueryDict:
    copy = QueryDict(mutable=True)
    for key, values in fields.lists():
        copy.setlist(key, [redact(value) for value in values])
    return copy


class RedactingAxesHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes is untyped
    """django-axes's database handler, storing a failed sign-in without the tokens its query or
    form carried (``/accounts/login/?next=/invitations/<token>/``: ``web.redaction``)."""

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        if request is None:
            super().user_login_failed(sender, credentials, request, **kwargs)
            return
        query, form = request.GET, request.POST
        path = getattr(request, "axes_path_info", None)
        request.GET, request.POST = _redacted(query), _redacted(form)
        if isinstance(path, str):
            request.axes_path_info = redact(path)
        try:
            super().user_login_failed(sender, credentials, request, **kwargs)
        finally:
            request.GET, request.POST = query, form
