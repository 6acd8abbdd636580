"""A French club's night, with the open French list and with an uploaded list: every page,
print, export, API answer, phone state and refusal code of a French event reads with no English
word (the detector of ``test_french_browser``: the catalogues' English less their French, and
common English words). The night: 20 players with accented names (a long one of 120 letters),
French tiles, three rounds with valid slips, a wrong score, a word not in the list and tiles
not on the rack, a late slip amended, a withdrawn player, a used invitation.

What programs read is left out by name: JSON keys and codes, the Eliot and SIGLES formats'
own words, the GCG pragmas (``#player1``...).
"""

from __future__ import annotations

import datetime as dt
import html
import io
import itertools
import json
import re
import zipfile
from pathlib import Path

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from rest_framework.test import APIClient

from arbiter.services import clock, corrections, publishing, racks, scoring
from arbiter.services.slips import slip_submit
from arbiter.state import board_of, lexicon_for
from engine.movegen import generate
from engine.tiles import TileSet
from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tests.web.test_french_browser import english_words, words
from tournament.models import Event, Game, Round, Ruling, WordList
from tournament.services.events import event_policy_update
from tournament.services.invitations import (
    invitation_accept_new_account,
    invitation_create,
    invitation_token,
)
from tournament.services.players import player_withdraw
from tournament.services.word_lists import word_list_compile, word_list_upload

pytestmark = pytest.mark.django_db

NAMES = [
    "Élodie Zéro",
    "Yves Abel",
    "Ève Durand",
    "Zoé Martin",
    "Ana Ölund",
    "Bruno Dupré",
    "Chloé Lefèvre",
    "Denis Brûlé",
    "Émile Noël",
    "François Giraud",
    "Gaëlle Hébert",
    "Hélène Joly",
    "Inès Kléber",
    "Jérôme Lamy",
    "Kévin Mercier",
    "Léa Nguyen",
    "Maëlys Orsini",
    "Noémie Petit",
    "Océane Quéré",
    "A" * 120,
]
CLUBS = ["Liège", "Québec", "Genève", "Montréal"]
# Words of the night's data, not of the interface.
DATA = {"grammalecte", "ods", "club", "copie", "du", "liege", "dora", "arbitre"}


def english_in(text: str) -> set[str]:
    found = {w.strip("’'") for w in words(text)} & english_words()
    return found - DATA - {w.lower() for name in NAMES + CLUBS for w in name.split()}


def page_text(content: str) -> str:
    """What a person reads on a page: its text and its titles, placeholders and labels."""
    # Left out by name: scripts and styles, <code> (the audit log's action codes and data), and
    # the time zone's choices (IANA names such as America/New_York).
    content = re.sub(r"(?s)<(script|style|code)\b.*?</\1>", " ", content)
    # What a page marks as English on purpose (the import page's English headers).
    content = re.sub(r'(?s)<(td|span) lang="en">.*?</\1>', " ", content)
    content = re.sub(r'(?s)<select name="time_zone".*?</select>', " ", content)
    shown = re.findall(r'(?:title|placeholder|aria-label|alt)="([^"]*)"', content)
    text = re.sub(r"<[^>]+>", " ", content)
    return html.unescape(text + " " + " ".join(shown))


def round_with(game: Game, now: dt.datetime, slips) -> Round:
    """Draw, open and play one round: ``slips(top, rack)`` gives each player's slip."""
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    opened = clock.round_open(round=drawn, actor=None, now=now)
    tiles = TileSet.load(game.tile_set)
    top = generate(board_of(game), opened.rack, lexicon_for(game.lexicon), tiles)[0]
    for player, slip in slips(top, opened.rack).items():
        slip_submit(player=player, round=opened, at=now + dt.timedelta(seconds=20), **slip)
    closing = opened.deadline + dt.timedelta(seconds=game.event.grace_seconds)
    assert clock.round_close(round_id=opened.pk, now=closing)
    scored = scoring.round_score(round_id=opened.pk, now=closing)
    assert scored is not None
    return scored


@pytest.fixture(scope="module")
def lists_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the module: the open list's file is built once, not per test."""
    return tmp_path_factory.mktemp("wordlists")


