/* Owns the zoomed maps ([data-pan], Letters from Whitechapel's boardmap.zoom): a box the
   thumb pans, opened on the page's focus, or on the whole board when the focus is
   spread; a tap on the whole board zooms in there. A live refresh or a tap on a circle
   keeps where the box was; an action sent starts afresh. And the buttons placed over a
   map ([data-map-asks]). */
(function () {
  "use strict";
  var companion = window.companion;

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
    var elt = companion.requester(event);
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
})();
