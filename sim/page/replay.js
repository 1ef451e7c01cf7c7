// The replay page's script (sim/page): draws the battle data inlined in #battle-data.
// No network, no library: plain DOM and SVG.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("battle-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  const view = { battle: 0, round: 0, timer: null, selected: null };
  const OUT = { incapacitated: "down", dead: "down", surrendered: "down", fled: "gone" };

  function el(tag, attrs, text) {
    const node = tag.startsWith("svg:")
      ? document.createElementNS(SVG, tag.slice(4))
      : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) node.setAttribute(k, v);
    }
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  const battle = () => DATA.battles[view.battle];
  const lastRound = () => battle().states.length - 1;
  const sideColor = (b, name) => b.sides.find((s) => s.name === name).color;

  function stateOf(b, i, r) {
    const row = b.states[r][i];
    const out = {};
    b.state_fields.forEach((k, j) => { out[k] = row[j]; });
    return out;
  }

  function present(b, i, r) {
    const arrived = b.fighters[i].arrived;
    return arrived === null || arrived === undefined || arrived <= r;
  }

  // ---- controls -------------------------------------------------------------------
  function goTo(r) {
    view.round = Math.max(0, Math.min(lastRound(), r));
    draw();
  }

  function play() {
    if (view.timer !== null) { pause(); return; }
    if (view.round >= lastRound()) view.round = 0;
    $("play").textContent = "\u23F8 pause";
    view.timer = setInterval(() => {
      if (view.round >= lastRound()) { pause(); return; }
      goTo(view.round + 1);
    }, 900);
    draw();
  }

  function pause() {
    if (view.timer !== null) clearInterval(view.timer);
    view.timer = null;
    $("play").textContent = "\u25B6 play";
  }

  function wire() {
    $("first").addEventListener("click", () => { pause(); goTo(0); });
    $("back").addEventListener("click", () => { pause(); goTo(view.round - 1); });
    $("forward").addEventListener("click", () => { pause(); goTo(view.round + 1); });
    $("play").addEventListener("click", play);
    $("slider").addEventListener("input", (e) => { pause(); goTo(Number(e.target.value)); });
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { pause(); goTo(view.round + 1); }
      else if (e.key === "ArrowLeft") { pause(); goTo(view.round - 1); }
      else if (e.key === "Home") { pause(); goTo(0); }
      else if (e.key === " ") { e.preventDefault(); play(); }
      else return;
    });
    const select = $("battle");
    if (DATA.battles.length > 1) {
      select.hidden = false;
      DATA.battles.forEach((b, i) => {
        select.appendChild(el("option", { value: i }, `battle ${i + 1}${b.label ? ": " + b.label : ""}`));
      });
      select.addEventListener("change", () => {
        pause();
        view.battle = Number(select.value);
        view.round = 0;
        view.selected = null;
        draw();
      });
    }
  }

  // ---- the field ------------------------------------------------------------------
  function drawMap(b, r) {
    const m = b.map;
    const c = 24;
    const svg = el("svg:svg", { viewBox: `0 0 ${m.width * c} ${m.height * c}`, id: "map" });
    svg.appendChild(el("svg:rect", { x: 0, y: 0, width: m.width * c, height: m.height * c, fill: "#fff" }));
    for (const [side, cells] of Object.entries(m.zones)) {
      for (const [x, y] of cells) {
        svg.appendChild(el("svg:rect", { x: x * c, y: y * c, width: c, height: c,
          fill: sideColor(b, side), "fill-opacity": 0.08 }));
      }
    }
    const fills = { wall: "#555", cover: "#7fbf7f", hazard: "#e8a33d" };
    for (const t of m.terrain) {
      for (const [x, y] of t.cells) {
        const cell = el("svg:rect", { x: x * c, y: y * c, width: c, height: c,
          fill: fills[t.kind] || "#bbb", "fill-opacity": t.kind === "wall" ? 1 : 0.6,
          class: "terrain " + t.kind });
        cell.appendChild(el("svg:title", {}, `${t.kind}${t.name ? ": " + t.name : ""}`));
        svg.appendChild(cell);
      }
    }
    for (let x = 0; x <= m.width; x++) {
      svg.appendChild(el("svg:line", { x1: x * c, y1: 0, x2: x * c, y2: m.height * c, stroke: "#eee" }));
    }
    for (let y = 0; y <= m.height; y++) {
      svg.appendChild(el("svg:line", { x1: 0, y1: y * c, x2: m.width * c, y2: y * c, stroke: "#eee" }));
    }
    b.fighters.forEach((f, i) => {
      const st = stateOf(b, i, r);
      // a fighter who fled has left the map (as in the PNG frames); not yet arrived: not there
      if (!present(b, i, r) || st.x === null || st.status === "fled") return;
      const cls = OUT[st.status] || st.status;
      const g = el("svg:g", { class: `fighter ${cls}${view.selected === f.name ? " selected" : ""}`,
        "data-name": f.name, "data-status": st.status,
        transform: `translate(${st.x * c + c / 2},${st.y * c + c / 2})` });
      const color = sideColor(b, f.side);
      if (cls === "down") {
        const d = c * 0.3;
        g.appendChild(el("svg:path", { d: `M${-d},${-d}L${d},${d}M${-d},${d}L${d},${-d}`,
          stroke: color, "stroke-width": 3 }));
      } else {
        g.appendChild(el("svg:circle", { r: c * 0.36, fill: cls === "active" ? color : "#fff",
          stroke: view.selected === f.name ? "#000" : color,
          "stroke-width": view.selected === f.name ? 3 : 2.5 }));
      }
      g.appendChild(el("svg:title", {}, `${f.name} (${f.side}): ${st.status}, ${st.hd} HD`));
      // names above on even columns, below on odd ones, so neighbours' names do not overlap
      const below = st.x % 2 === 1;
      g.appendChild(el("svg:text", { y: below ? c * 0.78 : -c * 0.48, "text-anchor": "middle" }, f.name));
      g.addEventListener("click", () => select(f.name));
      svg.appendChild(g);
    });
    return svg;
  }

  function drawColumns(b, r) {
    const box = el("div", { class: "columns" });
    for (const s of b.sides) {
      const col = el("div", { class: "column", "data-side": s.name });
      col.appendChild(el("h3", { style: `border-color:${s.color}` }, s.name));
      b.fighters.forEach((f, i) => {
        if (f.side !== s.name || !present(b, i, r)) return;
        const st = stateOf(b, i, r);
        const card = el("div", { class: `card fighter ${OUT[st.status] || st.status}${view.selected === f.name ? " selected" : ""}`,
          style: `border-left-color:${s.color}`, "data-name": f.name, "data-status": st.status });
        card.appendChild(el("span", {}, f.name));
        card.appendChild(el("span", { class: "state" }, `${st.status}, ${st.hd} HD`));
        card.addEventListener("click", () => select(f.name));
        col.appendChild(card);
      });
      box.appendChild(col);
    }
    return box;
  }

  function drawLegend(b) {
    const legend = $("legend");
    legend.replaceChildren();
    for (const s of b.sides) {
      legend.appendChild(el("span", { class: "key", style: `background:${s.color}` }));
      legend.appendChild(document.createTextNode(s.name));
    }
    legend.appendChild(document.createTextNode(
      b.map ? "  \u2014 disc: active, ring: fleeing, cross: down (fled: off the map)" : ""));
  }

  // ---- the side panel ---------------------------------------------------------------
  function select(name) {
    view.selected = view.selected === name ? null : name;
    draw();
  }

  function drawDetails(b, r) {
    const box = $("details");
    box.replaceChildren();
    const i = b.fighters.findIndex((f) => f.name === view.selected);
    if (i < 0) {
      box.appendChild(el("p", { class: "hint" }, "Click a fighter to see its state."));
      return;
    }
    const f = b.fighters[i];
    const st = stateOf(b, i, r);
    box.appendChild(el("h2", {}, f.name));
    const table = el("table", { id: "fighter-state", "data-name": f.name });
    const rows = [
      ["side", f.side], ["role", f.role], ["tier", f.tier], ["leader", f.leader ? "yes" : "no"],
      ["status", present(b, i, r) ? st.status : "not arrived yet"],
      ["HD", `${st.hd} of ${f.hd_start}`], ["armor", st.armor],
      ["wounds taken", st.wounds_taken], ["wounds dealt", st.wounds_dealt],
    ];
    if (st.x !== null && st.x !== undefined) rows.push(["cell", `(${st.x}, ${st.y})`]);
    for (const [k, v] of rows) {
      const tr = el("tr", { "data-key": k });
      tr.appendChild(el("th", {}, k));
      tr.appendChild(el("td", {}, v));
      table.appendChild(tr);
    }
    box.appendChild(table);
  }

  function drawNarrative(b, r) {
    $("narrative-round").textContent = r === 0 ? "0 (deployment)" : String(r);
    const list = $("narrative");
    list.replaceChildren();
    const lines = b.narrative[r] || [];
    if (!lines.length) list.appendChild(el("li", { class: "empty" }, "(nothing happened)"));
    for (const line of lines) list.appendChild(el("li", {}, line));
  }

  // ---- the charts -------------------------------------------------------------------
  function drawChart(svg, b, key, r) {
    const W = 360, H = 150, L = 34, R = 8, T = 8, B = 22;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const n = b.states.length - 1;
    let top = 1;
    for (const s of b.sides) top = Math.max(top, ...b.counts[s.name][key]);
    const X = (i) => L + (n ? (i / n) * (W - L - R) : 0);
    const Y = (v) => T + (1 - v / top) * (H - T - B);
    svg.appendChild(el("svg:line", { x1: L, y1: Y(0), x2: W - R, y2: Y(0), stroke: "#999" }));
    svg.appendChild(el("svg:line", { x1: L, y1: T, x2: L, y2: Y(0), stroke: "#999" }));
    svg.appendChild(el("svg:text", { x: L - 4, y: T + 8, "text-anchor": "end", "font-size": 10 }, top));
    svg.appendChild(el("svg:text", { x: L - 4, y: Y(0), "text-anchor": "end", "font-size": 10 }, 0));
    svg.appendChild(el("svg:text", { x: W - R, y: H - 6, "text-anchor": "end", "font-size": 10 }, `round ${n}`));
    svg.appendChild(el("svg:text", { x: L, y: H - 6, "font-size": 10 }, "0"));
    svg.appendChild(el("svg:line", { x1: X(r), y1: T, x2: X(r), y2: Y(0), stroke: "#000",
      "stroke-dasharray": "3 3", class: "now" }));
    for (const s of b.sides) {
      const vals = b.counts[s.name][key];
      svg.appendChild(el("svg:polyline", { fill: "none", stroke: s.color, "stroke-width": 2,
        points: vals.map((v, i) => `${X(i)},${Y(v)}`).join(" "), "data-side": s.name }));
      svg.appendChild(el("svg:circle", { cx: X(r), cy: Y(vals[r]), r: 3.5, fill: s.color }));
    }
  }

  function drawCounts(b, r) {
    const table = $("counts");
    table.replaceChildren();
    const head = el("tr");
    for (const h of ["side", "active", "fleeing", "HD"]) head.appendChild(el("th", {}, h));
    table.appendChild(head);
    for (const s of b.sides) {
      const c = b.counts[s.name];
      const tr = el("tr", { "data-side": s.name });
      tr.appendChild(el("td", { style: `color:${s.color}` }, s.name));
      tr.appendChild(el("td", { class: "active" }, c.active[r]));
      tr.appendChild(el("td", { class: "fleeing" }, c.fleeing[r]));
      tr.appendChild(el("td", { class: "hd" }, c.hd[r]));
      table.appendChild(tr);
    }
  }

  // ---- everything -------------------------------------------------------------------
  function draw() {
    const b = battle();
    const r = view.round;
    $("title").textContent = b.title;
    const slider = $("slider");
    slider.max = String(lastRound());
    slider.value = String(r);
    $("round-label").textContent = r === 0 ? `deployment (of ${lastRound()} rounds)`
      : `round ${r} of ${lastRound()}`;
    document.body.dataset.round = String(r);
    const field = $("field");
    field.replaceChildren(b.map ? drawMap(b, r) : drawColumns(b, r));
    drawLegend(b);
    drawDetails(b, r);
    drawNarrative(b, r);
    drawChart($("chart-active"), b, "active", r);
    drawChart($("chart-hd"), b, "hd", r);
    drawCounts(b, r);
  }

  wire();
  draw();
  document.body.dataset.ready = "1";
})();