@pytest.fixture(params=["open list", "uploaded list"])
def night(request, settings, lists_folder: Path):
    settings.WORD_LISTS_DIR = lists_folder
    director = UserFactory(username="dora")
    event = EventFactory(name="Soirée du club", slug="soiree", language="fr", solo_min_players=99)
    EventRoleFactory(event=event, user=director, role="director")
    event = event_policy_update(
        event=event, actor=director, tile_set="fr", lexicon="builtin:grammalecte-fr"
    )
    word_list_compile(word_list_id=WordList.objects.get().pk)
    if request.param == "uploaded list":  # the club's own file, under its own name
        text = WordList.objects.get().path.read_bytes()
        uploaded, _new = word_list_upload(
            data=text, name="ODS copie du club", tile_set="fr", actor=director
        )
        word_list_compile(word_list_id=uploaded.pk)
        event = event_policy_update(event=event, actor=director, lexicon=uploaded.key)
    players = [
        PlayerFactory(
            event=event,
            name=name,
            table=i + 1,
            club=CLUBS[i % 4],
            series=1 + i % 7,
            age_category=["Senior", "Vermeil", "Junior"][i % 3],
        )
        for i, name in enumerate(NAMES)
    ]
    game = GameFactory(event=event, number=1, seed=11, tile_set="fr", lexicon=event.lexicon)
    now = timezone.now()

    def first(top, rack):
        slips = {
            p: {"word": top.move.word, "ref": top.move.ref, "score": top.score} for p in players[:8]
        }
        slips[players[8]] = {"word": top.move.word, "ref": top.move.ref, "score": top.score + 3}
        letters = [ch for ch in top.move.word if ch.isupper()]
        lexicon = lexicon_for(game.lexicon)
        nonword = next(
            w for w in ("".join(p) for p in itertools.permutations(letters)) if w not in lexicon
        )
        slips[players[9]] = {"word": nonword, "ref": "H8", "score": 40}
        slips[players[10]] = {"word": "KIWIS", "ref": "H8", "score": 30}
        return slips

    one = round_with(game, now, first)
    publishing.round_publish(round=one, actor=director, now=now + dt.timedelta(minutes=4))
    later = now + dt.timedelta(minutes=5)
    two = round_with(
        game,
        later,
        lambda top, rack: {
            p: {"word": top.move.word, "ref": top.move.ref, "score": top.score}
            for p in players[3:12]
        },
    )
    late = Ruling.objects.get(round=two, player=players[4])
    corrections.ruling_amend(ruling=late, reason="Rendu après le temps", actor=director, late=True)
    publishing.round_publish(round=two, actor=director, now=later + dt.timedelta(minutes=4))
    player_withdraw(player=players[19], actor=director, reason="Malade")
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    clock.round_open(round=drawn, actor=None, now=timezone.now())
    invitation, token = _invitation_used(event, director)
    return event, game, players, director, token


def _invitation_used(event: Event, director):
    invitation = invitation_create(
        event=event, name="Arbitre", role="arbiter", days=2, actor=director
    )
    token = invitation_token(invitation)
    invitation_accept_new_account(
        invitation=invitation, username="arbitre", password="Un mot de passe long 42"
    )
    return invitation, token


SHOWN = {"detail", "reason", "label", "lexicon", "name", "filter", "end_reason", "message"}


def said_in(value, key=""):
    """The values people read, anywhere in a JSON answer."""
    if isinstance(value, dict):
        return " ".join(said_in(v, k) for k, v in value.items())
    if isinstance(value, list):
        return " ".join(said_in(v, key) for v in value)
    return str(value) if key in SHOWN and isinstance(value, str) else ""


def staff_client(director, language: str = "fr") -> Client:
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = language
    return client


