/* Owns keeping the phone awake during a game (the [data-wake] button says whether it
   does, and turns it off or on). The Wake Lock API exists only on secure pages (https,
   localhost); on the laptop's plain-http Wi-Fi address a silent, muted video looping
   inline does the same (NoSleep.js's technique, its files static/awake.*). WebKit's
   media stack asked the laptop for the video again at every loop (about once a second
   per iPhone): the video is fetched once and loops from memory (a blob). */
(function () {
  "use strict";
  var companion = window.companion;
  var view = companion.view;

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
        fetch(companion.staticBase + file[0]).then(function (response) {
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
    button.textContent = companion.words(on ? "screenOn" : "screenOff");
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
  // A new view may start or end a game; a page back in sight asks again (a lock is
  // released whenever the page is hidden).
  document.addEventListener("htmx:afterSwap", lock);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { lock(); }
  });
  document.addEventListener("DOMContentLoaded", lock);
})();
