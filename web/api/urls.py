"""The v1 API: the player endpoints (``play_api``) and the staff's (``staff_api``): the director
API's events, games, game actions and standings (``director``), a round's rulings
(``rounds``), the director's actions on the event's accounts, players and closing
(``staff_events``), players' QR codes and imports (``players``), the event's word list
(``word_lists``), and a game's actions at their first address (``staff``)."""

from __future__ import annotations

from django.urls import path

from web.api import (
    director,
    multiplex,
    players,
    rounds,
    staff,
    staff_events,
    views,
    word_lists,
)

play_patterns = [
    path("play/state", views.PlayStateView.as_view(), name="state"),
    path("play/standings", views.PlayStandingsView.as_view(), name="standings"),
    path("play/submissions", views.PlaySubmissionsView.as_view(), name="submissions"),
]

staff_patterns = [
    path("events", director.EventsView.as_view(), name="events"),
    path("events/<slug:slug>", director.EventView.as_view(), name="event"),
    path("events/<slug:slug>/games", director.GamesView.as_view(), name="games"),
    path("events/<slug:slug>/games/<int:number>", director.GameView.as_view(), name="game"),
    path(
        "events/<slug:slug>/games/<int:number>/standings",
        director.GameStandingsView.as_view(),
        name="game_standings",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/rounds/<int:round_number>",
        rounds.RoundRulingsView.as_view(),
        name="round",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/rounds/<int:round_number>/moves",
        rounds.RoundMovesView.as_view(),
        name="round_moves",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/audit", rounds.GameAuditView.as_view(), name="audit"
    ),
    path(
        "events/<slug:slug>/games/<int:number>/tables/<int:table>/slips",
        rounds.TableSlipsView.as_view(),
        name="table_slips",
    ),
    path(
        "events/<slug:slug>/games/<int:number>/<str:action>",
        director.GameActionView.as_view(),
        name="game_action",
    ),
    path("events/<slug:slug>/standings", director.EventStandingsView.as_view(), name="standings"),
    path("events/<slug:slug>/rooms", director.RoomsView.as_view(), name="rooms"),
    path(
        "events/<slug:slug>/simultaneous/standings",
        director.SimultaneousStandingsView.as_view(),
        name="simultaneous_standings",
    ),
    path(
        "events/<slug:slug>/room-results", director.RoomResultsView.as_view(), name="room_results"
    ),
    path("events/<slug:slug>/room-key", multiplex.RoomKeyView.as_view(), name="room_key"),
    path("events/<slug:slug>/multiplex", multiplex.MultiplexLinkView.as_view(), name="multiplex"),
    path("multiplex/feed", multiplex.MultiplexFeedView.as_view(), name="multiplex_feed"),
    path("multiplex/results", multiplex.MultiplexResultsView.as_view(), name="multiplex_results"),
    path(
        "staff/events/<slug:slug>/games/<int:number>/<str:action>",
        staff.StaffGameActionView.as_view(),
        name="action",
    ),
    path(
        "events/<slug:slug>/invitations", staff_events.InvitationsView.as_view(), name="invitations"
    ),
    path(
        "events/<slug:slug>/invitations/<int:invitation_id>/revoke",
        staff_events.InvitationRevokeView.as_view(),
        name="invitation_revoke",
    ),
    path("events/<slug:slug>/staff", staff_events.StaffView.as_view(), name="staff"),
    path(
        "events/<slug:slug>/staff/<int:role_id>/remove",
        staff_events.StaffRoleRemoveView.as_view(),
        name="role_remove",
    ),
    path("events/<slug:slug>/players", staff_events.PlayersView.as_view(), name="players"),
    path(
        "events/<slug:slug>/players/import",
        players.PlayersImportView.as_view(),
        name="players_import",
    ),
    path(
        "events/<slug:slug>/players/<int:player_id>/token/revoke",
        players.PlayerTokenRevokeView.as_view(),
        name="player_token_revoke",
    ),
    path(
        "events/<slug:slug>/players/<int:player_id>/token/reissue",
        players.PlayerTokenReissueView.as_view(),
        name="player_token_reissue",
    ),
    path(
        "events/<slug:slug>/players/<int:player_id>",
        staff_events.PlayerView.as_view(),
        name="player",
    ),
    path(
        "events/<slug:slug>/players/<int:player_id>/withdraw",
        staff_events.PlayerWithdrawView.as_view(),
        name="player_withdraw",
    ),
    path(
        "events/<slug:slug>/players/<int:player_id>/reinstate",
        staff_events.PlayerReinstateView.as_view(),
        name="player_reinstate",
    ),
    path("events/<slug:slug>/word-list", word_lists.WordListView.as_view(), name="word_list"),
    path(
        "events/<slug:slug>/word-list/french",
        word_lists.FrenchListView.as_view(),
        name="word_list_french",
    ),
    path("events/<slug:slug>/close", staff_events.EventCloseView.as_view(), name="event_close"),
    path("events/<slug:slug>/reopen", staff_events.EventReopenView.as_view(), name="event_reopen"),
]
