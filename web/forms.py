"""Forms of the event set-up: they read and check the input; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.models import fields_for_model, model_to_dict
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from arbiter.services.interchange import PREDRAWN_MAX_BYTES
from engine.lists import BUILTIN
from tournament.categories import SERIES_MAX, SERIES_MIN
from tournament.models import Event, EventRole, Game, WordList
from tournament.models.choices import Formula, Language, Rulebook, TieBreak
from tournament.models.event import time_zone_default, time_zones
from tournament.services.events import POLICY_FIELDS
from tournament.services.word_lists import BUILTIN_PREFIX
from tournament.vocabulary import TABLE_MAX, TABLE_MIN
from web.inputs import INT32_MAX, INT32_MIN


def _lexicons() -> list[tuple[str, str]]:
    """The lists an event may play: those on the server, those offered out of the box (the
    open French list, said plainly not to be the ODS), then those uploaded (not failed)."""
    uploaded = WordList.objects.exclude(status=WordList.Status.FAILED).order_by("name", "id")
    # the row of the list as this version builds it (an older build's row, still played by the
    # events that chose it then, is listed with the uploads, by its name and word count)
    offered = {
        w.builtin: w
        for w in uploaded
        if w.builtin in BUILTIN and w.sha256 == BUILTIN[w.builtin].fingerprint
    }
    choices = [(name, name) for name in sorted(settings.LEXICONS)]
    for key, builtin in BUILTIN.items():
        row = offered.get(key)
        label = gettext("%(name)s: open French list, not the ODS (French tiles)") % {
            "name": builtin.name
        }
        if row is None:
            choices.append((f"{BUILTIN_PREFIX}{key}", label))
        else:
            state = "" if row.is_ready else " · " + str(row.get_status_display())
            choices.append((row.key, label + state))
    return choices + [
        (
            word_list.key,
            gettext("%(name)s (%(tiles)s, %(words)s words)")
            % {
                "name": word_list.name,
                "tiles": word_list.tile_set,
                "words": number_format(word_list.words or 0, force_grouping=True),
            }
            + ("" if word_list.is_ready else " · " + str(word_list.get_status_display())),
        )
        for word_list in uploaded
        if word_list not in offered.values()
    ]


# What a new event starts with for a director who speaks the language (the set-up's page is
# read in it): the club's tiles, its open list, its language and its time zone, instead of
# four menus to change. English keeps the policy's own defaults.
LANGUAGE_DEFAULTS: dict[str, dict[str, str]] = {
    "fr": {
        "tile_set": "fr",
        "lexicon": f"{BUILTIN_PREFIX}grammalecte-fr",
        "language": "fr",
        "time_zone": "Europe/Paris",
    },
}


def new_event_defaults(language: str) -> dict[str, str]:
    """The policy values a new event starts with for a director reading ``language`` (a
    list offered out of the box named as the form offers it: its row once it exists)."""
    found = dict(LANGUAGE_DEFAULTS.get(language.split("-")[0], {}))
    lexicon = found.get("lexicon", "")
    if lexicon.startswith(BUILTIN_PREFIX):
        builtin = BUILTIN[lexicon.removeprefix(BUILTIN_PREFIX)]
        row = WordList.objects.filter(
            builtin=builtin.key, sha256=builtin.fingerprint, tile_set=builtin.tile_set
        ).first()
        if row is not None and row.status != WordList.Status.FAILED:
            found["lexicon"] = row.key
    return found


def _time_zones() -> list[tuple[str, str]]:
    return [(zone, zone) for zone in sorted(time_zones())]


def _bounded(field: forms.IntegerField, minimum: int, maximum: int) -> None:
    """Keep ``field`` within [minimum, maximum] on top of its own bounds (the column's range:
    PostgreSQL refuses 2**31 in an integer column, SQLite takes it)."""
    low = minimum if field.min_value is None else max(int(field.min_value), minimum)
    high = maximum if field.max_value is None else min(int(field.max_value), maximum)
    field.min_value, field.max_value = low, high
    field.validators += [MinValueValidator(low), MaxValueValidator(high)]
    field.widget.attrs.update({"min": low, "max": high})


# The event's fields as the forms name them, in the language in force (the model's own names
# are its columns' and stay as they are, so that no migration follows a wording).
EVENT_LABELS = {
    "name": _("Name"),
    "starts_on": _("Starts on"),
    "venue": _("Venue"),
    "rulebook": _("Rulebook"),
    "round_seconds": _("Round time (seconds)"),
    "grace_seconds": _("Grace (seconds)"),
    "warning_seconds": _("Warning time (seconds)"),
    "warnings_free": _("Free warnings"),
    "warning_penalty": _("Warning penalty"),
    "reference_rule_2016": _("2016 reference rule (before 2023 only)"),
    "reference_penalty": _("Reference penalty"),
    "solo_bonus": _("Solo bonus"),
    "solo_min_players": _("Players for a solo"),
    "publish_after_seconds": _("Publish by itself after (seconds)"),
    "tie_break": _("Ties in the standings"),
    "tile_set": _("Tile set"),
    "lexicon": _("Lexicon"),
    "board_layout": _("Board"),
    "language": _("Language"),
    "time_zone": _("Time zone"),
    "public_results": _("Results for the audience (a public page)"),
    "public_initials": _("Initials instead of names on the public page"),
    "training_open": _("Finished games open for training"),
}


# FISF 2023, 1.3: "usuellement de trois minutes par coup. Ce temps peut être réduit à deux
# minutes et trente secondes, à deux minutes (appelé « semi-rapide ») ou à une minute (appelé
# « blitz »)"; in blitz the warnings cost from the sixth (5.9).
ROUND_TIMES_HELP = _(
    "The regulation's times: 180 (usual), 150, 120 (semi-rapide), 60 (blitz: warnings cost "
    "from the sixth)."
)


class _EventFieldsForm(forms.Form):
    """A plain form whose fields are the Event model's ``event_fields``: each field is read and
    checked on its own; the service checks the event as a whole (its constraints), with one
    message, so there is one error path."""

    event_fields: tuple[str, ...] = ()
    widgets: dict[str, type[forms.Widget] | forms.Widget] = {}

    def __init__(self, *args: Any, instance: Event | None = None, **kwargs: Any) -> None:
        if instance is not None:
            kwargs.setdefault("initial", model_to_dict(instance, fields=self.event_fields))
        super().__init__(*args, **kwargs)
        self.fields.update(fields_for_model(Event, fields=self.event_fields, widgets=self.widgets))
        self.fields["lexicon"] = forms.ChoiceField(choices=_lexicons)
        if "time_zone" in self.fields:  # a form posted without it keeps the event's zone
            self.fields["time_zone"] = forms.ChoiceField(choices=_time_zones, required=False)
        for name, field in self.fields.items():
            field.label = EVENT_LABELS.get(name, field.label)
        if "language" in self.fields:  # a form posted without it keeps the event's language
            self.fields["language"].required = False
        if "tie_break" in self.fields:  # a form posted without it keeps the event's tie-break
            self.fields["tie_break"].required = False
        if "rulebook" in self.fields:  # a form posted without it keeps the event's rulebook
            self.fields["rulebook"].required = False
        if "round_seconds" in self.fields:
            self.fields["round_seconds"].help_text = ROUND_TIMES_HELP
        for field in self.fields.values():  # every number of the policy is an integer column
            if isinstance(field, forms.IntegerField):
                _bounded(field, INT32_MIN, INT32_MAX)

    def clean_time_zone(self) -> str:
        zone: str = self.cleaned_data.get("time_zone") or ""
        return zone or str(self.initial.get("time_zone") or time_zone_default())

    def clean_tie_break(self) -> str:
        tie_break: str = self.cleaned_data.get("tie_break") or ""
        return tie_break or str(self.initial.get("tie_break") or TieBreak.SHARED)

    def clean_rulebook(self) -> str:
        rulebook: str = self.cleaned_data.get("rulebook") or ""
        return rulebook or str(self.initial.get("rulebook") or Rulebook.FISF_2023)

    def clean_language(self) -> str:
        language: str = self.cleaned_data.get("language") or ""
        return language or str(self.initial.get("language") or Language.EN)


class PolicyForm(_EventFieldsForm):
    event_fields = POLICY_FIELDS


class EventForm(_EventFieldsForm):
    event_fields = ("name", "starts_on", "venue", *POLICY_FIELDS)
    widgets = {"starts_on": forms.DateInput(attrs={"type": "date"})}


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    category = forms.CharField(label=_("Category"), max_length=40, required=False)
    licence = forms.CharField(label=_("Licence"), max_length=40, required=False)
    table = forms.IntegerField(
        label=_("Table"),
        min_value=TABLE_MIN,
        max_value=TABLE_MAX,
        required=False,
        help_text=_("1 to 9,999."),
    )
    series = forms.IntegerField(
        label=_("Series"), min_value=SERIES_MIN, max_value=SERIES_MAX, required=False
    )
    age_category = forms.CharField(label=_("Age category"), max_length=16, required=False)


DRAWN_WHOLE = "whole"  # the set-up's own choice: the whole game drawn now, pre-drawn


class GameForm(forms.Form):
    source = forms.ChoiceField(
        label=_("Source"),
        choices=[
            *Game.Source.choices,
            (DRAWN_WHOLE, _("The whole game drawn now (for a simultaneous event's rooms)")),
        ],
        initial=Game.Source.RANDOM,
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=2**32 - 1,
        required=False,
        help_text=_("Random draw or the whole game drawn now: leave empty for a fresh seed."),
    )
    formula = forms.ChoiceField(
        label=_("Formula"),
        choices=Formula.choices,
        initial=Formula.STANDARD,
        required=False,
        help_text=_("A pre-drawn game is played in its file's formula."),
    )
    predrawn = forms.FileField(
        label=_("Pre-drawn game"),
        required=False,
        help_text=_(
            "Pre-drawn game: the JSON of python -m engine game --json, or an Eliot save game "
            "(.xml)."
        ),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("source") == Game.Source.PREDRAWN:
            upload = data.get("predrawn")
            if upload is None:
                raise forms.ValidationError(_("A pre-drawn game needs its file."), code="required")
            # One byte past the bound: a file too large is said so without reading it all.
            data["content"] = upload.read(PREDRAWN_MAX_BYTES + 1)
            data["file_name"] = upload.name or ""
        return data


class RoleForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=EventRole.Role.choices)


class WordListForm(forms.Form):
    """A word list to upload: plain text, one word a line, UTF-8 (checked by the service)."""

    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=100,
        required=False,
        help_text=gettext_lazy("As the pages and exports show it (the file's name if empty)."),
    )
    file = forms.FileField(
        label=gettext_lazy("Word list"),
        help_text=gettext_lazy("Plain text, one word a line, UTF-8; accents are folded (É is E)."),
    )


def form_error(form: Any) -> str:
    """A form's errors as one sentence, each prefixed by its field."""
    return "; ".join(
        f"{'' if field == '__all__' else field + ': '}{' '.join(errors)}"
        for field, errors in form.errors.items()
    )
