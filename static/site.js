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
