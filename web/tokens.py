"""A password change ends the account's personal API token (``rest_framework.authtoken``): a
script holding the old token is refused from then on and its owner creates a new one. Django
already ends the account's other sessions (the session keeps a hash of the password).

Connected to ``pre_save`` of the user model (``web.apps``), so that every way a password changes
counts: the account page, the admin, ``manage.py changepassword``, ``make run-lan`` replacing the
demo's. A save that does not touch the password (``last_login`` at each sign-in) costs nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model


def tokens_revoke_on_password_change(
    sender: Any, instance: Any, update_fields: frozenset[str] | None = None, **kwargs: Any
) -> None:
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is None or stored == instance.password:
        return
    from rest_framework.authtoken.models import Token

    Token.objects.filter(user_id=instance.pk).delete()


def connect() -> None:
    from django.db.models.signals import pre_save

    pre_save.connect(
        tokens_revoke_on_password_change,
        sender=get_user_model(),
        dispatch_uid="web.tokens.revoke_on_password_change",
    )
