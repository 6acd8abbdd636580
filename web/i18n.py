"""Which language a page speaks.

Django's ``LocaleMiddleware`` picks the person's choice (the header's switch posts to Django's
``set_language``, which keeps it in a cookie), then the browser's ``Accept-Language``. The pages
of an event's room, its screen and its players' phones (and the player API they poll), speak
the event's language (``Event.language``) unless the person chose one: a phone handed to a
player in a French club shows French whatever the phone's own settings say.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase
from django.utils import translation
from django.utils.translation import gettext
from django.views.i18n import JavaScriptCatalog

from tournament.models import Event
from web.permissions import event_time_zone_activate, public


def language_chosen(request: HttpRequest) -> str | None:
    """The language the person chose with the switch, if they did (and it is one we speak)."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in dict(settings.LANGUAGES) else None


def event_language_activate(request: HttpRequest, event: Event) -> str:
    """Speak ``event``'s language for the rest of this request unless the person chose one, in
    the event's time zone; answers the language in force."""
    event_time_zone_activate(event)
    language = language_chosen(request) or event.language
    translation.activate(language)
    request.LANGUAGE_CODE = language
    return language


@public
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponseBase:
    """The scripts' strings (the ``djangojs`` catalogue) in ``language``: the page names the
    language it was rendered in, so a phone's script speaks as its page does (the event's
    language), whatever the request's own cookie or browser say."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(gettext("No such language."))
    with translation.override(language):
        response = _CATALOG(request)
        response["Cache-Control"] = "public, max-age=3600"
        return response


_CATALOG = JavaScriptCatalog.as_view(domain="djangojs", packages=["web"])
