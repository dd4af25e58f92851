/* The companion's few behaviours on top of htmx: live refresh, hold to peek,
   tap-again confirmation, the numeric keypad and keeping the screen awake. */
(function () {
  "use strict";

  function view() { return document.getElementById("view"); }
  // The element whose request is being swapped in: a swap's own detail.elt is its target.
  function requester(event) {
    return (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
  }

  /* Live updates: the server only says "version V"; the page fetches its own view. */
  var staticBase = document.currentScript.src.replace(/app\.js(\?.*)?$/, "");
  var source = null;
  var retryTimer = null;
  var pollTimer = null;

  var latest = 0;  // the newest version the server announced (versions only grow)
  function refreshIfChanged(version) {
    var current = view();
    latest = Math.max(latest, Number(version) || 0);
    if (!current || !current.dataset.version || unsent) { return; }
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
      worker = new SharedWorker(staticBase + "live-worker.js", { name: "companion-live" });
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
      else if (message.type === "up") { polling(false); resend(); }
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
    source.addEventListener("open", function () { polling(false); resend(); });
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
    resend();
    if (source && source.readyState === EventSource.CLOSED) { source = null; }
    connect();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { checkNow(); lock(); }
  });
  window.addEventListener("online", checkNow);
  window.addEventListener("pageshow", function (event) { if (event.persisted) { checkNow(); } });

  /* Hold to peek: the secret shows only while a finger (or key) holds it. */
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

  /* Tap again to confirm: the first tap arms the button for a few seconds, the same in
     every game. Armed, it says so and how long is left (a bar shrinking under the
     question, the seconds after it: static/app.css); running out, it goes back to its
     label and says for a moment that nothing was sent. */
  var ARMED_MS = 5000;
  var DISARMED_NOTE_MS = 2500;
  function showLeft(button) {
    var left = Number(button.dataset.armedUntil) - Date.now();
    button.dataset.left = Math.max(1, Math.ceil(left / 1000)) + " s";
  }
  // The page's words, in the reader's language (templates/layout.html): nothing the
  // script shows is typed here.
  function pageWords(name) { return document.body.dataset[name] || ""; }
  function arm(button, until) {
    button.dataset.label = button.textContent;
    button.dataset.notSent = pageWords("notSent");
    button.dataset.armedUntil = String(until);
    button.classList.remove("disarmed");
    button.classList.add("armed");
    button.textContent = button.dataset.confirm + " " + pageWords("tapAgain");
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

  /* The keypad writes into its number field. */
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("[data-keypad] [data-key]");
    if (!key) { return; }
    var field = key.closest("[data-keypad]").querySelector(".keypad-display");
    if (key.dataset.key === "back") {
      field.value = field.value.slice(0, -1);
    } else if (field.value.length < Number(field.getAttribute("maxlength") || 3)) {
      field.value = (field.value === "0" ? "" : field.value) + key.dataset.key;
    }
  });

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
    if (requester(event) === view() && pressed()) { event.detail.shouldSwap = false; return; }
    shown = number;
  });

  /* No tap lost. A tap (an action or a host form) that never reaches the laptop, or
     whose answer never comes back (the Wi-Fi dropped: htmx fires htmx:sendError, or
     htmx:timeout, right after htmx:afterRequest, the request's status 0), is kept and
     sent again by itself: after 1, 2, 4, 8, then every 10 s, and at once when the live
     stream opens again, the page comes back to sight or the browser says it is online
     (on a Wi-Fi without internet it often does not). Sending it again is safe: the form's
     key makes the laptop store it once and answer a resend as the first
     (companion/web/pages.py change), and its version refuses it once the table moved on,
     which the answer then says as usual. Meanwhile the top of the page says it is not
     sent, in words the same for every tap; answered, it says it went, or the refusal
     speaks. What was sent is kept in this page's memory only, as it was sent: a secret
     field still empties at rest (closeSecrets), and the tap goes as the player typed it;
     a reload forgets it (the page then shows the table as the laptop has it). */
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
    bar.textContent = state ? pageWords(state === "unsent" ? "unsent" : "sentLate") : "";
  }
  function keepUnsent(event) {
    var config = event.detail.requestConfig;
    if (!isTap(event)) { return; }
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
    if (!unsent || tapsPending()) { return; }
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

  /* While a request runs the view is busy, so a live refresh cannot replace a form
     the player has just sent; a refresh that was skipped is caught up after. */
  document.addEventListener("htmx:beforeRequest", function (event) {
    var current = view();
    var elt = event.detail.elt;
    if (current && elt !== current) {
      current.classList.add("busy");
      if (elt.tagName === "FORM") { sent[keyOf(elt)] = true; }
    }
  });
  // htmx swaps the answer in before afterRequest: the view is current again, unless a
  // change was announced meanwhile, which is fetched now. A tap still waiting for the
  // laptop keeps it busy: its page stays as the player sent it until the tap is answered.
  document.addEventListener("htmx:afterRequest", function (event) {
    var current = view();
    if (isTap(event) && !tapAnswered(event)) { return; }  // lost: kept busy, sent again
    if (!current || tapsPending() || unsent) { return; }  // a tap's answer is still on its way
    current.classList.remove("busy");
    refreshIfChanged(latest);
  });
  /* A live refresh keeps what the player was typing or choosing: fields of the same
     form (same action, same hidden fields) get their values back, the focus returns,
     the sections the player opened or closed stay so, and a button armed for a second
     tap stays armed for the rest of its time. So does a refused action's answer (the
     table unchanged or moved on, the player's choices still to be corrected). */
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
      if (!keepable(field) || (!refresh && isSecretField(field))) { return; }
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
      if (until > Date.now()) { arm(button, until); }
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
    var error = document.querySelector("[data-error]");
    if (error) { error.scrollIntoView({ block: "center" }); }
    lock();
  });

  /* Keep the phone awake during a game. The Wake Lock API exists only on secure pages
     (https, localhost); on the laptop's plain-http Wi-Fi address a silent, muted video
     looping inline does the same (NoSleep.js's technique, its files static/awake.*).
     WebKit's media stack asked the laptop for the video again at every loop (about once
     a second per iPhone): the video is fetched once and loops from memory (a blob). */
  var wakeLock = null;
  var video = null;
  var videoLoaded = null;  // the promise of the video's blob, once asked for
  var wakeWanted = localStorage.getItem("companion-awake") !== "off";
  function awakeVideo() {
    if (!video) {
      video = document.createElement("video");
      video.className = "awake-video";
      video.muted = true;
      video.loop = true;
      video.playsInline = true;
      video.setAttribute("playsinline", "");
      video.setAttribute("aria-hidden", "true");
      video.addEventListener("playing", showWake);
      video.addEventListener("pause", showWake);
      document.body.appendChild(video);
    }
    return video;
  }
  function loadVideo() {
    if (!videoLoaded) {
      var file = [["awake.webm", "video/webm"], ["awake.mp4", "video/mp4"]].filter(
        function (kind) { return awakeVideo().canPlayType(kind[1]) !== ""; })[0];
      videoLoaded = !file ? Promise.reject(new Error("no video type")) :
        fetch(staticBase + file[0]).then(function (response) {
          if (!response.ok) { throw new Error("video " + response.status); }
          return response.blob();
        }).then(function (blob) { video.src = URL.createObjectURL(blob); });
      // Fetched again at a later tap if the laptop could not be reached.
      videoLoaded.catch(function () { videoLoaded = null; });
    }
    return videoLoaded;
  }
  function playVideo() {
    // Played at once when loaded: some browsers play only within the tap that asks.
    if (awakeVideo().src) { video.play().catch(function () { showWake(); }); return; }
    loadVideo().then(function () {
      if (wanted()) { return video.play(); }
    }).catch(function () { showWake(); });
  }
  function awake() { return Boolean(wakeLock) || Boolean(video && !video.paused); }
  function showWake() {
    var button = document.querySelector("[data-wake]");
    var current = view();
    if (!button || !current) { return; }
    var on = wakeWanted && awake();
    // Offered while a game runs, the only time a sleeping phone costs anything.
    button.hidden = current.dataset.awake !== "on";
    button.textContent = pageWords(on ? "screenOn" : "screenOff");
    button.classList.toggle("on", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  function wanted() {
    var current = view();
    return Boolean(current) && wakeWanted && current.dataset.awake === "on" &&
      document.visibilityState === "visible";
  }
  var lockRefused = false;  // the browser has Wake Lock but said no (a power saver, say)
  function lock() {
    var current = view();
    if (!current || !current.dataset.awake) { return; }
    if (!wanted()) {
      if (wakeLock) { wakeLock.release(); }
      if (video && !video.paused) { video.pause(); }
    } else if ("wakeLock" in navigator && !lockRefused) {
      if (!wakeLock) {
        navigator.wakeLock.request("screen").then(function (sentinel) {
          wakeLock = sentinel;
          sentinel.addEventListener("release", function () { wakeLock = null; showWake(); });
          showWake();
        }).catch(function () { wakeLock = null; lockRefused = true; lock(); });
      }
    } else {
      // Some browsers play only after a tap: then the next tap anywhere starts it.
      playVideo();
    }
    showWake();
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-wake]");
    if (!button) { return; }
    // The button says what is true now: tapping "Keep screen on" turns it on.
    wakeWanted = !button.classList.contains("on");
    localStorage.setItem("companion-awake", wakeWanted ? "on" : "off");
    lock();
  });
  document.addEventListener("pointerdown", function (event) {
    var onButton = event.target.closest && event.target.closest("[data-wake]");
    if (wakeWanted && !awake() && !onButton) { lock(); }
  }, true);

  /* Secrets opened by a tap (details[data-secret], Jack's map, a refusal's "Why?")
     close by themselves, and what was typed into a secret field ([data-secret-field],
     or any field inside such a section) is emptied: when the phone is put away, after
     a minute without a touch, when its section closes, and once an action is sent (the
     server always sends them closed and empty). A peek held longer than that (a sticky
     finger, a phone case on the screen) lets go too. */
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
    peekOff();
  }
  ["pointerdown", "keydown", "wheel", "scroll"].forEach(function (name) {
    document.addEventListener(name, function () { lastTouch = Date.now(); },
                              { capture: true, passive: true });
  });
  setInterval(function () {
    var now = Date.now();
    if (now - lastTouch > IDLE_MS) { closeSecrets(); }
    document.querySelectorAll("[data-peek].peeking").forEach(function (box) {
      if (now - Number(box.dataset.peekSince || now) > IDLE_MS) { letGo(box); }
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

  /* Zoomed maps ([data-pan], Letters from Whitechapel's boardmap.zoom): a box the thumb
     pans, opened on the page's focus, or on the whole board when the focus is spread;
     a tap on the whole board zooms in there. A live refresh or a tap on a circle keeps
     where the box was; an action sent starts afresh. */
  var pans = {};
  function setOverview(figure, on) {
    figure.classList.toggle("overview", on);
    // On the whole board a tap zooms in: its circles are not links until then.
    figure.querySelectorAll("a[data-to]").forEach(function (link) {
      if (on && link.hasAttribute("href")) {
        link.dataset.href = link.getAttribute("href");
        link.removeAttribute("href");
      } else if (!on && link.dataset.href) {
        link.setAttribute("href", link.dataset.href);
      }
    });
    var whole = figure.querySelector("[data-map-whole]");
    var hint = figure.querySelector("[data-map-overview-hint]");
    if (whole) { whole.hidden = on; }
    if (hint) { hint.hidden = !on; }
  }
  function centre(box, x, y) {
    box.scrollLeft = x - box.clientWidth / 2;
    box.scrollTop = y - box.clientHeight / 2;
  }
  function focusOf(box) {
    return [box.dataset.start, box.dataset.x, box.dataset.y].join(" ");
  }
  function initPans() {
    document.querySelectorAll("[data-pan]").forEach(function (box) {
      if (box.dataset.ready || !box.clientWidth) { return; }
      box.dataset.ready = "1";
      var figure = box.closest(".board-map");
      var tools = figure.querySelector("[data-map-tools]");
      if (tools) { tools.hidden = false; }
      var was = pans[box.dataset.pan];
      // The player's pan stands until the page's focus moves (a new clue, a move).
      if (was && was.focus === focusOf(box)) {
        setOverview(figure, was.overview);
        box.scrollLeft = was.left;
        box.scrollTop = was.top;
      } else if (box.dataset.start === "overview") {
        setOverview(figure, true);
      } else {
        setOverview(figure, false);
        centre(box, Number(box.dataset.x), Number(box.dataset.y));
      }
    });
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = requester(event);
    pans = {};
    if (elt.tagName === "FORM") { return; }
    document.querySelectorAll("[data-pan][data-ready]").forEach(function (box) {
      if (!box.clientWidth) { return; }
      pans[box.dataset.pan] = { left: box.scrollLeft, top: box.scrollTop, focus: focusOf(box),
        overview: box.closest(".board-map").classList.contains("overview") };
    });
  });
  document.addEventListener("htmx:afterSettle", initPans);
  document.addEventListener("toggle", function (event) {
    if (event.target.open) { initPans(); }
  }, true);
  document.addEventListener("click", function (event) {
    var svg = event.target.closest && event.target.closest(".board-map.overview svg");
    if (svg) {
      event.preventDefault();
      var figure = svg.closest(".board-map");
      var box = svg.closest("[data-pan]");
      var rect = svg.getBoundingClientRect();
      var x = (event.clientX - rect.left) / rect.width * svg.width.baseVal.value;
      var y = (event.clientY - rect.top) / rect.height * svg.height.baseVal.value;
      setOverview(figure, false);
      centre(box, x, y);
      return;
    }
    var whole = event.target.closest && event.target.closest("[data-map-whole]");
    if (whole) { setOverview(whole.closest(".board-map"), true); }
  });

  document.addEventListener("DOMContentLoaded", initPans);

  /* Buttons over a map (Whitechapel's police: the circles of a search or an arrest), each
     where its circle is: the page says where in data-x-pct/-y-pct (percent of the map), as
     the CSP allows no style attribute. Hidden until placed, so without scripts only the
     row of buttons shows. */
  function placeOverMaps() {
    document.querySelectorAll("[data-map-asks][hidden]").forEach(function (layer) {
      layer.querySelectorAll("[data-x-pct]").forEach(function (spot) {
        spot.style.left = spot.dataset.xPct + "%";
        spot.style.top = spot.dataset.yPct + "%";
        // An armed button's words run inwards, not off the map.
        spot.classList.toggle("east", Number(spot.dataset.xPct) > 50);
      });
      layer.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", placeOverMaps);
  document.addEventListener("htmx:afterSettle", placeOverMaps);

  document.addEventListener("DOMContentLoaded", function () {
    markServed();
    restoreReload();
    connect();
    lock();
  });
})();
