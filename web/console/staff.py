"""An event's people, for its director: invite arbiters and co-directors with a one-time link
(shown with a copy button and a QR code: no mail server is assumed), revoke an invitation,
remove a role, withdraw and reinstate players, close and reopen the event. Every change is a
service (audited); a refusal is a message on the page, never an error page."""

from __future__ import annotations

from collections.abc import Callable

import segno
from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from tournament.errors import ApplicationError
from tournament.models import Event, EventRole, Invitation, Player
from tournament.selectors import event_round_in_play
from tournament.services.closing import (
    event_close,
    event_closed_said,
    event_reopen,
    event_reopened_said,
)
from tournament.services.invitations import (
    DAYS_VALID,
    MAX_DAYS_VALID,
    invitation_create,
    invitation_revoke,
)
from tournament.services.players import (
    player_reinstate,
    player_reinstated_said,
    player_withdraw,
    player_withdrawn_said,
)
from tournament.services.users import event_role_remove, event_role_removed_said
from tournament.typography import elided
from web.event_setup import invitation_link
from web.forms import form_error
from web.permissions import DIRECTOR, AuthenticatedHttpRequest, event_roles


class InviteForm(forms.Form):
    name = forms.CharField(
        max_length=120, label=gettext_lazy("Name"), help_text=gettext_lazy("Who the link is for.")
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=EventRole.Role.choices, initial=EventRole.Role.ARBITER
    )
    days = forms.IntegerField(
        min_value=1,
        max_value=MAX_DAYS_VALID,
        initial=DAYS_VALID,
        label=gettext_lazy("Valid for (days)"),
    )


def _qr_svg(link: str, name: str) -> str:
    return segno.make(link, error="m").svg_inline(
        scale=3, omitsize=True, title=elided(gettext("Invitation of %(name)s") % {"name": name})
    )


@event_roles(DIRECTOR)
def staff_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    now = timezone.now()
    invitations = list(event.invitations.select_related("created_by", "accepted_by")[:50])
    pending = []
    past = []
    for invitation in invitations:
        state = invitation.state(at=now)
        if state == "pending":
            link = invitation_link(request, invitation)
            pending.append((invitation, link, _qr_svg(link, invitation.name)))
        else:
            past.append((invitation, invitation.state_label(at=now)))
    roles = list(event.roles.select_related("user").order_by("role", "user__username"))
    directors = [r.pk for r in roles if r.role == EventRole.Role.DIRECTOR]
    return render(
        request,
        "console/accounts/staff.html",
        {
            "event": event,
            "form": InviteForm(),
            "pending": pending,
            "past": past,
            "roles": roles,
            "last_director": directors[0] if len(directors) == 1 else None,
            "players": Player.objects.filter(event=event).order_by("table", "name"),
            "in_play": event_round_in_play(event_id=event.pk) is not None,
        },
    )


def _invite(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    form = InviteForm(request.POST)
    if not form.is_valid():
        raise ApplicationError(form_error(form), code="invalid")
    invitation = invitation_create(
        event=event,
        name=form.cleaned_data["name"],
        role=form.cleaned_data["role"],
        days=form.cleaned_data["days"],
        actor=request.user,
    )
    return gettext(
        "Invitation ready for %(name)s (%(role)s): copy the link below or let them scan its "
        "QR code. It works once."
    ) % {"name": invitation.name, "role": str(invitation.get_role_display()).lower()}


def _revoke(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    invitation = invitation_revoke(
        invitation=get_object_or_404(Invitation, pk=pk, event=event), actor=request.user
    )
    return elided(
        gettext("The invitation for %(name)s is revoked: its link no longer works.")
        % {"name": invitation.name}
    )


def _role_remove(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    role = event_role_remove(
        role=get_object_or_404(EventRole, pk=pk, event=event), actor=request.user
    )
    return event_role_removed_said(role)


def _withdraw(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    player = player_withdraw(
        player=get_object_or_404(Player, pk=pk, event=event),
        actor=request.user,
        reason=request.POST.get("reason", ""),
    )
    return player_withdrawn_said(player)


def _reinstate(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    player = player_reinstate(
        player=get_object_or_404(Player, pk=pk, event=event), actor=request.user
    )
    return player_reinstated_said(player)


def _close(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    return event_closed_said(event_close(event=event, actor=request.user))


def _reopen(request: AuthenticatedHttpRequest, event: Event, pk: int | None) -> str:
    return event_reopened_said(event_reopen(event=event, actor=request.user))


HANDLERS: dict[str, Callable[[AuthenticatedHttpRequest, Event, int | None], str]] = {
    "invite": _invite,
    "revoke": _revoke,
    "role_remove": _role_remove,
    "withdraw": _withdraw,
    "reinstate": _reinstate,
    "close": _close,
    "reopen": _reopen,
}


@event_roles(DIRECTOR)
@require_POST
def staff_post(
    request: AuthenticatedHttpRequest, slug: str, what: str, pk: int | None = None
) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    handler = HANDLERS.get(what)
    try:
        if handler is None:
            raise ApplicationError(
                gettext("Nothing to do called '%(what)s'.") % {"what": what}, code="unknown_action"
            )
        messages.success(request, handler(request, event, pk))
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect("console:staff", slug=slug)
