"""Signing in: django-axes's rate limit on the login forms (settings: ``AXES_*``)."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


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
