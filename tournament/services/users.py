from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction


@transaction.atomic
def director_user_ensure(*, username: str, password: str) -> tuple[AbstractUser, bool]:
    """The demo director account (a superuser): created with ``password`` if missing.

    An existing account is left as it is (its password may have been changed on purpose).
    Returns the user and whether it was created.
    """
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    user = User.objects.create_superuser(username=username, email="", password=password)
    return user, True
