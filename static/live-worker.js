/* One live stream for all of a browser's pages of the app (a SharedWorker, started by
   static/app/live.js). Chromium gives a host 6 connections over HTTP/1.1: with a stream for
   each page, an organiser's seventh page (the board, a round, several table screens)
   waited for a free connection, its taps with it. Here every page of the browser says
   which table it shows; the worker holds one stream for all those tables
   (GET /events?t=CODE&t=CODE, companion/web/live.py), whose events name their table,
   and tells each page of its own table's versions. Only versions travel, as on a
   page's own stream: each page then fetches its own view with its own cookies. */
"use strict";

var pages = new Map();  // port -> { code, heard: when it last spoke }
var source = null;      // the shared EventSource
var codes = [];         // the tables it follows
var streamUrl = null;   // /events, as the pages' address says it
var up = false;         // the stream is open
var latest = {};        // code -> the newest version announced
var openTimer = null, retryTimer = null;
var GONE_MS = 300000;   // a page silent this long (killed without a goodbye) is forgotten

function tell(code, message) {
  pages.forEach(function (page, port) {
    if (code === null || page.code === code) { port.postMessage(message); }
  });
}

function wanted() {
  var all = {};
  pages.forEach(function (page) { if (page.code) { all[page.code] = true; } });
  return Object.keys(all).sort();
}

// A table no page shows any more stays on the stream until it next opens: dropping it
// would cost a reconnection for nothing. A new table opens the stream again at once.
function ensure() {
  var want = wanted();
  var missing = want.some(function (code) { return codes.indexOf(code) < 0; });
  if (source && !missing) { return; }
  clearTimeout(openTimer);
  // Pages opened together (a window restored with its tabs) share one reconnection.
  openTimer = setTimeout(open, 50);
}

function open() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (source) { source.close(); source = null; }
  codes = wanted();
  if (!codes.length || !streamUrl) { return; }
  source = new EventSource(streamUrl + "?" + codes.map(function (code) {
    return "t=" + encodeURIComponent(code);
  }).join("&"));
  source.addEventListener("open", function () { up = true; tell(null, { type: "up" }); });
  source.addEventListener("changed", function (event) {
    var parts = String(event.data).split(" ");
    var code = parts[0], version = Number(parts[1]) || 0;
    latest[code] = Math.max(latest[code] || 0, version);
    tell(code, { type: "changed", version: latest[code] });
  });
  source.addEventListener("error", function () {
    // The browser retries by itself after a network error; after an HTTP error (the
    // laptop holds as many live pages as it can, no such table) it gives up. Then the
    // pages ask for their versions meanwhile, and the stream is tried again in 30 to
    // 60 s, spread out so that refused browsers do not come back at once.
    if (source && source.readyState === EventSource.CLOSED) {
      source = null;
      up = false;
      tell(null, { type: "down" });
      retryTimer = setTimeout(open, 30000 + Math.random() * 30000);
    }
  });
}

function heard(port, message) {
  var page = pages.get(port) || {};
  page.heard = Date.now();
  if (message.type === "leave") { pages.delete(port); return; }
  if (message.type === "watch") {
    page.code = message.code;
    streamUrl = message.stream;
    pages.set(port, page);
    if (up) { port.postMessage({ type: "up" }); }
    if (retryTimer !== null) { port.postMessage({ type: "down" }); }
    if (latest[page.code]) { port.postMessage({ type: "changed", version: latest[page.code] }); }
    // A stream refused a moment ago is tried again at its time, not at every new page.
    if (retryTimer === null) { ensure(); }
    return;
  }
  pages.set(port, page);
}

self.addEventListener("connect", function (event) {
  var port = event.ports[0];
  port.addEventListener("message", function (message) { heard(port, message.data || {}); });
  port.start();
});

setInterval(function () {
  var now = Date.now();
  pages.forEach(function (page, port) {
    if (now - page.heard > GONE_MS) { pages.delete(port); }
  });
}, 60000);
