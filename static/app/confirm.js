/* Owns tap again to confirm (button[data-confirm]): the first tap arms the button for a
   few seconds, the same in every game. Armed, it says so and how long is left (a bar
   shrinking under the question, the seconds after it: static/app.css); running out, it
   goes back to its label and says for a moment that nothing was sent. A live refresh
   arms it again for the rest of its time (static/app/kept.js, through companion.arm). */
(function () {
  "use strict";
  var companion = window.companion;
  var words = companion.words;

  var ARMED_MS = 5000;
  var DISARMED_NOTE_MS = 2500;
  function showLeft(button) {
    var left = Number(button.dataset.armedUntil) - Date.now();
    button.dataset.left = Math.max(1, Math.ceil(left / 1000)) + " s";
  }
  function arm(button, until) {
    button.dataset.label = button.textContent;
    button.dataset.notSent = words("notSent");
    button.dataset.armedUntil = String(until);
    button.classList.remove("disarmed");
    button.classList.add("armed");
    button.textContent = button.dataset.confirm + " " + words("tapAgain");
    // The bar starts as full as the time left (a button re-armed after a refresh).
    button.style.setProperty("--armed-ms", ARMED_MS + "ms");
    button.style.setProperty("--armed-gone", (until - Date.now() - ARMED_MS) + "ms");
    showLeft(button);
    var tick = setInterval(function () {
      if (!button.isConnected || !button.classList.contains("armed")) { clearInterval(tick); return; }
      if (Date.now() >= until) {
        clearInterval(tick);
        button.classList.remove("armed");
        button.textContent = button.dataset.label;
        button.classList.add("disarmed");
        setTimeout(function () { button.classList.remove("disarmed"); }, DISARMED_NOTE_MS);
        return;
      }
      showLeft(button);
    }, 200);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-confirm]");
    if (!button || button.classList.contains("armed")) { return; }
    event.preventDefault();
    arm(button, Date.now() + ARMED_MS);
  }, true);
  // Sent, it asks no more: its label again until the answer replaces the page, so that a
  // slow answer does not leave "tap again" under the player's thumb.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form.tagName !== "FORM") { return; }
    form.querySelectorAll("button[data-confirm].armed").forEach(function (button) {
      button.classList.remove("armed");
      button.textContent = button.dataset.label;
    });
  });

  companion.arm = arm;
})();
