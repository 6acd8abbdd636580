// The console follows its round: the countdown runs on the server's remaining time, the
// slips count and the missing list refresh, and the page reloads when the round's status
// changes (opened, closed, scored, published): pushed by the server (web.live), polled where
// the stream cannot be used. The countdown takes the warning
// colour at the event's warning time. Keyboard shortcuts: a key outside a text box submits
// the form (or follows the link) marked data-key with it; the forms that ask still ask.
(function () {
  "use strict";
  var root = document.getElementById("console");
  if (!root) return;
  var warning = parseFloat(root.dataset.warning);
  if (isNaN(warning)) warning = 30;
  var url = root.dataset.stateUrl, status = root.dataset.status, round = root.dataset.round;
  var remaining = root.dataset.remaining === "" ? null : parseFloat(root.dataset.remaining);
  var paused = root.dataset.paused === "1", fetchedAt = Date.now();
  // A form sent from this page (Open, Close now, Publish...) brings its own answer, with its
  // message: a poll answered meanwhile must not reload the page over it (the reload would
  // cancel the form's answer, and the director would lose its message). If the answer never
  // comes (the network), the page follows again after 15 s.
  var sentAt = 0;
  document.addEventListener("submit", function (ev) { if (!ev.defaultPrevented) sentAt = Date.now(); });
  var clock = document.getElementById("clock");

  function show() {
    if (!clock || remaining === null) return;
    var left = paused ? remaining : Math.max(0, remaining - (Date.now() - fetchedAt) / 1000);
    var s = Math.ceil(left);
    clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    clock.classList.toggle("warn", s <= warning);
  }

  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || Date.now() - sentAt < 15000) return;
        if (String(data.round || "") !== round || (data.status || "") !== status || data.paused !== paused) {
          window.location.reload();
          return;
        }
        remaining = data.remaining; fetchedAt = Date.now();
        var slips = document.getElementById("slips");
        if (slips) slips.textContent = data.slips;
        var missing = document.getElementById("missing");
        if (missing) {
          missing.innerHTML = "";
          data.missing.forEach(function (p) {
            var li = document.createElement("li");
            li.textContent = (p.table || "-") + " · " + p.name;
            missing.appendChild(li);
          });
          document.getElementById("missing-count").textContent = data.missing.length;
        }
      })
      .catch(function () {});
  }
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
    if (ev.key === "?") {
      var keys = document.getElementById("keys");
      if (keys) keys.open = !keys.open;
      return;
    }
    var target = document.querySelector('[data-key="' + ev.key.toLowerCase() + '"]');
    if (!target || ev.key.length !== 1) return;
    ev.preventDefault();
    if (target.tagName === "A") { target.click(); return; }
    var focus = target.dataset.keyFocus && target.querySelector('[name="' + target.dataset.keyFocus + '"]');
    if (focus) { focus.focus(); return; }  // a rack typed from the bag: type it, then Enter
    target.requestSubmit();  // a submit event: the confirm of a form that asks still runs
  });

  setInterval(show, 250);
  // Pushed by the server when anything changes (web.live: a slip, a round's tops, an action);
  // polled every 2 s where the stream cannot be used, and every 30 s anyway.
  window.dsFollow(root.dataset.liveUrl, poll);
  show();
})();

// The game's standings: typing a name or a table keeps the rows that match and scrolls the
// first into view (every player is in the list; the panel scrolls).
(function () {
  var find = document.getElementById("standings-find");
  if (!find) return;
  find.addEventListener("input", function () {
    var wanted = find.value.trim().toLowerCase();
    var rows = document.querySelectorAll("#console-standings tbody tr");
    var first = null;
    rows.forEach(function (row) {
      var match = !wanted || row.dataset.find.indexOf(wanted) !== -1;
      row.hidden = !match;
      row.classList.toggle("found", Boolean(wanted) && match);
      if (match && wanted && !first) first = row;
    });
    if (first) first.scrollIntoView({ block: "nearest" });
  });
})();
