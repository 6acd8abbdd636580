/* The player's phone page: follows the server's live stream (Server-Sent Events, web.live),
 * or polls the v1 API where the stream cannot be used, shows the board, rack and server
 * countdown, and hands in slips through an outbox kept in localStorage (retried with backoff
 * until the server answers). The server decides everything: this file helps typing (the
 * notation's format, a blank the word needs and the slip does not mark) and warns before
 * sending, but sends what the player confirms, as an arbiter takes any paper slip; it shows
 * what the server said.
 *
 * How state arrives: the stream sends "state" (everything), "shared" (what every phone shows
 * alike) and "personal" (this player's own part), each with its version in the frame's id.
 * A lost stream is opened again after 1, 2, 4 ... 30 s (with jitter, so a room does not come
 * back at once), with the version last seen: only a phone behind is sent the state again.
 * Until then the page says the connection is lost and what it shows may be out of date. Where
 * the stream is refused or absent, the page polls, as often as the server says (X-Poll-After). */
(function () {
  "use strict";

  var root = document.getElementById("play");
  if (!root) return;
  var URLS = { state: root.dataset.stateUrl, submit: root.dataset.submitUrl, standings: root.dataset.standingsUrl, events: root.dataset.eventsUrl };
  var OUTBOX_KEY = "dsplay:outbox:" + root.dataset.event + ":" + root.dataset.player;
  var POLL_DEFAULT = 2000, POLL_MAX_BACKOFF = 30000;
  var RETRY_FIRST = 1000, RETRY_MAX = 15000;
  var STREAM_FIRST = 1000, STREAM_MAX = 30000;

  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  };

  var state = null, etag = null, offsetMs = 0, pollTimer = null, pollFailures = 0;
  var standingsVersion = null, stopped = false;
  var stream = null, streamFailures = 0, streamTimer = null, polling = !(window.EventSource && URLS.events);
  var pollAfter = POLL_DEFAULT;

  /* --- server clock ------------------------------------------------------------------ */
  function serverNow() { return Date.now() + offsetMs; }
  function learnClock(serverIso, sentAt) {
    if (!serverIso) return;
    var t = Date.parse(serverIso);
    if (isNaN(t)) return;
    var receivedAt = Date.now();
    offsetMs = t - (sentAt + receivedAt) / 2; // the server time was read midway (roughly)
  }

  /* --- network status line ----------------------------------------------------------- */
  // A screen reader hears the connection lost and back (through the page's live region), not
  // each change of the polling's pace.
  function setNet(kind, text) {
    var n = $("net"), was = n.dataset.net;
    n.dataset.net = kind; n.textContent = text;
    if (was !== kind && (kind === "offline" || was === "offline")) say(text);
  }

  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  /* --- the live stream --------------------------------------------------------------- */
  function setLive(live) { root.dataset.live = live; }
  function applyFrame(kind, data) {
    if (kind === "state" || !state) state = data;
    else Object.keys(data).forEach(function (key) { state[key] = data[key]; });
    if (kind === "shared") state.slip = slipOf(state);
    if (data.server_time) learnClock(data.server_time, Date.now());
    render();
  }
  // The player's slip that counts for the round in play, from their slips (as the server does).
  function slipOf(s) {
    var round = s.round, found = null;
    if (!round) return null;
    (s.slips || []).forEach(function (slip) {
      if (!found && slip.round === round.number && slip.current && slip.round_status !== "annulled") found = slip;
    });
    return found && { id: found.id, round: found.round, word: found.word, ref: found.ref, score: found.score, received_at: found.received_at };
  }
  function live() {
    streamFailures = 0;
    setLive("live");
    setNet("ok", gettext("Connected · live (pushed by the server)"));
    flushOutbox();
  }
  function connect() {
    clearTimeout(streamTimer);
    if (stopped || polling) return;
    var url = URLS.events + (state && state.version ? "?v=" + encodeURIComponent(state.version) : "");
    stream = new EventSource(url);
    ["state", "shared", "personal"].forEach(function (kind) {
      stream.addEventListener(kind, function (ev) {
        var data;
        try { data = JSON.parse(ev.data); } catch (e) { return; }
        if (ev.lastEventId) { data.version = ev.lastEventId; etag = '"' + ev.lastEventId + '"'; }
        applyFrame(kind, data);
        if (kind === "state") live();
      });
    });
    var opened = false;
    stream.onopen = function () { opened = true; };
    stream.addEventListener("current", live);
    stream.addEventListener("end", function () { lost(); });
    stream.onerror = function () {
      // Refused before it opened (no stream on this server, a proxy in the way): poll instead.
      if (!opened) { stream.close(); stream = null; polling = true; schedulePoll(0); return; }
      lost();
    };
  }
  // The stream is gone: say so, ask the state once (a refused token ends here), open it again.
  function lost() {
    if (stream) { stream.close(); stream = null; }
    if (stopped) return;
    streamFailures += 1;
    setLive("stale");
    setNet("offline", gettext("Connection lost: reconnecting… What you see may be out of date (your slip is kept on this phone)."));
    var wait = Math.min(STREAM_FIRST * Math.pow(2, streamFailures - 1), STREAM_MAX);
    wait = wait / 2 + Math.random() * wait / 2;  // a room's phones do not all come back at once
    fetchState(function () { streamTimer = setTimeout(connect, wait); });
  }

  /* --- polling (where the stream cannot be used) ------------------------------------------ */
  function schedulePoll(ms) {
    clearTimeout(pollTimer);
    if (stopped || !polling) return;
    pollTimer = setTimeout(poll, ms);
  }
  function nextPollDelay() {
    if (pollFailures) return Math.min(pollAfter * Math.pow(2, pollFailures), POLL_MAX_BACKOFF);
    return pollAfter;
  }
  // One state request (with the version held): calls done(ok, status).
  function fetchState(done) {
    var sentAt = Date.now();
    var headers = { "Accept": "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    var url = URLS.state + (document.visibilityState === "hidden" ? "?hidden=1" : "");
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        learnClock(r.headers.get("X-Server-Time"), sentAt);
        var after = parseFloat(r.headers.get("X-Poll-After"));
        if (after > 0) pollAfter = after * 1000;
        if (r.status === 304) return null;
        if (r.status === 401 || r.status === 403) {
          return r.json().then(function (body) { throw { fatal: true, detail: body.detail }; });
        }
        if (!r.ok) throw { status: r.status };
        etag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (data) {
        if (data) { state = data; learnClock(data.server_time, sentAt); render(); }
        done(true, 200);
      })
      .catch(function (err) {
        if (err && err.fatal) {
          stopped = true;
          if (stream) { stream.close(); stream = null; }
          setNet("offline", err.detail || gettext("Signed out: scan your QR code again."));
          $("submit").disabled = true;
          return;
        }
        done(false, err && err.status);
      });
  }
  function poll() {
    fetchState(function (ok) {
      if (ok) {
        pollFailures = 0;
        setLive("live");
        setNet("ok", interpolate(gettext("Connected · live (asking every %s s)"), [Math.round(pollAfter / 1000)]));
        flushOutbox();
      } else {
        pollFailures += 1;
        setLive("stale");
        setNet("offline", gettext("Connection lost: reconnecting… What you see may be out of date (your slip is kept on this phone)."));
      }
      schedulePoll(nextPollDelay());
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      if (polling) schedulePoll(0);
      else if (!stream) connect();
    }
  });
  window.addEventListener("online", function () { if (polling) schedulePoll(0); else if (!stream) connect(); retryNow(); });

  /* --- rendering -------------------------------------------------------------------- */
  // A tile's points in the game's tile set (a blank, or a letter played as one, is 0).
  function valueOf(t) {
    var values = state && state.values;
    if (!values) return null;
    if (t === "?" || t !== t.toUpperCase()) return 0;
    return values[t] === undefined ? null : values[t];
  }
  var ROWS = "ABCDEFGHIJKLMNO";
  function renderBoard() {
    var board = $("board");
    var rows = state.board || [], prem = state.premiums || [];
    var cells = [el("div", "corner")];
    for (var c = 1; c <= 15; c++) cells.push(el("div", "hdr", String(c)));
    for (var r = 0; r < 15; r++) {
      cells.push(el("div", "hdr", ROWS[r]));
      for (c = 0; c < 15; c++) {
        var ch = rows[r] ? rows[r][c] : ".";
        var p = prem[r] ? prem[r][c] : ".";
        var cell;
        if (ch && ch !== ".") {
          var blank = ch === ch.toLowerCase();
          cell = el("div", "cell-tile" + (blank ? " blank" : ""), ch);
          if (blank) cell.title = interpolate(gettext("blank (%s)"), [ch.toUpperCase()]);
        } else {
          cell = el("div", p !== "." ? "p-" + p : "");
        }
        cells.push(cell);
      }
    }
    board.replaceChildren.apply(board, cells);
  }

  function renderRack(round) {
    var rack = $("rack");
    if (!round || !round.rack) {
      rack.replaceChildren(el("span", "rack-empty", round ? gettext("The rack shows when the clock starts.") : gettext("No rack yet.")));
      return;
    }
    var tiles = round.rack.split("").map(function (t) {
      var tile = el("span", "tile" + (t === "?" ? " blank" : ""), t === "?" ? "?" : t);
      if (t === "?") tile.title = gettext("blank");
      var points = valueOf(t);
      if (points !== null) tile.appendChild(el("sub", "pts", String(points)));
      tile.setAttribute("aria-hidden", "true");  // the sentence below says them
      return tile;
    });
    rack.replaceChildren.apply(rack, [el("span", "visually-hidden rack-text", rackText(round.rack))].concat(tiles));
  }

  var STATUS_TEXT = { drawn: pgettext("round", "drawn"), open: pgettext("round", "open"), closed: pgettext("round", "closed"), scored: gettext("being ruled"), published: pgettext("round", "published"), annulled: pgettext("round", "annulled") };
  function renderRound() {
    var round = state.round, game = state.game;
    var label = $("round-label"), badge = $("round-status");
    if (!game) { label.textContent = gettext("Waiting for the game"); badge.textContent = ""; }
    else if (!round) { label.textContent = interpolate(gettext("Game %s"), [game.number]); badge.textContent = gettext("waiting for the first rack"); }
    else {
      label.textContent = interpolate(gettext("Round %s"), [round.number]);
      badge.textContent = round.paused ? gettext("clock stopped") : (STATUS_TEXT[round.status] || round.status);
      badge.className = "badge status-" + (round.status === "open" ? "running" : "finished");
    }
    if (game && game.status === "finished") badge.textContent = gettext("game over");
    if (game && game.formula_label) label.textContent += " · " + game.formula_label;
    var death = state.sudden_death;  // mort subite (3.8.3): still in, or out at which round
    if (death) {
      label.textContent += " · " + (death.eliminated_at ? interpolate(gettext("you are out since round %s"), [death.eliminated_at]) : interpolate(ngettext("still in (%s player)", "still in (%s players)", death.still_in), [death.still_in]));
      if (death.eliminated_at) sayOnce("out:" + death.eliminated_at, interpolate(gettext("You are out since round %s."), [death.eliminated_at]));
    }
    renderRack(round);
    if (game && game.status === "finished") sayOnce("over:" + game.number, gettext("The game is over."));
    keepAwake();
    tick();
  }

  function acceptingSlips() {
    var round = state && state.round;
    if (!round || round.status !== "open") return false;
    if (round.paused) return false; // the clock is stopped: slips wait for it to start again
    return !round.deadline || Date.parse(round.deadline) > serverNow();
  }

  function tick() {
    var cd = $("countdown");
    var round = state && state.round;
    cd.className = "countdown";
    if (!round || round.status !== "open") { cd.textContent = ""; }
    else if (round.paused) {
      cd.textContent = fmt(round.remaining_seconds || 0); cd.className = "countdown paused";
    } else if (round.deadline) {
      var left = Math.max(0, (Date.parse(round.deadline) - serverNow()) / 1000);
      cd.textContent = fmt(left);
      if (left <= 0) cd.className = "countdown over";
      else if (left <= warningSeconds()) cd.className = "countdown warn";
    }
    announceClock(round);
    $("say-time").hidden = !round || round.status !== "open";
    var submit = $("submit");
    var open = acceptingSlips();
    // Between rounds the form gives way to the results; a receipt or pending slip stays.
    $("slip-form").hidden = !round || round.status !== "open";
    $("slip-card").hidden = $("slip-form").hidden && $("receipt").hidden;
    submit.disabled = !open || stopped;
    if (round && round.status === "open" && round.paused) submit.textContent = gettext("Clock stopped: wait for it to start");
    else if (open && confirmed) submit.textContent = gettext("Send anyway");
    else submit.textContent = open ? (currentReceipt() ? gettext("Replace my slip") : gettext("Send my slip")) : gettext("Slips are closed");
  }
  function warningSeconds() {
    var w = state && state.event ? state.event.warning_seconds : null;
    return typeof w === "number" ? w : 30;
  }
  function fmt(seconds) {
    var s = Math.ceil(seconds), m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function renderResult() {
    var box = $("result"), result = state.result;
    var round = state.round;
    var between = !round || round.status !== "open";
    if (!result || !between) { box.hidden = true; return; }
    box.hidden = false;
    var parts = [el("h2", null, interpolate(gettext("Round %s: the top"), [result.round]))];
    parts.push(result.top ? el("p", "result-top", result.top.ref + " " + result.top.word + " · " + result.top.score) : el("p", "muted", gettext("No move was possible.")));
    var ruling = result.ruling;
    if (ruling) {
      var r = el("div", "ruling " + (ruling.placed ? "good" : "bad"));
      r.appendChild(el("p", "code", interpolate(gettext("%(ruling)s: %(points)s"), {ruling: ruling.label, points: points(ruling.total)}, true)));
      if (ruling.slip) r.appendChild(el("p", null, interpolate(gettext("Your slip: %s"), [ruling.slip.ref + " " + ruling.slip.word + " (" + (ruling.slip.score === null ? gettext("no score") : ruling.slip.score) + ")"])));
      if (ruling.reason) r.appendChild(el("p", "muted reason", ruling.reason));
      r.dataset.code = ruling.code;
      parts.push(r);
    }
    var me = state.standings;
    if (me) parts.push(el("p", "rank-line", interpolate(gettext("Rank %(rank)s of %(players)s · total %(total)s · gap %(gap)s"), {rank: me.rank, players: me.players, total: me.total, gap: me.gap}, true) + " (" + me.top_pct_text + ")"));
    box.replaceChildren.apply(box, parts);
    sayOnce("result:" + result.round + ":" + (ruling ? ruling.code + ruling.total : ""),
      parts.map(spokenOf).join(" "));
  }

  function loadStandings() {
    var round = state.round;
    if (!state.standings || !state.standings.rounds || (round && round.status === "open")) { $("standings").hidden = true; return; }
    if (standingsVersion === state.version) return;
    standingsVersion = state.version;
    fetch(URLS.standings, { credentials: "same-origin", cache: "no-store", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(renderStandings)
      .catch(function () { standingsVersion = null; });
  }
  function renderStandings(data) {
    var rows = [];
    var line = function (row) {
      var tr = el("tr", row.me ? "me" : "");
      tr.appendChild(el("td", "num", String(row.rank)));
      tr.appendChild(el("td", null, row.name));
      tr.appendChild(el("td", "num", String(row.total)));
      tr.appendChild(el("td", "num", String(row.gap)));
      return tr;
    };
    data.leaders.forEach(function (row) { rows.push(line(row)); });
    var shown = data.leaders.some(function (row) { return row.me; });
    if (data.me && !shown) {
      var gap = el("tr", "gap"); var td = el("td", null, "…"); td.colSpan = 4; gap.appendChild(td);
      rows.push(gap, line(data.me));
    }
    $("standings-rows").replaceChildren.apply($("standings-rows"), rows);
    $("standings-rounds").textContent = interpolate(ngettext("after %(rounds)s round · top %(top)s", "after %(rounds)s rounds · top %(top)s", data.rounds), {rounds: data.rounds, top: data.top_total}, true);
    $("standings").hidden = false;
  }

  function render() {
    renderBoard();
    renderBoardText();
    renderReceipt();
    renderHistory();
    renderRound();
    renderResult();
    loadStandings();
    clearOfTheCard();
  }

  /* --- the slip form: format help only (the server rules) ----------------------------- */
  var REF = /^(?:[A-O](?:1[0-5]|[1-9])|(?:1[0-5]|[1-9])[A-O])$/;
  var WORD = /^[A-Za-z]{2,15}$/;
  var JUNCTION = /^[A-Z]{2,4}$/;  // junction letters ("raccord", rules.md case 13)
  var word = $("word"), ref = $("ref"), score = $("score");

  function mark(input, hint, ok, text, neutral) {
    input.classList.toggle("bad", !ok && !neutral);
    input.classList.toggle("good", ok && !neutral);
    hint.classList.toggle("bad", !ok && !neutral);
    hint.textContent = text;
  }
  function checkWord() {
    var v = word.value;
    if (!v) return mark(word, $("word-hint"), false, gettext("Letters only. Tap a letter below to mark it as a blank (shown in lower case)."), true), false;
    if (!/^[A-Za-z]*$/.test(v)) return mark(word, $("word-hint"), false, gettext("Letters only (no digits, spaces or accents).")), false;
    if (!WORD.test(v)) return mark(word, $("word-hint"), false, gettext("At least 2 letters.")), false;
    var blanks = v.replace(/[A-Z]/g, "").length;
    mark(word, $("word-hint"), true, blanks ? interpolate(ngettext("%s blank (lower case). Tap a letter to change.", "%s blanks (lower case). Tap a letter to change.", blanks), [blanks]) : gettext("Tap a letter to mark it as a blank."));
    return true;
  }
  function checkRef() {
    var v = ref.value.trim().toUpperCase();
    if (!v) return mark(ref, $("ref-hint"), false, gettext("H8 across, 8H down, or the junction letters"), true), false;
    if (JUNCTION.test(v)) {
      mark(ref, $("ref-hint"), true, v.length === 2
        ? interpolate(gettext("Junction letters %s: write three where the word joins three (else a warning)"), [v])
        : interpolate(gettext("Junction letters %s: the letters on the board your word joins"), [v]));
      return true;
    }
    if (!REF.test(v)) return mark(ref, $("ref-hint"), false, gettext("Row A–O and column 1–15: H8 across, 8H down; or 2 to 4 junction letters")), false;
    mark(ref, $("ref-hint"), true, /^[A-O]/.test(v) ? interpolate(gettext("Across, from %s"), [v]) : interpolate(gettext("Down, from %s"), [v.replace(/^(\d+)([A-O])$/, "$2$1")]));
    return true;
  }
  function checkScore() {
    var v = score.value.trim();
    if (!v) return mark(score, $("score-hint"), false, gettext("Points announced"), true), false;
    if (!/^\d{1,4}$/.test(v)) return mark(score, $("score-hint"), false, gettext("A whole number")), false;
    mark(score, $("score-hint"), true, gettext("Points announced"));
    return true;
  }
  function renderLetters() {
    var box = $("word-letters");
    var letters = word.value.split("").map(function (ch, i) {
      if (!/[A-Za-z]/.test(ch)) return null;
      var b = el("button", ch === ch.toLowerCase() ? "blank" : "", ch);
      b.type = "button";
      b.title = ch === ch.toLowerCase() ? gettext("blank: tap for a tile") : gettext("tile: tap for a blank");
      b.setAttribute("aria-pressed", ch === ch.toLowerCase() ? "true" : "false");
      b.addEventListener("click", function () {
        var chars = word.value.split("");
        chars[i] = chars[i] === chars[i].toLowerCase() ? chars[i].toUpperCase() : chars[i].toLowerCase();
        word.value = chars.join("");
        renderLetters(); checkWord();
      });
      return b;
    }).filter(Boolean);
    box.replaceChildren.apply(box, letters);
  }
  word.addEventListener("input", function () {
    // Typed letters are tiles (upper case); blanks are marked by tapping a letter.
    var pos = word.selectionStart;
    var prev = word.dataset.prev || "";
    var chars = word.value.split("").map(function (ch, i) {
      return prev[i] !== undefined && prev[i] !== prev[i].toUpperCase() && prev[i].toUpperCase() === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
    });
    word.value = chars.join("");
    word.dataset.prev = word.value;
    try { word.setSelectionRange(pos, pos); } catch (e) { /* not focused */ }
    renderLetters(); checkWord();
  });
  ref.addEventListener("input", function () { ref.value = ref.value.toUpperCase(); checkRef(); });
  score.addEventListener("input", checkScore);
  [word, ref, score].forEach(function (input) { input.addEventListener("input", unconfirm); });

  /* --- before sending: what an arbiter would hold against the slip ------------------- */
  // The board's letters under the word at its reference (null where a square is empty, or
  // when the reference cannot be read or the word runs off the board).
  function lettersUnder(refText, length) {
    var m = /^([A-O])(1[0-5]|[1-9])$/.exec(refText), n = /^(1[0-5]|[1-9])([A-O])$/.exec(refText);
    if (!m && !n) return null;
    var row = ROWS.indexOf(m ? m[1] : n[2]), col = parseInt(m ? m[2] : n[1], 10) - 1;
    var rows = (state && state.board) || [], under = [];
    for (var i = 0; i < length; i++) {
      var r = m ? row : row + i, c = m ? col + i : col;
      if (r > 14 || c > 14) return null;
      var ch = rows[r] ? rows[r][c] : ".";
      under.push(ch && ch !== "." ? ch : null);
    }
    return under;
  }
  // The letters the word takes from the rack that the rack lacks (a marked blank takes a blank).
  function lettersMissing() {
    var rack = state && state.round && state.round.rack, w = word.value;
    if (!rack || !WORD.test(w)) return null;
    var first = !state.board || state.board.every(function (row) { return /^\.*$/.test(row); });
    var under = first ? null : lettersUnder(ref.value.trim().toUpperCase(), w.length);
    if (!first && !under) return null;
    var have = {};
    rack.split("").forEach(function (t) { have[t] = (have[t] || 0) + 1; });
    var missing = [];
    w.split("").forEach(function (ch, i) {
      if (under && under[i]) return;
      var tile = ch === ch.toLowerCase() ? "?" : ch;
      if (have[tile]) have[tile] -= 1; else if (tile !== "?") missing.push(ch);
    });
    return { letters: missing, blanks: have["?"] || 0 };
  }
  function slipWarnings() {
    var warnings = [], round = state && state.round;
    if (!WORD.test(word.value)) warnings.push(gettext("The word is not 2 to 15 letters: an arbiter would rule it unreadable (0)."));
    var r = ref.value.trim().toUpperCase();
    if (!r && round && round.number > 1) warnings.push(gettext("No reference: the slip is ruled without one (0, or the score less a penalty)."));
    else if (r && !REF.test(r) && !JUNCTION.test(r)) warnings.push(gettext("The reference cannot be read: it counts as none."));
    if (!score.value.trim()) warnings.push(gettext("No score announced: a valid move earns a warning."));
    else if (!/^\d{1,4}$/.test(score.value.trim())) warnings.push(gettext("The score is not a whole number."));
    var missing = lettersMissing();
    if (missing && missing.letters.length) {
      var letters = missing.letters.join(", ");
      warnings.push(missing.blanks >= missing.letters.length
        ? interpolate(gettext("Not on your rack: %(letters)s. A blank can stand for it: tap the letter above to mark it as the blank (lower case)."), {letters: letters}, true)
        : interpolate(gettext("Not on your rack: %(letters)s."), {letters: letters}, true));
    }
    return warnings;
  }
  var confirmed = false;
  function unconfirm() {
    if (!confirmed) return;
    confirmed = false;
    $("slip-warnings").hidden = true;
    $("submit").textContent = gettext("Send my slip");
  }
  function showWarnings(warnings) {
    var box = $("slip-warnings");
    box.replaceChildren.apply(box, warnings.map(function (w) { return el("li", null, w); }));
    box.hidden = false;
    $("submit").textContent = gettext("Send anyway");
    confirmed = true;
  }

  /* --- the outbox: a slip is kept until the server answered ---------------------------- */
  function readOutbox() {
    try { return JSON.parse(localStorage.getItem(OUTBOX_KEY)) || null; } catch (e) { return null; }
  }
  function writeOutbox(item) {
    try {
      if (item) localStorage.setItem(OUTBOX_KEY, JSON.stringify(item)); else localStorage.removeItem(OUTBOX_KEY);
    } catch (e) { /* private mode: keep it in memory */ }
    memoryOutbox = item;
  }
  var memoryOutbox = readOutbox();
  function outbox() { return readOutbox() || memoryOutbox; }

  function currentReceipt() {
    var item = outbox(), round = state && state.round;
    if (item && round && item.slip.round === round.number && item.state === "sent") return item.receipt;
    if (state && state.slip) return state.slip;
    return null;
  }

  var retryTimer = null, sending = false;
  $("slip-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    checkWord(); checkRef(); checkScore();
    if (!word.value.trim() || !state || !state.round) return;
    var warnings = slipWarnings();
    if (warnings.length && !confirmed) { showWarnings(warnings); return; }
    unconfirm();
    var said = score.value.trim();
    // attempt: this slip's identity, sent again with every retry, so that the server answers a
    // retry with the original receipt (never a second slip, never "deadline passed").
    var slip = { round: state.round.number, ref: ref.value.trim().toUpperCase(), word: word.value.trim(), score: /^\d{1,4}$/.test(said) ? parseInt(said, 10) : null, attempt: newAttempt() };
    writeOutbox({ slip: slip, state: "pending", attempts: 0, created: Date.now() });
    renderReceipt();
    send();
  });

  function newAttempt() {
    var bytes = new Uint8Array(16), out = "";
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(bytes);
    else for (var i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
    for (var j = 0; j < bytes.length; j++) out += (bytes[j] < 16 ? "0" : "") + bytes[j].toString(16);
    return out;
  }

  function retryNow() { if (outbox() && outbox().state === "pending") send(); }
  function flushOutbox() {
    var item = outbox();
    // A slip held back by a stopped clock goes as soon as the clock starts again.
    if (item && item.waiting === "paused" && state && state.round && !state.round.paused) {
      clearTimeout(retryTimer); retryTimer = null;
    }
    if (!sending && !retryTimer) retryNow();
  }

  function send() {
    var item = outbox();
    if (!item || item.state !== "pending" || sending) return;
    clearTimeout(retryTimer); retryTimer = null;
    sending = true;
    item.attempts += 1;
    writeOutbox(item);
    renderReceipt();
    var sentAt = Date.now();
    fetch(URLS.submit, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(item.slip),
    }).then(function (r) {
      learnClock(r.headers.get("X-Server-Time"), sentAt);
      return r.json().catch(function () { return {}; }).then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      sending = false;
      var current = outbox();
      if (!current || current.created !== item.created) return; // a newer slip took its place
      if (res.status === 201) {
        writeOutbox({ slip: item.slip, state: "sent", receipt: res.body, attempts: item.attempts, created: item.created });
        if (polling) { etag = null; schedulePoll(0); }  // the stream brings the slip itself
      } else if (res.status === 429 || res.status >= 500) {
        later(item);
      } else if (res.body.code === "round_paused") {
        item.waiting = "paused"; writeOutbox(item);
        later(item);
      } else {
        writeOutbox({ slip: item.slip, state: "refused", detail: res.body.detail || interpolate(gettext("Refused (HTTP %s)"), [res.status]), code: res.body.code, attempts: item.attempts, created: item.created });
      }
      renderReceipt(); tick();
    }).catch(function () {
      sending = false;
      later(item);
      renderReceipt();
    });
  }
  function later(item) {
    var delay = Math.min(RETRY_FIRST * Math.pow(2, Math.max(0, item.attempts - 1)), RETRY_MAX);
    var current = outbox();
    if (current) { current.nextAt = Date.now() + delay; writeOutbox(current); }
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; send(); }, delay);
  }

  function renderReceipt() {
    var box = $("receipt"), item = outbox(), round = state && state.round;
    var parts = [];
    if (item && (!round || item.slip.round === round.number || item.state === "pending")) {
      var s = item.slip;
      box.dataset.state = item.state;
      var line = el("p", "slip-line", (s.ref || "–") + " " + s.word + " · " + (s.score === null ? "–" : s.score));
      if (item.state === "pending" && item.waiting === "paused") {
        parts.push(el("h3", null, gettext("Not sent yet: the clock is stopped")));
        parts.push(line);
        parts.push(el("p", "muted", gettext("Kept on this phone: it is sent as soon as the clock starts again.")));
      } else if (item.state === "pending") {
        parts.push(el("h3", null, gettext("Not sent yet: retrying…")));
        parts.push(line);
        var wait = item.nextAt ? Math.max(0, Math.round((item.nextAt - Date.now()) / 1000)) : 0;
        parts.push(el("p", "muted", (wait ? interpolate(gettext("Kept on this phone; attempt %(attempt)s, next in %(wait)s s. Do not worry: it is sent as soon as the connection is back."), {attempt: item.attempts, wait: wait}, true) : interpolate(gettext("Kept on this phone; attempt %(attempt)s. Do not worry: it is sent as soon as the connection is back."), {attempt: item.attempts}, true))));
      } else if (item.state === "sent") {
        var rc = item.receipt;
        parts.push(el("h3", null, gettext("Received by the arbiter ✓")));
        parts.push(el("p", "slip-line", rc.ref + " " + rc.word + " · " + (rc.score === null ? "–" : rc.score)));
        parts.push(el("p", "muted", received(rc.round, rc.received_at) + (rc.replaced_previous ? " · " + gettext("replaces your earlier slip") : "")));
      } else {
        parts.push(el("h3", null, gettext("Refused")));
        parts.push(line);
        parts.push(el("p", "refusal", item.detail));
        var standing = state && state.slip && round && state.slip.round === item.slip.round ? state.slip : null;
        if (standing) {
          var kept = el("div", "standing");
          kept.appendChild(el("h3", null, gettext("Your slip that counts ✓")));
          kept.appendChild(el("p", "slip-line", standing.ref + " " + standing.word + " · " + (standing.score === null ? "–" : standing.score)));
          kept.appendChild(el("p", "muted", received(standing.round, standing.received_at)));
          parts.push(kept);
        }
      }
    } else if (state && state.slip && round && state.slip.round === round.number) {
      box.dataset.state = "sent";
      parts.push(el("h3", null, gettext("Received by the arbiter ✓")));
      parts.push(el("p", "slip-line", state.slip.ref + " " + state.slip.word + " · " + (state.slip.score === null ? "–" : state.slip.score)));
      parts.push(el("p", "muted", received(state.slip.round, state.slip.received_at)));
    }
    box.hidden = !parts.length;
    box.replaceChildren.apply(box, parts);
    if (parts.length) {
      var key = item && (!round || item.slip.round === round.number || item.state === "pending")
        ? "receipt:" + item.created + ":" + item.state + ":" + (item.waiting || "")
        : "slip:" + state.slip.id;
      // The heading, the slip and what follows (the reason of a refusal, the time received).
      sayOnce(key, parts.slice(0, 3).map(function (p) { return p.textContent.replace(/\s*[.:✓…]?\s*$/, ""); }).join(". ") + ".");
    }
  }
  // A time on the server clock, in the event's time zone (not the phone's).
  // The page's language (its <html lang>) for times and numbers: 14:05:09 either way, 12,5 in French.
  var LOCALE = document.documentElement.lang === "fr" ? "fr-FR" : "en-GB";
  function number(n) { return typeof n === "number" ? n.toLocaleString(LOCALE) : n; }
  function points(total) { return interpolate(ngettext("%s point", "%s points", total), [total]); }
  function received(round, at) {
    return interpolate(gettext("Round %(round)s · received at %(time)s (server time)"), {round: round, time: timeOf(at)}, true);
  }
  function timeOf(iso) {
    var d = new Date(iso);
    if (isNaN(d)) return iso;
    var options = { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" };
    var zone = state && state.event && state.event.time_zone;
    if (zone) options.timeZone = zone;
    try { return d.toLocaleTimeString(LOCALE, options); } catch (e) { delete options.timeZone; return d.toLocaleTimeString(LOCALE, options); }
  }

  /* --- the player's own slips: every one, its receipt time, the one that counts, its ruling */
  var SOURCE_TEXT = { phone: gettext("from this phone"), api: gettext("from the API"), arbiter: gettext("typed by an arbiter") };
  function renderHistory() {
    var card = $("history"), list = $("history-list"), slips = (state && state.slips) || [];
    card.hidden = !slips.length;
    list.replaceChildren.apply(list, slips.map(function (s) {
      var li = el("li", s.current ? "current" : "replaced");
      li.dataset.slip = String(s.id);
      var head = el("p", "slip-line", s.ref + " " + s.word + " · " + (s.score === null ? "–" : s.score));
      li.appendChild(head);
      var facts = interpolate(gettext("Round %(round)s · received at %(time)s"), {round: s.round, time: timeOf(s.received_at)}, true) + " · " + (SOURCE_TEXT[s.source] || s.source) + (s.late ? " · " + gettext("late") : "");
      li.appendChild(el("p", "muted", facts));
      li.appendChild(el("p", "status", s.current ? interpolate(gettext("Counts for round %s"), [s.round]) : gettext("Replaced by a later slip")));
      if (s.round_status === "annulled") li.appendChild(el("p", "muted", interpolate(gettext("Round %s was annulled."), [s.round])));
      if (s.ruling) {
        var r = el("p", "ruling " + (s.ruling.placed ? "good" : "bad"), interpolate(gettext("%(ruling)s: %(points)s"), {ruling: s.ruling.label, points: points(s.ruling.total)}, true));
        if (s.ruling.reason) r.appendChild(el("span", "reason", " · " + s.ruling.reason));
        r.dataset.code = s.ruling.code;
        li.appendChild(r);
      } else if (s.current && s.round_status !== "published" && s.round_status !== "annulled") {
        li.appendChild(el("p", "muted", gettext("Ruling shown once the round is published.")));
      }
      return li;
    }));
  }


  /* --- for a screen reader: what the page says without being asked, the board as text ---- */
  // A polite live region (#announce): the page adds a line to it at the round's steps (FISF 3.3:
  // the start, the warning, the end), for a receipt, a refusal, a ruling; a screen reader reads
  // each line once, after what it is saying. The last few lines are kept.
  var said = {};
  function say(text) {
    var box = $("announce");
    if (!text || !box) return;
    box.appendChild(el("p", null, text));
    while (box.children.length > 4) box.removeChild(box.firstChild);
  }
  // A part of the page as a sentence: each of its paragraphs ends with a full stop.
  function spokenOf(node) {
    var lines = node.children.length ? Array.prototype.map.call(node.children, spokenOf) : [node.textContent];
    return lines.map(function (t) { return t.trim().replace(/[.:]?$/, "."); }).join(" ");
  }
  function sayOnce(key, text) {
    if (said[key]) return;
    said[key] = true;
    say(text);
  }
  // "2 minutes 31 seconds": a time as it is said, not as it is shown.
  function spoken(seconds) {
    var s = Math.max(0, Math.ceil(seconds)), m = Math.floor(s / 60), parts = [];
    s = s % 60;
    if (m) parts.push(interpolate(ngettext("%s minute", "%s minutes", m), [m]));
    if (s || !m) parts.push(interpolate(ngettext("%s second", "%s seconds", s), [s]));
    return parts.join(" ");
  }
  // The rack as a sentence: each tile with its points, a blank said as such.
  function rackText(rack) {
    var tiles = rack.split("").map(function (t) {
      var points = valueOf(t), name = t === "?" ? gettext("blank") : t;
      return points === null ? name : name + " (" + points + ")";
    });
    return interpolate(gettext("Rack: %s."), [tiles.join(", ")]);
  }
  function secondsLeft(round) {
    if (round.paused) return round.remaining_seconds || 0;
    return round.deadline ? Math.max(0, (Date.parse(round.deadline) - serverNow()) / 1000) : null;
  }
  var wasPaused = {};
  // The round's steps, each said once: the clock started (with the rack), stopped and started
  // again, the warning (and a vibration, where the player asked for one), the end.
  function announceClock(round) {
    if (!round || round.status !== "open" || !round.rack) return;
    var n = round.number, left = secondsLeft(round);
    if (left === null) return;
    if (round.paused && !said["start:" + n]) {  // first seen with its clock stopped
      sayOnce("start:" + n, interpolate(gettext("Round %(round)s: the clock is stopped, %(time)s left."), {round: n, time: spoken(left)}, true) + " " + rackText(round.rack));
      wasPaused[n] = true;
    }
    sayOnce("start:" + n, interpolate(gettext("Round %(round)s: the clock is running, %(time)s left."), {round: n, time: spoken(left)}, true) + " " + rackText(round.rack));
    if (round.paused) {
      if (!wasPaused[n]) say(interpolate(gettext("Clock stopped: %s left."), [spoken(left)]));
      wasPaused[n] = true;
      return;
    }
    if (wasPaused[n]) say(interpolate(gettext("The clock runs again: %s left."), [spoken(left)]));
    wasPaused[n] = false;
    if (left > 0 && left <= warningSeconds() && !said["warn:" + n]) {
      sayOnce("warn:" + n, interpolate(ngettext("%s second left.", "%s seconds left.", Math.ceil(left)), [Math.ceil(left)]));
      if (settings.vibrate && navigator.vibrate) navigator.vibrate([300, 150, 300]);
    }
    if (left <= 0) sayOnce("end:" + n, gettext("Time is up: no more slips for this round."));
  }
  $("say-time").addEventListener("click", function () {
    var round = state && state.round;
    if (!round || round.status !== "open" || !round.deadline) { say(gettext("No round is open.")); return; }
    var left = secondsLeft(round);
    say(round.paused ? interpolate(gettext("Clock stopped: %s left."), [spoken(left)])
      : left > 0 ? interpolate(gettext("%s left."), [spoken(left)]) : gettext("Time is up: no more slips for this round."));
  });

  // The words on the board with their references (H4 WROTE across, 5E TREMOLOS down), and any
  // square asked for by its reference: its letter and its premium.
  var PREMIUM_TEXT = { T: gettext("triple word"), D: gettext("double word"), t: gettext("triple letter"), d: gettext("double letter") };
  function boardWords(rows) {
    var words = [], at = function (r, c) { var ch = rows[r] ? rows[r][c] : "."; return ch && ch !== "." ? ch : null; };
    [true, false].forEach(function (across) {
      for (var line = 0; line < 15; line++) {
        var start = null, word = "";
        for (var i = 0; i <= 15; i++) {
          var ch = i < 15 ? (across ? at(line, i) : at(i, line)) : null;
          if (ch) { if (start === null) start = i; word += ch; continue; }
          if (word.length >= 2) words.push({ ref: across ? ROWS[line] + (start + 1) : (line + 1) + ROWS[start], word: word, across: across });
          start = null; word = "";
        }
      }
    });
    return words;
  }
  function renderBoardText() {
    var list = $("board-words"), words = boardWords(state.board || []);
    var items = words.map(function (w) {
      var blanks = w.word.replace(/[A-Z]/g, "");
      var text = w.ref + " " + w.word.toUpperCase() + ", " + (w.across ? gettext("across") : gettext("down"));
      if (blanks) text += " (" + interpolate(gettext("blank: %s"), [blanks.toUpperCase().split("").join(", ")]) + ")";
      return el("li", null, text);
    });
    if (!items.length) items = [el("li", null, gettext("No word on the board yet."))];
    list.replaceChildren.apply(list, items);
    if ($("square").value) saySquare();
  }
  function saySquare() {
    var v = $("square").value.trim().toUpperCase(), out = $("square-say");
    var m = /^([A-O])(1[0-5]|[1-9])$/.exec(v), n = /^(1[0-5]|[1-9])([A-O])$/.exec(v);
    if (!m && !n) { out.textContent = v ? gettext("A square is a row A to O and a column 1 to 15: H8.") : ""; return; }
    var r = ROWS.indexOf(m ? m[1] : n[2]), c = parseInt(m ? m[2] : n[1], 10) - 1;
    var rows = (state && state.board) || [], prem = (state && state.premiums) || [];
    var ch = rows[r] ? rows[r][c] : ".", p = prem[r] ? prem[r][c] : ".";
    var parts = [];
    if (ch && ch !== ".") parts.push(ch === ch.toLowerCase() ? interpolate(gettext("%s, a blank"), [ch.toUpperCase()]) : ch);
    else parts.push(gettext("empty"));
    if (PREMIUM_TEXT[p]) parts.push(PREMIUM_TEXT[p]);
    out.textContent = interpolate(gettext("%(square)s: %(what)s."), {square: ROWS[r] + (c + 1), what: parts.join(", ")}, true);
  }
  $("square").addEventListener("input", saySquare);

  /* --- in the room: large text, a vibration at the warning, the screen kept on ----------- */
  // Kept on this phone (localStorage), as the outbox is: a reload keeps them.
  var SETTINGS_KEY = "dsplay:settings";
  var settings = (function () {
    try { return JSON.parse(localStorage.getItem(SETTINGS_KEY)) || {}; } catch (e) { return {}; }
  })();
  function applySettings() {
    document.documentElement.classList.toggle("large-text", Boolean(settings.large));
    clearOfTheCard();
    $("large-text").checked = Boolean(settings.large);
    $("vibrate").checked = Boolean(settings.vibrate);
    $("keep-awake").checked = settings.awake !== false;
  }
  [["large-text", "large"], ["vibrate", "vibrate"], ["keep-awake", "awake"]].forEach(function (pair) {
    $(pair[0]).addEventListener("change", function () {
      settings[pair[1]] = $(pair[0]).checked;
      try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch (e) { /* private mode */ }
      applySettings();
      keepAwake();
    });
  });
  applySettings();
  // The screen stays on while a round is open (the Wake Lock API, where the browser has it);
  // the browser lets it go when the page is hidden, and the page asks again when it is back.
  var wakeLock = null, wakeAsking = false;
  function awakeNote(kind) {
    root.dataset.awake = kind;
    $("awake-note").textContent = kind === "on" ? gettext("The screen stays on until the round ends.")
      : kind === "unavailable" ? gettext("This browser cannot keep the screen on: touch it now and then.") : "";
  }
  function keepAwake() {
    var round = state && state.round;
    var want = settings.awake !== false && !!round && round.status === "open" && document.visibilityState === "visible";
    if (!want) {
      if (wakeLock) { wakeLock.release().catch(function () {}); wakeLock = null; }
      if (root.dataset.awake === "on") awakeNote("off");
      return;
    }
    if (wakeLock || wakeAsking) return;
    if (!navigator.wakeLock) { awakeNote("unavailable"); return; }
    wakeAsking = true;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeAsking = false;
      wakeLock = lock;
      awakeNote("on");
      lock.addEventListener("release", function () { if (wakeLock === lock) { wakeLock = null; awakeNote("off"); } });
    }).catch(function () { wakeAsking = false; awakeNote("unavailable"); });
  }
  document.addEventListener("visibilitychange", keepAwake);
  // The round's card stays at the top while the page scrolls: what takes the focus is scrolled
  // into view below it, never under it (WCAG 2.4.11).
  function clearOfTheCard() {
    var card = document.querySelector(".round-card");
    if (card) document.documentElement.style.scrollPaddingTop = Math.ceil(card.getBoundingClientRect().height + 8) + "px";
  }
  window.addEventListener("resize", clearOfTheCard);

  setInterval(function () { if (state) tick(); if (outbox() && outbox().state === "pending") renderReceipt(); }, 250);
  if (polling) poll(); else connect();
})();
