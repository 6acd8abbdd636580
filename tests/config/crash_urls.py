"""The project's URLs plus one page that fails, to see the site's 500 page through the whole
middleware stack (tests/config/test_error_pages.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler500, urlpatterns

__all__ = ["handler500", "urlpatterns"]


def _fails(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a page that fails")


urlpatterns = [path("test-fails/", _fails), *urlpatterns]
