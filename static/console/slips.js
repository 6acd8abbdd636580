// Paper slip entry at keyboard speed: Enter moves table -> word -> ref -> score, and Enter in
// the score records the slip (the page comes back on the table number). A table number typed
// shows the player and their slips of the round beside the form; when the player already has
// a slip (and this is a first entry), the entry must say what it is: c correction, m multiple.
(function () {
  "use strict";
  var form = document.getElementById("slip-entry");
  if (!form) return;
  var url = form.dataset.tableUrl, second = form.dataset.second === "1";
  var order = ["table", "word", "ref", "score"];
  var body = document.getElementById("table-slips-body");
  var existing = document.getElementById("existing");
  var asked = null;

  function field(name) { return form.querySelector('[name="' + name + '"]'); }

  function choice(on) {
    if (!existing || second) return;
    existing.hidden = !on; existing.disabled = !on;
    if (!on) existing.querySelectorAll("input").forEach(function (i) { i.checked = false; });
  }

  function line(s) {
    var li = document.createElement("li");
    li.className = s.current ? "counts" : "replaced";
    li.textContent = interpolate(gettext("%(when)s · %(source)s: %(slip)s"), {
      when: s.at, source: s.source + (s.by ? " (" + s.by + ")" : ""),
      slip: (s.ref || "-") + " " + s.word + " " + (s.score === null ? "-" : s.score)
    }, true) +
      (s.late ? " · " + gettext("late") : "") + (s.current ? " · " + gettext("counts") : " · " + gettext("replaced"));
    return li;
  }

  function lookup() {
    var table = field("table").value.trim();
    if (table === asked || table === "") return;  // nothing typed: the panel stays as it is
    asked = table;
    if (!/^[0-9]{1,9}$/.test(table)) { body.textContent = gettext("Type a table number."); choice(false); return; }
    fetch(url + "?table=" + table, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, data: d }; }); })
      .then(function (answer) {
        if (field("table").value.trim() !== table) return;  // typed on since
        body.textContent = "";
        if (!answer.ok) { body.textContent = answer.data.detail; body.className = "flag"; choice(false); return; }
        body.className = "";
        var d = answer.data, head = document.createElement("p");
        head.innerHTML = "";
        var strong = document.createElement("strong");
        strong.textContent = interpolate(gettext("Table %s"), [d.table]) + " · " + d.name;
        head.appendChild(strong);
        body.appendChild(head);
        if (!d.slips.length) {
          var none = document.createElement("p");
          none.className = "muted"; none.textContent = gettext("No slip yet this round.");
          body.appendChild(none);
        } else {
          var ul = document.createElement("ul");
          d.slips.forEach(function (s) { ul.appendChild(line(s)); });
          body.appendChild(ul);
        }
        var current = d.slips.some(function (s) { return s.current; });
        choice(current);
        if (existing) existing.querySelectorAll("[data-table]").forEach(function (e) { e.textContent = d.table; });
      })
      .catch(function () { body.textContent = gettext("Could not look the table up (the entry still works)."); });
  }

  field("table").addEventListener("change", lookup);
  field("table").addEventListener("blur", lookup);
  if (field("table").value) lookup();

  form.addEventListener("keydown", function (ev) {
    var name = ev.target.name;
    // c or m says what the entry is, on its choice or in the score field (no digit there):
    // score, c, Enter records a correction.
    if (existing && !existing.disabled && (ev.key === "c" || ev.key === "m") && (ev.target.type === "radio" || name === "score")) {
      ev.preventDefault();
      existing.querySelector('input[value="' + (ev.key === "c" ? "correction" : "multiple") + '"]').checked = true;
      return;
    }
    if (ev.key !== "Enter" || ev.target.tagName === "BUTTON") return;
    var i = order.indexOf(name);
    if (name === "table") lookup();
    if (i >= 0 && i < order.length - 1) {
      ev.preventDefault();
      field(order[i + 1]).focus();
      field(order[i + 1]).select();
      return;
    }
    if (existing && !existing.disabled && !existing.querySelector("input:checked")) {
      ev.preventDefault();  // say what this entry is first: c or m, then Enter
      existing.querySelector("input").focus();
      return;
    }
    ev.preventDefault();
    form.requestSubmit();
  });
})();
