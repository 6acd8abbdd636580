"""The set-up operations every face calls: the console's set-up and staff pages and the
director API (``web.api``) give a role, play a word list and make an invitation's link the
same way, each returning the sentence that says what was done."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext

from engine.lists import GRAMMALECTE_FR
from tournament.errors import ApplicationError
from tournament.models import Event, Invitation
from tournament.models.choices import TileSet
from tournament.services.events import event_policy_update, event_role_grant
from tournament.services.invitations import invitation_token
from tournament.services.word_lists import BUILTIN_PREFIX, word_list_upload
from web.forms import RoleForm, WordListForm, form_error


def word_list_play(*, user: User, event: Event, data: Any, files: Any) -> str:
    """Upload a word list for the event's tiles and play it; its compile goes to a worker.
    The set-up page and the API (``web.api.word_lists``) both come through here."""
    form = WordListForm(data, files)
    if not form.is_valid():
        raise ApplicationError(form_error(form), code="invalid")
    upload = form.cleaned_data["file"]
    # Read one byte past the bound, so a file too large is said so without reading it all.
    content = upload.read(settings.WORD_LIST_MAX_BYTES + 1)
    word_list, new = word_list_upload(
        data=content,
        name=form.cleaned_data["name"] or Path(upload.name or "").stem or gettext("Word list"),
        tile_set=event.tile_set,
        actor=user,
    )
    event_policy_update(event=event, actor=user, lexicon=word_list.key)
    values = {
        "name": word_list.name,
        "words": number_format(word_list.words or 0, force_grouping=True),
    }
    if not new:
        return (
            gettext(
                "This file was uploaded before as %(name)s (%(words)s words): the event plays it."
            )
            % values
        )
    return (
        gettext(
            "%(name)s is uploaded (%(words)s words) and the event plays it: it is compiled in "
            "the background, and a round can start once it is ready."
        )
        % values
    )


def french_list_play(*, user: User, event: Event) -> str:
    """Play the open French list offered out of the box, with the French tiles it is for (the
    set-up page and the API)."""
    event_policy_update(
        event=event,
        actor=user,
        tile_set=TileSet.FR,
        lexicon=f"{BUILTIN_PREFIX}{GRAMMALECTE_FR.key}",
    )
    return gettext(
        "The event plays the French tiles and the open French list %(name)s (not the ODS): it "
        "is built and compiled in the background the first time, and a round can start once "
        "it is ready."
    ) % {"name": GRAMMALECTE_FR.name}


def role_grant(*, user: User, event: Event, data: Any) -> str:
    """Give an existing account a role in the event (the set-up page and the API)."""
    form = RoleForm(data)
    if not form.is_valid():
        raise ApplicationError(form_error(form), code="invalid")
    granted = event_role_grant(
        event=event,
        username=form.cleaned_data["username"],
        role=form.cleaned_data["role"],
        actor=user,
    )
    role = granted.get_role_display().lower()
    return gettext("%(username)s is now %(role)s of %(event)s.") % {
        "username": granted.user.get_username(),
        "role": role,
        "event": event.name,
    }


def invitation_link(request: HttpRequest, invitation: Invitation) -> str:
    path = reverse("console:invitation", args=[invitation_token(invitation)])
    return request.build_absolute_uri(path)
