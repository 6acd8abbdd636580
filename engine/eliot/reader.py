"""Reading Eliot's save game (``<EliotGame format="2">``) of a duplicate or arbitration game,
as real Eliot writes it (docs/interchange.md, section 1; "Checked against Eliot").

``eliot_read`` checks every element and names its line when it refuses one, listing every
problem found; ``eliot_read(eliot_write(game)) == game``.

What real Eliot writes and is read here as it is: players with no name (its text interface
names nobody: ``EliotPlayer.name`` is then empty), names and typed words with ``&``, ``<`` or
``"`` left unescaped (the lines of ``<Name>`` and of an ``invalid`` move are mended before
parsing), racks starting with ``-`` (the leftover put back; the rack refused with it is not
recorded), words with the board's tiles in upper case.

Bounded before and during the work: a file over ``MAX_BYTES`` is refused before it is parsed,
a text that is not UTF-8 is refused as such (with the first byte that is not, and where), a
DOCTYPE (entities) is refused at once (Eliot writes none), and the parse stops at the first
element nested deeper than ``MAX_DEPTH``, past ``MAX_ELEMENTS`` elements or with a text longer
than ``MAX_TEXT``; texts are gathered in lists, so a file of newlines costs what reading it
costs (it took 110 s for 2 MB when texts were added to one string).
"""

from __future__ import annotations

import re
from xml.parsers import expat

from engine.eliot.model import (
    EVENT_KINDS,
    MODES,
    MOVE_TYPES,
    PLAYED_MODES,
    VARIANTS,
    Dictionary,
    EliotEvent,
    EliotGame,
    EliotMove,
    EliotPlayer,
    EliotTurn,
    Rack,
    formula_of,
)
from engine.eliot.writer import REJECTED
from engine.errors import EngineError, NotationError
from engine.formula import FormulaError
from engine.interchange import (
    InterchangeError,
    Problem,
    check_size,
    check_utf8,
    refuse,
)
from engine.interchange import gettext_noop as _
from engine.notation import format_ref, parse_ref, parse_word
from engine.tiles import BLANK

MAX_BYTES = 2 * 1024 * 1024  # under the request body limit (REQUEST_BODY_MAX_BYTES, 3 MB)
MAX_PLAYERS = 2000
MAX_TURNS = 200
MAX_DEPTH = 5  # EliotGame > History > Turn > PlayerMove is 4
MAX_ELEMENTS = 250_000  # 2,000 players x ~100 turn elements would be 200,000
MAX_TEXT = 10_000  # characters in one element's text
_DIGITS = re.compile(r"-?[0-9]{1,9}")
_BARE_AMPERSAND = re.compile(rb"&(?!(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#x[0-9A-Fa-f]+);)")
# The lines Eliot writes with a user's text left as typed (xml_writer.cpp): a name, the word
# and square of an invalid move.
_NAME_LINE = re.compile(rb"^([ \t]*<Name>)(.*)(</Name>[ \t]*\r?)$", re.MULTILINE)
_INVALID_LINE = re.compile(
    rb'^([ \t]*<(?:Player|Master|Game)Move (?:playerId="[0-9]+" )?points="-?[0-9]+" '
    rb'type="invalid" word=")(.*)(" coord=")(.*)(" />[ \t]*\r?)$',
    re.MULTILINE,
)
_DECLARED = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_UTF8_NAMES = (b"utf-8", b"utf8")
_EXPAT_ENCODINGS = (b"iso-8859-1", b"latin-1", b"latin1", b"us-ascii", b"ascii")
_REJECTED = re.compile(rf"\s*{REJECTED} ([A-Z?]{{1,15}})\s*")
COMMENT = "#comment"


def _escaped(text: bytes, *, quote: bool = False) -> bytes:
    """A text Eliot left unescaped, escaped (an entity already written stays)."""
    text = _BARE_AMPERSAND.sub(b"&amp;", text).replace(b"<", b"&lt;").replace(b">", b"&gt;")
    return text.replace(b'"', b"&quot;") if quote else text


def _mended(content: bytes) -> bytes:
    """Eliot's unescaped names and typed words made XML (docs/interchange.md, 4)."""
    content = _NAME_LINE.sub(lambda m: m[1] + _escaped(m[2]) + m[3], content)
    content = _INVALID_LINE.sub(
        lambda m: m[1] + _escaped(m[2], quote=True) + m[3] + _escaped(m[4], quote=True) + m[5],
        content,
    )
    return _BARE_AMPERSAND.sub(b"&amp;", content)


