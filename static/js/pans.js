// Coin picker for the adversary game: click a coin to cycle off -> left -> right, or drag it onto a pan.
// Progressive enhancement only: every coin also has its own <select>, which works without this file.
(function () {
  "use strict";
  var ORDER = ["off", "left", "right"];
  document.documentElement.classList.add("js");

  function sync(form) {
    if (!form) return;
    var counts = { off: 0, left: 0, right: 0 };
    form.querySelectorAll(".pick").forEach(function (pick) {
      var place = pick.querySelector("select").value;
      pick.dataset.place = place;
      counts[place] += 1;
    });
    form.querySelectorAll("[data-count]").forEach(function (el) {
      el.textContent = String(counts[el.dataset.count]);
    });
  }

  function place(pick, where) {
    pick.querySelector("select").value = where;
    sync(pick.closest("form"));
  }

  document.addEventListener("click", function (e) {
    var face = e.target.closest && e.target.closest(".pick .face");
    if (!face) return;
    var pick = face.closest(".pick");
    var now = pick.querySelector("select").value;
    place(pick, ORDER[(ORDER.indexOf(now) + 1) % ORDER.length]);
  });
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches(".pick select")) sync(e.target.closest("form"));
  });
  document.addEventListener("dragstart", function (e) {
    var pick = e.target.closest && e.target.closest(".pick");
    if (pick) e.dataTransfer.setData("text/plain", pick.dataset.coin);
  });
  document.addEventListener("dragover", function (e) {
    if (e.target.closest && e.target.closest("[data-drop]")) e.preventDefault();
  });
  document.addEventListener("drop", function (e) {
    var zone = e.target.closest && e.target.closest("[data-drop]");
    if (!zone) return;
    e.preventDefault();
    var form = zone.closest("form");
    var coin = e.dataTransfer.getData("text/plain");
    form.querySelectorAll(".pick").forEach(function (pick) {
      if (pick.dataset.coin === coin) place(pick, zone.dataset.drop);
    });
  });
  function syncAll() { document.querySelectorAll("form.picker").forEach(sync); }
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSwap", syncAll);
})();
