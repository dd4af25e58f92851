/* Owns the live refresh: the server only says "version V" (the browser's shared stream,
   static/live-worker.js, the page's own stream, or a poll every 10 s when refused one);
   a page behind fetches its own view. A refresh waits while a finger is pressed on the
   page, while the view is busy with a request (static/app/requests.js) and while a tap
   waits for the laptop (static/app/no-tap-lost.js). Back from sleep, a lost network or
   the back-forward cache, it asks at once. */
(function () {
  "use strict";
  var companion = window.companion;
  var view = companion.view;

  var source = null;
  var retryTimer = null;
  var pollTimer = null;

  var latest = 0;  // the newest version the server announced (versions only grow)
  function refreshIfChanged(version) {
    var current = view();
    latest = Math.max(latest, Number(version) || 0);
    if (!current || !current.dataset.version || companion.tap.waiting()) { return; }
    if (latest > Number(current.dataset.version) && !current.classList.contains("busy") &&
        !pressed()) {
      htmx.trigger(current, "refresh");
    }
  }

  /* A finger (or mouse button) pressed on the page: a refresh waits until it lifts, or
     the tap it began is lost (a view swapped between press and release gets no click).
     A press never heard to end holds nothing up for long. */
  var PRESS_MS = 3000;
  var pressedAt = 0;
  function pressed() { return Date.now() - pressedAt < PRESS_MS; }
  function released() { pressedAt = 0; setTimeout(function () { refreshIfChanged(latest); }, 0); }
  document.addEventListener("pointerdown", function () {
    pressedAt = Date.now();
    setTimeout(function () { if (!pressed()) { refreshIfChanged(latest); } }, PRESS_MS);
  }, true);
  window.addEventListener("pointerup", released, true);
  window.addEventListener("pointercancel", released, true);

  /* A browser's pages share one stream (static/live-worker.js, docs/ARCHITECTURE.md):
     Chromium gives a host 6 connections over HTTP/1.1, and with a stream per page the
     seventh page of an organiser's laptop stalled, its taps with it. A browser without
     SharedWorker (Chrome on Android: one page per phone anyway) holds its own. */
  var shared = null;  // this page's port to the shared stream
  var sharing = Boolean(window.SharedWorker);  // false: this page holds its own stream
  function polling(on) {
    clearInterval(pollTimer);
    pollTimer = on ? setInterval(checkVersion, 10000) : null;
  }
  function watchShared() {
    var events = view().dataset.events;
    var found = /\/t\/([^/]+)\/events$/.exec(events);
    shared.postMessage({ type: "watch", code: found ? decodeURIComponent(found[1]) : events,
                         stream: events.replace(/\/t\/[^/]+\/events$/, "/events") });
  }
  function connectShared() {
    if (!sharing) { return false; }
    var worker;
    try {
      worker = new SharedWorker(companion.staticBase + "live-worker.js",
                                { name: "companion-live" });
    } catch (error) {
      sharing = false;  // a browser that forbids workers here: the page's own stream
      return false;
    }
    // A worker that cannot start (its script not loaded): the page's own stream.
    worker.addEventListener("error", function () {
      sharing = false;
      shared = null;
      connect();
    });
    shared = worker.port;
    shared.onmessage = function (event) {
      var message = event.data || {};
      if (message.type === "changed") { refreshIfChanged(message.version); }
      else if (message.type === "up") { polling(false); companion.tap.resend(); }
      else if (message.type === "down") { polling(true); }
    };
    watchShared();
    // The worker forgets a page it has not heard from in a while (a page killed
    // without a goodbye).
    setInterval(function () { if (shared) { shared.postMessage({ type: "ping" }); } }, 30000);
    window.addEventListener("pagehide", function () {
      if (shared) { shared.postMessage({ type: "leave" }); }
    });
    return true;
  }

  function connect() {
    var current = view();
    if (!current || !current.dataset.events || source) { return; }
    if (shared) { watchShared(); return; }
    if (connectShared()) { return; }
    source = new EventSource(current.dataset.events);
    source.addEventListener("open", function () { polling(false); companion.tap.resend(); });
    source.addEventListener("changed", function (event) { refreshIfChanged(event.data); });
    source.addEventListener("error", function () {
      // The browser retries by itself after a network error. After an HTTP error it
      // gives up: the laptop holds as many live pages as it can, or this device has
      // too many open. Ask for the version every 10 s meanwhile, and try the stream
      // again in 30 to 60 s (spread out, so refused pages do not come back at once).
      if (source && source.readyState === EventSource.CLOSED) {
        source = null;
        polling(true);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(connect, 30000 + Math.random() * 30000);
      }
    });
  }

  function checkVersion() {
    var current = view();
    if (!current || !current.dataset.versionUrl) { return; }
    fetch(current.dataset.versionUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) { if (data) { refreshIfChanged(data.version); } })
      .catch(function () { /* offline: the event stream will catch up */ });
  }

  // Back from sleep, a lost network or the back-forward cache: the version now, the
  // stream again (a page back from the cache says again which table it shows) and a tap
  // still waiting for the laptop.
  function checkNow() {
    checkVersion();
    companion.tap.resend();
    if (source && source.readyState === EventSource.CLOSED) { source = null; }
    connect();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { checkNow(); }
  });
  window.addEventListener("online", checkNow);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { checkNow(); } });
  document.addEventListener("DOMContentLoaded", connect);

  companion.live = {
    pressed: pressed,
    // A refresh skipped while the view was busy, fetched now if the table moved on.
    catchUp: function () { refreshIfChanged(latest); }
  };
})();
