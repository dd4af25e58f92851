/* Owns secrets closing by themselves. Secrets opened by a tap (details[data-secret],
   Jack's map, a refusal's "Why?") close, and what was typed into a secret field
   ([data-secret-field], or any field inside such a section) is emptied: when the phone
   is put away, after a minute without a touch, and when its section closes (the server
   always sends them closed and empty, so they close too once an action is sent). A peek
   held longer than that (a sticky finger, a phone case on the screen) lets go too.
   companion.isSecretField says what static/app/kept.js must not put back. */
(function () {
  "use strict";
  var companion = window.companion;

  var IDLE_MS = 60000;
  var lastTouch = Date.now();
  function isSecretField(field) {
    return field.hasAttribute("data-secret-field") || Boolean(field.closest("details[data-secret]"));
  }
  function emptySecretFields(root) {
    root.querySelectorAll("[data-secret-field], details[data-secret] input:not([type=hidden])")
      .forEach(function (field) {
        if (field.type === "checkbox" || field.type === "radio") { field.checked = false; }
        else { field.value = ""; }
      });
  }
  function closeSecrets() {
    document.querySelectorAll("details[data-secret][open]").forEach(function (details) {
      details.open = false;
    });
    emptySecretFields(document);
    companion.peek.letGoAll();
  }
  ["pointerdown", "keydown", "wheel", "scroll"].forEach(function (name) {
    document.addEventListener(name, function () { lastTouch = Date.now(); },
                              { capture: true, passive: true });
  });
  setInterval(function () {
    var now = Date.now();
    if (now - lastTouch > IDLE_MS) { closeSecrets(); }
    document.querySelectorAll("[data-peek].peeking").forEach(function (box) {
      if (now - Number(box.dataset.peekSince || now) > IDLE_MS) { companion.peek.letGo(box); }
    });
  }, 500);
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.matches && details.matches("details[data-secret]") && !details.open) {
      emptySecretFields(details);
    }
  }, true);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { closeSecrets(); }
  });
  window.addEventListener("pagehide", closeSecrets);

  companion.isSecretField = isSecretField;
})();
