/* Owns "No tap lost" (docs/RELIABILITY.md). A tap (an action or a host form) that never
   reaches the laptop, or whose answer never comes back (the Wi-Fi dropped: htmx fires
   htmx:sendError, or htmx:timeout, right after htmx:afterRequest, the request's status
   0), is kept and sent again by itself: after 1, 2, 4, 8, then every 10 s, and at once
   when the live stream opens again, the page comes back to sight or the browser says it
   is online (on a Wi-Fi without internet it often does not: static/app/live.js calls
   companion.tap.resend). Sending it again is safe: the form's key makes the laptop store
   it once and answer a resend as the first (companion/web/pages.py change), and its
   version refuses it once the table moved on, which the answer then says as usual.
   Meanwhile the top of the page says it is not sent, in words the same for every tap;
   answered, it says it went, or the refusal speaks. What was sent is kept in this page's
   memory only, as it was sent: a secret field still empties at rest
   (static/app/secrets.js), and the tap goes as the player typed it; a reload forgets it
   (the page then shows the table as the laptop has it). */
(function () {
  "use strict";
  var companion = window.companion;
  var view = companion.view;

  var TAP_TIMEOUT_MS = 15000;  // no answer by then: taken for lost, and sent again
  var RESEND_MS = [1000, 2000, 4000, 8000, 10000];
  var unsent = null;     // { form, target, path, data }: the tap the laptop has not had
  // Marks the request that sends it again, even one htmx queues behind another.
  var RESEND = "X-Companion-Resend";
  var tries = 0, resendTimer = null;
  function showTap(state) {
    var bar = document.querySelector("[data-connection]");
    if (!bar) { return; }
    bar.hidden = !state;
    bar.dataset.connection = state;
    bar.textContent = state ? companion.words(state === "unsent" ? "unsent" : "sentLate") : "";
  }
  function keepUnsent(event) {
    var config = event.detail.requestConfig;
    if (!companion.requests.isTap(event)) { return; }
    if (!(unsent && config.headers[RESEND])) {  // a failed resend keeps the tap as it was
      unsent = { form: config.elt, target: config.target, path: config.path,
                 data: config.formData };
    }
    showTap("unsent");
    // A refusal still on the page answered an earlier tap: under "not sent" it would
    // read as this one's.
    document.querySelectorAll("#view [data-error]").forEach(function (error) {
      error.hidden = true;
    });
    clearTimeout(resendTimer);
    resendTimer = setTimeout(resend, RESEND_MS[Math.min(tries++, RESEND_MS.length - 1)]);
  }
  document.addEventListener("htmx:sendError", keepUnsent);
  document.addEventListener("htmx:timeout", keepUnsent);
  // Any answer ends the wait: the page it brings shows the tap done, or refused and why.
  // A "sent" note stays until the player's next tap is answered. False: no answer.
  function tapAnswered(event) {
    var status = event.detail.xhr.status;
    if (!status) { return false; }  // keepUnsent follows
    var waited = Boolean(unsent);
    unsent = null;
    tries = 0;
    clearTimeout(resendTimer);
    showTap(waited && status < 400 ? "sent" : "");
    return true;
  }
  function resend() {
    if (!unsent || companion.requests.pending()) { return; }
    clearTimeout(resendTimer);
    // Its form may be gone (a map redrawn under it): the view then stands in as the
    // request's source, the data being the tap's own.
    var source = unsent.form.isConnected ? unsent.form : view();
    var headers = {};
    headers[RESEND] = "1";
    htmx.ajax("POST", unsent.path, { source: source, headers: headers,
                                     target: unsent.target.isConnected ? unsent.target : view() })
      .catch(function () { /* heard as htmx:sendError */ });
  }
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb === "get") { return; }
    event.detail.timeout = TAP_TIMEOUT_MS;
    if (event.detail.headers[RESEND] && unsent) {
      // Exactly what went the first time: the same key, every field as then.
      event.detail.parameters = unsent.data;
      event.detail.errors = [];
    }
  });

  companion.tap = {
    waiting: function () { return Boolean(unsent); },
    // Called by static/app/requests.js after each tap's request, before it frees the view.
    answered: tapAnswered,
    resend: resend
  };
})();
