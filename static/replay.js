/* A night replayed (templates/table/_replay.html): play and pause, the arrow keys, the
   host's step told to the phones, and a phone following the table screen. Without it
   every step is a plain link. */
(function () {
  "use strict";

  function replay() { return document.getElementById("replay"); }
  var playing = null;  // the play timer, kept across the swaps of #replay

  function go(selector) {
    var link = replay() && replay().querySelector(selector);
    if (link) { link.click(); }
    return Boolean(link);
  }
  function showPlay() {
    var button = replay() && replay().querySelector("[data-replay-play]");
    if (!button) { return; }
    button.hidden = false;
    // The words come from the page, in its reader's language.
    var view = replay();
    button.textContent = playing ? view.dataset.pauseLabel : view.dataset.playLabel;
    button.setAttribute("aria-pressed", playing ? "true" : "false");
  }
  function pause() {
    clearInterval(playing);
    playing = null;
    showPlay();
  }
  function play() {
    if (!replay().querySelector("[data-replay-next]")) { return; }
    playing = setInterval(function () {
      // Stops at the end of the night: no next step.
      if (!go("[data-replay-next]")) { pause(); }
    }, Number(replay().dataset.paceMs) || 1500);
    go("[data-replay-next]");
    showPlay();
  }
  function toggle() { if (playing) { pause(); } else { play(); } }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-replay-play]")) { toggle(); }
  });
  document.addEventListener("keydown", function (event) {
    if (!replay() || event.altKey || event.ctrlKey || event.metaKey ||
        /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
    if (event.key === "ArrowLeft") { pause(); go("[data-replay-prev]"); }
    else if (event.key === "ArrowRight") { pause(); go("[data-replay-next]"); }
    else if (event.key === " " && !event.target.closest("button")) { toggle(); }
    else { return; }  // a focused button takes its own space: Play toggles once
    event.preventDefault();
  });

  /* The host's screen tells where it is; the phones that follow ask. */
  function share() {
    var view = replay();
    if (!view || !view.dataset.share) { return; }
    var body = new URLSearchParams({ night: view.dataset.night, step: view.dataset.step,
                                     csrf: view.dataset.csrf });
    fetch(view.dataset.share, { method: "POST", body: body, credentials: "same-origin",
                                headers: { "HX-Request": "true" } })
      .catch(function () { /* offline: the next step tells again */ });
  }
  var following = null;
  function follow() {
    clearInterval(following);
    following = null;
    var view = replay();
    if (!view || !view.dataset.follow) { return; }
    following = setInterval(function () {
      var current = replay();
      if (!current || !current.dataset.follow) { clearInterval(following); return; }
      if (document.hidden) { return; }  // a phone put away asks nothing
      fetch(current.dataset.follow, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (where) {
          if (!where || where.night === null) { return; }
          if (String(where.night) !== current.dataset.night ||
              String(where.step) !== current.dataset.step) {
            htmx.ajax("GET", current.dataset.followPage, { target: "#replay" });
          }
        })
        .catch(function () { /* offline: ask again next time */ });
    }, Number(view.dataset.pollMs) || 1500);
  }
  function settled() {
    if (playing && !replay().querySelector("[data-replay-next]")) { pause(); }
    showPlay();
    share();
    follow();
  }
  document.addEventListener("DOMContentLoaded", settled);
  // An outerHTML swap settles on the new #replay (or nothing else on this page).
  document.addEventListener("htmx:afterSettle", function () { if (replay()) { settled(); } });
})();