def _check_encoding(content: bytes) -> None:
    """The text must be UTF-8 (what Eliot writes) unless its declaration names an encoding
    the XML parser reads; anything else is refused as what it is."""
    declared = _DECLARED.match(content)
    name = declared.group(1).lower() if declared else b"utf-8"
    if name in _EXPAT_ENCODINGS and not content.startswith(b"\xef\xbb\xbf"):
        return
    if name not in _UTF8_NAMES and not name.startswith(b"utf-16"):
        refuse(
            _("the file says it is in %(encoding)s, which is not read: save it as UTF-8"),
            1,
            encoding=name.decode("ascii"),
        )
    check_utf8(content.removeprefix(b"\xef\xbb\xbf"))


class _Node:
    __slots__ = ("attrs", "children", "line", "parts", "size", "tag")

    def __init__(self, tag: str, attrs: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrs = attrs
        self.line = line
        self.parts: list[str] = []
        self.size = 0
        self.children: list[_Node] = []

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def child(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)


def _parse_xml(content: bytes) -> _Node:
    check_size(content, MAX_BYTES)
    if not content.strip():
        refuse(_("the file is empty"))
    _check_encoding(content)
    content = _mended(content)
    parser = expat.ParserCreate()
    parser.buffer_text = True
    stack: list[_Node] = []
    root: list[_Node] = []
    count = [0]  # elements so far

    def start(tag: str, attrs: dict[str, str]) -> None:
        count[0] += 1
        line = parser.CurrentLineNumber
        if len(stack) >= MAX_DEPTH:
            refuse(
                _("elements nested more than %(limit)d deep: this is not an Eliot save game"),
                line,
                tag,
                limit=MAX_DEPTH,
            )
        if count[0] > MAX_ELEMENTS:
            refuse(_("more than %(limit)d elements"), line, tag, limit=MAX_ELEMENTS)
        node = _Node(tag, attrs, line)
        if stack:
            stack[-1].children.append(node)
        else:
            root.append(node)
        stack.append(node)

    def end(tag: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        if stack:
            node = stack[-1]
            node.parts.append(data)
            node.size += len(data)
            if node.size > MAX_TEXT:
                refuse(
                    _("a text longer than %(limit)d characters"),
                    parser.CurrentLineNumber,
                    node.tag,
                    limit=MAX_TEXT,
                )

    def comment(data: str) -> None:
        if stack:
            stack[-1].children.append(_Node(COMMENT, {"text": data}, parser.CurrentLineNumber))

    def doctype(*args: object) -> None:
        refuse(_("a DOCTYPE is not allowed (Eliot writes none)"), parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.CommentHandler = comment
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(content, True)
    except expat.ExpatError as exc:
        refuse(
            _("not an XML file (%(error)s, column %(column)d)"),
            exc.lineno,
            error=expat.ErrorString(exc.code),
            column=exc.offset + 1,
        )
    return root[0]


class _Reader:
    def __init__(self, tiles: str | None) -> None:
        self.problems: list[Problem] = []
        self.tiles = tiles  # the tile letters allowed in racks (None: any A-Z and ?)

    def bad(self, node: _Node, message: str, **params: object) -> None:
        self.problems.append(Problem(node.line, node.tag, message, dict(params)))

    def integer(self, node: _Node, text: str, what: str, low: int | None = None) -> int | None:
        if not _DIGITS.fullmatch(text.strip()):
            self.bad(
                node,
                _("%(what)s %(text)s is not a whole number"),
                what=what,
                text=repr(text[:20]),
            )
            return None
        value = int(text)
        if low is not None and value < low:
            self.bad(
                node, _("%(what)s %(value)d is below %(low)d"), what=what, value=value, low=low
            )
            return None
        return value

    def player_id(self, node: _Node, players: int) -> int | None:
        raw = node.attrs.get("playerId", node.attrs.get("playerid"))
        if raw is None:
            self.bad(node, _("the playerId attribute is missing"))
            return None
        pid = self.integer(node, raw, "playerId", 0)
        if pid is not None and pid >= players:
            self.bad(
                node,
                _("playerId %(id)d names no player (the game has %(count)d)"),
                id=pid,
                count=players,
            )
            return None
        return pid

    def rack(self, node: _Node) -> Rack | None:
        text = node.text
        try:
            rack = Rack.parse(text)
        except NotationError:
            self.bad(
                node,
                _(
                    "rack %(rack)s is not a rack: tiles A-Z and blanks (?), with + between the "
                    "tiles kept and the tiles drawn (EIS+ANRTU), - first when the leftover was "
                    "put back"
                ),
                rack=repr(text[:20]),
            )
            return None
        if self.tiles is not None:
            for i, tile in enumerate(rack.tiles):
                if tile != BLANK and tile not in self.tiles:
                    self.bad(
                        node,
                        _(
                            "rack %(rack)s: %(tile)s at position %(position)d is not a tile of the "
                            "set"
                        ),
                        rack=repr(text),
                        tile=repr(tile),
                        position=i + 1,
                    )
                    return None
        return rack

    def move(self, node: _Node) -> EliotMove | None:
        kind = node.attrs.get("type", "")
        if kind not in MOVE_TYPES:
            self.bad(
                node,
                _("type %(type)s is not one of %(types)s"),
                type=repr(kind[:20]),
                types=", ".join(MOVE_TYPES),
            )
            return None
        points = self.integer(node, node.attrs.get("points", ""), "points")
        if points is None:
            return None
        word, coord = node.attrs.get("word", ""), node.attrs.get("coord", "")
        if kind == "valid":
            try:
                printed = format_ref(*parse_ref(coord))
                parse_word(word)
            except EngineError:
                self.bad(
                    node,
                    _("%(word)s %(coord)s is not a word and a reference"),
                    word=repr(word[:20]),
                    coord=repr(coord[:10]),
                )
                return None
            if printed != coord:
                self.bad(
                    node,
                    _("reference %(coord)s is written %(printed)s in Eliot"),
                    coord=repr(coord),
                    printed=printed,
                )
                return None
            if points < 0:
                self.bad(node, _("points %(points)d is below 0"), points=points)
                return None
        elif kind == "invalid":
            if "word" not in node.attrs or "coord" not in node.attrs:
                self.bad(node, _("an invalid move needs its word and coord attributes"))
                return None
            if points != 0:
                self.bad(node, _("an invalid move scores 0, not %(points)d"), points=points)
                return None
        elif points != 0:
            self.bad(
                node,
                _("a move of type %(type)s scores 0, not %(points)d"),
                type=kind,
                points=points,
            )
            return None
        return EliotMove(kind, points, word, coord, node.attrs.get("letters", ""))

    def read(self, root: _Node) -> EliotGame:
        if root.tag != "EliotGame":
            self.bad(
                root, _("the root element must be <EliotGame>: this is not an Eliot save game")
            )
            raise InterchangeError(self.problems)
        if root.attrs.get("format", "2") != "2":
            self.bad(
                root,
                _("format %(format)s: only format 2 is read"),
                format=repr(root.attrs["format"][:10]),
            )
        known = {"Dictionary", "Game", "History", "Statistics"}
        for child in root.children:
            if child.tag not in known and child.tag != COMMENT:
                self.bad(child, _("unknown element"))
        dictionary = self.dictionary(root.child("Dictionary"), root)
        game = root.child("Game")
        if game is None:
            self.bad(root, _("the <Game> element is missing"))
            raise InterchangeError(self.problems)
        mode, players, turns_said, variants = self.game(game)
        if self.problems and mode not in PLAYED_MODES:
            raise InterchangeError(self.problems)  # another kind of game: its history aside
        history = root.child("History")
        turns: list[EliotTurn] = []
        if history is None:
            self.bad(root, _("the <History> element is missing"))
        else:
            nodes = [c for c in history.children if c.tag == "Turn"]
            for c in history.children:
                if c.tag not in ("Turn", COMMENT):
                    self.bad(c, _("unknown element (a <History> holds <Turn> elements)"))
            if len(nodes) > MAX_TURNS:
                self.bad(
                    history,
                    _("%(count)d turns: at most %(limit)d are read"),
                    count=len(nodes),
                    limit=MAX_TURNS,
                )
                raise InterchangeError(self.problems)
            if turns_said is not None and turns_said != len(nodes):
                self.bad(
                    history,
                    _("<Turns> says %(said)d turns but the history holds %(count)d"),
                    said=turns_said,
                    count=len(nodes),
                )
            for i, node in enumerate(nodes):
                turn = self.turn(node, len(players), first=i == 0)
                if turn is not None:
                    if turn.top is None and i != len(nodes) - 1:
                        self.bad(
                            node,
                            _("turn %(number)d has no <GameMove>: only the last may be open"),
                            number=i + 1,
                        )
                    turns.append(turn)
        result = EliotGame(dictionary, mode, tuple(players), tuple(turns), variants)
        stats = root.child("Statistics")
        if stats is not None and not self.problems:
            self.statistics(stats, result)
        if self.problems:
            raise InterchangeError(self.problems)
        return result

    def dictionary(self, node: _Node | None, root: _Node) -> Dictionary:
        if node is None:
            self.bad(root, _("the <Dictionary> element is missing"))
            return Dictionary("", "", "", None)
        texts = {c.tag: c.text for c in node.children}
        for c in node.children:
            if c.tag not in ("Name", "Type", "Letters", "WordNb", COMMENT):
                self.bad(c, _("unknown element"))
        words = None
        if "WordNb" in texts:
            words = self.integer(node, texts["WordNb"], "WordNb", 0)
        letters = texts.get("Letters", "")
        if self.tiles is not None and letters:
            listed = set(letters.split())
            wanted = set(self.tiles) | {BLANK}
            if listed != wanted:
                self.bad(
                    node,
                    _("the dictionary's letters %(letters)s are not this tile set's (%(set)s)"),
                    letters=repr(letters[:80]),
                    set=" ".join(sorted(wanted - {BLANK})) + " ?",
                )
        return Dictionary(texts.get("Name", ""), texts.get("Type", ""), letters, words)

    def game(self, node: _Node) -> tuple[str, list[EliotPlayer], int | None, tuple[str, ...]]:
        mode_node = node.child("Mode")
        mode = mode_node.text if mode_node is not None else "training"
        if mode not in MODES:
            self.bad(
                mode_node or node,
                _("mode %(mode)s is not one of %(modes)s"),
                mode=repr(mode[:20]),
                modes=", ".join(MODES),
            )
        elif mode not in PLAYED_MODES:
            self.bad(
                mode_node or node,
                _(
                    "this is a %(mode)s game of Eliot, with no rounds of a duplicate game: save "
                    "a duplicate or arbitration game in Eliot to import it"
                ),
                mode=mode,
            )
        players: list[EliotPlayer] = []
        turns: int | None = None
        variants: set[str] = set()
        for c in node.children:
            if c.tag == "Variant":
                if c.text not in VARIANTS:
                    self.bad(
                        c,
                        _("variant %(variant)s is not one of %(variants)s"),
                        variant=repr(c.text[:20]),
                        variants=", ".join(VARIANTS),
                    )
                variants.add(c.text)
            elif c.tag == "Player":
                if len(players) >= MAX_PLAYERS:
                    self.bad(c, _("more than %(limit)d players"), limit=MAX_PLAYERS)
                    raise InterchangeError(self.problems)
                players.append(self.player(c, len(players)))
            elif c.tag == "Turns":
                turns = self.integer(c, c.text, "Turns", 0)
            elif c.tag not in ("Mode", COMMENT):
                self.bad(c, _("unknown element"))
        if not players:
            self.bad(node, _("the game has no <Player>"))
        ordered = tuple(v for v in VARIANTS if v in variants)
        try:
            formula_of(ordered)
        except FormulaError:
            self.bad(
                node,
                _("the variants %(variants)s together are no formula of the regulation"),
                variants=", ".join(ordered),
            )
        return mode, players, turns, ordered

    def player(self, node: _Node, position: int) -> EliotPlayer:
        pid = self.integer(node, node.attrs.get("id", ""), "id", 0)
        if pid is not None and pid != position:
            self.bad(
                node,
                _("player id %(id)d out of order: ids are 0, 1, 2... in document order"),
                id=pid,
            )
        texts = {c.tag: c for c in node.children}
        for c in node.children:
            if c.tag not in ("Name", "Type", "Level", "TableNb", COMMENT):
                self.bad(c, _("unknown element"))
        name = texts["Name"].text.strip() if "Name" in texts else ""
        kind = texts["Type"].text if "Type" in texts else "human"
        if kind not in ("human", "computer"):
            self.bad(
                texts["Type"],
                _("type %(type)s is neither human nor computer"),
                type=repr(kind[:20]),
            )
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
            if rack is None and kept and c.tag in ("PlayerMove", "GameMove", *EVENT_KINDS):
                # The bag is empty: Eliot draws nothing and writes no <GameRack>, the players
                # play the leftover their <PlayerRack> holds.
                rack = Rack(kept=kept, drawn="")
            if c.tag == COMMENT:
                m = _REJECTED.fullmatch(c.attrs.get("text", ""))
                if m and rack is None:
                    rejected.append(m.group(1))
            elif top is not None:
                self.bad(c, _("nothing may follow the <GameMove> that closes the turn"))
            elif c.tag == "PlayerRack":
                self.player_id(c, players)
                player_rack = self.rack(c)
                if rack is None and player_rack is not None:
                    kept = player_rack.tiles
            elif c.tag == "GameRack":
                if moves:
                    self.bad(c, _("the rack is set after the players' moves"))
                rack = self.rack(c)
            elif c.tag == "PlayerMove":
                pid = self.player_id(c, players)
                move = self.move(c)
                if rack is None:
                    self.bad(c, _("a player's move before the turn's <GameRack>"))
                elif pid is not None and move is not None:
                    if pid in moves:
                        self.bad(c, _("a second move for player %(id)d in the turn"), id=pid)
                    moves[pid] = move
            elif c.tag == "MasterMove":
                move = self.move(c)
                if move is not None and move.type == "valid":
                    masters.append(move)
                elif move is not None and move.type != "none":
                    self.bad(c, _("a top of type %(type)s"), type=move.type)
            elif c.tag in EVENT_KINDS:
                pid = self.player_id(c, players)
                points = 0
                if c.tag != "Warning":
                    value = self.integer(c, c.attrs.get("points", ""), "points")
                    if value is None:
                        continue
                    if c.tag == "Penalty" and value > 0:
                        self.bad(
                            c,
                            _("a penalty of %(points)d: penalties are written negative (-5)"),
                            points=value,
                        )
                    if c.tag == "Solo" and value < 0:
                        self.bad(
                            c, _("a solo of %(points)d: solos are positive (10)"), points=value
                        )
                    points = value
                if pid is not None and first and pid not in moves:
                    self.bad(
                        c,
                        _("player %(id)d has no move yet in the game: events follow it"),
                        id=pid,
                    )
                elif pid is not None:
                    events.append(EliotEvent(c.tag, pid, points))
            elif c.tag == "GameMove":
                move = self.move(c)
                if rack is None:
                    self.bad(c, _("the move is put on the board before the turn's <GameRack>"))
                elif move is not None and move.type != "valid":
                    self.bad(
                        c,
                        _("the move put on the board is of type %(type)s, not valid"),
                        type=move.type,
                    )
                else:
                    top = move
            elif c.tag == "EndGame":
                self.bad(c, _("an end-of-game adjustment belongs to free games, not duplicate"))
            else:
                self.bad(c, _("unknown element"))
        if first and kept:
            self.bad(node, _("the first turn holds a leftover"))
        if len(self.problems) > before:
            return None
        # A player with no <PlayerMove> handed in nothing (Eliot writes none for anyone when
        # the bag is empty and no rack is drawn).
        none = EliotMove.none()
        ordered = tuple(moves.get(p, none) for p in range(players)) if rack is not None else ()
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
                    self.bad(
                        c,
                        _("totalScore %(said)d, but the tops add up to %(total)d"),
                        said=said,
                        total=game.top_total,
                    )
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
                            _(
                                "player %(id)d's %(what)s is %(said)d, but the turns add up to "
                                "%(total)d"
                            ),
                            id=pid,
                            what=attribute,
                            said=said,
                            total=value,
                        )
            elif c.tag != COMMENT:
                self.bad(c, _("unknown element"))


def eliot_read(content: bytes, *, tiles: str | None = None) -> EliotGame:
    """Read an Eliot save game of a duplicate or arbitration game. ``tiles``: the letters of
    the tile set racks must be made of (the blank ``?`` always allowed). Raises
    ``InterchangeError`` listing every problem found, each with its line and element."""
    reader = _Reader(tiles)
    return reader.read(_parse_xml(content))


__all__ = ["MAX_BYTES", "eliot_read"]
