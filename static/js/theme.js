// The colour theme: the system's (prefers-color-scheme) unless the reader chose light or dark with the header's
// button; the choice is kept in localStorage. Loaded in <head> without defer, so a page never flashes the other theme.
(function () {
  "use strict";
  var KEY = "coin-puzzles:theme";
  var NEXT = { auto: "dark", dark: "light", light: "auto" };
  var LABEL = { auto: "Theme: auto", dark: "Theme: dark", light: "Theme: light" };

  function stored() {
    try { return localStorage.getItem(KEY) || "auto"; } catch (e) { return "auto"; }
  }

  function apply(choice) {
    if (choice === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", choice);
    var button = document.getElementById("theme-toggle");
    if (button) {
      button.textContent = LABEL[choice];
      button.title = "Colours: auto follows the system; click to change";
      button.hidden = false;
    }
  }

  apply(stored());
  document.addEventListener("DOMContentLoaded", function () { apply(stored()); });
  document.addEventListener("click", function (e) {
    if (!e.target.closest || !e.target.closest("#theme-toggle")) return;
    var choice = NEXT[stored()] || "auto";
    try { localStorage.setItem(KEY, choice); } catch (err) { /* private browsing: this page only */ }
    apply(choice);
  });
})();
