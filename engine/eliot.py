"""Eliot's XML save game (``<EliotGame format="2">``), read and written, with no I/O.

The format is described in docs/interchange.md (section 1, from Eliot's reader and writer).
``EliotGame`` holds a duplicate or arbitration game: the players, and per turn the rack, each
player's move, the warnings, penalties and solos, and the move put on the board (the top).
``eliot_write`` lays it out in the order Eliot writes it (1.2), the statistics included;
``eliot_read`` reads such a file back, checking every element and naming its line when it
refuses one, so that ``eliot_read(eliot_write(game)) == game``.

Bounded: a file over ``MAX_BYTES`` is refused before it is parsed, and a DOCTYPE (entities)
is refused: Eliot never writes one. Eliot writes ``&`` unescaped in names and slips (4): a
bare ``&`` is read as itself; anything else that is not XML is refused with its line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from engine.errors import EngineError, NotationError
from engine.notation import format_ref, parse_ref, parse_word
from engine.tiles import BLANK

MAX_BYTES = 2 * 1024 * 1024  # under the request body limit (REQUEST_BODY_MAX_BYTES, 3 MB)
MAX_PLAYERS = 2000
MAX_TURNS = 200
MODES = ("training", "freegame", "duplicate", "arbitration", "topping")
PLAYED_MODES = ("duplicate", "arbitration")  # the modes of a duplicate game, read and written
MOVE_TYPES = ("valid", "invalid", "change", "pass", "none")
EVENT_KINDS = ("Warning", "Penalty", "Solo")
_RACK = re.compile(r"(-?)([A-Z?]*)(?:\+([A-Z?]+))?")
_BARE_AMPERSAND = re.compile(rb"&(?!(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#x[0-9A-Fa-f]+);)")
_INDENT = "    "
# A rack refused for the draw minimum before the turn's rack, kept where Eliot reads nothing:
# a comment (``<!-- rejected AEIOUEA -->``), so that the game replays here as it was drawn.
REJECTED = "rejected"
_REJECTED = re.compile(rf"\s*{REJECTED} ([A-Z?]{{1,15}})\s*")
COMMENT = "#comment"


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a file: the line (None: the file as a whole), the element, why."""

    line: int | None
    element: str
    message: str

    def __str__(self) -> str:
        if self.line is None:
            return f"<{self.element}>: {self.message}" if self.element else self.message
        if self.element:
            return f"line {self.line}, <{self.element}>: {self.message}"
        return f"line {self.line}: {self.message}"


