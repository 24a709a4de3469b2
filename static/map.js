/* ChiQA choropleth map: community areas or ZIP codes shaded by a tool result, drawn as SVG with DOM APIs only.
   ChiQAMap.layers(result) -> the mappable layers of a result (tool results carrying a "map" hint);
   ChiQAMap.render(panel, layers, named) draws the chosen layer into the page's #map-panel.
   Geometry comes pre-projected and simplified from /api/geo/<level> (maps/layers.py), fetched once per level.
   Classes are quantiles of the mapped values (at most five); areas without a value are hatched. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var MAX_CLASSES = 5;
  var GEO_URL = {community_area: "/api/geo/community_areas", zip: "/api/geo/zips"};
  var LEVEL_WORDS = {community_area: ["community area", "community areas"], zip: ["ZIP code", "ZIP codes"]};
  var geometry = {};  // level -> Promise of the layer JSON

  function el(name, attrs, text) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function h(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "className") node.className = attrs[k]; else node.setAttribute(k, String(attrs[k]));
    });
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function num(v) {
    if (typeof v === "number") return isFinite(v) ? v : null;
    if (typeof v === "string" && v.trim() !== "" && isFinite(Number(v))) return Number(v);
    return null;
  }

  /* ------------------------------------------------------------------ values */

  function format(v, unit) {
    if (v === null || v === undefined) return "no data";
    if (unit === "dollars") return "$" + Math.round(v).toLocaleString("en-US");
    if (unit === "percent") return v.toLocaleString("en-US", {maximumFractionDigits: 1}) + "%";
    if (unit === "per 100,000 residents") return v.toLocaleString("en-US", {maximumFractionDigits: 1}) + " per 100,000";
    if (unit === "homicides") return Math.round(v).toLocaleString("en-US") + (v === 1 ? " homicide" : " homicides");
    return v.toLocaleString("en-US", {maximumFractionDigits: 1});
  }

  function shortFormat(v, unit) {
    if (unit === "per 100,000 residents" || unit === "homicides") return v.toLocaleString("en-US", {maximumFractionDigits: 1});
    return format(v, unit);
  }

  /* id -> value for one hint: its "data" (every place the tool computed), else the table's key/value columns. */
  function valuesOf(result, hint) {
    var out = {};
    if (Array.isArray(hint.data)) {
      hint.data.forEach(function (pair) { var v = num(pair[1]); if (v !== null) out[String(pair[0])] = v; });
      return out;
    }
    var table = result.table || {}, cols = table.columns || [];
    var ki = cols.indexOf(hint.key), vi = cols.indexOf(hint.value);
    if (ki < 0 || vi < 0) return out;
    (table.rows || []).forEach(function (row) {
      var v = num(row[vi]);
      if (v !== null && row[ki] !== null && row[ki] !== undefined) out[String(row[ki])] = v;
    });
    return out;
  }

  function layers(result) {
    var out = [];
    (Array.isArray(result.trace) ? result.trace : []).forEach(function (step) {
      var r = step && step.type === "tool_call" ? step.result : null;
      if (!r || !r.ok || !r.map || !GEO_URL[r.map.level]) return;
      var values = valuesOf(r, r.map);
      if (!Object.keys(values).length) return;
      var sources = (r.sources || []).map(function (s) { return s.dataset || s.key; }).filter(Boolean);
      out.push({hint: r.map, values: values, sources: sources, step: step.index});
    });
    return out;
  }

  /* Quantile classes: upper bounds taken at equal shares of the sorted values, repeats merged. */
  function classes(values, k) {
    var sorted = values.slice().sort(function (a, b) { return a - b; });
    var n = sorted.length, uppers = [];
    k = Math.min(k || MAX_CLASSES, n);
    for (var i = 1; i <= k; i++) {
      var u = sorted[Math.ceil(i * n / k) - 1];
      if (!uppers.length || u > uppers[uppers.length - 1]) uppers.push(u);
    }
    var ranges = uppers.map(function () { return {min: null, max: null, count: 0}; });
    sorted.forEach(function (v) {
      var c = classOf(v, uppers), r = ranges[c];
      if (r.min === null) r.min = v;
      r.max = v; r.count += 1;
    });
    return {uppers: uppers, ranges: ranges};
  }

  function classOf(v, uppers) {
    for (var i = 0; i < uppers.length; i++) if (v <= uppers[i]) return i;
    return uppers.length - 1;
  }

  /* Palette slot (0-4) of class i of k, spread over the whole ramp when there are fewer than five classes. */
  function shade(i, k) { return k <= 1 ? 2 : Math.round(i * (MAX_CLASSES - 1) / (k - 1)); }

  /* Rank 1 = highest; ties share a rank. */
  function ranks(values) {
    var ids = Object.keys(values).sort(function (a, b) { return values[b] - values[a]; });
    var out = {};
    ids.forEach(function (id, i) { out[id] = i > 0 && values[id] === values[ids[i - 1]] ? out[ids[i - 1]] : i + 1; });
    return {rank: out, order: ids};
  }

  /* ------------------------------------------------------------------ drawing */

  function loadGeometry(level) {
    if (!geometry[level]) {
      geometry[level] = fetch(GEO_URL[level]).then(function (r) {
        if (!r.ok) throw new Error("map boundaries unavailable (" + r.status + ")");
        return r.json();
      });
      geometry[level].catch(function () { delete geometry[level]; });
    }
    return geometry[level];
  }

  function legend(hint, cls) {
    var box = h("div", {className: "map-legend"});
    box.appendChild(h("p", {className: "map-legend-title"}, hint.title + " (" + hint.unit + ")"));
    var ul = h("ul", {"aria-label": "Legend"});
    function swatch(className) {
      var svg = el("svg", {viewBox: "0 0 18 12", width: 18, height: 12, "aria-hidden": "true", focusable: "false"});
      svg.appendChild(el("rect", {x: 0.5, y: 0.5, width: 17, height: 11, class: className}));
      return svg;
    }
    cls.ranges.forEach(function (r, i) {
      var li = h("li");
      li.appendChild(swatch("area s" + shade(i, cls.ranges.length)));
      var text = r.min === r.max ? shortFormat(r.min, hint.unit) : shortFormat(r.min, hint.unit) + " – " + shortFormat(r.max, hint.unit);
      li.appendChild(h("span", {}, text + " (" + r.count + ")"));
      ul.appendChild(li);
    });
    var none = h("li");
    none.appendChild(swatch("area nodata"));
    none.appendChild(h("span", {}, "no data"));
    ul.appendChild(none);
    var named = h("li", {className: "legend-named"});
    named.appendChild(swatch("named-key"));
    named.appendChild(h("span", {}, "named in the question"));
    ul.appendChild(named);
    box.appendChild(ul);
    return box;
  }

  function dataTable(geo, layer, rk, words) {
    var details = h("details", {className: "map-table"});
    details.appendChild(h("summary", {}, "Map data as a table (" + geo.features.length + " " + words[1] + ")"));
    var wrap = h("div", {className: "table-wrap"});
    var t = h("table", {className: "data"});
    t.appendChild(h("caption", {}, layer.hint.title + ", " + layer.hint.period + " — rank 1 = highest"));
    var tr = h("tr");
    ["Rank", words[0], layer.hint.title].forEach(function (c) { tr.appendChild(h("th", {scope: "col"}, c)); });
    var thead = h("thead"); thead.appendChild(tr); t.appendChild(thead);
    var tbody = h("tbody");
    var names = {};
    geo.features.forEach(function (f) { names[f.id] = f.name; });
    var missing = geo.features.filter(function (f) { return !(f.id in layer.values); }).map(function (f) { return f.id; });
    rk.order.concat(missing).forEach(function (id) {
      if (!(id in names)) return;
      var row = h("tr");
      row.appendChild(h("td", {className: "num"}, id in rk.rank ? rk.rank[id] : "–"));
      row.appendChild(h("td", {}, names[id]));
      row.appendChild(h("td", {className: "num"}, format(id in layer.values ? layer.values[id] : null, layer.hint.unit)));
      tbody.appendChild(row);
    });
    t.appendChild(tbody);
    wrap.appendChild(t);
    details.appendChild(wrap);
    return details;
  }

  function draw(target, geo, layer, named) {
    var hint = layer.hint, words = LEVEL_WORDS[hint.level];
    var values = layer.values, rk = ranks(values);
    var cls = classes(Object.keys(values).map(function (id) { return values[id]; }));
    var total = Object.keys(values).length;
    var namedSet = {};
    (named || []).forEach(function (id) { namedSet[String(id)] = true; });
    var namedNames = geo.features.filter(function (f) { return namedSet[f.id]; }).map(function (f) { return f.name; });

    var fig = h("figure", {className: "map-figure"});
    var wrap = h("div", {className: "map-wrap"});
    var vb = geo.viewBox.join(" ");
    // tabindex -1: Chromium would otherwise put the <svg> itself in the tab order before its areas.
    var svg = el("svg", {viewBox: vb, class: "map", role: "group", tabindex: -1,
                         "aria-label": "Map of Chicago " + words[1] + ": " + hint.title + ", " + hint.period +
                                       ". Arrow keys move between " + words[1] + "; the table below lists every value."});
    var defs = el("defs");
    var pattern = el("pattern", {id: "map-hatch", patternUnits: "userSpaceOnUse", width: 8, height: 8,
                                 patternTransform: "rotate(45)"});
    pattern.appendChild(el("rect", {width: 8, height: 8, class: "hatch-bg"}));
    pattern.appendChild(el("line", {x1: 0, y1: 0, x2: 0, y2: 8, class: "hatch-line"}));
    defs.appendChild(pattern);
    svg.appendChild(defs);
    var tip = h("div", {className: "map-tip", role: "tooltip", id: "map-tip"});
    tip.hidden = true;

    var paths = {}, order = [];
    var features = geo.features.slice().sort(function (a, b) { return (namedSet[a.id] ? 1 : 0) - (namedSet[b.id] ? 1 : 0); });
    features.forEach(function (f) {
      var has = f.id in values, v = has ? values[f.id] : null;
      var className = "area " + (has ? "s" + shade(classOf(v, cls.uppers), cls.uppers.length) : "nodata") +
                      (namedSet[f.id] ? " named" : "");
      var label = f.name + ": " + format(v, hint.unit) + (has ? ", rank " + rk.rank[f.id] + " of " + total : "") +
                  (namedSet[f.id] ? " (named in the question)" : "");
      var p = el("path", {d: f.d, class: className, tabindex: -1, role: "img", "aria-label": label,
                          "data-id": f.id, "data-name": f.name});
      if (has) p.setAttribute("data-value", String(v));
      paths[f.id] = p;
      svg.appendChild(p);
    });
    // Keyboard order: ranked places first (rank 1 first), then those without data, by name.
    order = rk.order.filter(function (id) { return paths[id]; }).concat(
      geo.features.filter(function (f) { return !(f.id in values); })
        .sort(function (a, b) { return a.name < b.name ? -1 : 1; }).map(function (f) { return f.id; }));
    var start = order.filter(function (id) { return namedSet[id]; })[0] || order[0];
    if (start) paths[start].setAttribute("tabindex", "0");
    var ring = el("path", {class: "focus-ring", d: "", "aria-hidden": "true"});
    svg.appendChild(ring);

    function showTip(p, x, y) {
      var id = p.getAttribute("data-id"), has = id in values;
      while (tip.firstChild) tip.removeChild(tip.firstChild);
      tip.appendChild(h("strong", {}, p.getAttribute("data-name")));
      tip.appendChild(h("span", {}, format(has ? values[id] : null, hint.unit)));
      if (has) tip.appendChild(h("span", {}, "rank " + rk.rank[id] + " of " + total + " (1 = highest)"));
      if (namedSet[id]) tip.appendChild(h("span", {className: "tip-named"}, "named in the question"));
      tip.hidden = false;
      var maxX = wrap.clientWidth - tip.offsetWidth - 4;
      tip.style.left = Math.max(4, Math.min(x + 14, maxX)) + "px";
      tip.style.top = Math.max(4, y - tip.offsetHeight - 10) + "px";
      ring.setAttribute("d", p.getAttribute("d"));
      p.setAttribute("aria-describedby", "map-tip");
    }
    function hideTip(p) {
      tip.hidden = true;
      ring.setAttribute("d", "");
      if (p) p.removeAttribute("aria-describedby");
    }
    function where(p) {
      var box = p.getBoundingClientRect(), frame = wrap.getBoundingClientRect();
      return [box.left + box.width / 2 - frame.left, box.top + box.height / 2 - frame.top];
    }
    function focused() {
      var a = document.activeElement;
      return a && svg.contains(a) && a.classList.contains("area") ? a : null;
    }
    function backToFocus() {  // the pointer left the areas: the keyboard's area keeps its tooltip
      var a = focused();
      if (a) { var xy = where(a); showTip(a, xy[0], xy[1]); } else hideTip();
    }
    svg.addEventListener("mousemove", function (e) {
      var p = e.target.closest ? e.target.closest("path.area") : null;
      if (!p) { backToFocus(); return; }
      var frame = wrap.getBoundingClientRect();
      showTip(p, e.clientX - frame.left, e.clientY - frame.top);
    });
    svg.addEventListener("mouseleave", backToFocus);
    svg.addEventListener("focusin", function (e) {
      var p = e.target;
      if (!p.classList || !p.classList.contains("area")) return;
      order.forEach(function (id) { paths[id].setAttribute("tabindex", id === p.getAttribute("data-id") ? "0" : "-1"); });
      var xy = where(p);
      showTip(p, xy[0], xy[1]);
    });
    svg.addEventListener("focusout", function (e) { hideTip(e.target); });
    svg.addEventListener("keydown", function (e) {
      var p = e.target, i = order.indexOf(p.getAttribute && p.getAttribute("data-id"));
      if (i < 0) return;
      var next = {ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: order.length - 1}[e.key];
      if (e.key === "Escape") { hideTip(p); return; }
      if (next === undefined) return;
      e.preventDefault();
      paths[order[Math.max(0, Math.min(order.length - 1, next))]].focus();
    });

    wrap.appendChild(svg);
    wrap.appendChild(tip);
    fig.appendChild(wrap);
    var cap = h("figcaption", {className: "map-caption"});
    cap.appendChild(h("strong", {}, hint.title));
    var bits = [hint.period, total + " of " + geo.features.length + " " + words[1] + " with data"];
    if (layer.sources.length) bits.push("data: " + layer.sources.join("; "));
    bits.push("boundaries: " + geo.source);
    cap.appendChild(h("span", {}, " · " + bits.join(" · ")));
    if (namedNames.length) cap.appendChild(h("span", {className: "map-named"}, " · outlined: " + namedNames.join(", ")));
    fig.appendChild(cap);
    fig.appendChild(legend(hint, cls));
    target.appendChild(fig);
    target.appendChild(dataTable(geo, layer, rk, words));
    if (!namedNames.length) target.querySelector(".legend-named").hidden = true;
  }

  /* Draw layer ``index`` of ``list`` into ``target`` (emptied first); ``named``: ids of the question's places. */
  function render(target, list, index, named) {
    var layer = list[index];
    while (target.firstChild) target.removeChild(target.firstChild);
    target.appendChild(h("p", {className: "note"}, "Loading the map…"));
    return loadGeometry(layer.hint.level).then(function (geo) {
      while (target.firstChild) target.removeChild(target.firstChild);
      draw(target, geo, layer, named[layer.hint.level] || []);
    }).catch(function (err) {
      while (target.firstChild) target.removeChild(target.firstChild);
      target.appendChild(h("p", {className: "error-text"}, "The map could not be drawn: " + err.message));
    });
  }

  window.ChiQAMap = {layers: layers, render: render, classes: classes, format: format};
})();
