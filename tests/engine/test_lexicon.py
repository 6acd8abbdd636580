"""Word lists: loading, errors naming the line, the flat arrays, and the disk cache."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import lexicon as lexmod
from engine.errors import LexiconError
from engine.lexicon import LETTERS, SEP, TERMINAL, Lexicon
from engine.wordlist import fold


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DUPLICATE_ENGINE_CACHE", str(folder))
    lexmod._load_cached.cache_clear()
    yield folder
    lexmod._load_cached.cache_clear()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_enable_ships_as_the_default_with_all_its_playable_words(enable: Lexicon) -> None:
    assert enable.name == "enable"
    assert enable.words == 168_548  # the 2-15 letter words of the 172,820 (lexicons/README.md)
    assert "XI" in enable and "AA" in enable and "ZYZZYVAS" in enable
    assert "QI" not in enable and "ZA" not in enable  # ENABLE lacks them


def test_a_word_list_loads_from_a_file_in_any_case(tmp_path: Path, cache: Path) -> None:
    lex = Lexicon.load(
        str(write(tmp_path, "club.txt", "Cat\ncats\n  DOG \n\nzebra\nx\n" + "a" * 16 + "\n"))
    )
    assert lex.iter_words() == [
        "CAT",
        "CATS",
        "DOG",
        "ZEBRA",
    ]  # one letter and 16 letters cannot be played
    assert "cat" in lex and "CAT" in lex and "CA" not in lex and 12 not in lex


def test_a_line_that_is_not_letters_is_an_error_naming_the_line(
    tmp_path: Path, cache: Path
) -> None:
    path = write(tmp_path, "bad.txt", "cat\ndog\nice-cream\n")
    with pytest.raises(
        LexiconError, match=r"1 line is not a word .*: line 3: 'ice-cream' \('-'\)$"
    ):
        Lexicon.load(str(path))


def test_every_bad_line_is_named_at_once_up_to_twenty_then_counted(
    tmp_path: Path, cache: Path
) -> None:
    bad = [f"word{n}" for n in range(25)] + ["l'été", "two words", "Ωmega"]
    path = write(tmp_path, "bad.txt", "\n".join(["cat", *bad, "dog"]))
    with pytest.raises(LexiconError) as caught:
        Lexicon.load(str(path))
    message = str(caught.value)
    assert message.startswith("lexicon 'bad.txt': 28 lines are not a word of letters A-Z")
    assert "line 2: 'word0' ('0')" in message and "line 21: 'word19' ('1')" in message
    assert "word20" not in message and message.endswith("; 8 more")


def test_accents_are_folded_to_the_tiles_and_ligatures_written_out(
    tmp_path: Path, cache: Path
) -> None:
    text = "\ufeffchat\r\nÉté\r\nÇA\r\ncœur\r\nNAÏF\r\nex-æquo\r\n"
    with pytest.raises(LexiconError, match=r"line 6: 'ex-æquo' \('-'\)"):
        Lexicon.load(str(write(tmp_path, "fr.txt", text)))
    lex = Lexicon.load(str(write(tmp_path, "fr2.txt", text.replace("ex-æquo", "æthuse"))))
    assert lex.iter_words() == ["AETHUSE", "CA", "CHAT", "COEUR", "ETE", "NAIF"]


@given(st.text(alphabet="abcçéèêëîïôœæûüÿÀÉÈŒÆ", max_size=15))
def test_folding_gives_tile_letters_and_folding_again_changes_nothing(word: str) -> None:
    folded = fold(word)
    assert folded == "" or (folded.isascii() and folded.isalpha() and folded.isupper())
    assert fold(folded) == folded


def test_a_compile_tells_its_progress_and_a_cached_list_says_so(
    tmp_path: Path, cache: Path
) -> None:
    path = write(
        tmp_path, "club.txt", "\n".join(f"{a}{b}{c}" for a in "abc" for b in "de" for c in "xyz")
    )
    heard: list[tuple[str, float]] = []
    lex = Lexicon.load(str(path), progress=lambda phase, done: heard.append((phase, done)))
    assert lex.words == 18 and "ADX" in lex
    phases = [phase for phase, _ in heard]
    assert phases[0] == "reading the words" and phases[-1] == "compiled"
    assert phases.index("the DAWG") < phases.index("the GADDAG")
    fractions = [done for _, done in heard]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    again: list[tuple[str, float]] = []
    Lexicon.load(str(path), progress=lambda phase, done: again.append((phase, done)))
    assert again == [("read from the cache", 1.0)]


def test_warming_a_list_from_the_command_line_shows_its_progress(
    tmp_path: Path, cache: Path
) -> None:
    path = write(tmp_path, "club.txt", "cat\ncats\nact\n")
    done = subprocess.run(
        [sys.executable, "-m", "engine.lexicon", "--warm", "--lexicon", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("club.txt: 3 words;")
    steps = done.stderr.splitlines()
    assert steps[0] == "  3% reading the words" and steps[-1] == "100% compiled"


def test_an_unreadable_or_empty_list_is_an_error(tmp_path: Path, cache: Path) -> None:
    with pytest.raises(LexiconError, match="cannot be read"):
        Lexicon.load(str(tmp_path / "missing.txt"))
    with pytest.raises(LexiconError, match="holds no word"):
        Lexicon.load(str(write(tmp_path, "empty.txt", "\n\n")))
    (tmp_path / "latin1.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(LexiconError, match="not UTF-8"):
        Lexicon.load(str(tmp_path / "latin1.txt"))


def test_a_gzipped_list_loads_like_the_plain_one(tmp_path: Path, cache: Path) -> None:
    (tmp_path / "words.txt.gz").write_bytes(gzip.compress(b"cat\ncats\n"))
    assert Lexicon.load(str(tmp_path / "words.txt.gz")).iter_words() == ["CAT", "CATS"]


def test_the_compiled_form_is_cached_on_disk_and_a_new_process_loads_it_without_compiling(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "club.txt", "cat\ncats\nact\n")
    first = Lexicon.load(str(path))
    files = list(cache.glob("lexicon-*.dawg"))
    assert len(files) == 1 and first.key[:32] in files[0].name

    lexmod._load_cached.cache_clear()  # as a new process would

    def no_compile(words: list[str]) -> None:
        raise AssertionError("compiled again instead of reading the cache")

    monkeypatch.setattr(lexmod, "_compile", no_compile)
    again = Lexicon.load(str(path))
    assert again.iter_words() == first.iter_words() == ["ACT", "CAT", "CATS"]
    assert again.gaddag == first.gaddag


def test_the_cache_is_keyed_by_content_so_an_edited_list_is_compiled_anew(
    tmp_path: Path, cache: Path
) -> None:
    path = write(tmp_path, "club.txt", "cat\n")
    before = Lexicon.load(str(path))
    path.write_text("cat\ndog\n", encoding="utf-8")
    lexmod._load_cached.cache_clear()
    after = Lexicon.load(str(path))
    assert before.key != after.key and "DOG" in after and "DOG" not in before
    assert len(list(cache.glob("lexicon-*.dawg"))) == 2


def test_a_corrupt_cache_file_is_ignored_and_rebuilt(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "club.txt", "cat\n")
    Lexicon.load(str(path))
    (cached,) = cache.glob("lexicon-*.dawg")
    cached.write_bytes(b"garbage")
    lexmod._load_cached.cache_clear()
    assert "CAT" in Lexicon.load(str(path))


def test_the_arrays_are_flat_and_walkable_by_the_documented_rule() -> None:
    lex = Lexicon.from_words(["AB", "AC", "B"])  # one-letter words are not kept
    mask, first, target = lex.mask, lex.first, lex.target
    assert all(isinstance(x, int) for x in mask + first + target)
    root = 0
    assert mask[root] & LETTERS == 0b1  # only A leaves the root
    a = target[first[root] + 0]
    assert mask[a] & LETTERS == 0b110 and not mask[a] & TERMINAL
    c = target[first[a] + (mask[a] & ((1 << 2) - 1)).bit_count()]
    assert mask[c] & TERMINAL


def test_the_gaddag_holds_every_word_from_every_letter() -> None:
    lex = Lexicon.from_words(["CAT"])
    gmask, gfirst, gtarget = lex.gaddag

    def walk(symbols: list[int]) -> int:
        node = 0
        for s in symbols:
            m = gmask[node]
            if not (m >> s) & 1:
                return -1
            node = gtarget[gfirst[node] + (m & ((1 << s) - 1)).bit_count()]
        return node

    def code(text: str) -> list[int]:
        return [SEP if ch == "+" else ord(ch) - 65 for ch in text]

    for path in ("C+AT", "AC+T", "TAC"):  # reverse(prefix through the anchor) + separator + rest
        node = walk(code(path))
        assert node >= 0 and gmask[node] & TERMINAL, path
    assert walk(code("A+CT")) == -1


def test_a_cached_list_is_read_in_place_and_an_empty_or_short_cache_file_is_rebuilt(
    tmp_path: Path, cache: Path
) -> None:
    import mmap

    path = write(tmp_path, "club.txt", "cat\ncats\nact\n")
    compiled = Lexicon.load(str(path))
    lexmod._load_cached.cache_clear()
    mapped = Lexicon.load(str(path))
    assert all(isinstance(view.obj, mmap.mmap) for view in mapped.buffers())
    assert [v.tolist() for v in mapped.buffers()] == [
        v.tolist() for v in compiled.buffers()
    ]  # the same arrays, read where they lie
    assert mapped.gaddag == compiled.gaddag and mapped.height == compiled.height
    (cached,) = cache.glob("lexicon-*.dawg")
    for broken in (b"", cached.read_bytes()[:-4]):
        cached.write_bytes(broken)
        lexmod._load_cached.cache_clear()
        assert Lexicon.load(str(path)).iter_words() == ["ACT", "CAT", "CATS"]
