// Training (templates/training/attempt.html): the round's countdown on the server's remaining
// time; when it reaches zero the page tells the server (which checks it on its own clock).
(function () {
  "use strict";
  var root = document.getElementById("training");
  if (!root || root.dataset.state !== "playing" || root.dataset.remaining === "") return;
  var left = parseFloat(root.dataset.remaining), warn = parseFloat(root.dataset.warning) || 0;
  var start = Date.now(), sent = false, clock = document.getElementById("clock");
  var word = document.getElementById("word");
  if (word) word.focus({ preventScroll: true });
  function tick() {
    var s = Math.max(0, Math.ceil(left - (Date.now() - start) / 1000));
    clock.textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    clock.className = "clock" + (s === 0 ? " stop" : s <= warn ? " warn" : "");
    if (s === 0 && !sent) {
      sent = true;
      // a moment after zero, so that the server's clock has passed it too
      setTimeout(function () { document.getElementById("time-form").submit(); }, 600);
    }
  }
  tick();
  setInterval(tick, 250);
})();