def test_every_page_and_print_of_a_french_night_has_no_english(night) -> None:
    event, game, players, director, token = night
    client = staff_client(director)
    slug = event.slug
    pages = {
        "events": reverse("console:event_list"),
        "event": reverse("console:event_detail", args=[slug]),
        "setup": reverse("console:setup", args=[slug]),
        "game": reverse("console:game", args=[slug, 1]),
        "slips": reverse("console:slip_entry", args=[slug, 1]),
        "rulings 1": reverse("console:round_rulings", args=[slug, 1, 1]),
        "rulings 2": reverse("console:round_rulings", args=[slug, 1, 2]),
        "moves": reverse("console:round_moves", args=[slug, 1, 2]),
        "audit": reverse("console:audit", args=[slug, 1]),
        "staff": reverse("console:staff", args=[slug]),
        "import": reverse("console:players_import", args=[slug]),
        "qr": reverse("play:qr_sheet", args=[slug]),
        "screen": reverse("screen:game_screen", args=[slug, 1]),
        "print results": reverse("printing:event_results", args=[slug]),
        "print by series": reverse("printing:event_results", args=[slug]) + "?by=series",
        "print game": reverse("printing:game_results", args=[slug, 1]),
        "print sheet": reverse("printing:game_sheet", args=[slug, 1]),
        "print cards": reverse("printing:score_cards", args=[slug, 1]),
        "used invitation": reverse("console:invitation", args=[token]),
    }
    left = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code in (200, 410), (name, response.status_code)
        found = english_in(page_text(response.content.decode()))
        if found:
            left[name] = found
    assert left == {}, left


def test_every_export_of_a_french_night_has_no_english(night) -> None:
    event, game, players, director, token = night
    client = staff_client(director)
    slug = event.slug
    left = {}
    names = []
    for name in ("event_export_xlsx", "game_export_xlsx"):
        args = [slug] if name.startswith("event") else [slug, 1]
        response = client.get(reverse(f"exports:{name}", args=args))
        assert response.status_code == 200
        names.append(response["Content-Disposition"])
        book = load_workbook(
            io.BytesIO(
                b"".join(response.streaming_content) if response.streaming else response.content
            )
        )
        texts = list(book.sheetnames) + [book.properties.title or "", book.properties.subject or ""]
        # The custom properties Excel shows under File > Info, by their names (issue 35).
        properties = {p.name for p in book.custom_doc_props.props}
        assert properties == {"Liste de mots", "Mots"}, properties
        texts += sorted(properties)
        for sheet in book.worksheets:
            for row in sheet.iter_rows(values_only=True):
                texts += [str(v) for v in row if isinstance(v, str)]
        found = english_in(" \n ".join(texts))
        if found:
            left[name] = found
    for name in ("event_export_csv_zip", "game_export_csv_zip"):
        args = [slug] if name.startswith("event") else [slug, 1]
        response = client.get(reverse(f"exports:{name}", args=args))
        body = b"".join(response.streaming_content) if response.streaming else response.content
        names.append(response["Content-Disposition"])
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            texts = list(archive.namelist())
            for member in archive.namelist():
                texts.append(archive.read(member).decode("utf-8-sig"))
        found = english_in(" \n ".join(texts))
        if found:
            left[name] = found
    for name in ("standings_csv", "categories_csv"):
        response = client.get(reverse(f"exports:{name}", args=[slug]))
        names.append(response["Content-Disposition"])
        found = english_in(response.content.decode("utf-8-sig"))
        if found:
            left[name] = found
    gcg = client.get(reverse("exports:game_gcg", args=[slug, 1]))
    names.append(gcg["Content-Disposition"])
    said = "\n".join(
        line.split(" ", 1)[1] if line.startswith(("#title", "#description", "#note")) else ""
        for line in gcg.content.decode().splitlines()
    )
    if english_in(said):
        left["gcg"] = english_in(said)
    for name in ("game_eliot", "game_sigles"):
        names.append(client.get(reverse(f"exports:{name}", args=[slug, 1]))["Content-Disposition"])
    found = english_in(" ".join(re.findall(r'filename="?([^";]+)', " ".join(names))))
    if found:
        left["file names"] = found
    assert left == {}, left


