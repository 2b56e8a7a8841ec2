// Direct manipulation for the games, as progressive enhancement: every page works without this file.
// Mastermind: a click on a colour, or its key, fills the next peg of the guess (Backspace takes one back, Escape
// or the clear button empties the row, Enter guesses); a click on a solver's suggestion enters its code.
// Peg board: a click on a coin shows its targets at once (no request), a click on a target makes the move (one
// request, swapping the board in place; the URL follows), focus stays on the board, and the arrow keys move
// between its coins and targets.
// Every game: u or Ctrl+Z follows the Undo link, r, Ctrl+Y or Ctrl+Shift+Z the Redo link (not while typing in a
// field); Copy the link puts the game's link on the clipboard; a finished game's result is counted once in the
// statistics kept in localStorage (per puzzle: played, won, best), which the win screen shows and can clear.
// Every game: after a move swaps the page in place, focus returns to the control that made it (same id), so a
// keyboard player keeps their place instead of starting again from the top of the page. The plan navigators:
// after an outcome, focus goes to the new weighing's heading.
(function () {
  "use strict";

  var keptFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var el = document.activeElement;
    keptFocus = el && el.id && el.closest("#main") ? el.id : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    var id = keptFocus;
    keptFocus = null;
    if (!id || pendingFocus) return;
    startRow();  // the guess row first (it may disable Guess), then focus
    var again = document.getElementById(id);
    if (again && again.disabled) {  // Guess, disabled on the new empty row: the first colour is the next key's
      again = (again.form && again.form.querySelector(".palette button")) || again;
    }
    if (again) again.focus({ preventScroll: true });  // the page top shows what the move did
  });

  // The plan navigators: after an outcome, focus moves to the new weighing's heading (the page's h1), which a
  // screen reader then reads out, instead of the page's body.
  var headingNext = false;
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    headingNext = !!(elt && elt.closest && elt.closest("form.outcomes"));
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!headingNext) return;
    headingNext = false;
    var heading = document.querySelector("#main h1");
    if (!heading) return;
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  });

  // A move is posted once: a second submit of the same form (a double-click) before the new position replaces it
  // would be a second move from the old position, which a game with a hidden secret refuses ("moved on"). It is
  // dropped. Any request that fails without a page to show (network, 5xx: the move's own, or the new position's
  // that htmx asks for after it) lets every form be sent again.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail && e.detail.elt, verb = e.detail && e.detail.requestConfig && e.detail.requestConfig.verb;
    if (!form || form.tagName !== "FORM" || verb !== "post" || !form.closest("#main")) return;  // (not a form's
    // own hx-get as it changes: Æquitas's verdict)
    if (form.dataset.sent) e.preventDefault();
    form.dataset.sent = "1";
  });
  ["htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function () {
      document.querySelectorAll("#main form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
    });
  });

  // On a phone the breadcrumbs are one line that scrolls sideways: show its end, the step just taken.
  function crumbsToEnd() {
    document.querySelectorAll(".crumbs ol").forEach(function (ol) { ol.scrollLeft = ol.scrollWidth; });
  }
  document.addEventListener("DOMContentLoaded", crumbsToEnd);
  document.addEventListener("htmx:afterSettle", crumbsToEnd);

  function guessForm(el) {
    return el.closest && el.closest("form.guess");
  }

  // The guess row and the hidden selects (the form without JavaScript) always agree: a peg not filled has an
  // empty select, and Guess is disabled, with the reason beside it, until every peg has a colour.
  function render(form) {
    var selects = form.querySelectorAll(".guess-selects select");
    var next = Number(form.dataset.next || 0);
    form.querySelectorAll(".guess-row .peg").forEach(function (slot, i) {
      var filled = i < next;
      if (!filled) selects[i].value = "";
      var letter = selects[i].value;
      var face = filled && form.querySelector('.palette button[data-colour="' + letter + '"]');
      slot.className = face ? face.className : "peg empty";  // the symbol drawn as the palette draws it
      slot.textContent = face ? face.dataset.key : "?";
    });
    var submit = form.querySelector("button[type=submit]");
    var why = form.querySelector("#guess-why");
    var missing = selects.length - next;
    submit.disabled = missing > 0;
    var symbol = form.dataset.symbol || "colour";
    if (why) why.textContent = missing > 0 ? "Choose " + missing + " more " + symbol + (missing === 1 ? "" : "s") + " to guess." : "";
  }

  function startRow() {
    document.querySelectorAll("form.guess").forEach(function (form) {
      if (!form.querySelector(".palette")) return;
      var selects = form.querySelectorAll(".guess-selects select");
      var next = 0;  // what the selects hold (a reload keeps them): the filled pegs from the left
      while (next < selects.length && selects[next].value) next += 1;
      form.dataset.next = String(next);
      render(form);
    });
  }
  document.addEventListener("DOMContentLoaded", startRow);
  document.addEventListener("htmx:afterSettle", startRow);

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".palette button");
    if (!button) return;
    var form = guessForm(button);
    var selects = form.querySelectorAll(".guess-selects select");
    var next = Number(form.dataset.next || 0);
    if (button.hasAttribute("data-clear")) {
      next = 0;
    } else if (next < selects.length) {
      selects[next].value = button.dataset.colour;
      next += 1;
    }
    form.dataset.next = String(next);
    render(form);
    if (next === selects.length) form.querySelector("button[type=submit]").focus();
  });

  // The keyboard types the guess anywhere on the page (not in a field): a colour's letter or a digit fills the
  // next peg, Backspace takes the last one back, Escape clears the row, Enter guesses once the row is full.
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    var t = e.target;
    if (t.closest && t.closest("input, select, textarea, [contenteditable]")) return;
    var form = document.querySelector("form.guess");
    if (!form || !form.querySelector(".palette")) return;
    var selects = form.querySelectorAll(".guess-selects select");
    var next = Number(form.dataset.next || 0);
    var key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    var button = form.querySelector('.palette button[data-key="' + (key === '"' || key === "\\" ? "" : key) + '"]');
    if (button) {
      e.preventDefault();
      button.click();
    } else if (key === "Backspace" || key === "Escape") {
      e.preventDefault();
      form.dataset.next = String(key === "Escape" ? 0 : Math.max(0, next - 1));
      render(form);
    } else if (key === "Enter" && next === selects.length && !(t.closest && t.closest("a, button"))) {
      e.preventDefault();
      form.requestSubmit(form.querySelector("button[type=submit]"));
    }
  });

  // A solver's suggestion, clicked: its code fills the guess row (Guess then plays it).
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button.suggestion[data-code]");
    var form = document.querySelector("form.guess");
    if (!button || !form) return;
    var selects = form.querySelectorAll(".guess-selects select");
    var code = button.dataset.code;
    for (var i = 0; i < selects.length; i += 1) selects[i].value = code.charAt(i);
    form.dataset.next = String(Math.min(code.length, selects.length));
    render(form);
    form.querySelector("button[type=submit]").focus();
  });

  // A select changed by hand (keyboard users, no palette click): the row follows the selects.
  document.addEventListener("change", function (e) {
    var form = e.target.closest && e.target.closest("form.guess");
    if (!form || !e.target.closest(".guess-selects")) return;
    var selects = form.querySelectorAll(".guess-selects select");
    var next = 0;
    while (next < selects.length && selects[next].value) next += 1;
    form.dataset.next = String(next);
    render(form);
  });

  // ---------------------------------------------------------------- peg board

  var pendingFocus = null;

  function holeLinks() {
    return Array.prototype.slice.call(document.querySelectorAll("svg.pegboard a[data-hole]"));
  }

  function centre(a) {
    var c = a.querySelector("circle");
    return { x: Number(c.getAttribute("cx")), y: Number(c.getAttribute("cy")) };
  }

  // Choosing a coin needs no request: the coin's targets (data-jumps: "d4 URL;d6 URL", each a move's link) turn
  // the empty holes they name into links at once, and the address follows (the selection is state in the URL).
  // The move itself is then one request. Without the data (or this script) the coin's link asks the server.
  var SVG = "http://www.w3.org/2000/svg";

  function clearTargets(svg) {
    svg.querySelectorAll("g[data-empty] > a").forEach(function (a) {
      var g = a.parentNode;
      while (a.firstChild) g.insertBefore(a.firstChild, a);
      g.removeChild(a);
      g.querySelectorAll("circle").forEach(function (c) { c.classList.remove("target"); });
    });
    svg.querySelectorAll("circle.coin.selected").forEach(function (c) { c.classList.remove("selected"); });
    svg.querySelectorAll("a[data-jumps]").forEach(function (a) {
      a.setAttribute("aria-label", "Coin on " + a.dataset.hole);
    });
  }

  function selectHere(a) {
    var svg = a.closest("svg.pegboard");
    clearTargets(svg);
    a.querySelector("circle").classList.add("selected");
    a.setAttribute("aria-label", "Coin on " + a.dataset.hole + " (selected)");
    var names = [];
    a.dataset.jumps.split(";").filter(Boolean).forEach(function (pair) {
      var cut = pair.indexOf(" "), label = pair.slice(0, cut), href = pair.slice(cut + 1);
      var g = svg.querySelector('g[data-empty="' + label + '"]');
      if (!g) return;
      var link = document.createElementNS(SVG, "a");
      link.setAttribute("href", href);
      link.setAttribute("data-hole", label);
      link.setAttribute("aria-label", "Jump to " + label);
      while (g.firstChild) link.appendChild(g.firstChild);
      g.appendChild(link);
      link.querySelector("circle").classList.add("target");
      names.push(label);
    });
    var said = document.querySelector("#main p.verdict");
    if (said) {
      said.textContent = names.length
        ? "Coin on " + a.dataset.hole + " chosen: jump to " + names.join(" or ") + "."
        : "The coin on " + a.dataset.hole + " cannot jump now: choose another.";
    }
    window.history.pushState({ htmx: true }, "", a.getAttribute("href"));
  }

  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("svg.pegboard a[data-hole]");
    if (!a || !window.htmx) return;
    e.preventDefault();
    if (a.hasAttribute("data-jumps")) {
      selectHere(a);
      return;
    }
    var href = a.getAttribute("href");
    pendingFocus = a.dataset.hole;
    window.htmx.ajax("GET", href, { target: "#main", swap: "innerHTML" }).then(function () {
      window.history.pushState({ htmx: true }, "", href);  // Back: htmx reloads the page (no cache)
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    var want = pendingFocus;
    if (!want) return;
    pendingFocus = null;
    var links = holeLinks();
    var target = links.filter(function (a) { return a.dataset.hole === want; })[0] || links[0];
    if (target) target.focus();
  });

  document.addEventListener("keydown", function (e) {
    var a = e.target.closest && e.target.closest("svg.pegboard a[data-hole]");
    var dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!a || !dirs[e.key]) return;
    e.preventDefault();
    var d = dirs[e.key], here = centre(a), best = null, bestScore = Infinity;
    holeLinks().forEach(function (other) {
      if (other === a) return;
      var p = centre(other), dx = p.x - here.x, dy = p.y - here.y;
      var along = dx * d[0] + dy * d[1];
      if (along <= 0) return;
      var across = Math.abs(dx * d[1]) + Math.abs(dy * d[0]);
      var score = along + 2 * across;
      if (score < bestScore) { best = other; bestScore = score; }
    });
    if (best) best.focus();
  });

  // ---------------------------------------------------------------- undo, redo, share, statistics

  function typing(el) {
    return el && el.closest && el.closest("input, select, textarea, [contenteditable]");
  }

  document.addEventListener("keydown", function (e) {
    if (typing(e.target) || e.altKey || e.metaKey) return;
    var key = e.key.toLowerCase(), which = null;
    if (e.ctrlKey) {
      if (key === "z") which = e.shiftKey ? "redo" : "undo";
      else if (key === "y") which = "redo";
    } else if (!e.shiftKey && (key === "u" || key === "r")) {
      which = key === "u" ? "undo" : "redo";
    }
    if (!which) return;
    var a = document.querySelector("#main [data-key=" + which + "]");  // a link, or a take-back button
    e.preventDefault();
    if (a) a.click();
  });

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-share]");
    if (!button) return;
    var told = button.parentNode.querySelector(".copied");
    function say(text) { if (told) told.textContent = text; }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(button.dataset.share).then(function () { say("Link copied."); },
        function () { say("Copying was refused: use the link beside it."); });
    } else {
      say("Copying is not available here: use the link beside it.");
    }
  });

  var STATS = "coin-puzzles:stats";

  function loadStats() {
    try { return JSON.parse(localStorage.getItem(STATS) || "{}") || {}; } catch (err) { return {}; }
  }

  function saveStats(all) {
    try { localStorage.setItem(STATS, JSON.stringify(all)); } catch (err) { /* private browsing: not kept */ }
  }

  function countEnds() {
    var all = loadStats(), changed = false;
    document.querySelectorAll("#main [data-stats][data-game]").forEach(function (el) {
      var r = all[el.dataset.stats] || { played: 0, won: 0, best: null, seen: [] };
      if (r.seen.indexOf(el.dataset.game) >= 0) return;  // a reload or Back: counted once
      r.played += 1;
      if (el.dataset.won === "1") {
        r.won += 1;
        var score = Number(el.dataset.score);
        if (r.best === null || score < r.best) r.best = score;
      }
      r.seen = r.seen.concat([el.dataset.game]).slice(-500);
      all[el.dataset.stats] = r;
      changed = true;
    });
    if (changed) saveStats(all);
  }

  function showStats() {
    var all = loadStats();
    document.querySelectorAll("#main [data-stats-show]").forEach(function (el) {
      var r = all[el.dataset.statsShow], line = el.querySelector(".stats-line");
      var what = el.dataset.statsLabel || "this puzzle";
      line.textContent = r
        ? "Your statistics for " + what + " (this browser): played " + r.played + ", won " + r.won +
          (r.best === null ? "" : ", best " + r.best) + "."
        : "No finished games of " + what + " in this browser yet.";
      el.querySelector("[data-stats-clear]").hidden = !r;
    });
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("button[data-stats-clear]");
    if (!button) return;
    var all = loadStats();
    delete all[button.dataset.statsClear];
    saveStats(all);
    showStats();
  });

  var LAST = "coin-puzzles:last";

  function remember() {  // a game page: kept as the puzzle's last game
    var el = document.querySelector("#main [data-remember]");
    if (!el) return;
    var all;
    try { all = JSON.parse(localStorage.getItem(LAST) || "{}") || {}; } catch (err) { all = {}; }
    all[el.dataset.remember] = { url: location.pathname + location.search, label: el.dataset.rememberLabel };
    try { localStorage.setItem(LAST, JSON.stringify(all)); } catch (err) { /* private browsing */ }
  }

  function offerLast() {  // a set-up page: a link back to the last game of its puzzle
    var all;
    try { all = JSON.parse(localStorage.getItem(LAST) || "{}") || {}; } catch (err) { return; }
    document.querySelectorAll("#main [data-last-show]").forEach(function (p) {
      var last = all[p.dataset.lastShow];
      if (!last || last.url.charAt(0) !== "/" || last.url.charAt(1) === "/") return;
      var a = document.createElement("a");
      a.href = last.url;
      a.textContent = last.label.replace(/ - coin-puzzles$/, "");
      p.textContent = "Your last game: ";
      p.appendChild(a);
      p.hidden = false;
    });
  }

  function settle() { countEnds(); showStats(); remember(); offerLast(); }
  document.addEventListener("DOMContentLoaded", settle);
  document.addEventListener("htmx:afterSettle", settle);
})();
