from __future__ import annotations

from django.urls import path

from web.console import accounts, events, imports, rooms, setup, staff, views

app_name = "console"

urlpatterns = [
    path("", events.event_list, name="event_list"),
    path("events/new/", setup.event_new, name="event_new"),
    path("events/<slug:slug>/", events.event_detail, name="event_detail"),
    path("events/<slug:slug>/setup/", setup.event_setup, name="setup"),
    path("events/<slug:slug>/setup/word-list.json", setup.word_list_state, name="word_list_state"),
    path("events/<slug:slug>/setup/<str:what>/", setup.event_setup_post, name="setup_post"),
    path(
        "events/<slug:slug>/setup/<str:what>/<int:pk>/",
        setup.event_setup_post,
        name="setup_post_one",
    ),
    path("events/<slug:slug>/games/<int:number>/console/", views.game_console, name="game"),
    path(
        "events/<slug:slug>/games/<int:number>/console/state.json",
        views.game_state,
        name="game_state",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/console/<str:action>/",
        views.game_action,
        name="action",
    ),
    path("events/<slug:slug>/games/<int:number>/slips/", views.slip_entry, name="slip_entry"),
    path(
        "events/<slug:slug>/games/<int:number>/slips/table.json",
        views.slip_table,
        name="slip_table",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/rounds/<int:round_number>/rulings/",
        views.round_amendments,
        name="round_rulings",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/rounds/<int:round_number>/moves/",
        views.round_moves,
        name="round_moves",
    ),
    path("events/<slug:slug>/games/<int:number>/audit/", views.game_audit, name="audit"),
    path("events/<slug:slug>/players/import/", imports.players_import_page, name="players_import"),
    path("events/<slug:slug>/simultaneous/", rooms.simultaneous_page, name="simultaneous"),
    path("events/<slug:slug>/simultaneous/rooms/", rooms.room_add, name="room_add"),
    path(
        "events/<slug:slug>/simultaneous/results.json",
        rooms.room_results_download,
        name="room_results",
    ),
    path(
        "events/<slug:slug>/simultaneous/import/",
        rooms.room_results_upload,
        name="room_results_upload",
    ),
    path("events/<slug:slug>/staff/", staff.staff_page, name="staff"),
    path("events/<slug:slug>/staff/<str:what>/", staff.staff_post, name="staff_post"),
    path("events/<slug:slug>/staff/<str:what>/<int:pk>/", staff.staff_post, name="staff_post_one"),
    path("invitations/<str:token>/", accounts.invitation_open, name="invitation"),
]