class InterchangeError(EngineError):
    """A file that cannot be read; ``problems`` lists each thing wrong, with its line."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(
            f"{count} problem{'s' if count != 1 else ''} in the file: "
            + "; ".join(str(p) for p in self.problems[:3])
            + ("; ..." if count > 3 else "")
        )


@dataclass(frozen=True)
class Rack:
    """A rack as Eliot writes it (1.4): the tiles kept from the last rack, the tiles drawn,
    and whether the leftover was put back (``-``, seven tiles drawn afresh)."""

    kept: str
    drawn: str
    reset: bool = False

    @classmethod
    def parse(cls, text: str) -> Rack:
        m = _RACK.fullmatch(text)
        if m is None or (m.group(3) is not None and not m.group(2)):
            raise NotationError(
                f"rack {text!r} is not a rack: tiles A-Z and ?, with + between the tiles kept "
                "and the tiles drawn (EIS+ANRTU), - first when the leftover was put back"
            )
        reset = bool(m.group(1))
        if m.group(3) is None:
            # One part only: round 1 (drawn), a rack after a reset (drawn) or a leftover alone.
            return cls(kept="", drawn=m.group(2), reset=reset)
        return cls(kept=m.group(2), drawn=m.group(3), reset=reset)

    @property
    def tiles(self) -> str:
        return self.kept + self.drawn

    def __str__(self) -> str:
        body = f"{self.kept}+{self.drawn}" if self.kept and self.drawn else self.kept + self.drawn
        return f"-{body}" if self.reset else body


@dataclass(frozen=True)
class EliotMove:
    """A ``PlayerMove``, ``MasterMove`` or ``GameMove`` (1.3). ``word`` in full, blanks lower case;
    ``coord`` duplicate style (``H4`` across, ``9H`` down); ``letters`` for a change."""

    type: str
    points: int = 0
    word: str = ""
    coord: str = ""
    letters: str = ""

    @classmethod
    def none(cls) -> EliotMove:
        return cls("none")

    @classmethod
    def valid(cls, word: str, coord: str, points: int) -> EliotMove:
        return cls("valid", points, word, coord)

    @classmethod
    def invalid(cls, word: str, coord: str) -> EliotMove:
        return cls("invalid", 0, word, coord)

    def attributes(self) -> list[tuple[str, str]]:
        pairs = [("points", str(self.points)), ("type", self.type)]
        if self.type in ("valid", "invalid"):
            pairs += [("word", self.word), ("coord", self.coord)]
        elif self.type == "change":
            pairs.append(("letters", self.letters))
        return pairs


@dataclass(frozen=True)
class EliotPlayer:
    name: str
    table: int
    type: str = "human"
    level: int | None = None  # computers only: strength 0..100


@dataclass(frozen=True)
class EliotEvent:
    """A ``Warning`` (no points), ``Penalty`` (points <= 0) or ``Solo`` (points >= 0)."""

    kind: str
    player: int
    points: int = 0


@dataclass(frozen=True)
class EliotTurn:
    """One round: the leftover the players hold when it starts (``kept``, round 2 on), the rack,
    one move per player (by player id), the events in the order given, the valid tops chosen
    (``MasterMove``) and the move put on the board (``top``; None in the open last turn)."""

    rack: Rack | None
    moves: tuple[EliotMove, ...]
    events: tuple[EliotEvent, ...] = ()
    top: EliotMove | None = None
    masters: tuple[EliotMove, ...] = ()
    kept: str | None = None  # None: round 1 (no leftover written)
    rejected: tuple[str, ...] = ()  # racks refused before this one (a comment: Eliot has none)
    line: int | None = field(default=None, compare=False)  # where it was read


@dataclass(frozen=True)
class Dictionary:
    name: str
    type: str
    letters: str  # space-separated as displayed: "A B ... Z ?"
    words: int


@dataclass(frozen=True)
class PlayerStats:
    raw: int
    warnings: int
    penalties: int  # <= 0: the penalties given and the warnings' beyond the free ones
    solos: int
    total: int
    diff: int
    percent: str
    rank: int


@dataclass(frozen=True)
class EliotGame:
    dictionary: Dictionary
    mode: str
    players: tuple[EliotPlayer, ...]
    turns: tuple[EliotTurn, ...]

    @property
    def played(self) -> tuple[EliotTurn, ...]:
        """The turns whose move is on the board."""
        return tuple(t for t in self.turns if t.top is not None)

    @property
    def top_total(self) -> int:
        return sum(t.top.points for t in self.turns if t.top is not None)

    def stats(self, *, warnings_free: int = 3, warning_penalty: int = 5) -> list[PlayerStats]:
        """Each player's figures as Eliot computes them (1.5): total = moves + solos +
        penalties, a warning beyond ``warnings_free`` costing ``warning_penalty``."""
        top = self.top_total
        totals = []
        for pid in range(len(self.players)):
            raw = sum(t.moves[pid].points for t in self.turns if pid < len(t.moves))
            events = [e for t in self.turns for e in t.events if e.player == pid]
            warnings = sum(1 for e in events if e.kind == "Warning")
            penalties = sum(e.points for e in events if e.kind == "Penalty")
            penalties -= max(0, warnings - warnings_free) * warning_penalty
            solos = sum(e.points for e in events if e.kind == "Solo")
            totals.append((raw, warnings, penalties, solos, raw + solos + penalties))
        result = []
        for raw, warnings, penalties, solos, total in totals:
            rank = 1 + sum(1 for other in totals if other[4] > total)
            percent = f"{_round_half_away(100 * total / top)}%" if top else "0%"
            result.append(
                PlayerStats(raw, warnings, penalties, solos, total, total - top, percent, rank)
            )
        return result


def _round_half_away(x: float) -> int:
    """C++'s round (Eliot's): halves away from zero (Python's ``round`` goes to even)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


# --- writing ---------------------------------------------------------------------------------


def _element(tag: str, attributes: Sequence[tuple[str, str]] = (), text: str | None = None) -> str:
    attrs = "".join(f" {name}={quoteattr(value)}" for name, value in attributes)
    if text is None:
        return f"<{tag}{attrs} />"
    return f"<{tag}{attrs}>{escape(text)}</{tag}>"


def eliot_write(
    game: EliotGame, *, warnings_free: int = 3, warning_penalty: int = 5, comment: str = ""
) -> bytes:
    """The game as Eliot saves it (UTF-8, names and slips escaped), statistics included."""
    lines: list[str] = ['<?xml version="1.0" encoding="UTF-8"?>', '<EliotGame format="2">']

    def put(depth: int, text: str) -> None:
        lines.append(_INDENT * depth + text)

    d = game.dictionary
    put(1, "<Dictionary>")
    put(2, _element("Name", text=d.name))
    put(2, _element("Type", text=d.type))
    put(2, _element("Letters", text=d.letters))
    put(2, _element("WordNb", text=str(d.words)))
    put(1, "</Dictionary>")
    put(1, "<Game>")
    put(2, _element("Mode", text=game.mode))
    for pid, p in enumerate(game.players):
        put(2, f'<Player id="{pid}">')
        put(3, _element("Name", text=p.name))
        put(3, _element("Type", text=p.type))
        if p.level is not None:
            put(3, _element("Level", text=str(p.level)))
        put(3, _element("TableNb", text=str(p.table)))
        put(2, "</Player>")
    put(2, _element("Turns", text=str(len(game.turns))))
    put(1, "</Game>")
    put(1, "<History>")
    for turn in game.turns:
        put(2, "<Turn>")
        for pid in range(len(game.players)):
            if turn.kept is not None:
                put(3, _element("PlayerRack", [("playerId", str(pid))], turn.kept))
        put(3, _element("MasterMove", EliotMove.none().attributes()))
        for refused in turn.rejected:
            put(3, f"<!-- {REJECTED} {refused} -->")
        if turn.rack is not None:
            put(3, _element("GameRack", text=str(turn.rack)))
            for pid in range(len(game.players)):
                put(3, _element("PlayerRack", [("playerId", str(pid))], str(turn.rack)))
            for pid, move in enumerate(turn.moves):
                put(3, _element("PlayerMove", [("playerId", str(pid)), *move.attributes()]))
        for master in turn.masters:
            put(3, _element("MasterMove", master.attributes()))
        for e in turn.events:
            attributes = [("playerId", str(e.player))]
            if e.kind != "Warning":
                attributes.append(("points", str(e.points)))
            put(3, _element(e.kind, attributes))
        if turn.top is not None:
            put(3, _element("GameMove", turn.top.attributes()))
        put(2, "</Turn>")
    put(1, "</History>")
    if comment:
        put(1, f"<!-- {comment.replace('--', '- -')} -->")
    put(1, "<Statistics>")
    put(2, _element("GameStats", [("totalScore", str(game.top_total))]))
    stats = game.stats(warnings_free=warnings_free, warning_penalty=warning_penalty)
    for pid, s in enumerate(stats):
        put(
            2,
            _element(
                "PlayerStats",
                [
                    ("playerId", str(pid)),
                    ("rawScore", str(s.raw)),
                    ("warningsNb", str(s.warnings)),
                    ("penaltiesPoints", str(s.penalties)),
                    ("solosPoints", str(s.solos)),
                    ("totalScore", str(s.total)),
                    ("diffWithTop", str(s.diff)),
                    ("percentTop", s.percent),
                    ("rank", str(s.rank)),
                ],
            ),
        )
    put(1, "</Statistics>")
    lines.append("</EliotGame>")
    return ("\n".join(lines) + "\n").encode("utf-8")


# --- reading ---------------------------------------------------------------------------------


@dataclass
class _Node:
    tag: str
    attrs: dict[str, str]
    line: int
    text: str = ""
    children: list[_Node] = field(default_factory=list)

    def child(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)


def _parse_xml(content: bytes) -> _Node:
    if len(content) > MAX_BYTES:
        raise InterchangeError(
            [Problem(None, "", f"the file is larger than {MAX_BYTES // 2**20} MB")]
        )
    if not content.strip():
        raise InterchangeError([Problem(None, "", "the file is empty")])
    content = _BARE_AMPERSAND.sub(b"&amp;", content)  # Eliot does not escape & (4)
    parser = expat.ParserCreate("UTF-8")
    stack: list[_Node] = []
    root: list[_Node] = []

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            stack[-1].text += data

    def doctype(*args: object) -> None:
        raise InterchangeError(
            [Problem(parser.CurrentLineNumber, "", "a DOCTYPE is not allowed (Eliot writes none)")]
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text

    def comment(data: str) -> None:
        if stack:
            stack[-1].children.append(_Node(COMMENT, {}, parser.CurrentLineNumber, data))

    parser.CommentHandler = comment
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(content, True)
    except expat.ExpatError as exc:
        raise InterchangeError(
            [
                Problem(
                    exc.lineno,
                    "",
                    f"not an XML file ({expat.ErrorString(exc.code)}, column {exc.offset + 1})",
                )
            ]
        ) from None
    return root[0]


class _Reader:
    def __init__(self, tiles: str | None) -> None:
        self.problems: list[Problem] = []
        self.tiles = tiles  # the tile letters allowed in racks (None: any A-Z and ?)

    def bad(self, node: _Node, message: str) -> None:
        self.problems.append(Problem(node.line, node.tag, message))

    def integer(self, node: _Node, text: str, what: str, low: int | None = None) -> int | None:
        try:
            value = int(text.strip())
        except ValueError:
            self.bad(node, f"{what} {text.strip()!r} is not a whole number")
            return None
        if low is not None and value < low:
            self.bad(node, f"{what} {value} is below {low}")
            return None
        return value

    def player_id(self, node: _Node, players: int) -> int | None:
        raw = node.attrs.get("playerId", node.attrs.get("playerid"))
        if raw is None:
            self.bad(node, "the playerId attribute is missing")
            return None
        pid = self.integer(node, raw, "playerId", 0)
        if pid is not None and pid >= players:
            self.bad(node, f"playerId {pid} names no player (the game has {players})")
            return None
        return pid

    def rack(self, node: _Node) -> Rack | None:
        text = node.text
        try:
            rack = Rack.parse(text)
        except NotationError as exc:
            self.bad(node, str(exc))
            return None
        if self.tiles is not None:
            for i, tile in enumerate(rack.tiles):
                if tile != BLANK and tile not in self.tiles:
                    self.bad(
                        node,
                        f"rack {text!r}: {tile!r} at position {i + 1} is not a tile of the set",
                    )
                    return None
        return rack

    def move(self, node: _Node) -> EliotMove | None:
        kind = node.attrs.get("type", "")
        if kind not in MOVE_TYPES:
            self.bad(node, f"type {kind!r} is not one of {', '.join(MOVE_TYPES)}")
            return None
        points = self.integer(node, node.attrs.get("points", ""), "points")
        if points is None:
            return None
        word, coord = node.attrs.get("word", ""), node.attrs.get("coord", "")
        if kind == "valid":
            try:
                printed = format_ref(*parse_ref(coord))
                if printed != coord:
                    raise NotationError(f"reference {coord!r} is written {printed} in Eliot")
                parse_word(word)
            except EngineError as exc:
                self.bad(node, str(exc))
                return None
            if points < 0:
                self.bad(node, f"points {points} is below 0")
                return None
        elif kind == "invalid":
            if "word" not in node.attrs or "coord" not in node.attrs:
                self.bad(node, "an invalid move needs its word and coord attributes")
                return None
            if points != 0:
                self.bad(node, f"an invalid move scores 0, not {points}")
                return None
        elif points != 0:
            self.bad(node, f"a move of type {kind} scores 0, not {points}")
            return None
        return EliotMove(kind, points, word, coord, node.attrs.get("letters", ""))

    def read(self, root: _Node) -> EliotGame:
        if root.tag != "EliotGame":
            self.bad(root, "the root element must be <EliotGame>: this is not an Eliot save game")
            raise InterchangeError(self.problems)
        if root.attrs.get("format", "2") != "2":
            self.bad(root, f"format {root.attrs['format']!r}: only format 2 is read")
        known = {"Dictionary", "Game", "History", "Statistics"}
        for child in root.children:
            if child.tag not in known and child.tag != COMMENT:
                self.bad(child, "unknown element")
        dictionary = self.dictionary(root.child("Dictionary"), root)
        game = root.child("Game")
        if game is None:
            self.bad(root, "the <Game> element is missing")
            raise InterchangeError(self.problems)
        mode, players, turns_said = self.game(game)
        history = root.child("History")
        turns: list[EliotTurn] = []
        if history is None:
            self.bad(root, "the <History> element is missing")
        else:
            nodes = [c for c in history.children if c.tag == "Turn"]
            for c in history.children:
                if c.tag not in ("Turn", COMMENT):
                    self.bad(c, "unknown element (a <History> holds <Turn> elements)")
            if len(nodes) > MAX_TURNS:
                self.bad(history, f"{len(nodes)} turns: at most {MAX_TURNS} are read")
                raise InterchangeError(self.problems)
            if turns_said is not None and turns_said != len(nodes):
                self.bad(
                    history,
                    f"<Turns> says {turns_said} turns but the history holds {len(nodes)}",
                )
            for i, node in enumerate(nodes):
                turn = self.turn(node, len(players), first=i == 0)
                if turn is not None:
                    if turn.top is None and i != len(nodes) - 1:
                        self.bad(node, f"turn {i + 1} has no <GameMove>: only the last may be open")
                    turns.append(turn)
        result = EliotGame(dictionary, mode, tuple(players), tuple(turns))
        stats = root.child("Statistics")
        if stats is not None and not self.problems:
            self.statistics(stats, result)
        if self.problems:
            raise InterchangeError(self.problems)
        return result

    def dictionary(self, node: _Node | None, root: _Node) -> Dictionary:
        if node is None:
            self.bad(root, "the <Dictionary> element is missing")
            return Dictionary("", "", "", 0)
        texts = {c.tag: c.text for c in node.children}
        for c in node.children:
            if c.tag not in ("Name", "Type", "Letters", "WordNb", COMMENT):
                self.bad(c, "unknown element")
        words = self.integer(node, texts.get("WordNb", "0"), "WordNb", 0) or 0
        letters = texts.get("Letters", "")
        if self.tiles is not None and letters:
            listed = set(letters.split())
            wanted = set(self.tiles) | {BLANK}
            if listed != wanted:
                self.bad(
                    node,
                    f"the dictionary's letters {letters!r} are not this tile set's "
                    f"({' '.join(sorted(wanted - {BLANK}))} ?)",
                )
        return Dictionary(texts.get("Name", ""), texts.get("Type", ""), letters, words)

    def game(self, node: _Node) -> tuple[str, list[EliotPlayer], int | None]:
        mode_node = node.child("Mode")
        mode = mode_node.text if mode_node is not None else "training"
        if mode not in MODES:
            self.bad(mode_node or node, f"mode {mode!r} is not one of {', '.join(MODES)}")
        elif mode not in PLAYED_MODES:
            self.bad(
                mode_node or node,
                f"mode {mode!r}: only duplicate and arbitration games are read",
            )
        players: list[EliotPlayer] = []
        turns: int | None = None
        for c in node.children:
            if c.tag == "Variant":
                self.bad(c, f"variant {c.text!r}: games with a variant are not read")
            elif c.tag == "Player":
                players.append(self.player(c, len(players)))
            elif c.tag == "Turns":
                turns = self.integer(c, c.text, "Turns", 0)
            elif c.tag not in ("Mode", COMMENT):
                self.bad(c, "unknown element")
        if not players:
            self.bad(node, "the game has no <Player>")
        if len(players) > MAX_PLAYERS:
            self.bad(node, f"{len(players)} players: at most {MAX_PLAYERS} are read")
        return mode, players, turns

    def player(self, node: _Node, position: int) -> EliotPlayer:
        pid = self.integer(node, node.attrs.get("id", ""), "id", 0)
        if pid is not None and pid != position:
            self.bad(node, f"player id {pid} out of order: ids are 0, 1, 2... in document order")
        texts = {c.tag: c for c in node.children}
        for c in node.children:
            if c.tag not in ("Name", "Type", "Level", "TableNb", COMMENT):
                self.bad(c, "unknown element")
        name = texts["Name"].text if "Name" in texts else ""
        if not name.strip():
            self.bad(node, "the player has no name")
        kind = texts["Type"].text if "Type" in texts else "human"
        if kind not in ("human", "computer"):
            self.bad(texts["Type"], f"type {kind!r} is neither human nor computer")
        level = None
        if "Level" in texts:
            level = self.integer(texts["Level"], texts["Level"].text, "Level", 0)
        table = position + 1  # Eliot's default
        if "TableNb" in texts:
            table = self.integer(texts["TableNb"], texts["TableNb"].text, "TableNb", 1) or table
        return EliotPlayer(name, table, kind, level)

    def turn(self, node: _Node, players: int, *, first: bool) -> EliotTurn | None:
        before = len(self.problems)
        kept: str | None = None
        rack: Rack | None = None
        moves: dict[int, EliotMove] = {}
        masters: list[EliotMove] = []
        events: list[EliotEvent] = []
        top: EliotMove | None = None
        rejected: list[str] = []
        for c in node.children:
            if c.tag == COMMENT:
                m = _REJECTED.fullmatch(c.text)
                if m and rack is None:
                    rejected.append(m.group(1))
            elif top is not None:
                self.bad(c, "nothing may follow the <GameMove> that closes the turn")
            elif c.tag == "PlayerRack":
                pid = self.player_id(c, players)
                player_rack = self.rack(c)
                if rack is None and player_rack is not None:
                    kept = player_rack.tiles
            elif c.tag == "GameRack":
                if moves:
                    self.bad(c, "the rack is set after the players' moves")
                rack = self.rack(c)
            elif c.tag == "PlayerMove":
                pid = self.player_id(c, players)
                move = self.move(c)
                if rack is None:
                    self.bad(c, "a player's move before the turn's <GameRack>")
                elif pid is not None and move is not None:
                    if pid in moves:
                        self.bad(c, f"a second move for player {pid} in the turn")
                    moves[pid] = move
            elif c.tag == "MasterMove":
                move = self.move(c)
                if move is not None and move.type == "valid":
                    masters.append(move)
                elif move is not None and move.type != "none":
                    self.bad(c, f"a top of type {move.type}")
            elif c.tag in EVENT_KINDS:
                pid = self.player_id(c, players)
                points = 0
                if c.tag != "Warning":
                    value = self.integer(c, c.attrs.get("points", ""), "points")
                    if value is None:
                        continue
                    if c.tag == "Penalty" and value > 0:
                        self.bad(c, f"a penalty of {value}: penalties are written negative (-5)")
                    if c.tag == "Solo" and value < 0:
                        self.bad(c, f"a solo of {value}: solos are positive (10)")
                    points = value
                if pid is not None and pid not in moves:
                    self.bad(c, f"player {pid} has no move yet in the turn: events follow it")
                elif pid is not None:
                    events.append(EliotEvent(c.tag, pid, points))
            elif c.tag == "GameMove":
                move = self.move(c)
                if rack is None:
                    self.bad(c, "the move is put on the board before the turn's <GameRack>")
                elif move is not None and move.type != "valid":
                    self.bad(c, f"the move put on the board is of type {move.type}, not valid")
                else:
                    top = move
            elif c.tag == "EndGame":
                self.bad(c, "an end-of-game adjustment belongs to free games, not duplicate")
            else:
                self.bad(c, "unknown element")
        if first and kept:
            self.bad(node, "the first turn holds a leftover")
        if rack is not None and len(moves) != players:
            missing = sorted(set(range(players)) - set(moves))
            if missing:
                self.bad(
                    node,
                    "no <PlayerMove> for player"
                    + ("s " if len(missing) > 1 else " ")
                    + ", ".join(str(m) for m in missing[:10])
                    + (" ..." if len(missing) > 10 else ""),
                )
        if len(self.problems) > before:
            return None
        ordered = tuple(moves[p] for p in range(players)) if rack is not None else ()
        return EliotTurn(
            rack=rack,
            moves=ordered,
            events=tuple(events),
            top=top,
            masters=tuple(masters),
            kept=None if first else (kept or ""),
            rejected=tuple(rejected),
            line=node.line,
        )

    def statistics(self, node: _Node, game: EliotGame) -> None:
        """Eliot never reads them; a file whose own figures disagree with its turns is refused
        (the top total, each player's raw score, warnings and solos)."""
        stats = game.stats()
        for c in node.children:
            if c.tag == "GameStats":
                said = self.integer(c, c.attrs.get("totalScore", ""), "totalScore")
                if said is not None and said != game.top_total:
                    self.bad(c, f"totalScore {said}, but the tops add up to {game.top_total}")
            elif c.tag == "PlayerStats":
                pid = self.player_id(c, len(game.players))
                if pid is None:
                    continue
                mine = stats[pid]
                for attribute, value in (
                    ("rawScore", mine.raw),
                    ("warningsNb", mine.warnings),
                    ("solosPoints", mine.solos),
                ):
                    if attribute not in c.attrs:
                        continue
                    said = self.integer(c, c.attrs[attribute], attribute)
                    if said is not None and said != value:
                        self.bad(
                            c,
                            f"player {pid}'s {attribute} is {said}, "
                            f"but the turns add up to {value}",
                        )
            elif c.tag != COMMENT:
                self.bad(c, "unknown element")


def eliot_read(content: bytes, *, tiles: str | None = None) -> EliotGame:
    """Read an Eliot save game of a duplicate or arbitration game. ``tiles``: the letters of
    the tile set racks must be made of (the blank ``?`` always allowed). Raises
    ``InterchangeError`` listing every problem found, each with its line and element."""
    reader = _Reader(tiles)
    return reader.read(_parse_xml(content))


__all__ = [
    "MAX_BYTES",
    "Dictionary",
    "EliotEvent",
    "EliotGame",
    "EliotMove",
    "EliotPlayer",
    "EliotTurn",
    "InterchangeError",
    "PlayerStats",
    "Problem",
    "Rack",
    "eliot_read",
    "eliot_write",
]
