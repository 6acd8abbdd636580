"""The player import page: a .xlsx or .csv list, every bad row reported, nothing imported
until the file is clean (``tournament.services.player_imports``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from tournament.services.player_imports import (
    FIRST_NAME,
    HEADERS_WRITTEN,
    PlayerImportError,
    players_import,
)
from tournament.services.player_imports import MAX_BYTES as MAX_IMPORT_BYTES
from web.permissions import DIRECTOR, AuthenticatedHttpRequest, event_roles, event_visible_or_404

# What each column holds, in the reader's words; its headers are shown in both languages, as a
# club's sheet may be headed in either whatever the reader's (``HEADERS_WRITTEN``).
COLUMNS_SAID = {
    "name": gettext_lazy("The player's name (required)"),
    FIRST_NAME: gettext_lazy("First name, put before the name"),
    "club": gettext_lazy("Club"),
    "category": gettext_lazy("Category (a free label)"),
    "licence": gettext_lazy("Licence number"),
    "table": gettext_lazy("Table number"),
    "series": gettext_lazy("Series: 1 to 7, or S1 to S7"),
    "age_category": gettext_lazy(
        "Age category: Poussin, Benjamin, Cadet, Junior, Espoir, Senior, Vermeil, Diamant, Émeraude"
    ),
}


def headers_shown() -> list[tuple[str, str, str]]:
    """(what the column holds, its English headers, its French headers), in column order."""
    return [
        (str(COLUMNS_SAID[column]), ", ".join(english), ", ".join(french))
        for column, (english, french) in HEADERS_WRITTEN.items()
    ]


@event_roles(DIRECTOR)
@require_http_methods(["GET", "POST"])
def players_import_page(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    errors: list[str] = []
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            errors = [gettext("Choose a .xlsx or .csv file.")]
        elif upload.size is not None and upload.size > MAX_IMPORT_BYTES:
            errors = [
                gettext("The file is larger than %(size)s MB.")
                % {"size": MAX_IMPORT_BYTES // (1024 * 1024)}
            ]
        else:
            try:
                created = players_import(
                    event=event,
                    file_name=upload.name or "",
                    content=upload.read(),
                    actor=request.user,
                )
            except PlayerImportError as exc:
                errors = [exc.message, *(str(e) for e in exc.errors)]
            else:
                messages.success(
                    request, gettext("%(count)s players imported.") % {"count": len(created)}
                )
                return redirect("console:event_detail", slug=slug)
    return render(
        request,
        "console/players_import.html",
        {"event": event, "errors": errors, "headers": headers_shown()},
        status=400 if errors else 200,
    )
