/* Owns what the player was filling in. A live refresh keeps it: fields of the same form
   (same action, same hidden fields) get their values back, the focus returns, the
   sections the player opened or closed stay so, and a button armed for a second tap stays
   armed for the rest of its time. So does a refused action's answer (the table unchanged
   or moved on, the player's choices still to be corrected), and a reload at the same
   table version. A form sent has used up what was typed in it. Secrets aside: what is a
   secret is static/app/secrets.js's to say. */
(function () {
  "use strict";
  var companion = window.companion;
  var view = companion.view;
  var requester = companion.requester;

  var kept = null;
  function formKey(field) {
    return field.form ? keyOf(field.form) : null;
  }
  function keyOf(form) {
    // A form is known by where it posts and what it does: its hidden fields (its type,
    // whom it questions, which policeman) but the page's own (csrf, version and the
    // form's key, new with each version), and the actions its buttons name (a kill and
    // a move both ask for a circle).
    var hidden = Array.prototype.filter.call(form.querySelectorAll("input[type=hidden]"),
      function (field) {
        return field.name !== "csrf" && field.name !== "version" && field.name !== "key";
      });
    var buttons = Array.prototype.map.call(
      form.querySelectorAll("button[name=type]"), function (button) { return button.value; });
    return (form.getAttribute("action") || "") + "|" +
      hidden.map(function (field) { return field.name + "=" + field.value; }).sort().join("&") +
      "|" + buttons.sort().join(",");
  }
  // A section is known by the form it holds (its title may change: "· in prison"),
  // or by its title.
  function sectionKeys(summary) {
    var form = summary.parentNode.querySelector("form");
    return [summary.textContent.trim()].concat(form ? ["form\u0000" + keyOf(form)] : []);
  }
  // The same button: in the same form, sending the same, saying the same. One marked
  // data-disarmed-by-change acts on the table's latest state (undo): a change disarms it.
  function buttonKey(button, label) {
    return [button.form ? keyOf(button.form) : "", button.name, button.value, label,
            button.dataset.confirm].join("\u0000");
  }
  var sent = {};  // forms the player sent: what was typed there is used up
  function keepable(field) {
    return field.name && !sent[formKey(field)] && field.type !== "hidden" && field.type !== "submit" &&
      field.type !== "button" && field.type !== "file" && formKey(field) !== null;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var current = view();
    var elt = event.detail.elt;
    if (current && elt !== current && elt.tagName === "FORM") { sent[keyOf(elt)] = true; }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var current = view();
    var refresh = requester(event) === current;
    kept = null;
    if (!current || !(refresh || refused(event))) { return; }
    if (!refresh) { sent = {}; }  // a refused action used up nothing the player typed
    kept = snapshot(current, refresh);
  });
  // What the player has chosen on the page. A refresh keeps the secrets he has open and
  // the buttons he armed; otherwise (a refused action, a reload) the page comes back at
  // rest: a secret closes once an action is sent, even one refused, and what was typed
  // into one is not put back, so the page is the same whatever was typed.
  function snapshot(current, refresh) {
    var taken = { fields: [], focus: null, open: {}, armed: {} };
    if (refresh) {
      current.querySelectorAll("button[data-confirm].armed:not([data-disarmed-by-change])")
        .forEach(function (button) {
          taken.armed[buttonKey(button, button.dataset.label)] = Number(button.dataset.armedUntil);
        });
    }
    current.querySelectorAll("details > summary").forEach(function (summary) {
      if (!refresh && summary.parentNode.hasAttribute("data-secret")) { return; }
      var was = { open: summary.parentNode.open, served: summary.parentNode.dataset.served };
      sectionKeys(summary).forEach(function (key) { taken.open[key] = was; });
    });
    current.querySelectorAll("input, select, textarea").forEach(function (field) {
      if (!keepable(field) || (!refresh && companion.isSecretField(field))) { return; }
      var entry = { key: formKey(field), name: field.name, value: field.value,
                    checked: field.checked };
      taken.fields.push(entry);
      if (field === document.activeElement) { taken.focus = entry; }
    });
    return taken;
  }

  /* A reload in the middle of an action keeps what a refresh keeps, secrets aside: the
     page puts it in this tab's sessionStorage as it goes, under its address and the
     table's version, and takes it back once on coming back at that version (a table
     that moved on meanwhile starts afresh, like a new page). */
  var RELOAD_PREFIX = "companion-kept:";
  function reloadKey() { return RELOAD_PREFIX + location.pathname + location.search; }
  window.addEventListener("pagehide", function () {
    var current = view();
    if (!current || !current.dataset.version) { return; }
    var taken = snapshot(current, false);
    taken.focus = null;
    try {
      sessionStorage.setItem(reloadKey(),
                             JSON.stringify({ version: current.dataset.version, kept: taken }));
    } catch (error) { /* storage full or refused: a reload starts afresh */ }
  });
  function restoreReload() {
    var current = view();
    var stored = null;
    try {
      stored = JSON.parse(sessionStorage.getItem(reloadKey()) || "null");
      sessionStorage.removeItem(reloadKey());
    } catch (error) { return; }
    if (!current || !stored || stored.version !== current.dataset.version) { return; }
    kept = stored.kept;
    restore();
  }
  function restore() {
    var current = view();
    if (!kept || !current) { return; }
    current.querySelectorAll("details > summary").forEach(function (summary) {
      var was = sectionKeys(summary).map(function (key) { return kept.open[key]; })
        .filter(Boolean).pop();
      // The player's choice stands unless the page itself now opens or closes it.
      if (was && was.served === (summary.parentNode.open ? "open" : "closed")) {
        summary.parentNode.open = was.open;
      }
    });
    var seen = {};
    current.querySelectorAll("input, select, textarea").forEach(function (field) {
      if (!keepable(field)) { return; }
      var group = formKey(field) + "\u0000" + field.name;
      var entries = kept.fields.filter(function (entry) {
        return entry.key + "\u0000" + entry.name === group;
      });
      var entry;
      if (field.type === "checkbox" || field.type === "radio") {
        entry = entries.filter(function (each) { return each.value === field.value; })[0];
        if (entry) { field.checked = entry.checked; }
      } else {
        // Several fields may share a name (one per woman, say): they match in order.
        seen[group] = (seen[group] || 0) + 1;
        entry = entries[seen[group] - 1];
        if (entry && !field.disabled && (field.tagName !== "SELECT" ||
            Array.prototype.some.call(field.options, function (option) {
              return option.value === entry.value;
            }))) {
          field.value = entry.value;
        }
      }
      if (entry && kept.focus === entry) { field.focus(); }
    });
    current.querySelectorAll("button[data-confirm]").forEach(function (button) {
      var until = kept.armed[buttonKey(button, button.textContent)];
      if (until > Date.now()) { companion.arm(button, until); }
    });
    kept = null;
  }
  // A refused action (4xx) is answered with the page as it is now and a message.
  function refused(event) {
    var form = requester(event);
    return form.tagName === "FORM" && event.detail.target && event.detail.target.id === "view" &&
      event.detail.xhr.status >= 400;
  }

  function markServed() {
    // Only what the server just sent: a section the player opened keeps "closed".
    document.querySelectorAll("details:not([data-served])").forEach(function (details) {
      details.dataset.served = details.open ? "open" : "closed";
    });
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (requester(event).tagName === "FORM") { sent = {}; }
    markServed();
    restore();
    // A refusal is brought into sight once the page is laid out as the player had it.
    var error = document.querySelector("[data-error]");
    if (error) { error.scrollIntoView({ block: "center" }); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    markServed();
    restoreReload();
  });
})();
