/* Owns which answer replaces the view, and when a live refresh may start: every request
   is numbered as it starts, only a newer answer than the one shown (and than the
   player's last tap) is swapped into the view, and the view is busy while a request
   runs (no refresh then), catching up after.

   The swap decision is made here and nowhere else: this is the only listener that sets
   htmx's shouldSwap. The other htmx listeners do not depend on their order with these
   or among themselves: before a request, static/app/confirm.js puts the sent form's
   armed buttons back to their label and static/app/kept.js marks the form as sent;
   before a swap, kept.js and static/app/maps.js only take what the page shows (typed
   values, pans); none reads what another writes. The one order that matters, after a
   request, is written as calls below: the tap's answer is told to
   static/app/no-tap-lost.js first, then the view is freed if no tap still waits. */
(function () {
  "use strict";
  var companion = window.companion;
  var view = companion.view;

  /* Only a newer answer replaces the view. A refresh that started before the player's
     tap and lands after it (or before its answer) is older than that answer, which may
     carry a message ("the table moved on"): it must not wipe it. */
  var requests = 0, shown = 0, tapped = 0, taps = [];
  function isTap(event) {
    var config = event.detail.requestConfig;
    return Boolean(config) && config.verb !== "get";
  }
  // Asked of the requests themselves, not counted from events: htmx fires no event a
  // page can hear when an answer cannot be swapped (its form already gone).
  function tapsPending() {
    taps = taps.filter(function (xhr) { return xhr.readyState >= 1 && xhr.readyState <= 3; });
    return taps.length > 0;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var number = ++requests;
    event.detail.xhr.companionNumber = number;
    if (isTap(event)) { tapped = number; taps.push(event.detail.xhr); }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "view") { return; }
    var number = event.detail.xhr.companionNumber || 0;
    if (number < tapped || number < shown) { event.detail.shouldSwap = false; return; }
    // A refresh that was on its way when the finger went down is fetched again after.
    if (companion.requester(event) === view() && companion.live.pressed()) {
      event.detail.shouldSwap = false;
      return;
    }
    shown = number;
  });

  /* While a request runs the view is busy, so a live refresh cannot replace a form
     the player has just sent; a refresh that was skipped is caught up after. */
  document.addEventListener("htmx:beforeRequest", function (event) {
    var current = view();
    if (current && event.detail.elt !== current) { current.classList.add("busy"); }
  });
  // htmx swaps the answer in before afterRequest: the view is current again, unless a
  // change was announced meanwhile, which is fetched now. A tap still waiting for the
  // laptop keeps it busy: its page stays as the player sent it until the tap is answered.
  document.addEventListener("htmx:afterRequest", function (event) {
    var current = view();
    if (isTap(event) && !companion.tap.answered(event)) { return; }  // lost: kept busy, sent again
    if (!current || tapsPending() || companion.tap.waiting()) { return; }  // a tap's answer is still on its way
    current.classList.remove("busy");
    companion.live.catchUp();
  });

  companion.requests = { isTap: isTap, pending: tapsPending };
})();
