"""With DEBUG off (production, and the embedded run since issue 35) a failing page and an
unknown one answer the site's own pages, in the reader's language, never Django's plain
English "Server Error (500)" nor a debug page."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.urls("tests.config.crash_urls")
@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Une erreur est survenue sur le serveur"), ("en", "Something went wrong")],
)
def test_a_failing_page_answers_the_site_s_500_page_in_the_reader_s_language(
    db, settings, language, words
) -> None:
    settings.DEBUG = False
    client = Client(raise_request_exception=False, headers={"Accept-Language": language})
    response = client.get("/test-fails/")
    assert response.status_code == 500
    page = response.content.decode()
    assert words in page and 'data-status="500"' in page
    assert f'<html lang="{language}">' in page
    assert "Server Error (500)" not in page and "Traceback" not in page


@pytest.mark.parametrize(("language", "words"), [("fr", "Rien ici"), ("en", "Nothing here")])
def test_an_unknown_page_answers_the_site_s_404_page_in_the_reader_s_language(
    db, settings, language, words
) -> None:
    settings.DEBUG = False
    client = Client(headers={"Accept-Language": language})
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert words in page and 'data-status="404"' in page
    assert "Django tried these URL patterns" not in page
