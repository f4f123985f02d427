// Replay page: draws the step given by the controls from the JSON in #replay-data.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var steps = data.steps;
  var last = steps.length - 1;
  var current = 0;
  var timer = null;
  var SVG = "http://www.w3.org/2000/svg";

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    var key;
    for (key in attrs || {}) {
      if (key === "text") { node.textContent = attrs[key]; } else { node.setAttribute(key, attrs[key]); }
    }
    (children || []).forEach(function (child) { if (child) { node.appendChild(child); } });
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG, tag);
    var key;
    for (key in attrs) { node.setAttribute(key, attrs[key]); }
    return node;
  }

  function shape(style, x, y, size) {
    var c = size / 2;
    var r = size * 0.36;
    switch (style.shape) {
      case "disc": return svg("circle", { cx: x + c, cy: y + c, r: r, fill: style.color, stroke: "#0006", "stroke-width": 1 });
      case "ring": return svg("circle", { cx: x + c, cy: y + c, r: r * 0.85, fill: "none", stroke: style.color, "stroke-width": size * 0.1 });
      case "square": return svg("rect", { x: x + size * 0.18, y: y + size * 0.18, width: size * 0.64, height: size * 0.64, fill: style.color });
      case "diamond": return svg("polygon", { points: [x + c, y + c - r, x + c + r, y + c, x + c, y + c + r, x + c - r, y + c].join(" ").replace(/(\S+) (\S+)/g, "$1,$2"), fill: style.color });
      case "cross":
        var g = svg("g", { stroke: style.color, "stroke-width": size * 0.1, "stroke-linecap": "round" });
        g.appendChild(svg("line", { x1: x + c - r * 0.8, y1: y + c - r * 0.8, x2: x + c + r * 0.8, y2: y + c + r * 0.8 }));
        g.appendChild(svg("line", { x1: x + c + r * 0.8, y1: y + c - r * 0.8, x2: x + c - r * 0.8, y2: y + c + r * 0.8 }));
        return g;
      default: return null;
    }
  }

  function drawGrid(panel, previous) {
    var palette = data.palettes[panel.palette] || {};
    var rows = panel.rows;
    var nrows = rows.length;
    var ncols = nrows ? Array.from(rows[0]).length : 0;
    var size = Math.max(12, Math.min(44, Math.floor(480 / Math.max(ncols, nrows, 1))));
    var left = panel.rowLabels ? 22 : 0;
    var top = panel.colLabels ? 18 : 0;
    var root = svg("svg", { width: left + ncols * size + 1, height: top + nrows * size + 1, "class": "grid", role: "img" });
    var same = previous && previous.kind === "grid" && previous.rows.length === nrows;
    (panel.colLabels || []).forEach(function (label, c) {
      var t = svg("text", { x: left + c * size + size / 2, y: 13, "text-anchor": "middle", "font-size": 12, fill: "#555" });
      t.textContent = label; root.appendChild(t);
    });
    (panel.rowLabels || []).forEach(function (label, r) {
      var t = svg("text", { x: left - 6, y: top + r * size + size / 2 + 4, "text-anchor": "end", "font-size": 12, fill: "#555" });
      t.textContent = label; root.appendChild(t);
    });
    rows.forEach(function (row, r) {
      Array.from(row).forEach(function (ch, c) {
        var style = palette[ch] || { fill: "#fff", shape: "", text: ch, textColor: "#000" };
        var x = left + c * size;
        var y = top + r * size;
        var cell = svg("g", { "class": "cell", "data-r": r, "data-c": c, "data-v": ch });
        if (same && Array.from(previous.rows[r] || "")[c] !== ch) { cell.setAttribute("class", "cell changed"); }
        cell.appendChild(svg("rect", { "class": "bg", x: x + 0.5, y: y + 0.5, width: size, height: size, fill: style.fill, stroke: "#0003" }));
        var s = shape(style, x, y, size);
        if (s) { cell.appendChild(s); }
        if (style.text) {
          var t = svg("text", { x: x + size / 2, y: y + size / 2 + size * 0.17, "text-anchor": "middle", "font-size": Math.round(size * 0.5), "font-weight": 700, fill: style.textColor || "#000" });
          t.textContent = style.text; cell.appendChild(t);
        }
        if (panel.dim && panel.dim[r].charAt(c) === "1") {
          cell.appendChild(svg("rect", { x: x + 0.5, y: y + 0.5, width: size, height: size, fill: "#000", "fill-opacity": 0.35 }));
          cell.setAttribute("data-dim", "1");
        }
        root.appendChild(cell);
      });
    });
    return root;
  }

  function drawTable(panel) {
    var head = el("tr", {}, panel.headers.map(function (h) { return el("th", { text: h }); }));
    var body = panel.rows.map(function (row) {
      return el("tr", {}, row.map(function (cell) { return el("td", { text: cell }); }));
    });
    return el("table", {}, [el("thead", {}, [head]), el("tbody", {}, body)]);
  }

  function drawPanel(panel, previous) {
    var body;
    if (panel.kind === "grid") { body = drawGrid(panel, previous); }
    else if (panel.kind === "table") { body = drawTable(panel); }
    else { body = el("pre", { "class": "text", text: panel.text }); }
    return el("div", { "class": "panel panel-" + panel.kind }, [
      body, panel.caption ? el("div", { "class": "caption", text: panel.caption }) : null
    ]);
  }

  function legend(panels) {
    var box = $("legend");
    box.textContent = "";
    var shown = {};
    panels.forEach(function (panel) {
      if (panel.kind !== "grid") { return; }
      var palette = data.palettes[panel.palette] || {};
      Object.keys(palette).forEach(function (ch) {
        var style = palette[ch];
        if (!style.name || shown[style.name]) { return; }
        shown[style.name] = true;
        var sw = el("span", { "class": "swatch" });
        sw.style.background = style.shape ? style.color : style.fill;
        box.appendChild(el("span", {}, [sw, document.createTextNode(style.name)]));
      });
    });
  }

  function fmt(value) {
    if (value === null || value === undefined) { return "-"; }
    if (Array.isArray(value)) { return value.length ? value.join(", ") : "none"; }
    if (typeof value === "object") { return JSON.stringify(value); }
    return String(value);
  }

  function answersTable(answers, attempts) {
    if (!answers.length) { return null; }
    var head = el("tr", {}, ["#", "subproblem", "answer", "ground truth", "score"].map(function (h) { return el("th", { text: h }); }));
    var rows = answers.map(function (a) {
      var mark = a.correct === null ? "not scored" : (a.correct ? "\u2713 right" : "\u2717 wrong");
      if (a.value !== null && a.value !== undefined && a.correct !== null) { mark += " (" + a.metric + " " + Number(a.value).toFixed(2) + ")"; }
      if (!a.scored && a.correct !== null) { mark += ", not in I"; }
      var cls = a.correct === null ? "unscored" : (a.correct ? "right" : "wrong");
      return el("tr", { "class": "answer " + cls, "data-index": a.index }, [
        el("td", { text: a.index }),
        el("td", { text: a.name, title: a.question }),
        el("td", { text: a.answered ? (a.answer || fmt(a.parsed)) : "(no answer)" }),
        el("td", { text: fmt(a.truth) }),
        el("td", { "class": "mark", text: mark })
      ]);
    });
    var parts = [el("thead", {}, [head]), el("tbody", {}, rows)];
    if (attempts > 1) {
      parts.unshift(el("caption", { text: "Intermediate answers of attempt 1 (the answers I scores)" }));
    }
    return el("table", { "class": "answers" }, parts);
  }

  function infoText(info) {
    var keys = Object.keys(info || {});
    if (!keys.length) { return null; }
    return el("div", { "class": "info", text: keys.map(function (k) { return k + ": " + fmt(info[k]); }).join(" \u00b7 ") });
  }

  function decisionBox(d) {
    var usage = d.usage || {};
    var meta = [];
    if (usage.input_tokens !== undefined) { meta.push("tokens in " + usage.input_tokens); }
    if (usage.output_tokens !== undefined) { meta.push("out " + usage.output_tokens); }
    if (usage.calls !== undefined) { meta.push("model calls " + usage.calls); }
    meta.push("latency " + d.latency.toFixed(3) + " s");
    if (d.fallback) { meta.push("fallback: " + d.fallback); }
    var attempts = d.attempts.map(function (a, i) {
      var rejected = a.status !== "ok";
      return el("div", { "class": "attempt" + (rejected ? " rejected" : ""), "data-status": a.status }, [
        el("div", {}, [
          el("strong", { text: "Attempt " + (i + 1) + ": " }),
          el("span", { "class": "badge " + a.status, text: a.status }),
          document.createTextNode(a.action === null || a.action === undefined ? " (no legal move read)" : " " + a.action)
        ]),
        a.raw.length ? el("pre", { "class": "reasoning", text: a.raw.join("\n\n---\n\n") }) : null,
        a.feedback ? el("div", { "class": "feedback", text: "Feedback: " + a.feedback }) : null,
        infoText(a.info)
      ]);
    });
    var action = d.forfeit ? "forfeits" : (d.action === null ? "no action" : d.action);
    return el("div", { "class": "decision", "data-seat": d.seat }, [
      el("h3", {}, [
        document.createTextNode(d.label + " (" + d.player + "): "),
        el("code", { "class": "action", text: action }),
        document.createTextNode(" "),
        el("span", { "class": "badge " + d.status, text: d.status })
      ]),
      el("div", { "class": "meta", text: meta.join(" \u00b7 ") }),
      answersTable(d.answers, d.attempts.length),
      el("div", { "class": "attempts" }, attempts),
      d.observation ? el("details", {}, [el("summary", { text: "what the player saw" }), el("pre", { text: d.observation })]) : null
    ]);
  }

  function show(index) {
    current = Math.max(0, Math.min(last, index));
    var step = steps[current];
    var previous = current > 0 ? steps[current - 1] : null;
    var board = $("board");
    board.textContent = "";
    step.panels.forEach(function (panel, i) {
      board.appendChild(drawPanel(panel, previous ? previous.panels[i] : null));
    });
    legend(step.panels);
    var moved = current === 0 ? "Start" : "After " + step.moved;
    $("moved").textContent = moved + (step.toMove ? " \u00b7 " + step.toMove + " to move" : " \u00b7 game over");
    $("events").textContent = step.events.map(function (event) {
      var parts = Object.keys(event).filter(function (k) { return k !== "type"; }).map(function (k) { return k + " " + fmt(event[k]); });
      return (event.type || "event") + (parts.length ? " (" + parts.join(", ") + ")" : "");
    }).join("; ");
    $("counter").textContent = "Step " + current + " / " + last;
    $("slider").value = String(current);
    $("first").disabled = $("prev").disabled = current === 0;
    $("last").disabled = $("next").disabled = current === last;
    var side = $("decisions");
    side.textContent = "";
    step.decisions.forEach(function (d) { side.appendChild(decisionBox(d)); });
    if (current === last) { side.appendChild(el("p", { "class": "final", text: "Result: " + data.outcome })); }
    else if (!step.decisions.length) { side.appendChild(el("p", { "class": "info", text: "No decision recorded at this step." })); }
    var text = $("text-view");
    text.hidden = !step.render;
    if (step.render) { text.querySelector("pre").textContent = step.render; }
    if (history.replaceState) { history.replaceState(null, "", "#step-" + current); }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "Play";
    $("play").setAttribute("aria-label", "play");
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (current === last) { show(0); }
    $("play").textContent = "Pause";
    $("play").setAttribute("aria-label", "pause");
    timer = setInterval(function () {
      show(current + 1);
      if (current >= last) { stop(); }
    }, Number($("speed").value));
  }

  $("first").addEventListener("click", function () { stop(); show(0); });
  $("prev").addEventListener("click", function () { stop(); show(current - 1); });
  $("next").addEventListener("click", function () { stop(); show(current + 1); });
  $("last").addEventListener("click", function () { stop(); show(last); });
  $("play").addEventListener("click", play);
  $("slider").max = String(last);
  $("slider").addEventListener("input", function () { stop(); show(Number($("slider").value)); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var target = event.target || {};
    // Controls that handle these keys themselves: the slider moves and fires "input",
    // a focused button is clicked by the space bar.
    if (target.tagName === "SELECT" || target.tagName === "TEXTAREA" || target.tagName === "INPUT") { return; }
    if (target.tagName === "BUTTON" && (event.key === " " || event.key === "Enter")) { return; }
    var keys = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (event.key in keys) { stop(); show(current + keys[event.key]); }
    else if (event.key === "Home") { stop(); show(0); }
    else if (event.key === "End") { stop(); show(last); }
    else if (event.key === " " || event.key === "k") { play(); }
    else { return; }
    event.preventDefault();
  });
  var match = /^#step-(\d+)$/.exec(location.hash);
  show(match ? Number(match[1]) : 0);
  window.replay = { show: show, current: function () { return current; }, data: data };
})();
