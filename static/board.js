/* The projector's leaderboard shows every row (templates/tournament/_board.html): when
   the rows do not all fit the screen, it sets them smaller, then shows as many as fit
   and turns to the next ones by itself every few seconds, saying which places are
   shown. A phone (narrow screen) scrolls the whole list instead. The page the board is
   on survives the board's own refresh every 3 s. The words of "page 1 of 2" come from
   the board (data-page-words, in the reader's language, {page} and the like filled here). */
(function () {
  "use strict";

  var TURN_MS = 8000;
  var PHONE = window.matchMedia("(max-width: 700px)");  // as static/app.css's board
  var page = 0;

  function fits() {
    return document.documentElement.scrollHeight <= window.innerHeight;
  }

  function layout() {
    var board = document.querySelector("[data-board]");
    if (!board) { return; }
    var rows = Array.prototype.slice.call(board.querySelectorAll("[data-standings] tbody tr[data-row]"));
    var note = board.querySelector("[data-page]");
    rows.forEach(function (row) { row.hidden = false; });
    note.classList.remove("on");
    board.classList.remove("tn-dense");
    if (PHONE.matches || fits()) { page = 0; return; }
    // Smaller type first (still legible across a room), then pages.
    board.classList.add("tn-dense");
    if (fits()) { page = 0; return; }
    var tallest = Math.max.apply(null, rows.map(function (row) {
      return row.getBoundingClientRect().height;
    }));
    var rowsHeight = rows.reduce(function (sum, row) {
      return sum + row.getBoundingClientRect().height;
    }, 0);
    var around = document.documentElement.scrollHeight - rowsHeight;
    var per = Math.max(1, Math.floor((window.innerHeight - around) / tallest));
    // Rows of a page may be taller than the tallest measured together (a name that
    // wraps): one fewer until the page fits.
    for (; per > 1; per--) {
      show(rows, note, per);
      if (fits()) { return; }
    }
    show(rows, note, 1);
  }

  function show(rows, note, most) {
    // As many pages as needed, as evenly filled as they can be (12 rows: 6 and 6, not
    // 11 and a lonely last one).
    var pages = Math.ceil(rows.length / most);
    var per = Math.ceil(rows.length / pages);
    page = page % pages;
    var first = page * per;
    rows.forEach(function (row, index) { row.hidden = index < first || index >= first + per; });
    var board = document.querySelector("[data-board]");
    var numbers = {page: page + 1, pages: pages, first: first + 1,
                   last: Math.min(rows.length, first + per), count: rows.length};
    note.textContent = (board.getAttribute("data-page-words") || "").replace(
      /\{(page|pages|first|last|count)\}/g, function (_all, name) { return String(numbers[name]); });
    note.classList.add("on");
  }

  setInterval(function () { page += 1; layout(); }, TURN_MS);
  window.addEventListener("resize", layout);
  // The board replaces itself every 3 s: "load" is heard from the new one.
  document.addEventListener("htmx:load", layout);
  document.addEventListener("DOMContentLoaded", layout);
})();
