"""Choices shared by several models (the engine's names for tile sets and board layouts)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class TileSet(models.TextChoices):
    EN = "en", _("English (100 tiles)")
    FR = "fr", _("French (102 tiles)")


class BoardLayout(models.TextChoices):
    STANDARD = "standard", _("Standard")
    TL_CENTRE = "tl-centre", _("Triple-letter centre")


class Rulebook(models.TextChoices):
    """The text an event is ruled by (``arbiter.rules.Rulebook``, docs/rules.md)."""

    FISF_2023 = "fisf-2023", _("FISF regulation in force (1 January 2023)")
    BEFORE_2023 = "before-2023", _("Before 2023 (the 2016 amendments)")


class Formula(models.TextChoices):
    """The formula a game is played in (engine.formula.FORMULAS; docs/formulas.md)."""

    STANDARD = "standard", _("Standard duplicate")
    JOKER = "joker", _("Joker")
    SEPT_SUR_HUIT = "7sur8", _("7 sur 8")
    SEPT_ET_HUIT = "7et8", _("7 et 8")
    SEPT_HUIT_NEUF = "789", _("7, 8 et 9")
    DETONANTE = "detonante", _("Détonante")
    JOKER_SEPT_SUR_HUIT = "joker+7sur8", _("Joker, 7 sur 8")
    JOKER_SEPT_ET_HUIT = "joker+7et8", _("Joker, 7 et 8")
    JOKER_SEPT_HUIT_NEUF = "joker+789", _("Joker, 7, 8 et 9")
    MORT_SUBITE = "mortsubite", _("Mort subite")


class Language(models.TextChoices):
    """The interface's languages (settings.LANGUAGES): an event's screen and phones speak its
    own unless the person chose another."""

    EN = "en", _("English")
    FR = "fr", _("French")


def in_choices(field: str, choices: type[models.TextChoices]) -> models.Q:
    """A CheckConstraint condition: ``field`` holds one of ``choices``."""
    return models.Q(**{f"{field}__in": choices.values})


class TieBreak(models.TextChoices):
    """How equal totals are ranked (docs/rules.md, case 22)."""

    SHARED = "shared", _("Equal totals share a rank")
    LAST_GAME = "last_game", _("The last game's total, then its rounds from the last backwards")
