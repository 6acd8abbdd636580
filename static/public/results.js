// The audience's page: its stream sends the whole state when it connects and at each change
// (the same bytes to every viewer, made once on the server); where the stream cannot be used
// (refused, lost, reconnecting), the page reads state.json every 2 s (304 while unchanged), and
// every 30 s anyway. The clock counts down from the deadline on the server's time.
(function () {
  "use strict";
  var root = document.getElementById("public");
  var url = root.dataset.stateUrl, state = null, offset = 0, etag = null, boardKey = null;
  var ROWS = "ABCDEFGHIJKLMNO";
  function el(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function points(t) { return state && state.values && state.values[t] !== undefined ? String(state.values[t]) : ""; }
  function drawBoard() {
    var board = state.board, premiums = state.premiums, key = JSON.stringify([board, premiums]);
    if (key === boardKey) return;
    boardKey = key;
    var t = el("board"), html = "<tr><th></th>";
    for (var c = 1; c <= 15; c++) html += "<th>" + c + "</th>";
    html += "</tr>";
    for (var r = 0; r < 15; r++) {
      html += "<tr><th>" + ROWS[r] + "</th>";
      for (var k = 0; k < 15; k++) {
        var ch = board ? board[r][k] : ".", cls = "sq " + (premiums ? premiums[r][k] : "");
        if (ch !== ".") cls += " tile" + (ch === ch.toLowerCase() ? " blank" : "");
        html += '<td class="' + cls + '">' + (ch === "." ? "" : ch.toUpperCase()) + "</td>";
      }
      html += "</tr>";
    }
    t.innerHTML = html;
  }
  function rows(tbody, list, cells) {
    tbody.replaceChildren.apply(tbody, list.map(function (item) {
      var tr = make("tr");
      cells(item).forEach(function (c) { tr.appendChild(make("td", c[1], c[0])); });
      return tr;
    }));
  }
  function render() {
    var s = state;
    if (!s.game) { el("sub").textContent = gettext("Waiting for the first game"); return; }
    el("sub").textContent = interpolate(gettext("Game %s"), [s.game]) + (s.round ? " · " + interpolate(gettext("round %s"), [s.round]) : "") + (s.finished ? " · " + gettext("finished") : "");
    drawBoard();
    var rack = el("rack");
    rack.replaceChildren.apply(rack, (s.rack || "").split("").filter(Boolean).map(function (t) {
      var tile = make("span", t === "?" ? "blank" : "", t), v = points(t);
      if (v && t !== "?") tile.appendChild(make("sub", null, v));
      return tile;
    }));
    el("standings-title").textContent = s.finished ? gettext("Final standings") : interpolate(ngettext("Standings after %s round", "Standings after %s rounds", s.standings_rounds), [s.standings_rounds]);
    function standing(r) { return [[r.rank, "num"], [r.name, "name"], [r.total, "num"], [r.gap ? r.gap : "", "num"], [r.top_pct_text, "num"]]; }
    rows(el("standings").tBodies[0], s.standings, standing);
    el("event-standings-box").hidden = !s.event_standings.length;
    rows(el("event-standings").tBodies[0], s.event_standings, standing);
    rows(el("tops").tBodies[0], s.tops.slice().reverse(), function (t) {
      return [[t.round, "num"], [t.rack, "mono"], [t.ref + " " + t.word, "mono"], [t.score, "num"], [t.cumulative, "num"], [t.found, "num"], [t.solo, "name"]];
    });
  }
  function tick() {
    var clock = el("clock"), note = el("clock-note");
    if (!state || !state.game) { clock.textContent = ""; return; }
    note.textContent = state.paused_remaining !== null && state.paused_remaining !== undefined ? gettext("Clock stopped") : "";
    if (state.finished) { clock.textContent = gettext("End of game"); clock.className = "clock"; return; }
    if (state.status === "closed" || state.status === "scored") { clock.textContent = gettext("STOP"); clock.className = "clock stop"; return; }
    if (state.status !== "open" || !state.deadline) { clock.textContent = ""; clock.className = "clock"; return; }
    var left = state.paused_remaining !== null && state.paused_remaining !== undefined ? state.paused_remaining
      : (Date.parse(state.deadline) - (Date.now() + offset)) / 1000;
    var sec = Math.max(0, Math.ceil(left));
    clock.textContent = sec <= 0 ? gettext("STOP") : Math.floor(sec / 60) + ":" + String(sec % 60).padStart(2, "0");
    clock.className = "clock" + (sec <= 0 ? " stop" : sec <= state.warning_seconds ? " warn" : "");
  }
  var busy = false;
  function poll() {
    if (busy) return;
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers }).then(function (r) {
      if (r.status === 304 || !r.ok) return null;
      etag = r.headers.get("ETag");
      return r.json();
    }).then(function (data) {
      if (data) apply(data);
    }).catch(function () {}).then(function () { busy = false; });
  }
  function apply(data) {
    state = data;
    etag = '"' + data.version + '"';
    offset = Date.parse(data.server_time) - Date.now();
    render(); tick();
    root.dataset.version = data.version;
  }
  var live = false, last = 0;
  if (window.EventSource) {
    var stream = new EventSource(root.dataset.liveUrl);
    stream.addEventListener("state", function (e) {
      live = true; last = Date.now();
      try { apply(JSON.parse(e.data)); } catch (err) { poll(); }
    });
    stream.onerror = function () { live = false; };  // the browser connects again by itself
    stream.addEventListener("end", function () { stream.close(); live = false; });
  }
  // the stream's first frame is the state; read it here only if that frame does not come
  setTimeout(function () { if (!state) poll(); }, window.EventSource ? 1500 : 0);
  setInterval(function () {
    if (live && Date.now() - last < 30000) return;
    last = Date.now();
    poll();
  }, 2000);
  setInterval(tick, 250);
})();
