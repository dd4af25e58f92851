/* Owns the numeric keypad ([data-keypad]): its keys write into its number field. */
(function () {
  "use strict";

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
})();
