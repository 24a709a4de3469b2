/* ChiQA charts: small hand-written SVG line and bar charts, built with DOM APIs only.
   ChiQAChart.render(table, hint) -> <figure> or null.
   table: {"columns": [...], "rows": [[...], ...]}; hint: {"type": "line"|"bar", "x", "y", "title"}. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var MAX_BARS = 15;

  function el(name, attrs, text) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function toNumber(v) {
    if (typeof v === "number") return isFinite(v) ? v : null;
    if (typeof v === "string" && v.trim() !== "") {
      var n = Number(v.replace(/[,$%]/g, ""));
      return isFinite(n) ? n : null;
    }
    return null;
  }

  function fmt(n) {
    if (n === null || n === undefined) return "";
    var abs = Math.abs(n);
    if (abs >= 1e6) return (n / 1e6).toLocaleString("en-US", {maximumFractionDigits: 1}) + "M";
    if (abs >= 1e4) return (n / 1e3).toLocaleString("en-US", {maximumFractionDigits: 1}) + "k";
    return n.toLocaleString("en-US", {maximumFractionDigits: abs < 10 ? 2 : 1});
  }

  function niceTicks(lo, hi, count) {
    if (lo === hi) { hi = lo + 1; }
    var span = hi - lo, step = Math.pow(10, Math.floor(Math.log10(span / count)));
    var err = count / span * step;
    if (err <= 0.15) step *= 10; else if (err <= 0.35) step *= 5; else if (err <= 0.75) step *= 2;
    var start = Math.floor(lo / step) * step, end = Math.ceil(hi / step) * step, ticks = [];
    for (var t = start; t <= end + step / 2; t += step) ticks.push(Math.round(t / step) * step);
    return ticks;
  }

  function points(table, hint) {
    if (!table || !Array.isArray(table.columns) || !Array.isArray(table.rows) || !hint) return null;
    var xi = table.columns.indexOf(hint.x), yi = table.columns.indexOf(hint.y);
    if (xi < 0 || yi < 0) return null;
    var pts = [];
    table.rows.forEach(function (row) {
      if (!Array.isArray(row)) return;
      var y = toNumber(row[yi]);
      if (y === null || row[xi] === null || row[xi] === undefined) return;
      pts.push({x: row[xi], label: String(row[xi]), y: y});
    });
    return pts.length ? pts : null;
  }

  function lineChart(pts, hint) {
    var sorted = pts.slice().sort(function (a, b) {
      var na = toNumber(a.x), nb = toNumber(b.x);
      if (na !== null && nb !== null) return na - nb;
      return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
    });
    var W = 520, H = 280, L = 52, R = 18, T = 14, B = 42;
    var ys = sorted.map(function (p) { return p.y; });
    var lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
    if (lo > 0 && lo / (hi || 1) < 0.5) lo = 0;  // anchor at zero unless the series sits far above it
    var ticks = niceTicks(lo, hi, 5); lo = ticks[0]; hi = ticks[ticks.length - 1];
    var n = sorted.length;
    function X(i) { return L + (n === 1 ? (W - L - R) / 2 : i * (W - L - R) / (n - 1)); }
    function Y(v) { return T + (H - T - B) * (1 - (v - lo) / ((hi - lo) || 1)); }
    var svg = el("svg", {viewBox: "0 0 " + W + " " + H, class: "chart chart-line", role: "img"});
    svg.appendChild(el("title", {}, (hint.title || "") + " (line chart)"));
    ticks.forEach(function (t) {
      svg.appendChild(el("line", {x1: L, x2: W - R, y1: Y(t), y2: Y(t), class: "grid"}));
      svg.appendChild(el("text", {x: L - 6, y: Y(t) + 4, "text-anchor": "end", class: "tick"}, fmt(t)));
    });
    var every = Math.max(1, Math.ceil(n / 8));
    sorted.forEach(function (p, i) {
      if ((i % every === 0 && n - 1 - i >= every / 2) || i === n - 1) {
        svg.appendChild(el("text", {x: X(i), y: H - B + 18, "text-anchor": "middle", class: "tick"}, p.label));
      }
    });
    svg.appendChild(el("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis"}));
    var d = sorted.map(function (p, i) { return (i ? "L" : "M") + X(i).toFixed(1) + " " + Y(p.y).toFixed(1); }).join(" ");
    svg.appendChild(el("path", {d: d, class: "series"}));
    sorted.forEach(function (p, i) {
      var c = el("circle", {cx: X(i).toFixed(1), cy: Y(p.y).toFixed(1), r: n > 40 ? 1.5 : 3, class: "dot"});
      c.appendChild(el("title", {}, p.label + ": " + fmt(p.y)));
      svg.appendChild(c);
    });
    svg.appendChild(el("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "axis-label"}, hint.x));
    return svg;
  }

  function barChart(pts, hint) {
    var shown = pts.slice(0, MAX_BARS);
    var W = 520, rowH = 24, T = 8, L = 160, R = 64;
    var H = T * 2 + rowH * shown.length;
    var ys = shown.map(function (p) { return p.y; });
    var lo = Math.min(0, Math.min.apply(null, ys)), hi = Math.max(0, Math.max.apply(null, ys));
    function X(v) { return L + (W - L - R) * (v - lo) / ((hi - lo) || 1); }
    var svg = el("svg", {viewBox: "0 0 " + W + " " + H, class: "chart chart-bar", role: "img"});
    svg.appendChild(el("title", {}, (hint.title || "") + " (bar chart)"));
    shown.forEach(function (p, i) {
      var y = T + i * rowH, x0 = X(Math.min(0, p.y)), x1 = X(Math.max(0, p.y));
      var label = p.label.length > 22 ? p.label.slice(0, 21) + "…" : p.label;
      svg.appendChild(el("text", {x: L - 8, y: y + rowH * 0.65, "text-anchor": "end", class: "tick"}, label));
      var bar = el("rect", {x: x0.toFixed(1), y: y + 3, width: Math.max(1, x1 - x0).toFixed(1), height: rowH - 6, class: "bar"});
      bar.appendChild(el("title", {}, p.label + ": " + fmt(p.y)));
      svg.appendChild(bar);
      svg.appendChild(el("text", {x: x1 + 6, y: y + rowH * 0.65, class: "value"}, fmt(p.y)));
    });
    svg.appendChild(el("line", {x1: X(0), x2: X(0), y1: T, y2: H - T, class: "axis"}));
    return svg;
  }

  function render(table, hint) {
    if (!hint || (hint.type !== "line" && hint.type !== "bar")) return null;
    var pts = points(table, hint);
    if (!pts || (hint.type === "line" && pts.length < 2)) return null;
    var fig = document.createElement("figure");
    fig.className = "chart-figure";
    var cap = document.createElement("figcaption");
    cap.textContent = hint.title || (hint.y + " by " + hint.x);
    if (hint.type === "bar" && pts.length > MAX_BARS) cap.textContent += " (top " + MAX_BARS + " of " + pts.length + ")";
    fig.appendChild(cap);
    var svg = hint.type === "line" ? lineChart(pts, hint) : barChart(pts, hint);
    svg.setAttribute("aria-label", cap.textContent);
    fig.appendChild(svg);
    return fig;
  }

  window.ChiQAChart = {render: render, toNumber: toNumber, format: fmt};
})();
