// Coin picker for the adversary game, Æquitas and the weighing variants: click a coin to cycle it off -> each pan
// in turn (left, right; or pan 1 ... pan k), or drag it onto a pan; the pans draw the coins they hold (click one
// there to take it off) and a line previews the weighing.
// Typed pans ("1-4, 9") and "add k coins of a class to a pan" keep the coins' controls in step, so a game of 100
// coins is set up in a few keys. Progressive enhancement only: every coin also has its own <select> and the typed
// pans are read by the server, which both work without this file.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The form's pans, in order (their drop zones), each with its label.
  function pans(form) {
    var out = [];
    form.querySelectorAll(".zone.pan[data-drop]").forEach(function (z) {
      out.push({ side: z.dataset.drop, label: z.dataset.label || z.dataset.drop });
    });
    return out;
  }

  function sync(form) {
    if (!form) return;
    var on = { off: [] };
    pans(form).forEach(function (p) { on[p.side] = []; });
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
    var unknown = form.dataset.unknown;  // a typed token that is no coin: kept as typed, for the server to refuse
    if (preview) preview.textContent = unknown ? "Coin " + unknown + " is not in this game: type numbers like 7, " +
      "ranges like 1-4, or G1." : previewText(pans(form), on);
    form.querySelectorAll(".pan-text").forEach(function (input) {
      if (input !== document.activeElement && !unknown) input.value = runs(on[input.dataset.side]);
    });
  }

  // A pan as the typed fields write it: runs of three or more numbers as ranges (1-4), then extra coins.
  function runs(picks) {
    var numbers = [], extras = [], out = [];
    picks.forEach(function (p) { (/^G/.test(p.dataset.coin) ? extras : numbers).push(p.dataset.coin); });
    numbers = numbers.map(Number).sort(function (a, b) { return a - b; });
    for (var i = 0; i < numbers.length;) {
      var j = i;
      while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j += 1;
      out.push(j - i >= 2 ? numbers[i] + "-" + numbers[j] : numbers.slice(i, j + 1).join(", "));
      i = j + 1;
    }
    return out.concat(extras).join(", ");
  }

  // The typed pans, read as the server reads them (numbers, ranges 1-4 or 1..4, G1): the coins' controls follow.
  function typed(form) {
    var want = {}, coins = {}, unknown = "";
    form.querySelectorAll(".pick").forEach(function (pick) { coins[pick.dataset.coin] = true; });
    form.querySelectorAll(".pan-text").forEach(function (input) {
      input.value.replace(/\s*(-|\.\.|–)\s*/g, "-").split(/[,\s]+/).forEach(function (token) {
        var m = /^(\d+)-(\d+)$/.exec(token);
        var name = token.toUpperCase().replace(/^0+(?=\d)/, "");
        if (m) { for (var k = Number(m[1]); k <= Number(m[2]); k += 1) want[String(k)] = input.dataset.side; }
        else if (token && coins[name]) want[name] = input.dataset.side;
        else if (token && !unknown) unknown = token.slice(0, 20);
      });
    });
    form.querySelectorAll(".pick").forEach(function (pick) {
      pick.querySelector("select").value = want[pick.dataset.coin] || "off";
    });
    if (unknown) form.dataset.unknown = unknown; else delete form.dataset.unknown;
    sync(form);
  }

  // "Add k of the coins (of a class) to a pan": the first k of that class still off the scale.
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-bulk]");
    if (!button) return;
    var form = button.closest("form");
    var k = Number(form.querySelector("#bulk-k").value || 0);
    var cls = form.querySelector("#bulk-class").value;
    form.querySelectorAll(".pick." + cls).forEach(function (pick) {
      var select = pick.querySelector("select");
      if (k > 0 && select.value === "off") { select.value = button.dataset.bulk; k -= 1; }
    });
    sync(form);
  });
  document.addEventListener("input", function (e) {
    if (e.target.matches && e.target.matches(".pan-text")) typed(e.target.closest("form"));
  });

  function names(picks) {
    return picks.map(function (p) { return p.dataset.coin; }).join(", ");
  }

  function previewText(sides, on) {
    var both = sides.length === 2;
    var held = sides.map(function (p) { return on[p.side]; });
    if (held.every(function (h) { return !h.length; })) return both ? "Both pans are empty." : "Every pan is empty.";
    if (held.some(function (h) { return h.length !== held[0].length; })) {
      var counts = sides.map(function (p, i) {
        var name = p.label.replace(/ pan$/, "");
        return (i ? name.charAt(0).toLowerCase() + name.slice(1) : name) + " " + held[i].length;
      });
      return counts.join(", ") + ": " + (both ? "both pans" : "every pan") + " must hold the same number of coins.";
    }
    return "Ready to weigh " + held.map(names).join(" against ") + ".";
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
    var order = ["off"].concat(pans(pick.closest("form")).map(function (p) { return p.side; }));
    var now = pick.querySelector("select").value;
    place(pick, order[(order.indexOf(now) + 1) % order.length]);
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
  // A page drawn again after a refusal keeps what was typed: the coins' controls follow the typed pans then.
  function syncAll() {
    document.querySelectorAll("form.picker").forEach(function (form) {
      var filled = Array.prototype.some.call(form.querySelectorAll(".pan-text"), function (i) { return i.value; });
      (filled ? typed : sync)(form);
    });
  }
  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSwap", syncAll);
})();
