from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Pages and API"

    def ready(self) -> None:
        from tournament.changes import change_listen
        from web.live.bus import on_change
        from web.tokens import connect as tokens_connect

        change_listen(on_change)  # every commit's changes reach the live channel
        tokens_connect()  # a password change ends the account's API token
