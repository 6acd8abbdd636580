// Every page: a form marked data-confirm asks before it is sent (Close now, Publish, Revoke);
// cancelling keeps the page as it is.
document.addEventListener("submit", function (ev) {
  "use strict";
  var form = ev.target;
  var question = form && form.dataset ? form.dataset.confirm : null;
  if (question && !window.confirm(question)) {
    ev.preventDefault();
    ev.stopImmediatePropagation();
  }
}, true);

// Every page: a panel that scrolls (a wide table on a phone, a long list) can be reached and
// scrolled with the keyboard (WCAG 2.1.1): one with nothing focusable inside takes the focus
// itself, named by its heading where it has one. Templates mark the panels they know of.
(function () {
  "use strict";
  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  function scrolls(e) {
    var style = window.getComputedStyle(e);
    return (/(auto|scroll)/.test(style.overflowX) && e.scrollWidth > e.clientWidth + 1)
      || (/(auto|scroll)/.test(style.overflowY) && e.scrollHeight > e.clientHeight + 1);
  }
  function reachable() {
    var main = document.querySelector("main");
    if (!main) return;
    var boxes = [main].concat(Array.prototype.slice.call(main.querySelectorAll("div, section, ul, ol")));
    boxes.forEach(function (e) {
      if (e.hasAttribute("tabindex") || !scrolls(e) || e.querySelector(FOCUSABLE)) return;
      e.tabIndex = 0;
      var heading = e.querySelector("h1, h2, h3");
      if (heading && /^(DIV|SECTION)$/.test(e.tagName) && !e.getAttribute("role")) {
        if (!heading.id) heading.id = "scrolled-" + Math.random().toString(36).slice(2, 9);
        e.setAttribute("role", "region");
        e.setAttribute("aria-labelledby", heading.id);
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", reachable);
  else reachable();
  window.addEventListener("resize", reachable);
})();
