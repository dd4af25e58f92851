/* Owns hold to peek ([data-peek]): the secret shows only while a finger (or key) holds
   it, and a peek of links ([data-peek-pick]) held a moment taps the link the finger is
   lifted on. The idle close (static/app/secrets.js) lets go of a peek through
   companion.peek. */
(function () {
  "use strict";
  var companion = window.companion;

  function peekOn(event) {
    var box = event.target.closest && event.target.closest("[data-peek]");
    if (box) {
      box.classList.remove("let-go");
      box.classList.add("peeking");
      box.dataset.peekSince = String(Date.now());
      if (event.type === "pointerdown") { event.preventDefault(); }
    }
  }
  // Let go: a finger still on the glass keeps the box :active, so "let-go" keeps the
  // secret hidden until the next press (app.css).
  function letGo(box) {
    box.classList.remove("peeking");
    box.classList.add("let-go");
  }
  /* A peek of links ([data-peek-pick]: Jack's destinations): held a moment, the finger
     lifted on one of them taps it, so that a hold is the look and the pick at once. A
     quick tap only shows them: nothing is picked blind. */
  var PICK_AFTER_MS = 250;
  function pickUnder(box, event) {
    if (event.type !== "pointerup" || !box.hasAttribute("data-peek-pick") ||
        Date.now() - Number(box.dataset.peekSince) < PICK_AFTER_MS) { return; }
    var under = document.elementFromPoint(event.clientX, event.clientY);
    var link = under && under.closest("a[href]");
    if (link && box.contains(link)) { link.click(); }
  }
  function peekOff(event) {
    document.querySelectorAll("[data-peek].peeking").forEach(function (box) {
      // Moving over the secret it shows is still holding it: only leaving the box lets go.
      if (event && event.type === "pointerleave" && event.target !== box &&
          box.contains(event.target)) { return; }
      if (event) { pickUnder(box, event); }
      letGo(box);
    });
  }
  document.addEventListener("pointerdown", peekOn);
  document.addEventListener("keydown", function (event) {
    if (event.key === " " || event.key === "Enter") { peekOn(event); }
  });
  ["pointerup", "pointercancel", "pointerleave", "keyup", "blur", "scroll"].forEach(function (name) {
    window.addEventListener(name, peekOff, true);
  });
  document.addEventListener("contextmenu", function (event) {
    if (event.target.closest && event.target.closest("[data-peek]")) { event.preventDefault(); }
  });

  companion.peek = {
    letGo: letGo,
    letGoAll: function () { peekOff(); }
  };
})();
