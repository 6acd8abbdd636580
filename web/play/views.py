"""Pages for players' phones and the director's QR codes: parse, call one selector or service,
render.

- ``/play/<token>/`` signs the phone in (a signed cookie) and redirects to ``/play/`` so the
  token leaves the address bar; a revoked token shows a page saying so.
- ``/play/`` is the player page; ``play/play.js`` polls the v1 API for the rest.
- ``/events/<slug>/qr/`` the printable sheet of QR codes; one player's QR on screen; revoke
  and reissue a player's token (POST, audited by the services).
"""

from __future__ import annotations

import segno
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from tournament.errors import ApplicationError
from tournament.models import Event, Player
from tournament.selectors import player_by_token
from tournament.services.players import player_token_reissue, player_token_revoke
from tournament.typography import elided
from web.authentication import (
    PLAY_COOKIE,
    PLAY_COOKIE_MAX_AGE,
    PLAY_COOKIE_SALT,
    play_cookie_token,
)
from web.i18n import event_language_activate
from web.permissions import (
    DIRECTOR,
    AuthenticatedHttpRequest,
    event_roles,
    event_visible_or_404,
    public,
)


def _join_url(request: HttpRequest, player: Player) -> str:
    """The player's join link at the address phones open: ``PUBLIC_URL`` when set (``make
    run-lan`` sets it to this machine's address on the room's network), else the host the
    director's browser used."""
    path = reverse("play:play_join", args=[player.token])
    if settings.PUBLIC_URL:
        return f"{settings.PUBLIC_URL}{path}"
    return request.build_absolute_uri(path)


def _qr_svg(request: HttpRequest, player: Player, *, scale: int) -> str:
    url = _join_url(request, player)
    return segno.make(url, error="m").svg_inline(
        scale=scale,
        omitsize=True,
        title=elided(gettext("QR code of %(name)s") % {"name": player.name}),
    )


@public
def play_join(request: HttpRequest, token: str) -> HttpResponse:
    player = player_by_token(token=token)
    if player is None:
        return render(request, "play/play_refused.html", {"reason": "unknown"}, status=404)
    if not player.token_is_active:
        event_language_activate(request, player.event)
        return render(
            request, "play/play_refused.html", {"reason": "revoked", "player": player}, status=403
        )
    response = redirect("play:play")
    response.set_signed_cookie(
        PLAY_COOKIE,
        player.token,
        salt=PLAY_COOKIE_SALT,
        max_age=PLAY_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


@public
@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    token = play_cookie_token(request)
    player = player_by_token(token=token) if token else None
    if player is None:
        return render(request, "play/play_refused.html", {"reason": "none"}, status=403)
    event_language_activate(request, player.event)
    if not player.token_is_active:
        return render(
            request, "play/play_refused.html", {"reason": "revoked", "player": player}, status=403
        )
    return render(request, "play/play.html", {"player": player, "event": player.event})


def _event_player(event: Event, pk: int) -> Player:
    player = next((p for p in event.players.all() if p.pk == pk), None)
    if player is None:
        raise Http404(gettext("No such player in this event."))
    return player


@event_roles(DIRECTOR)
def qr_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    cards = [
        {"player": p, "svg": _qr_svg(request, p, scale=4) if p.token_is_active else None}
        for p in event.players.all()
    ]
    return render(request, "play/qr_sheet.html", {"event": event, "cards": cards})


@event_roles(DIRECTOR)
def qr_player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    player = _event_player(event, pk)
    svg = _qr_svg(request, player, scale=10) if player.token_is_active else None
    return render(request, "play/qr_player.html", {"event": event, "player": player, "svg": svg})


@event_roles(DIRECTOR)
@require_POST
def player_token_revoke_view(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    player = _event_player(event, pk)
    try:
        player_token_revoke(player=player, actor=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, elided(gettext("%(name)s's QR code no longer works.") % {"name": player.name})
        )
    return redirect("play:qr_player", slug=event.slug, pk=player.pk)


@event_roles(DIRECTOR)
@require_POST
def player_token_reissue_view(
    request: AuthenticatedHttpRequest, slug: str, pk: int
) -> HttpResponse:
    event = event_visible_or_404(request, slug)
    player = _event_player(event, pk)
    player_token_reissue(player=player, actor=request.user)
    messages.success(
        request,
        gettext("%(name)s has a new QR code: the old one no longer works.") % {"name": player.name},
    )
    return redirect("play:qr_player", slug=event.slug, pk=player.pk)
