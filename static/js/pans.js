// Coin picker for the adversary game and Æquitas: click a coin to cycle off -> left -> right, or drag it onto a
// pan; the pans draw the coins they hold (click one there to take it off) and a line previews the weighing.
// Progressive enhancement only: every coin also has its own <select>, which works without this file.
(function () {
  "use strict";
  var ORDER = ["off", "left", "right"];
  document.documentElement.classList.add("js");

  function sync(form) {
    if (!form) return;
    var on = { off: [], left: [], right: [] };
    form.querySelectorAll(".pick").forEach(function (pick) {
      var place = pick.querySelector("select").value;
      pick.dataset.place = place;
      on[place].push(pick);
    });
    form.querySelectorAll("[data-count]").forEach(function (el) {
      el.textContent = String(on[el.dataset.count].length);
    });
    form.querySelectorAll("[data-pan]").forEach(function (pan) {
      pan.textContent = "";
      on[pan.dataset.pan].forEach(function (pick) {
        var chip = document.createElement("span");
        chip.className = "chip " + pick.className.replace("pick", "").trim();
        chip.dataset.coin = pick.dataset.coin;
        chip.textContent = pick.dataset.coin;
        chip.title = "Coin " + pick.dataset.coin + ": click to take it off";
        pan.appendChild(chip);
      });
    });
    var preview = form.querySelector("[data-preview]");
    if (preview) preview.textContent = previewText(on.left, on.right);
  }

  function names(picks) {
    return picks.map(function (p) { return p.dataset.coin; }).join(", ");
  }

  function previewText(left, right) {
    if (!left.length && !right.length) return "Both pans are empty.";
    if (left.length !== right.length) {
      return "Left " + left.length + ", right " + right.length + ": both pans must hold the same number of coins.";
    }
    return "Ready to weigh " + names(left) + " against " + names(right) + ".";
  }

  function place(pick, where) {
    pick.querySelector("select").value = where;
    sync(pick.closest("form"));
  }

  function pickOf(form, coin) {
    var found = null;
    form.querySelectorAll(".pick").forEach(function (pick) { if (pick.dataset.coin === coin) found = pick; });
    return found;
  }

  document.addEventListener("click", function (e) {
    var chip = e.target.closest && e.target.closest("[data-pan] .chip");
    if (chip) {
      var own = pickOf(chip.closest("form"), chip.dataset.coin);
      if (own) place(own, "off");
      return;
    }
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
    var pick = e.target.closest && e.target.closest(".pick, [data-pan] .chip");
    if (pick) e.dataTransfer.setData("text/plain", pick.dataset.coin);
  });
  document.addEventListener("dragover", function (e) {
    if (e.target.closest && e.target.closest("[data-drop]")) e.preventDefault();
  });
  document.addEventListener("drop", function (e) {
    var zone = e.target.closest && e.target.closest("[data-drop]");
    if (!zone) return;
    e.preventDefault();
    var own = pickOf(zone.closest("form"), e.dataTransfer.getData("text/plain"));
    if (own) place(own, zone.dataset.drop);
  });
  function syncAll() { document.querySelectorAll("form.picker").forEach(sync); }
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSwap", syncAll);
})();
