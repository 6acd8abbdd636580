from __future__ import annotations

import pytest
from django.apps import apps
from django.urls import reverse

from tests.factories import AuditEntryFactory, RulingFactory
from tournament.models import AuditEntry, Player
from tournament.services import demo_event_ensure

pytestmark = pytest.mark.django_db

MODELS = ["event", "player", "game", "round", "submission", "ruling", "auditentry"]


@pytest.mark.parametrize("model", MODELS)
def test_every_admin_list_and_change_page_opens(model, superuser, client_for):
    demo_event_ensure()
    RulingFactory()
    client = client_for(superuser)
    listing = reverse(f"admin:tournament_{model}_changelist")
    assert client.get(listing + "?q=a").status_code == 200
    obj = apps.get_model("tournament", model).objects.first()
    change = reverse(f"admin:tournament_{model}_change", args=[obj.pk])
    assert client.get(change).status_code == 200


def test_the_audit_log_is_read_only_in_the_admin(superuser, client_for):
    entry = AuditEntryFactory()
    client = client_for(superuser)
    assert client.get(reverse("admin:tournament_auditentry_add")).status_code == 403
    delete = reverse("admin:tournament_auditentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    change = reverse("admin:tournament_auditentry_change", args=[entry.pk])
    client.post(change, {"action": "x.y"})
    assert AuditEntry.objects.get(pk=entry.pk).action == "tournament.test.done"


def test_reissuing_tokens_from_the_admin_is_audited(superuser, client_for):
    event = demo_event_ensure()
    player = event.players.first()
    old = player.token
    response = client_for(superuser).post(
        reverse("admin:tournament_player_changelist"),
        {"action": "reissue_tokens", "_selected_action": [player.pk]},
    )
    assert response.status_code == 302
    assert Player.objects.get(pk=player.pk).token != old
    entry = event.audit_entries.latest("id")
    assert (entry.action, entry.actor) == ("tournament.player.token_reissued", superuser)


def test_editing_an_event_in_the_admin_writes_an_audit_entry(superuser, client_for):
    event = demo_event_ensure()
    client = client_for(superuser)
    change = reverse("admin:tournament_event_change", args=[event.pk])
    form = client.get(change).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(
        name="Demo club night (renamed)",
        starts_on=event.starts_on.isoformat(),
        **{
            "roles-TOTAL_FORMS": 0,
            "roles-INITIAL_FORMS": 0,
            "games-TOTAL_FORMS": 1,
            "games-INITIAL_FORMS": 1,
            "games-0-id": event.games.get().pk,
            "games-0-event": event.pk,
        },
    )
    data["reference_rule_2016"] = "on"
    response = client.post(change, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    entry = event.audit_entries.latest("id")
    assert entry.action == "web.admin.event_changed"
    assert "name" in entry.data["fields"]


@pytest.mark.parametrize("model", ["round", "submission", "ruling"])
def test_the_admin_refuses_to_add_change_or_delete_a_round_a_slip_or_a_ruling(
    model, superuser, client_for
):
    """They change through the services (audited, with ranks, solos and penalties recomputed):
    the admin only shows them."""
    ruling = RulingFactory(points=12)
    obj = {"round": ruling.round, "submission": ruling.submission, "ruling": ruling}[model]
    assert obj is not None
    client = client_for(superuser)
    model_class = type(obj)
    before = model_class.objects.filter(pk=obj.pk).values().get()
    entries = AuditEntry.objects.count()
    assert client.get(reverse(f"admin:tournament_{model}_add")).status_code == 403
    change = reverse(f"admin:tournament_{model}_change", args=[obj.pk])
    page = client.get(change)
    assert page.status_code == 200 and b'name="_save"' not in page.content
    edit = {"points": "50", "word": "ZZZ", "rack": "ZZZZZZZ", "status": "published"}
    assert client.post(change, edit).status_code == 403
    delete = reverse(f"admin:tournament_{model}_delete", args=[obj.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert model_class.objects.filter(pk=obj.pk).values().get() == before
    assert AuditEntry.objects.count() == entries