def test_every_api_answer_and_refusal_of_a_french_night_has_no_english(night) -> None:
    event, game, players, director, token = night
    staff = APIClient()
    staff.force_login(director)
    staff.cookies["django_language"] = "fr"
    slug = event.slug
    answers: dict[str, str] = {}
    for name, url in {
        "event": f"/api/v1/events/{slug}",
        "games": f"/api/v1/events/{slug}/games",
        "game": f"/api/v1/events/{slug}/games/1",
        "standings": f"/api/v1/events/{slug}/standings",
        "players": f"/api/v1/events/{slug}/players",
        "screen": reverse("screen:game_state", args=[slug, 1]),
        "console": reverse("console:game_state", args=[slug, 1]),
    }.items():
        answers[name] = staff.get(url).content.decode()
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Bearer {players[0].token}")
    answers["phone state"] = phone.get("/api/v1/play/state").content.decode()
    answers["phone standings"] = phone.get("/api/v1/play/standings").content.decode()

    refusals = {}
    current = game.rounds.order_by("-number").first()
    refusals["no_such_round"] = phone.post(
        "/api/v1/play/submissions", {"round": 9, "word": "ET"}, format="json"
    )
    refusals["malformed_word"] = phone.post(
        "/api/v1/play/submissions",
        {"round": current.number, "word": " ", "ref": "H8"},
        format="json",
    )
    refusals["malformed_reference"] = phone.post(
        "/api/v1/play/submissions",
        {"round": current.number, "word": "ET", "ref": "H8 H8"},
        format="json",
    )
    refusals["malformed_score"] = phone.post(
        "/api/v1/play/submissions",
        {"round": current.number, "word": "ET", "score": 10000},
        format="json",
    )
    withdrawn = APIClient()
    withdrawn.credentials(HTTP_AUTHORIZATION=f"Bearer {players[19].token}")
    refusals["withdrawn"] = withdrawn.post(
        "/api/v1/play/submissions",
        {"round": current.number, "word": "ET", "ref": "H8"},
        format="json",
    )
    clock.round_pause(round=current, actor=None)
    refusals["round_paused"] = phone.post(
        "/api/v1/play/submissions",
        {"round": current.number, "word": "ET", "ref": "H8"},
        format="json",
    )
    answers["phone paused"] = phone.get("/api/v1/play/state").content.decode()
    refusals["slip for a withdrawn player"] = staff.post(
        f"/api/v1/events/{slug}/games/1/slip", {"table": 20, "word": "ET"}, format="json"
    )
    refusals["publish an open round"] = staff.post(
        f"/api/v1/events/{slug}/games/1/publish", {}, format="json"
    )
    refusals["no such table"] = staff.post(
        f"/api/v1/events/{slug}/games/1/slip", {"table": 99, "word": "ET"}, format="json"
    )
    refusals["policy"] = staff.patch(f"/api/v1/events/{slug}", {"lexicon": "enable"}, format="json")
    refusals["unknown_field"] = staff.patch(
        f"/api/v1/events/{slug}", {"colour": "red"}, format="json"
    )
    clock.round_resume(round=Round.objects.get(pk=current.pk), actor=None)
    with time_machine.travel(timezone.now() + dt.timedelta(hours=1)):
        refusals["deadline_passed"] = phone.post(
            "/api/v1/play/submissions",
            {"round": current.number, "word": "ET", "ref": "H8"},
            format="json",
        )
    left = {}
    for name, response in refusals.items():
        assert 400 <= response.status_code < 500, (name, response.status_code)
        body = response.json()
        said = body.get("detail", "") + " " + " ".join(str(e) for e in body.get("errors", []))
        found = english_in(said)
        if found:
            left[f"refusal {name} ({body.get('code')})"] = (found, said)
    for name, text in answers.items():
        found = english_in(said_in(json.loads(text)))
        if found:
            left[name] = found
    assert left == {}, left
    # The rulings say the list's own name, never its file or its row.
    reasons = " ".join(Ruling.objects.values_list("reason", flat=True))
    assert "upload:" not in reasons and ".txt" not in reasons
    assert WordList.objects.get(pk=WordList.id_of(event.lexicon)).name in reasons


