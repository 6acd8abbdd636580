// The projection screen follows its game (or the event's current game) by itself: board,
// rack, a large countdown (warning colour from the event's warning time, STOP at the
// deadline), the last top and how many found it, "End of game", and the standings, a page
// at a time when they do not fit. The server pushes "changed" (web.live) and the screen reads
// its state again (polling where the stream cannot be used); the countdown runs on the
// server's remaining time.
(function () {
  "use strict";
  var root = document.getElementById("screen");
  var url = root.dataset.stateUrl;
  var pageSeconds = parseFloat(root.dataset.pageSeconds) || 8;
  var state = null, fetchedAt = 0, boardKey = null, standingsKey = null;
  var page = 0, pages = 1, perPage = 0;
  var ROWS = "ABCDEFGHIJKLMNO";
  function el(id) { return document.getElementById(id); }
  function make(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // A tile's points in the game's tile set (none shown for a blank on the board).
  function points(t) {
    var values = state && state.values;
    return values && values[t] !== undefined ? String(values[t]) : "";
  }

  function drawBoard(board, premiums) {
    var key = JSON.stringify([board, premiums, state && state.values]);
    if (key === boardKey) return;
    boardKey = key;
    var t = el("board"), html = "<tr><th></th>";
    for (var c = 1; c <= 15; c++) html += "<th>" + c + "</th>";
    html += "</tr>";
    for (var r = 0; r < 15; r++) {
      html += "<tr><th>" + ROWS[r] + "</th>";
      for (var c2 = 0; c2 < 15; c2++) {
        var ch = board ? board[r][c2] : ".";
        var cls = "sq " + (premiums ? premiums[r][c2] : "");
        if (ch !== ".") cls += " tile" + (ch === ch.toLowerCase() ? " blank" : "");
        var value = ch !== "." && ch !== ch.toLowerCase() ? points(ch) : "";
        html += '<td class="' + cls + '">' + (ch === "." ? "" : ch.toUpperCase()) + (value ? "<sub>" + value + "</sub>" : "") + "</td>";
      }
      html += "</tr>";
    }
    t.innerHTML = html;
  }

  function clockText(s) { return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }

  function tick() {
    var clock = el("clock");
    el("clock-note").textContent = state && state.game && state.status === "open" && state.paused ? gettext("Clock stopped") : "";
    if (!state || !state.game) { clock.textContent = ""; clock.className = "clock"; return; }
    if (state.finished) { clock.textContent = gettext("End of game"); clock.className = "clock end"; return; }
    var status = state.status;
    if (status === "closed" || status === "scored") { clock.textContent = gettext("STOP"); clock.className = "clock stop"; return; }
    if (status !== "open" || state.remaining === null) { clock.textContent = ""; clock.className = "clock"; return; }
    var left = state.paused ? state.remaining : Math.max(0, state.remaining - (Date.now() - fetchedAt) / 1000);
    var s = Math.ceil(left);
    if (s <= 0 && !state.paused) { clock.textContent = gettext("STOP"); clock.className = "clock stop"; return; }
    clock.textContent = clockText(s);
    clock.className = "clock" + (s <= state.warning_seconds ? " warn" : "") + (state.paused ? " paused" : "");
  }

  function renderRack(data) {
    var rack = el("rack");
    var shown = data.status && data.status !== "published" && !data.finished ? data.rack : "";
    if (rack.dataset.rack === shown && rack.dataset.points) return;
    rack.dataset.points = data.values ? "1" : "";
    rack.dataset.rack = shown;
    rack.replaceChildren.apply(rack, shown.split("").map(function (t) {
      var tile = make("span", t === "?" ? "blank" : "", t);
      var value = points(t);
      if (value) tile.appendChild(make("sub", null, value));
      return tile;
    }));
  }

  function renderTop(data) {
    var top = el("top");
    if (!data.top) { top.hidden = true; return; }
    top.hidden = false;
    var label = make("span", "label", interpolate(gettext("Round %s top"), [data.top.round]));
    var move = make("strong", null, data.top.ref + " " + data.top.word);
    var score = make("span", "score", " " + data.top.score);
    var found = make("span", "found", " · " + interpolate(gettext("found by %s"), [data.top.found]));
    top.replaceChildren(label, move, score, found);
  }

  // The standings: every row is drawn, then as many as fit are shown, a page at a time.
  function renderStandings(data) {
    var box = el("standings-box"), list = el("standings");
    var key = JSON.stringify(data.standings);
    box.hidden = !data.standings.length;
    var title = data.simultaneous ? gettext("One ranking over every room") : data.finished ? gettext("Final standings") : interpolate(ngettext("Standings after %s round", "Standings after %s rounds", data.standings_rounds), [data.standings_rounds]);
    if (data.sudden_death) title += " · " + interpolate(ngettext("%s player still in", "%s players still in", data.still_in), [data.still_in]);
    el("standings-title").textContent = title + (data.filter ? " · " + data.filter : "");
    if (key === standingsKey) return;
    standingsKey = key;
    list.replaceChildren.apply(list, data.standings.map(function (row) {
      var li = make("li");
      var rank = make("span", "rank", row.rank + ".");
      if (data.filter) rank.appendChild(make("span", "overall", " (" + row.overall_rank + ")"));
      li.appendChild(rank);
      var name = make("span", "name", row.name);
      if (data.simultaneous && row.room) name.appendChild(make("span", "room", " · " + row.room));
      li.appendChild(name);
      li.appendChild(make("span", "total", String(row.total)));
      li.appendChild(make("span", "gap", row.gap ? String(row.gap) : ""));
      if (row.eliminated_at) {  // mort subite: out at that round
        li.className = "eliminated";
        li.appendChild(make("span", "out", interpolate(gettext("out at round %s"), [row.eliminated_at])));
      }
      return li;
    }));
    paginate();
  }

  function paginate() {
    var list = el("standings"), items = list.children;
    if (!items.length) { pages = 1; page = 0; el("standings-page").textContent = ""; return; }
    for (var i = 0; i < items.length; i++) items[i].hidden = i > 0;
    var row = items[0].getBoundingClientRect().height || 1;
    perPage = Math.max(1, Math.floor((list.getBoundingClientRect().height + 0.01) / row));
    pages = Math.ceil(items.length / perPage);
    if (page >= pages) page = 0;
    showPage();
  }

  function showPage() {
    var items = el("standings").children;
    var first = page * perPage, last = Math.min(items.length, first + perPage);
    for (var i = 0; i < items.length; i++) items[i].hidden = i < first || i >= last;
    root.dataset.standingsPage = String(page + 1);
    root.dataset.standingsPages = String(pages);
    el("standings-page").textContent = pages > 1 ? interpolate(gettext("%(first)s–%(last)s of %(count)s"), {first: first + 1, last: last, count: items.length}, true) : "";
  }

  function render(data) {
    el("title").textContent = data.event;
    el("lexicon").textContent = data.lexicon ? data.lexicon.label : "";
    if (!data.game) { el("sub").textContent = gettext("Waiting for the first game"); return; }
    el("sub").textContent = interpolate(gettext("Game %s"), [data.game]) + (data.formula_label ? " · " + data.formula_label : "") + (data.round ? " · " + interpolate(gettext("round %s"), [data.round]) : "") +
      (data.finished ? " · " + (data.end_reason || gettext("finished")) : "");
    drawBoard(data.board, data.premiums);
    renderRack(data);
    renderTop(data);
    renderStandings(data);
  }

  function poll() {
    fetch(url, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (data) {
      if (!data) return;
      state = data; fetchedAt = Date.now();
      render(data); tick();
    }).catch(function () {});
  }
  drawBoard(null, null);
  poll();
  // Pushed by the server when anything changes (web.live); polled every 2 s where it cannot be,
  // and every 30 s anyway (a safety net: the countdown runs on the server's time).
  window.dsFollow(root.dataset.liveUrl, poll);
  setInterval(tick, 250);
  setInterval(function () { if (pages > 1) { page = (page + 1) % pages; showPage(); } }, pageSeconds * 1000);
  // The room for the standings changes with the rack, the top and the window: count again.
  new ResizeObserver(function () { paginate(); }).observe(el("standings"));
})();
