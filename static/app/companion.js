/* Owns the one name the behaviours' files share (window.companion) and the few readings
   they all make: the view, the element whose request is answered, the page's words and
   where the static files are. Each other file in static/app/ is one behaviour on top of
   htmx, loaded deferred after htmx and this file (templates/layout.html), and puts on
   companion only what another file calls. */
(function () {
  "use strict";

  window.companion = {
    // static/, as this page was served it (the shared stream's worker, the awake video).
    staticBase: document.currentScript.src.replace(/app\/companion\.js(\?.*)?$/, ""),
    view: function () { return document.getElementById("view"); },
    // The element whose request is being swapped in: a swap's own detail.elt is its target.
    requester: function (event) {
      return (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
    },
    // The page's words, in the reader's language (templates/layout.html): nothing the
    // scripts show is typed in them.
    words: function (name) { return document.body.dataset[name] || ""; }
  };
})();
