from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Pages and API"

    def ready(self) -> None:
        from tournament.changes import change_listen
        from web.live.bus import on_change

        change_listen(on_change)  # every commit's changes reach the live channel
