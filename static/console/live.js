/* A staff page that follows its event live (web.live): the server's stream says "changed",
 * and the page reads itself again, putting back the parts marked data-live-part (by id) so
 * that a form being filled in is left alone. Where the stream cannot be used, the page reads
 * itself again every data-live-every seconds (no <meta http-equiv="refresh">: a page that
 * reloads under its reader fails WCAG 2.2.1, and would lose the focus and a form's input).
 * The same helper drives the projection screen and the game console: window.dsLive(url,
 * onChange). */
(function () {
  "use strict";
  // Opens the stream at url; calls onChange() at each "changed" (at most once at a time).
  // Answers null when the browser has no EventSource, else {live()}: whether the stream is
  // connected now. While it is not (refused, lost, reconnecting with its backoff), the caller
  // polls at its own pace: a page is never left waiting on a stream that is not there.
  window.dsLive = function (url, onChange, onLost) {
    if (!window.EventSource || !url) return null;
    var failures = 0, timer = null, connected = false;
    function open() {
      var stream = new EventSource(url);
      stream.onopen = function () { connected = true; };
      stream.addEventListener("changed", function () { connected = true; failures = 0; onChange(); });
      stream.onerror = function () {
        stream.close();
        connected = false;
        failures += 1;
        if (onLost) onLost();
        var wait = Math.min(1000 * Math.pow(2, failures - 1), 30000);
        clearTimeout(timer);
        timer = setTimeout(open, wait / 2 + Math.random() * wait / 2);
      };
    }
    open();
    return { live: function () { return connected; } };
  };

  // Calls poll() every 2 s while the stream is not connected, and every 30 s anyway (a safety
  // net: the countdowns run on the server's time). The screen and the game console use it.
  window.dsFollow = function (url, poll) {
    var stream = window.dsLive && window.dsLive(url, poll, poll), last = Date.now();
    setInterval(function () {
      if (stream && stream.live() && Date.now() - last < 30000) return;
      last = Date.now();
      poll();
    }, 2000);
  };

  var root = document.querySelector("[data-live-url][data-live-parts]");
  if (!root) return;
  var busy = false, again = false;
  function reread() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var page = new DOMParser().parseFromString(html, "text/html");
        root.dataset.liveParts.split(" ").forEach(function (id) {
          var fresh = page.getElementById(id), here = document.getElementById(id);
          if (fresh && here) here.replaceWith(fresh);
        });
        root.dataset.liveUpdated = String(Date.now());
      })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; reread(); } });
  }
  var stream = window.dsLive(root.dataset.liveUrl, reread);
  var every = Number(root.dataset.liveEvery || 0) * 1000;
  if (every) setInterval(function () { if (!stream || !stream.live()) reread(); }, every);
})();
