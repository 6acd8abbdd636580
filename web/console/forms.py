"""Forms of the event set-up: they read and check the input; the services decide."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings

from tournament.models import Event, EventRole, Game
from tournament.services.events import POLICY_FIELDS


def _lexicons() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(settings.LEXICONS)]


class PolicyForm(forms.ModelForm):
    lexicon = forms.ChoiceField(choices=_lexicons)

    class Meta:
        model = Event
        fields = list(POLICY_FIELDS)

    def clean(self) -> dict[str, Any]:
        # The model's own constraints are checked by the service, with one message.
        return self.cleaned_data

    def _post_clean(self) -> None:  # the service validates the instance (one error path)
        pass


class EventForm(PolicyForm):
    class Meta:
        model = Event
        fields = ["name", "starts_on", "venue", *POLICY_FIELDS]
        widgets = {"starts_on": forms.DateInput(attrs={"type": "date"})}


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    club = forms.CharField(max_length=120, required=False)
    category = forms.CharField(max_length=40, required=False)
    licence = forms.CharField(max_length=40, required=False)
    table = forms.IntegerField(min_value=1, required=False)


class GameForm(forms.Form):
    source = forms.ChoiceField(choices=Game.Source.choices, initial=Game.Source.RANDOM)
    seed = forms.IntegerField(
        min_value=0,
        max_value=2**32 - 1,
        required=False,
        help_text="Random draw: leave empty for a fresh seed.",
    )
    predrawn = forms.FileField(
        required=False, help_text="Pre-drawn game: the JSON of python -m engine game --json."
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("source") == Game.Source.PREDRAWN:
            upload = data.get("predrawn")
            if upload is None:
                raise forms.ValidationError("A pre-drawn game needs its file.")
            try:
                data["document"] = json.loads(upload.read().decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise forms.ValidationError(f"The file is not JSON: {exc}") from None
        return data


class RoleForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=EventRole.Role.choices)