def test_the_live_streams_frames_of_a_french_night_have_no_english(night) -> None:
    """What the stream writes to each phone (``web.live.hub``: the shared part rendered once,
    each player's own part, framed in the phone's language) reads French, rulings' labels
    included (they once went out in English while the state's were French)."""
    import asyncio

    from web.live.hub import Client as Phone
    from web.live.hub import EventLive, Hub, _read_personal, _read_shared, dumps

    event, game, players, director, token = night
    loop = asyncio.new_event_loop()
    hub = Hub(loop)
    try:
        game_id, shared = _read_shared(event.pk)
        live = EventLive(
            event.pk,
            shared=shared,
            shared_ev="v",
            shared_bytes=dumps(shared),
            personal=_read_personal(event.pk),
            game_id=game_id,
        )
        left = {}
        labels = set()
        for player in players:
            phone = Phone((event.pk,), player.pk, "fr")
            hub.send_state(phone, live)
            hub.send_personal(phone, live, live.personal[player.pk])
            for raw in (phone.queue.get_nowait(), phone.queue.get_nowait()):
                data = json.loads(raw.decode().split("\ndata: ", 1)[1])
                labels |= {s["ruling"]["label"] for s in data["slips"] if s["ruling"]}
                found = english_in(said_in(data))
                if found:
                    left[player.name] = found
        assert left == {}, left
        assert "Valable" in labels and len(labels) >= 3  # the labels are there, in French
    finally:
        hub.executor.shutdown()
        loop.close()


def test_the_printed_sheet_and_the_eliot_file_name_the_list_by_its_own_name(night) -> None:
    event, game, players, director, token = night
    name = WordList.objects.get(pk=WordList.id_of(event.lexicon)).name
    client = staff_client(director)
    sheet = client.get(reverse("printing:game_sheet", args=[event.slug, 1])).content.decode()
    eliot = client.get(reverse("exports:game_eliot", args=[event.slug, 1])).content.decode()
    for text in (html.unescape(sheet), eliot):
        assert name in text and "upload:" not in text


# French typography (issue 35): a no-break space before : ; ? ! (never a plain one, never
# none), "d’" before a name starting with a vowel, a game's status said in a sentence.
# (A "?" after capitals is a rack's blank, FIIOOR?; keys, <kbd>?</kbd>, are left out.)
LETTER_THEN_MARK = re.compile(r"[^\W\d_][:;!](?!//)|[^\W\d_A-Z]\?")
SPACE_THEN_MARK = re.compile(r" [:;?!]")
DE_BEFORE_VOWEL = re.compile(r"\b[Dd]e [AEIOUÀÂÉÈÊÎÔ]")


def typography_faults(text: str) -> list[str]:
    faults = []
    for pattern in (LETTER_THEN_MARK, SPACE_THEN_MARK, DE_BEFORE_VOWEL):
        faults += [text[max(0, m.start() - 25) : m.end() + 10] for m in pattern.finditer(text)]
    return faults


def test_every_page_of_a_french_night_follows_french_typography(night) -> None:
    event, game, players, director, token = night
    elodie = players[0]
    elodie.licence = "123456"
    elodie.save(update_fields=["licence"])
    client = staff_client(director)
    slug = event.slug
    pages = {
        "events": reverse("console:event_list"),
        "event": reverse("console:event_detail", args=[slug]),
        "setup": reverse("console:setup", args=[slug]),
        "game": reverse("console:game", args=[slug, 1]),
        "slips": reverse("console:slip_entry", args=[slug, 1]),
        "rulings 1": reverse("console:round_rulings", args=[slug, 1, 1]),
        "audit": reverse("console:audit", args=[slug, 1]),
        "staff": reverse("console:staff", args=[slug]),
        "import": reverse("console:players_import", args=[slug]),
        "qr of Élodie": reverse("play:qr_player", args=[slug, elodie.pk]),
        "history of Élodie": reverse("history:player", args=[elodie.licence]),
        "print results": reverse("printing:event_results", args=[slug]),
        "print cards": reverse("printing:score_cards", args=[slug, 1]),
    }
    left = {}
    texts = {}
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        texts[name] = page_text(re.sub(r"(?s)<kbd>.*?</kbd>", " ", response.content.decode()))
        faults = typography_faults(texts[name])
        if faults:
            left[name] = faults
    assert left == {}, left
    assert "Partie 1\u00a0: en cours" in texts["game"]
    assert "QR code d’Élodie Zéro" in texts["qr of Élodie"]
    assert "Historique d’Élodie Zéro" in texts["history of Élodie"]
