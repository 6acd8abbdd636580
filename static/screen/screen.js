// The projection screen follows the running game by itself: board, rack, a large countdown
// (warning colour from the event's warning time), then the top, how many found it and the
// first places. Polls the server; the countdown runs on the server's remaining time.
(function () {
  "use strict";
  var root = document.getElementById("screen");
  var url = root.dataset.stateUrl;
  var state = null, fetchedAt = 0;
  var ROWS = "ABCDEFGHIJKLMNO";
  function el(id) { return document.getElementById(id); }

  function drawBoard(board, premiums) {
    var t = el("board"), html = "<tr><th></th>";
    for (var c = 1; c <= 15; c++) html += "<th>" + c + "</th>";
    html += "</tr>";
    for (var r = 0; r < 15; r++) {
      html += "<tr><th>" + ROWS[r] + "</th>";
      for (var c2 = 0; c2 < 15; c2++) {
        var ch = board ? board[r][c2] : ".";
        var cls = "sq " + (premiums ? premiums[r][c2] : "");
        if (ch !== ".") cls += " tile" + (ch === ch.toLowerCase() ? " blank" : "");
        html += '<td class="' + cls + '">' + (ch === "." ? "" : ch.toUpperCase()) + "</td>";
      }
      html += "</tr>";
    }
    t.innerHTML = html;
  }

  function tick() {
    var clock = el("clock");
    if (!state || state.remaining === null || state.status !== "open") { clock.textContent = state && state.status === "closed" ? "Time!" : ""; clock.className = "clock"; return; }
    var left = state.paused ? state.remaining : Math.max(0, state.remaining - (Date.now() - fetchedAt) / 1000);
    var s = Math.ceil(left);
    clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    clock.className = "clock" + (s <= state.warning_seconds ? " warn" : "") + (state.paused ? " paused" : "");
  }

  function render(data) {
    el("title").textContent = data.event;
    if (!data.game) { el("sub").textContent = "Waiting for the first game"; return; }
    el("sub").textContent = "Game " + data.game + (data.round ? " · round " + data.round : "") + (data.finished ? " · finished" : "");
    drawBoard(data.board, data.premiums);
    el("rack").textContent = data.status && data.status !== "published" ? data.rack.split("").join(" ") : "";
    var top = el("top");
    if (data.top) {
      top.hidden = false;
      top.innerHTML = '<span class="label">Top</span> <strong>' + data.top.ref + " " + data.top.word + "</strong> <span class=\"score\">" + data.top.score + "</span><br><span class=\"found\">found by " + data.top.found + "</span>";
    } else { top.hidden = true; }
    var list = el("standings");
    list.innerHTML = "";
    data.standings.forEach(function (row) {
      var li = document.createElement("li");
      li.textContent = row.rank + ". " + row.name + " — " + row.total + (row.gap ? " (" + row.gap + ")" : "");
      list.appendChild(li);
    });
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
  setInterval(poll, 2000);
  setInterval(tick, 250);
})();
