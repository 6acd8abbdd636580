"""The catalogues (locale/<language>/LC_MESSAGES/): complete, not fuzzy, compiled, and holding
every string the code marks, no more.

README, "Adding a language": a string marked in a template, a script or the Python code ships
with its translation in every catalogue, or this fails. ``make messages`` updates the
catalogues (``MAKEMESSAGES`` below is what it runs) and compiles them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
DOMAINS = ("django", "djangojs")
# What `make messages` runs (the Makefile's MAKEMESSAGES), on the folders that hold strings.
MAKEMESSAGES = ["--no-location", "--ignore=.venv/*", "--ignore=mutants/*", "--ignore=tests/*"]
SOURCES = ("manage.py", "config", "engine", "tournament", "arbiter", "web", "templates", "static")

LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
CATALOGUES = [LOCALE / code / "LC_MESSAGES" / f"{d}.po" for code in LANGUAGES for d in DOMAINS]

_STATISTICS = re.compile(
    r"(?P<translated>\d+) translated messages?"
    r"(?:, (?P<fuzzy>\d+) fuzzy translations?)?"
    r"(?:, (?P<untranslated>\d+) untranslated messages?)?\."
)


def statistics(po: Path, out: Path) -> dict[str, int]:
    """``msgfmt --statistics --check`` of one catalogue, compiled to ``out``."""
    run = subprocess.run(
        ["msgfmt", "--statistics", "--check", "-o", str(out), str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, f"msgfmt refuses {po}: {run.stderr}"
    match = _STATISTICS.search(run.stderr)
    assert match, f"no statistics line from msgfmt for {po}: {run.stderr!r}"
    return {key: int(value or 0) for key, value in match.groupdict().items()}


def msgids(po: Path) -> set[tuple[str, str]]:
    """The (context, msgid) pairs of a catalogue's live entries (not the header, not #~)."""
    text = po.read_text(encoding="utf-8")
    ids: set[tuple[str, str]] = set()
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        entry: dict[str, str] = {}
        key = ""
        for line in lines:
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if m:
                key = m.group(1)
                entry[key] = m.group(2)
            elif line.startswith('"') and key:
                entry[key] += line[1:-1]
        if entry.get("msgid"):
            ids.add((entry.get("msgctxt", ""), entry["msgid"]))
    return ids


def test_there_is_a_catalogue_for_every_language_and_domain() -> None:
    assert LANGUAGES == ["fr"]
    for po in CATALOGUES:
        assert po.is_file(), f"missing catalogue {po.relative_to(ROOT)}"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: f"{p.parts[-3]}-{p.stem}")
def test_every_entry_is_translated_and_none_is_fuzzy(po: Path, tmp_path: Path) -> None:
    counts = statistics(po, tmp_path / "out.mo")
    assert counts["translated"] > 0
    assert counts["fuzzy"] == 0, f"{po}: {counts['fuzzy']} fuzzy entries"
    assert counts["untranslated"] == 0, f"{po}: {counts['untranslated']} untranslated entries"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: f"{p.parts[-3]}-{p.stem}")
def test_the_committed_mo_is_the_compiled_po(po: Path, tmp_path: Path) -> None:
    """The .mo files are committed (a fresh clone runs in French with no gettext installed):
    each must be exactly what msgfmt makes of its .po."""
    fresh = tmp_path / "fresh.mo"
    statistics(po, fresh)
    committed = po.with_suffix(".mo")
    assert committed.is_file(), f"{committed} is missing: run `make messages`"
    assert committed.read_bytes() == fresh.read_bytes(), f"{committed} is stale: `make messages`"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: f"{p.parts[-3]}-{p.stem}")
def test_french_typography_has_its_non_breaking_spaces(po: Path) -> None:
    """A plain space before : ; ? ! or », or after «, breaks a line in the wrong place."""
    text = po.read_text(encoding="utf-8")
    strs = re.findall(r'^msgstr(?:\[\d\])? "(.*)"$|^"(.*)"$', text, flags=re.M)
    for line in ("".join(pair) for pair in strs):
        assert not re.search(r" [:;?!»]|« ", line), f"{po.name}: plain space in {line!r}"


def test_makemessages_would_add_or_drop_nothing(tmp_path: Path) -> None:
    """Every marked string is in the catalogues and every entry is still marked somewhere:
    ``makemessages`` run afresh in a copy of the sources (with no catalogue) finds exactly the
    committed msgids."""
    if shutil.which("xgettext") is None:
        pytest.fail("gettext's xgettext is needed (apt-get install gettext)")
    copy = tmp_path / "src"
    copy.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "lexicons")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=skip)
        else:
            shutil.copy2(source, copy / name)
    (copy / "locale").mkdir()
    for domain in DOMAINS:
        command = [sys.executable, "manage.py", "makemessages", *MAKEMESSAGES, "-d", domain]
        for code in LANGUAGES:
            command += ["-l", code]
        run = subprocess.run(command, cwd=copy, capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
    for code in LANGUAGES:
        for domain in DOMAINS:
            fresh = msgids(copy / "locale" / code / "LC_MESSAGES" / f"{domain}.po")
            committed = msgids(LOCALE / code / "LC_MESSAGES" / f"{domain}.po")
            assert fresh - committed == set(), f"{code}/{domain}: marked but not in the catalogue"
            assert committed - fresh == set(), f"{code}/{domain}: in the catalogue, marked nowhere"
