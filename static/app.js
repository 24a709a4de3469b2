/* ChiQA page: asks over a streamed NDJSON POST, renders each trace step live, then the answer.
   Every piece of untrusted text (question, model output, data values) goes in with textContent
   or createElement: nothing here parses strings as HTML. */
(function () {
  "use strict";

  var TABLE_PREVIEW_ROWS = 10;
  var state = {running: false, runId: null, limits: {}, startedAt: 0, toolCalls: 0, lastStep: "", timer: null,
               rating: null, conversationId: null, turn: 0, mapLayers: [], mapNamed: {}};
  var MAP_HIDDEN_KEY = "chiqa.map.hidden";
  var SHOWN_CARRIES = ["areas", "wards", "districts", "zips", "years", "periods", "months", "metrics"];

  function $(id) { return document.getElementById(id); }

  /* h("div", {className: "x", text: "..."}, [child, "text", ...]) */
  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === "text") node.textContent = String(v);
      else if (k === "className") node.className = v;
      else node.setAttribute(k, v === true ? "" : String(v));
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function show(node, yes) { node.hidden = !yes; }
  function json(v) { try { return JSON.stringify(v, null, 2); } catch (e) { return String(v); } }
  function ms(v) { return typeof v === "number" ? (v >= 1000 ? (v / 1000).toFixed(1) + " s" : Math.round(v) + " ms") : ""; }
  function isObj(v) { return v && typeof v === "object" && !Array.isArray(v); }

  /* ------------------------------------------------------------------ CSV */

  function csvCell(v) {
    if (v === null || v === undefined) return "";
    var s = typeof v === "object" ? JSON.stringify(v) : String(v);
    // Spreadsheet formula injection: text (not numbers) starting with = + @ or a non-numeric "-".
    if (typeof v === "string" && (/^[=+@\t\r]/.test(s) || /^-(?![0-9.])/.test(s))) s = "'" + s;
    return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  function toCSV(table) {
    var lines = [table.columns.map(csvCell).join(",")];
    table.rows.forEach(function (row) { lines.push((row || []).map(csvCell).join(",")); });
    return lines.join("\r\n") + "\r\n";
  }

  function downloadCSV(table, name) {
    var blob = new Blob([toCSV(table)], {type: "text/csv;charset=utf-8"});
    var url = URL.createObjectURL(blob);
    var a = h("a", {href: url, download: name});
    a.hidden = true;
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  function fileName(s) { return String(s || "result").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 60) || "result"; }

  /* ------------------------------------------------------------------ tables and charts */

  function renderTable(table, label) {
    var wrap = h("div", {className: "table-wrap"});
    var rows = table.rows || [];
    var t = h("table", {className: "data"});
    t.appendChild(h("caption", {text: rows.length > TABLE_PREVIEW_ROWS
      ? "First " + TABLE_PREVIEW_ROWS + " of " + rows.length + " rows" : rows.length + " row" + (rows.length === 1 ? "" : "s")}));
    var thead = h("thead"), tr = h("tr");
    table.columns.forEach(function (c) { tr.appendChild(h("th", {scope: "col", text: c})); });
    thead.appendChild(tr); t.appendChild(thead);
    var tbody = h("tbody");
    rows.slice(0, TABLE_PREVIEW_ROWS).forEach(function (row) {
      var r = h("tr");
      (row || []).forEach(function (cell) {
        var num = typeof cell === "number";
        r.appendChild(h("td", {className: num ? "num" : null,
          text: cell === null || cell === undefined ? "" : num ? cell.toLocaleString("en-US", {maximumFractionDigits: 4}) : (typeof cell === "object" ? JSON.stringify(cell) : cell)}));
      });
      tbody.appendChild(r);
    });
    t.appendChild(tbody);
    wrap.appendChild(t);
    var btn = h("button", {type: "button", className: "csv", text: "Download CSV (" + rows.length + " rows)"});
    btn.addEventListener("click", function () { downloadCSV(table, fileName(label) + ".csv"); });
    return [wrap, btn];
  }

  function hasTable(r) { return isObj(r) && isObj(r.table) && Array.isArray(r.table.columns) && Array.isArray(r.table.rows); }

  function chartFor(r) {
    if (!hasTable(r) || !isObj(r.chart) || !window.ChiQAChart) return null;
    try { return window.ChiQAChart.render(r.table, r.chart); } catch (e) { return null; }
  }

  /* ------------------------------------------------------------------ trace steps */

  var LABELS = {analysis: "Question analysis", model_pass: "Model pass", tool_call: "Tool call", trim: "Context trimmed",
                synthesis: "Writing the answer", grounding: "Grounding check", notes: "Notes for the user",
                reading: "Which reading answered", error: "Error"};
  var HANDLED = ["type", "index", "started_ms", "duration_ms", "result", "raw_output", "output", "text", "raw",
                 "calls", "parsed_calls", "tool_calls", "arguments", "name", "tool", "status", "analysis", "error", "result_summary",
                 "origin"];

  // Who wrote a tool call (trace field "origin").
  var ORIGINS = {planner: "run by the rule planner", draft: "the planner's draft, taken by the model",
                 model: "the model's own call", reader: "the reading's own call (no model pass)"};

  function stepTitle(step) {
    var type = step.type || "step", label = LABELS[type] || type, bits = [];
    var r = isObj(step.result) ? step.result : null;
    if (type === "tool_call") {
      label += ": " + (step.name || (r && r.tool) || "?");
      if (step.status) bits.push(step.status);
      if (ORIGINS[step.origin]) bits.push(ORIGINS[step.origin]);
      if (step.status === "duplicate" && step.duplicate_of) bits.push("same as call " + step.duplicate_of);
      else if (step.error) bits.push(String(step.error));
      else if (step.result_summary || (r && r.summary)) bits.push(step.result_summary || r.summary);
    } else if (type === "model_pass") {
      if (step.phase === "reader") label = "Reading's calls";
      if (step.phase === "query") label = "Model's query";
      if (step.pass !== undefined) label += " " + step.pass;
      if (step.phase) bits.push(step.phase);
      var calls = step.calls || step.parsed_calls || step.tool_calls;
      if (Array.isArray(calls)) bits.push(calls.length + " tool call" + (calls.length === 1 ? "" : "s") + " parsed");
      if (step.finish_reason) bits.push(step.finish_reason);
      if (Array.isArray(step.allowed_tools) && step.allowed_tools.length) {
        bits.push("tools admitted: " + step.allowed_tools.join(", "));
      }
    } else if (type === "analysis") {
      var a = isObj(step.analysis) ? step.analysis : step;
      if (a.complexity) bits.push(a.complexity);
      var carried = isObj(a.followup) && Array.isArray(a.followup.carried) ? a.followup.carried : [];
      carried = carried.filter(function (c) { return SHOWN_CARRIES.indexOf(c.field) >= 0; });
      if (carried.length) bits.push("carried from earlier turns: " + carried.map(function (c) {
        return c.field + " from turn " + c.from_turn; }).join(", "));
      if (isObj(a.followup) && a.followup.compare_city) bits.push("compared with the city");
    } else if (type === "grounding") {
      if (Array.isArray(step.unmatched)) {
        var u = step.unmatched;
        bits.push(u.length ? u.length + " ungrounded number" + (u.length === 1 ? "" : "s") : "all numbers grounded");
      }
      if (Array.isArray(step.mislabelled) && step.mislabelled.length) {
        bits.push(step.mislabelled.map(function (m) { return m.number + " is " + m.data + ", not " + m.claimed; }).join("; "));
      }
      if (Array.isArray(step.form_problems) && step.form_problems.length) {
        bits.push("not read as an answer: " + step.form_problems.join("; "));
      }
    } else if (type === "notes") {
      var added = Array.isArray(step.added) ? step.added.length : 0;
      bits.push(added ? added + " added to the answer (left out by it)" : "all stated in the answer");
    } else if (type === "synthesis") {
      if (step.strict) bits.push("stricter retry");
      if (step.fallback) bits.push("built without the model");
    } else if (type === "reading") {
      bits.push("answered by " + (step.ran || "?"));
      if (step.read_as) bits.push("the model's query: " + step.read_as);
      if (step.agreed === true) bits.push("the same figures as the reader's");
      if (step.agreed === false) bits.push("different figures: shown as another reading");
    } else if (type === "error" && step.message) {
      bits.push(step.message);
    }
    if (typeof step.duration_ms === "number") bits.push(ms(step.duration_ms));
    return {label: label, detail: bits.join(" · ")};
  }

  function section(title, nodes) {
    return h("div", {className: "step-part"}, [h("h4", {text: title})].concat(nodes));
  }

  function pre(text) { return h("pre", {className: "raw", text: text}); }

  function renderStep(step) {
    var t = stepTitle(step);
    var status = step.status || (isObj(step.result) && step.result.ok === false ? "error" : "");
    var li = h("li", {className: "step step-" + (step.type || "other") + (status ? " status-" + status : ""),
                      "data-type": step.type || "", "data-index": step.index});
    var details = h("details");
    var summary = h("summary", {}, [h("span", {className: "step-no", text: (step.index !== undefined ? step.index : "·") + "."}), " ",
                                    h("strong", {text: t.label}), t.detail ? h("span", {className: "step-detail", text: " · " + t.detail}) : null]);
    details.appendChild(summary);
    var body = h("div", {className: "step-body"});

    var raw = step.raw_output !== undefined ? step.raw_output : step.raw !== undefined ? step.raw : step.output !== undefined ? step.output : step.text;
    if (raw !== undefined && raw !== null) body.appendChild(section("Raw model output", [pre(typeof raw === "string" ? raw : json(raw))]));
    var calls = step.calls || step.parsed_calls || step.tool_calls;
    if (calls !== undefined) body.appendChild(section("Parsed tool calls", [pre(json(calls))]));
    if (step.analysis !== undefined) body.appendChild(section("Analysis", [pre(json(step.analysis))]));
    if (step.arguments !== undefined) body.appendChild(section("Arguments", [pre(json(step.arguments))]));
    if (step.error) body.appendChild(section("Error", [h("p", {className: "error-text", text: typeof step.error === "string" ? step.error : json(step.error)})]));

    var r = isObj(step.result) ? step.result : null;
    if (r) {
      if (r.error && !step.error) body.appendChild(section("Error", [h("p", {className: "error-text", text: (r.error.code ? r.error.code + ": " : "") + (r.error.message || "")})]));
      if (r.summary) body.appendChild(section("Summary", [h("p", {text: r.summary})]));
      var chart = chartFor(r);
      if (chart) body.appendChild(section("Chart", [chart]));
      if (hasTable(r)) body.appendChild(section("Result table", renderTable(r.table, (step.name || r.tool || "result") + "_step" + step.index)));
      if (r.text) body.appendChild(section("Text the model saw", [pre(r.text)]));
      if (Array.isArray(r.caveats) && r.caveats.length) body.appendChild(section("Caveats", [listOf(r.caveats, String)]));
      if (Array.isArray(r.sources) && r.sources.length) body.appendChild(section("Sources", [listOf(r.sources, sourceText)]));
    } else if (step.result !== undefined) {
      body.appendChild(section("Result", [pre(json(step.result))]));
    }

    var timing = [];
    if (typeof step.started_ms === "number") timing.push("started at " + ms(step.started_ms));
    if (typeof step.duration_ms === "number") timing.push("took " + ms(step.duration_ms));
    if (r && typeof r.duration_ms === "number") timing.push("tool " + ms(r.duration_ms));
    if (timing.length) body.appendChild(section("Timing", [h("p", {text: timing.join(" · ")})]));

    var rest = {};
    Object.keys(step).forEach(function (k) { if (HANDLED.indexOf(k) < 0) rest[k] = step[k]; });
    if (Object.keys(rest).length) body.appendChild(section("Details (tokens, limits, …)", [pre(json(rest))]));
    details.appendChild(body);
    li.appendChild(details);
    return li;
  }

  function appendStep(step) {
    show($("trace-section"), true);
    $("trace").appendChild(renderStep(step));
    if (step.type === "tool_call") state.toolCalls += 1;
    state.lastStep = stepTitle(step).label;
    updateProgress();
  }

  /* ------------------------------------------------------------------ answer */

  function numberTexts(list) {
    return (list || []).map(function (u) {
      if (isObj(u)) return u.text || u.raw || u.value || u.number;
      return u;
    }).filter(function (s) { return s !== undefined && s !== null && String(s).length; }).map(String);
  }

  /* The answer as text nodes, with each ungrounded number wrapped in a <mark>. */
  function markedAnswer(text, numbers) {
    var frag = document.createDocumentFragment();
    var needles = numberTexts(numbers).sort(function (a, b) { return b.length - a.length; });
    var i = 0;
    while (i < text.length) {
      var best = -1, bestLen = 0;
      needles.forEach(function (n) {
        var from = i;
        while (true) {
          var at = text.indexOf(n, from);
          if (at < 0) break;
          var before = text.charAt(at - 1), after = text.charAt(at + n.length);
          var boundary = !/[0-9.]/.test(before) && !/[0-9]/.test(after) && !(after === "." && /[0-9]/.test(text.charAt(at + n.length + 1)));
          if (boundary) {
            if (best < 0 || at < best || (at === best && n.length > bestLen)) { best = at; bestLen = n.length; }
            break;
          }
          from = at + 1;
        }
      });
      if (best < 0) { frag.appendChild(document.createTextNode(text.slice(i))); break; }
      if (best > i) frag.appendChild(document.createTextNode(text.slice(i, best)));
      frag.appendChild(h("mark", {className: "ungrounded", title: "This number was not found in any tool result", text: text.slice(best, best + bestLen)}));
      i = best + bestLen;
    }
    return frag;
  }

  function sourceText(s) {
    if (!isObj(s)) return String(s);
    var bits = [s.title || s.dataset || s.key || "dataset"];
    if (s.publisher) bits.push(s.publisher);
    if (s.portal_id) bits.push("portal id " + s.portal_id);
    var c = s.coverage;
    if (isObj(c) && (c.start || c.end)) bits.push("covers " + (c.start || "?") + " – " + (c.end || "?"));
    return bits.join(" · ");
  }

  function listOf(items, fn) {
    var ul = h("ul");
    items.forEach(function (it) { ul.appendChild(h("li", {text: fn(it)})); });
    return ul;
  }

  function backendText(result) {
    var b = result.backend, bits = [];
    var name = isObj(b) ? (b.backend || b.name) : b;
    bits.push("Answered by " + (name || "unknown backend"));
    var model = result.model || (isObj(b) ? b.model : null);
    if (model) bits.push("model " + model);
    if (isObj(b) && isObj(b.info) && b.info.sha256) bits.push("sha256 " + String(b.info.sha256).slice(0, 12));
    else if (isObj(b) && b.sha256) bits.push("sha256 " + String(b.sha256).slice(0, 12));
    var reason = isObj(b) ? (b.reason || b.selection_reason) : null;
    if (reason) bits.push("why this backend: " + reason);
    if (result.stopped_because) bits.push("stopped because: " + result.stopped_because);
    var calls = Array.isArray(result.tool_calls) ? result.tool_calls.length : null;
    if (calls !== null) bits.push(calls + " tool call" + (calls === 1 ? "" : "s"));
    var total = isObj(result.timings) ? (result.timings.total_ms || result.timings.total) : null;
    if (typeof total === "number") bits.push(ms(total));
    if (result.prompt_version) bits.push("prompt " + result.prompt_version);
    return bits.join(" · ");
  }

  function renderResult(result, feedback) {
    state.runId = result.run_id || null;
    // The run's link carries its share key (anyone holding it can open the run); feedback is its owner's.
    state.permalink = result.permalink || null;
    state.owned = result.owned !== false;
    show($("answer-section"), true);
    $("asked").textContent = result.question ? "Q: " + result.question : "";
    var answer = $("answer");
    clear(answer);
    /* The question as read, before the figures: a reader sees which question was answered. */
    if (isObj(result.reading) && result.reading.line) {
      answer.appendChild(h("p", {className: "reading", text: String(result.reading.line)}));
    }
    answer.appendChild(markedAnswer(String(result.answer || ""), result.ungrounded_numbers));
    if (result.partial) answer.appendChild(h("p", {className: "note", text: "This is a partial answer (" + (result.stopped_because || "stopped early") + ")."}));
    if (isObj(result.error)) answer.appendChild(h("p", {className: "note error-text", text: "The model failed during this question: " + (result.error.type || "error") + ": " + (result.error.message || "") + "."}));
    if (result.saved === false) answer.appendChild(h("p", {className: "note", text: "This answer could not be saved to the run history" + (result.save_error ? " (" + result.save_error + ")" : "") + "; it has no permalink."}));
    var ung = numberTexts(result.ungrounded_numbers);
    $("ungrounded-note").textContent = ung.length ? "Highlighted numbers (" + ung.join(", ") + ") were not found in any tool result; check them." : "";
    show($("ungrounded-note"), ung.length > 0);

    var charts = $("charts");
    clear(charts);
    var trace = Array.isArray(result.trace) ? result.trace : [];
    trace.forEach(function (step) {
      if (step && step.type === "tool_call") { var c = chartFor(step.result); if (c) charts.appendChild(c); }
    });
    renderMap(result);
    // A follow-up refused by the store (the conversation filled up meanwhile) leaves the conversation at its cap.
    setConversation(result.conversation_id, result.conversation_full ? Infinity : result.turn, result.run_id);

    var sources = Array.isArray(result.sources) ? result.sources : [];
    clear($("sources")); sources.forEach(function (s) { $("sources").appendChild(h("li", {text: sourceText(s)})); });
    show($("sources-box"), sources.length > 0);
    var caveats = Array.isArray(result.caveats) ? result.caveats : [];
    clear($("caveats")); caveats.forEach(function (c) { $("caveats").appendChild(h("li", {text: String(c)})); });
    show($("caveats-box"), caveats.length > 0);
    $("backend-line").textContent = backendText(result);

    // The trace again from the result itself, keeping the steps the reader had opened.
    var open = {};
    Array.prototype.forEach.call($("trace").querySelectorAll("li.step"), function (li) {
      if (li.querySelector("details").open) open[li.getAttribute("data-index")] = true;
    });
    clear($("trace"));
    trace.forEach(function (step) {
      var li = renderStep(step);
      if (open[String(step.index)]) li.querySelector("details").open = true;
      $("trace").appendChild(li);
    });
    show($("trace-section"), trace.length > 0);
    setupFeedback(feedback || {});
  }

  /* ------------------------------------------------------------------ map */

  /* The places the question named (after follow-up carries), per map level. */
  function namedPlaces(analysis) {
    var a = isObj(analysis) ? analysis : {};
    return {community_area: (a.areas || []).map(function (x) { return String(isObj(x) ? x.number : x); }),
            zip: (a.zips || []).map(String)};
  }

  function mapHidden() { try { return window.localStorage.getItem(MAP_HIDDEN_KEY) === "1"; } catch (e) { return false; } }

  function applyMapHidden() {
    var hidden = mapHidden();
    $("map-body").hidden = hidden;
    $("map-toggle").setAttribute("aria-expanded", hidden ? "false" : "true");
    $("map-toggle").textContent = hidden ? "Show map" : "Hide map";
  }

  function drawMapLayer() {
    if (!state.mapLayers.length || !window.ChiQAMap) return;
    var i = parseInt($("map-layer").value, 10) || 0;
    window.ChiQAMap.render($("map-body"), state.mapLayers, i, state.mapNamed);
  }

  function renderMap(result) {
    state.mapLayers = window.ChiQAMap ? window.ChiQAMap.layers(result) : [];
    state.mapNamed = namedPlaces(result.analysis);
    show($("map-panel"), state.mapLayers.length > 0);
    var select = $("map-layer");
    clear(select);
    state.mapLayers.forEach(function (layer, i) {
      select.appendChild(h("option", {value: i, text: layer.hint.title + " (" + layer.hint.period + ")"}));
    });
    show($("map-choose"), state.mapLayers.length > 1);
    clear($("map-body"));
    applyMapHidden();
    drawMapLayer();
  }

  /* ------------------------------------------------------------------ conversation thread */

  function setConversation(conversationId, turn, runId) {
    state.conversationId = conversationId || null;
    state.turn = turn || 0;
    var max = parseInt(document.body.getAttribute("data-max-turns"), 10) || 20;
    show($("followup-note"), !!state.conversationId);
    $("followup-text").textContent = state.turn >= max
      ? "This conversation has reached its limit of " + max + " questions; start a new one to go on."
      : "Your next question follows up this conversation (question " + (state.turn + 1) + " of at most " + max +
        "); it can leave out places and years named before.";
    if (state.conversationId) loadThread(state.conversationId, runId);
    else { clear($("thread")); show($("thread-section"), false); }
  }

  function loadThread(conversationId, currentRunId) {
    fetch("/api/conversations/" + encodeURIComponent(conversationId))
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || conversationId !== state.conversationId) return;
        var ol = $("thread");
        clear(ol);
        body.turns.forEach(function (t) {
          var current = t.run_id === currentRunId;
          var answer = String(t.answer || "").split(/\n\s*\n/)[0];  // the lead paragraph, not the details
          var li = h("li", {className: current ? "turn current" : "turn", "aria-current": current ? "true" : null,
                            "data-turn": t.turn});
          li.appendChild(h("p", {className: "turn-q"}, [h("span", {className: "turn-no", text: "Q" + t.turn + " "}),
                                                        h("a", {href: t.permalink || "/runs/" + encodeURIComponent(t.run_id), text: t.question})]));
          li.appendChild(h("p", {className: "turn-a", text: answer.length > 240 ? answer.slice(0, 239) + "…" : answer}));
          ol.appendChild(li);
        });
        show($("thread-section"), body.turns.length > 1);
      }).catch(function () {});
  }

  function newConversation() {
    state.conversationId = null;
    state.turn = 0;
    show($("followup-note"), false);
    clear($("thread"));
    show($("thread-section"), false);
    $("question").focus();
  }

  /* ------------------------------------------------------------------ progress and errors */

  function updateProgress() {
    if (!state.running) return;
    var max = state.limits.max_tool_calls, timeout = state.limits.timeout_seconds;
    var secs = Math.floor((Date.now() - state.startedAt) / 1000);
    var text = "tool call " + state.toolCalls + (max ? " of max " + max : "") + " · " + secs + " s" + (timeout ? " of " + timeout + " s" : "");
    if (state.lastStep) text += " · " + state.lastStep;
    $("progress").textContent = text;
  }

  function showError(message) {
    show($("status"), true);
    $("error").textContent = message;
    show($("error"), true);
  }

  function setRunning(on) {
    state.running = on;
    $("ask-button").disabled = on;
    $("ask-button").textContent = on ? "Working…" : "Ask";
    document.body.classList.toggle("busy", on);
    if (state.timer) { clearInterval(state.timer); state.timer = null; }
    if (on) state.timer = setInterval(updateProgress, 500);
  }

  function errorMessage(body, resp) {
    var msg = body && body.error ? body.error.message : "the server answered " + resp.status;
    var retry = resp.headers.get("Retry-After");
    return msg + (retry ? " (retry in " + retry + " s)" : "");
  }

  /* ------------------------------------------------------------------ asking */

  function resetForQuestion(question) {
    state.toolCalls = 0; state.limits = {}; state.lastStep = ""; state.startedAt = Date.now(); state.runId = null;
    clear($("trace")); show($("trace-section"), false); show($("answer-section"), false);
    show($("error"), false); show($("status"), true);
    $("progress").textContent = "starting…";
  }

  /* The answer as the model writes it: plain text only (never HTML); the final render replaces it. */
  function streamAnswer(text, restart) {
    var answer = $("answer");
    var live = $("answer-live");
    if (!live || restart) {
      clear(answer);
      live = h("p", {className: "answer-live"});
      live.id = "answer-live";
      live.setAttribute("aria-live", "polite");
      answer.appendChild(live);
      if (restart) answer.insertBefore(h("p", {className: "note", text: "Rewriting the answer with only the figures the data backs…"}), live);
      show($("answer-section"), true);
    }
    live.appendChild(document.createTextNode(text));
  }

  function handleEvent(ev) {
    if (!isObj(ev)) return;
    if (ev.event === "start") {
      state.limits = isObj(ev.limits) ? ev.limits : {};
      if (ev.turn > 1) state.lastStep = "follow-up, question " + ev.turn;
      else if (isObj(ev.backend)) state.lastStep = "backend " + (ev.backend.backend || ev.backend.name || "");
      updateProgress();
    } else if (ev.event === "token" && typeof ev.text === "string") {
      streamAnswer(ev.text, ev.restart === true);
    } else if (ev.event === "step" && isObj(ev.step)) {
      appendStep(ev.step);
    } else if (ev.event === "result" && isObj(ev.result)) {
      setRunning(false);
      $("progress").textContent = "done · " + state.toolCalls + " tool call" + (state.toolCalls === 1 ? "" : "s") + " · " + ((Date.now() - state.startedAt) / 1000).toFixed(1) + " s";
      renderResult(ev.result, {});
      loadRecent();
    } else if (ev.event === "error") {
      showError((ev.error && ev.error.message) || "the answer failed");
    }
  }

  function ask(question) {
    question = question.trim();
    var max = parseInt(document.body.getAttribute("data-max-chars"), 10) || 2000;
    if (!question) { showError("Type a question first."); return; }
    if (question.length > max) { showError("The question is too long (" + question.length + " of " + max + " characters)."); return; }
    if (state.running) return;
    resetForQuestion(question);
    setRunning(true);
    var body = {question: question};
    if (state.conversationId) body.conversation_id = state.conversationId;
    fetch("/api/ask/stream", {method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/x-ndjson"},
                              body: JSON.stringify(body)})
      .then(function (resp) {
        if (!resp.ok) {
          return resp.json().catch(function () { return null; }).then(function (body) { throw new Error(errorMessage(body, resp)); });
        }
        var reader = resp.body.getReader(), decoder = new TextDecoder(), buffer = "";
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.done) {
              if (buffer.trim()) handleEvent(JSON.parse(buffer));
              return;
            }
            buffer += decoder.decode(chunk.value, {stream: true});
            var lines = buffer.split("\n");
            buffer = lines.pop();
            lines.forEach(function (line) { if (line.trim()) handleEvent(JSON.parse(line)); });
            return pump();
          });
        }
        return pump();
      })
      .catch(function (err) { showError("Could not answer: " + err.message); })
      .then(function () { if (state.running) setRunning(false); });
  }

  /* ------------------------------------------------------------------ feedback */

  function setupFeedback(fb) {
    show($("feedback"), !!state.runId);
    if (!state.runId) return;
    // Only the run's owner rates it; a shared run shows its link alone.
    ["feedback-label", "vote-up", "vote-down", "feedback-comment", "feedback-send"].forEach(function (id) {
      show($(id), state.owned);
    });
    state.rating = fb.rating || null;
    $("vote-up").setAttribute("aria-pressed", state.rating === 1 ? "true" : "false");
    $("vote-down").setAttribute("aria-pressed", state.rating === -1 ? "true" : "false");
    $("feedback-comment").value = fb.comment || "";
    $("feedback-status").textContent = state.rating ? "Thanks, your rating is saved." : "";
    var link = $("permalink");
    link.href = state.permalink || "/runs/" + encodeURIComponent(state.runId);
    show(link, true);
  }

  function sendFeedback(rating) {
    if (!state.runId) return;
    if (rating) state.rating = rating;
    if (!state.rating) { $("feedback-status").textContent = "Pick 👍 or 👎 first."; return; }
    $("vote-up").setAttribute("aria-pressed", state.rating === 1 ? "true" : "false");
    $("vote-down").setAttribute("aria-pressed", state.rating === -1 ? "true" : "false");
    var comment = $("feedback-comment").value.trim();
    var body = {rating: state.rating};
    if (comment) body.comment = comment;
    fetch("/api/runs/" + encodeURIComponent(state.runId) + "/feedback",
          {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (resp) { return resp.json().then(function (b) { return {resp: resp, body: b}; }); })
      .then(function (r) {
        $("feedback-status").textContent = r.resp.ok ? "Thanks, saved." : "Not saved: " + errorMessage(r.body, r.resp);
        if (r.resp.ok) loadRecent();
      })
      .catch(function (err) { $("feedback-status").textContent = "Not saved: " + err.message; });
  }

  /* ------------------------------------------------------------------ recent runs and permalinks */

  function loadRecent() {
    fetch("/api/runs?limit=10").then(function (r) { return r.ok ? r.json() : null; }).then(function (body) {
      var ul = $("recent");
      clear(ul);
      if (!body || !body.runs || !body.runs.length) { ul.appendChild(h("li", {className: "note", text: "No questions yet."})); return; }
      body.runs.forEach(function (run) {
        var when = new Date(run.created_at * 1000);
        var meta = when.toLocaleString() + " · " + run.n_tool_calls + " tool call" + (run.n_tool_calls === 1 ? "" : "s") +
                   (run.rating === 1 ? " · 👍" : run.rating === -1 ? " · 👎" : "");
        ul.appendChild(h("li", {}, [h("a", {href: run.permalink || "/runs/" + encodeURIComponent(run.id), text: run.question}),
                                    h("span", {className: "recent-meta", text: meta})]));
      });
    }).catch(function () {});
  }

  function loadStoredRun(runId) {
    show($("status"), true);
    $("progress").textContent = "loading the stored run…";
    var key = new URLSearchParams(window.location.search).get("key");  // a shared link's capability
    fetch("/api/runs/" + encodeURIComponent(runId) + (key ? "?key=" + encodeURIComponent(key) : ""))
      .then(function (r) { return r.json().then(function (b) { return {resp: r, body: b}; }); })
      .then(function (r) {
        if (!r.resp.ok) throw new Error(errorMessage(r.body, r.resp));
        var result = r.body.result || {};
        result.run_id = r.body.id;
        result.owned = r.body.owned;
        result.permalink = r.body.permalink || (key ? "/runs/" + encodeURIComponent(runId) + "?key=" + encodeURIComponent(key) : null);
        // A run shared with this browser is read-only here: its conversation stays its owner's.
        result.conversation_id = r.body.owned ? r.body.conversation_id : null;
        result.turn = r.body.owned ? r.body.turn : 0;
        $("question").value = result.question || r.body.question || "";
        $("progress").textContent = "stored run from " + new Date(r.body.created_at * 1000).toLocaleString();
        renderResult(result, {rating: r.body.rating, comment: r.body.comment});
      })
      .catch(function (err) { showError("Could not load this run: " + err.message); });
  }

  /* ------------------------------------------------------------------ wiring */

  document.addEventListener("DOMContentLoaded", function () {
    var form = $("ask-form"), box = $("question");
    form.addEventListener("submit", function (e) { e.preventDefault(); ask(box.value); });
    box.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); ask(box.value); }
    });
    Array.prototype.forEach.call(document.querySelectorAll("button.example"), function (b) {
      // An example is a whole question of its own: it starts a new conversation.
      b.addEventListener("click", function () { newConversation(); box.value = b.textContent; ask(b.textContent); });
    });
    $("new-conversation").addEventListener("click", newConversation);
    $("map-layer").addEventListener("change", drawMapLayer);
    $("map-toggle").addEventListener("click", function () {
      try { window.localStorage.setItem(MAP_HIDDEN_KEY, mapHidden() ? "0" : "1"); } catch (e) { /* private mode */ }
      applyMapHidden();
    });
    $("vote-up").addEventListener("click", function () { sendFeedback(1); });
    $("vote-down").addEventListener("click", function () { sendFeedback(-1); });
    $("feedback-send").addEventListener("click", function () { sendFeedback(null); });
    $("feedback-comment").addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); sendFeedback(null); } });
    var runId = document.body.getAttribute("data-run-id");
    if (runId) loadStoredRun(runId);
    loadRecent();
  });

  window.ChiQA = {toCSV: toCSV, markedAnswer: markedAnswer, renderResult: renderResult};
})();
