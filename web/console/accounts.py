"""Accounts without the admin: opening an invitation link (a new person chooses a username and
a password; a signed-in person takes the role onto their own account). A link that cannot be
used (tampered, used, revoked, expired) gets a page saying why and what to do, never an error.
Changing one's own password is Django's PasswordChangeView (``config.urls``)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import login, password_validation
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.errors import ApplicationError
from tournament.models import Invitation
from tournament.services.invitations import (
    InvitationRefused,
    invitation_accept,
    invitation_accept_new_account,
    invitation_check,
)
from web.permissions import public

BACKEND = "django.contrib.auth.backends.ModelBackend"
# A link that cannot be used: tampered is a bad request, the others are gone for good.
REFUSED_STATUS = {"invitation_tampered": 400}


class NewAccountForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        label=_("Username"),
        help_text=_("Letters, digits and @ . + - _ only; you sign in with it."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("password1") and data.get("password2") != data.get("password1"):
            self.add_error("password2", _("The two passwords are not the same."))
        return data


def _refused(request: HttpRequest, exc: InvitationRefused) -> HttpResponse:
    status = REFUSED_STATUS.get(exc.code or "", 410)
    context = {"message": exc.message, "code": exc.code, "event": exc.data.get("event")}
    return render(request, "console/accounts/invitation_refused.html", context, status=status)


def _accepted(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    return redirect(reverse("console:event_detail", args=[invitation.event.slug]))


@public
def invitation_open(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invitation = invitation_check(token=token)
    except InvitationRefused as exc:
        return _refused(request, exc)
    form = NewAccountForm(request.POST or None)
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                invitation_accept(invitation=invitation, user=request.user)
                return _accepted(request, invitation)
            if form.is_valid():
                role = invitation_accept_new_account(
                    invitation=invitation,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                login(request, role.user, backend=BACKEND)
                return _accepted(request, invitation)
        except InvitationRefused as exc:
            return _refused(request, exc)
        except ApplicationError as exc:
            field = {"password": "password1"}.get(str(exc.data.get("field")), exc.data.get("field"))
            form.add_error(field if field in form.fields else None, exc.message)
    login_url = f"{reverse('login')}?next={request.path}"
    status = 400 if form.errors else 200
    context = {"invitation": invitation, "form": form, "login_url": login_url}
    return render(request, "console/accounts/invitation.html", context, status=status)
