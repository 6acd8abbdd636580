"""The names of the files people download: the event's address, then what the file holds in
the event's language (``soiree-partie-1.xlsx``, ``soiree-classement.csv``), in plain ASCII so
that every system keeps them."""

from __future__ import annotations

from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import pgettext_lazy

from tournament.models import Event

WORDS = {
    "game": pgettext_lazy("file name", "game"),
    "standings": pgettext_lazy("file name", "standings"),
    "categories": pgettext_lazy("file name", "categories"),
    "ranking": pgettext_lazy("file name", "ranking"),
}


def download_name(event: Event, *parts: str | int, ext: str) -> str:
    """``event``'s slug, then each part (a word of ``WORDS`` said in the event's language, or
    a number or name as it is), then the extension."""
    with translation.override(event.language):
        said = [slugify(str(WORDS.get(str(p), p)), allow_unicode=False) for p in parts]
    return "-".join([event.slug, *said]) + f".{ext}"
