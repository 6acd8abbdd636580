"""Choices shared by several models (the engine's names for tile sets and board layouts)."""

from __future__ import annotations

from django.db import models


class TileSet(models.TextChoices):
    EN = "en", "English (100 tiles)"
    FR = "fr", "French (102 tiles)"


class BoardLayout(models.TextChoices):
    STANDARD = "standard", "Standard"
    TL_CENTRE = "tl-centre", "Triple-letter centre"


def in_choices(field: str, choices: type[models.TextChoices]) -> models.Q:
    """A CheckConstraint condition: ``field`` holds one of ``choices``."""
    return models.Q(**{f"{field}__in": choices.values})
