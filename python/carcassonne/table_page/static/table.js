// The page that follows a game at a real table. The server (table_page/app.py) holds the game
// and answers every step with the whole view; nothing about the rules or the tiles is decided
// here. Every change names the state it was made for (view.version): a page that fell behind
// another device is refused and looks again.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
let view = null;      // the last view the server sent
let picked = null;    // {x, y, rotations, rotation, move} while a placement is entered
let suggestion = null;
let shown = 0;        // views shown so far (body[data-shown]: scripts wait for the next one)
let fitted = false;

const $ = (id) => document.getElementById(id);
const device = () => $("device").value.trim() || "a device";

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.dataset[k.slice(5)] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function button(children, cls, data, onClick) {
  const attrs = { type: "button", class: cls };
  for (const [k, v] of Object.entries(data)) attrs["data-" + k] = v;
  const b = el("button", attrs, ...(Array.isArray(children) ? children : [children]));
  b.addEventListener("click", onClick);
  return b;
}

function tileImage(id, rotation = 0) {
  return el("img", { src: `/tile/${encodeURIComponent(id)}.svg?rotation=${rotation}`, alt: "" });
}

async function call(path, body) {
  const init = { headers: { "X-Table-Token": TOKEN } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify({ ...body, version: view ? view.version : -1, device: device() });
  }
  let r;
  try { r = await fetch(path, init); } catch (e) { $("error").textContent = "the server does not answer"; return null; }
  const data = r.headers.get("content-type")?.startsWith("application/json") ? await r.json() : null;
  if (!r.ok) {
    $("error").textContent = data ? data.error : `error ${r.status}`;
    if (r.status === 409) refresh();
    return null;
  }
  if (body !== undefined) $("error").textContent = "";  // a change went through
  return data;
}

let sending = false;  // a change awaits its answer: a second tap (a double tap) would be stale
async function step(path, body = {}) {
  if (sending) return null;
  sending = true;
  try {
    const v = await call(path, body);
    if (v) { picked = null; dropSuggestion(); show(v); }
    return v;
  } finally {
    sending = false;
  }
}

async function refresh() {
  const v = await call("/api/state");
  if (v) show(v);
}

// -- the board: pan and zoom with fingers, mouse wheel or keys -------------------------------

const cam = { s: 1, x: 0, y: 0 };
let dragged = false;

function applyCam() {
  $("board").style.transform = `translate(${cam.x}px, ${cam.y}px) scale(${cam.s})`;
}

function zoomAt(factor, cx, cy) {
  const s = Math.min(4, Math.max(0.15, cam.s * factor));
  cam.x = cx - (cx - cam.x) * (s / cam.s);
  cam.y = cy - (cy - cam.y) * (s / cam.s);
  cam.s = s;
  applyCam();
}

function fit() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  const box = $("board-view").getBoundingClientRect();
  const w = +svg.getAttribute("width"), h = +svg.getAttribute("height");
  cam.s = Math.min(2, box.width / w, box.height / h);
  cam.x = (box.width - w * cam.s) / 2;
  cam.y = (box.height - h * cam.s) / 2;
  applyCam();
}

function centreOn(x, y) {
  const g = $("board").querySelector(`.open-position[data-x="${x}"][data-y="${y}"], .tile[data-x="${x}"][data-y="${y}"]`);
  if (!g) return;
  const [ox, oy] = translation(g);
  const box = $("board-view").getBoundingClientRect();
  cam.x = box.width / 2 - (ox + 50) * cam.s;
  cam.y = box.height / 2 - (oy + 50) * cam.s;
  applyCam();
}

function translation(g) {
  const m = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/.exec(g.getAttribute("transform") || "");
  return m ? [+m[1], +m[2]] : [0, 0];
}

(function gestures() {
  const bv = $("board-view");
  const pts = new Map();
  let last = null;
  bv.addEventListener("pointerdown", (e) => {
    pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
    dragged = false;
    last = null;
  });
  bv.addEventListener("pointermove", (e) => {
    if (!pts.has(e.pointerId)) return;
    const prev = pts.get(e.pointerId);
    pts.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pts.size === 1) {
      const dx = e.clientX - prev.x, dy = e.clientY - prev.y;
      if (!dragged && Math.hypot(dx, dy) < 3) { pts.set(e.pointerId, prev); return; }
      dragged = true;
      cam.x += dx; cam.y += dy; applyCam();
    } else if (pts.size === 2) {
      const [a, b] = [...pts.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const box = bv.getBoundingClientRect();
      const mx = (a.x + b.x) / 2 - box.left, my = (a.y + b.y) / 2 - box.top;
      if (last) { zoomAt(d / last.d, mx, my); cam.x += mx - last.mx; cam.y += my - last.my; applyCam(); }
      last = { d, mx, my };
      dragged = true;
    }
  });
  const up = (e) => { pts.delete(e.pointerId); last = null; };
  bv.addEventListener("pointerup", up);
  bv.addEventListener("pointercancel", up);
  bv.addEventListener("click", (e) => { if (dragged) { e.stopPropagation(); dragged = false; } }, true);
  bv.addEventListener("wheel", (e) => {
    e.preventDefault();
    const box = bv.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });
  bv.addEventListener("keydown", (e) => {
    const box = bv.getBoundingClientRect();
    const move = { ArrowLeft: [40, 0], ArrowRight: [-40, 0], ArrowUp: [0, 40], ArrowDown: [0, -40] }[e.key];
    if (move) { cam.x += move[0]; cam.y += move[1]; applyCam(); e.preventDefault(); }
    else if (e.key === "+" || e.key === "=") zoomAt(1.25, box.width / 2, box.height / 2);
    else if (e.key === "-") zoomAt(0.8, box.width / 2, box.height / 2);
  });
  $("zoom-in").addEventListener("click", () => { const b = bv.getBoundingClientRect(); zoomAt(1.25, b.width / 2, b.height / 2); });
  $("zoom-out").addEventListener("click", () => { const b = bv.getBoundingClientRect(); zoomAt(0.8, b.width / 2, b.height / 2); });
  $("zoom-fit").addEventListener("click", fit);
})();

function showBoard(svgText) {
  $("board").innerHTML = svgText;
  const svg = $("board").querySelector("svg");
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  svg.setAttribute("width", w); svg.setAttribute("height", h);  // one unit, one pixel at zoom 1
  if (!fitted) { fit(); fitted = true; }
}

// -- placing a tile: a spot and a rotation on the board, the figure on a close-up ------------

function spotMoves() {
  const prefix = `${picked.x},${picked.y} ${picked.rotation}`;
  return view.legal.filter((m) => m === prefix || m.startsWith(prefix + " "));
}

function pickSpot(g) {
  const x = +g.dataset.x, y = +g.dataset.y;
  const rotations = g.dataset.rotations.split(" ");
  if (picked && picked.x === x && picked.y === y) {
    picked.rotation = rotations[(rotations.indexOf(picked.rotation) + 1) % rotations.length];
  } else {
    picked = { x, y, rotations, rotation: rotations[0] };
  }
  const moves = spotMoves();
  const plain = `${picked.x},${picked.y} ${picked.rotation}`;
  picked.move = moves.includes(plain) ? plain : moves[0];  // no figure until one is chosen
  showPlacement();
}

function showPlacement() {
  for (const g of document.querySelectorAll("#board .open-position")) {
    const here = picked !== null && +g.dataset.x === picked.x && +g.dataset.y === picked.y;
    g.classList.toggle("selected", here);
    g.querySelector("image.laid")?.remove();
    if (here) {
      const img = document.createElementNS("http://www.w3.org/2000/svg", "image");
      img.setAttribute("class", "laid");
      img.setAttribute("href", `/tile/${encodeURIComponent(view.tile)}.svg?rotation=${picked.rotation}`);
      img.setAttribute("width", 100); img.setAttribute("height", 100);
      g.append(img);  // the tile as it would lie, over the spot's outline
      g.dataset.rotation = picked.rotation;
    }
  }
  $("placing").hidden = picked === null;
  if (picked === null) return;
  $("placing-words").textContent =
    `${view.tile} at ${picked.x},${picked.y} turned ${picked.rotation}°` +
    (picked.rotations.length > 1 ? ` (tap the spot again to turn it: ${picked.rotations.join("°, ")}°)` : "");
  $("turn").hidden = picked.rotations.length < 2;
  const figs = $("figures");
  figs.replaceChildren(...spotMoves().map((m) => {
    const b = button(view.legal_words[m].split(", ").slice(1).join(", ") || "no figure", "move-choice", { move: m }, () => {
      picked.move = m; showPlacement();
    });
    b.classList.toggle("selected", m === picked.move);
    b.setAttribute("aria-pressed", m === picked.move);
    return b;
  }));
  closeUp(picked.move);
}

let closeUpFor = null;
async function closeUp(move) {
  closeUpFor = move;
  const p = await call(`/api/preview?move=${encodeURIComponent(move)}`);
  if (!p || closeUpFor !== move) return;
  const box = $("closeup");
  box.innerHTML = p.board;
  const svg = box.querySelector("svg");
  const g = svg.querySelector(`.tile[data-x="${p.x}"][data-y="${p.y}"]`);
  const [ox, oy] = translation(g);
  svg.setAttribute("viewBox", `${ox - 35} ${oy - 35} 170 170`);
  svg.removeAttribute("width"); svg.removeAttribute("height");
}

$("turn").addEventListener("click", () => {
  const g = document.querySelector(`#board .open-position[data-x="${picked.x}"][data-y="${picked.y}"]`);
  pickSpot(g);
});
$("place").addEventListener("click", () => step("/api/play", { move: picked.move }));

// -- the tile finder: the server's tiles.find over what may be drawn now ---------------------

const EDGE_CYCLE = ["", "C", "R", "F", "I"];
const EDGE_WORDS = { "": "any", C: "city", R: "road", F: "field", I: "river" };
const edges = ["", "", "", ""];
for (let i = 0; i < 4; i++) {
  $("edges").append(button(`${i + 1}: any`, "edge", { edge: i }, (e) => {
    edges[i] = EDGE_CYCLE[(EDGE_CYCLE.indexOf(edges[i]) + 1) % EDGE_CYCLE.length];
    e.currentTarget.textContent = `${i + 1}: ${EDGE_WORDS[edges[i]]}`;
    e.currentTarget.dataset.value = edges[i];
    findTiles();
  }));
}
for (const id of ["f-set", "f-arms", "f-goods", "f-illustrations", "f-spaces"]) $(id).addEventListener("change", findTiles);
$("f-id").addEventListener("input", findTiles);
$("f-clear").addEventListener("click", () => {
  edges.fill("");
  for (const b of document.querySelectorAll("#edges button")) { b.textContent = `${+b.dataset.edge + 1}: any`; b.dataset.value = ""; }
  for (const id of ["f-set", "f-arms", "f-spaces", "f-id"]) $(id).value = "";
  $("f-goods").value = "*"; $("f-illustrations").value = "*";
  findTiles();
});

let finding = 0;
async function findTiles() {
  const q = new URLSearchParams();
  if (edges.some((e) => e)) q.set("edges", edges.map((e) => e || "?").join(""));
  if ($("f-set").value) q.set("set", $("f-set").value);
  if ($("f-arms").value) q.set("arms", $("f-arms").value);
  if ($("f-goods").value !== "*") q.set("goods", $("f-goods").value);
  if ($("f-illustrations").value !== "*") q.set("illustrations", $("f-illustrations").value);
  if ($("f-spaces").value) q.set("spaces", $("f-spaces").value);
  const mine = ++finding;
  const r = await call(`/api/tiles?${q}`);
  if (!r || mine !== finding || !view || view.decision !== "draw") return;
  const sets = $("f-set");
  const had = [...sets.options].slice(1).map((o) => o.value);
  if (had.join() !== r.sets.join()) {  // the sets still in the bag
    const keep = sets.value;
    sets.replaceChildren(el("option", { value: "" }, "any"), ...r.sets.map((s) => el("option", { value: s }, s)));
    sets.value = r.sets.includes(keep) ? keep : "";
  }
  const text = $("f-id").value.trim().toUpperCase();
  const tiles = r.tiles.filter((t) => !text || t.id.toUpperCase().includes(text));
  $("found-count").textContent = `${tiles.length} of ${r.drawable} tiles that may be drawn now`;
  $("choices").replaceChildren(...tiles.map((t) => button(
    [tileImage(t.id), el("span", { class: "id" }, t.id), el("span", { class: "words" }, `${t.words}; ${t.copies} left`)],
    "draw-tile", { tile: t.id }, () => step("/api/draw", { tile: t.id }))));
}

// -- the view ---------------------------------------------------------------------------------

function playerName(n) { return view.players[n - 1].label; }

function show(v) {
  const changed = !view || v.version !== view.version;
  view = v;
  const status = $("status");
  status.dataset.decision = v.decision;
  status.dataset.player = v.player;
  const who = v.players[v.player - 1];
  const doing = {
    draw: v.hand.length ? "draw the next tile of the fortune teller's hand" : "draw a tile",
    place: `place ${v.tile}`, choose: "choose a tile of the hand",
    farmer: "keep or take back the farmer", reveal: "turn over the animal token under the big top",
  }[v.decision];
  status.textContent = v.decision === "over"
    ? `Game over: ${v.winners.map(playerName).join(" and ")} ${v.winners.length > 1 ? "win" : "wins"}`
    : `${who.label[0].toUpperCase()}${who.label.slice(1)} (${who.colour}) to ${doing}`;
  if (changed && suggestion) { suggestion = null; $("suggestion").hidden = true; }  // made for another state
  if (changed || !suggestion) showBoard(v.board);
  for (const g of document.querySelectorAll("#board .open-position")) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", `place ${v.tile} at ${g.dataset.x},${g.dataset.y}`);
    g.addEventListener("click", () => pickSpot(g));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pickSpot(g); } });
  }
  const choices = $("choices");
  choices.replaceChildren();
  $("finder").hidden = v.decision !== "draw";
  let title = "";
  if (v.decision === "draw") {
    title = "Which tile was drawn? Narrow it down by what is printed on it, then tap it." +
      (v.hand.length ? ` (hand so far: ${v.hand.join(", ")})` : "");
    findTiles();
  } else if (v.decision === "reveal") {
    title = "Which animal token is under the big top?";
    for (const [id, n] of Object.entries(v.drawable)) {
      choices.append(button(`${id.split(":")[1]} points (${n} left)`, "draw-tile", { tile: id },
        () => step("/api/draw", { tile: id })));
    }
  } else if (v.decision === "place") {
    title = `Place ${v.tile}: tap an outlined spot on the board (again to turn it), then the figure`;
    choices.append(el("div", { class: "draw-tile" }, tileImage(v.tile), el("span", { class: "id" }, v.tile)));
  } else if (v.decision !== "over") {
    title = v.decision === "choose" ? `Choose from the hand: ${v.hand.join(", ")}` : "Keep or take back the farmer?";
    for (const m of v.legal) {
      choices.append(button(v.legal_words[m], "move-choice", { move: m }, () => step("/api/play", { move: m })));
    }
  }
  $("step-title").textContent = title;
  $("todo").replaceChildren(...(v.todo.length ? v.todo : ["nothing to hand out"]).map((t) => el("li", {}, t)));
  $("scores").replaceChildren(...v.players.map((p) => {
    const figures = Object.entries(p.figures).map(([k, n]) => `${n} ${k}`).join(", ");
    const goods = Object.entries(p.goods).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ");
    return el("li", { class: "score" + (p.number === v.player && v.decision !== "over" ? " to-move" : ""), "data-player": p.number, "data-points": p.score },
      el("span", { class: "swatch", style: `background:${p.hex}`, title: p.colour }),
      el("span", {}, `${p.label} (${p.colour})`),
      el("span", { class: "points" }, String(p.score)),
      el("span", { class: "left" }, `left: ${figures || "no figures"}${goods ? `; goods: ${goods}` : ""}`));
  }));
  $("log").replaceChildren(...v.log.slice().reverse().map((e) => el("li", { value: e.step },
    `${e.name}: ${e.text}`,
    e.device ? el("span", { class: "device" }, ` (entered on ${e.device})`) : "",
    ...e.points.map((p) => el("div", { class: "pts" }, p.text)),
    ...e.todo.map((t) => el("div", {}, "→ " + t)))));
  $("end").hidden = !v.end;
  if (v.end) {
    // one row per category anyone scored in, one column per player: it fits a phone
    const cats = v.end.sources.map((s, i) => [s, v.end.rows.map((r) => r.points[i])]).filter(([, p]) => p.some((n) => n));
    const t = el("table", {}, el("tr", {}, el("th", {}, "points for"), ...v.end.rows.map((r) => el("th", {}, r.label))),
      ...cats.map(([s, p]) => el("tr", {}, el("td", {}, s), ...p.map((n) => el("td", {}, String(n))))),
      el("tr", { class: "total" }, el("th", {}, "total"), ...v.end.rows.map((r) => el("th", {}, String(r.total)))));
    $("end-table").replaceChildren(t);
    $("end-fields").replaceChildren(...v.end.fields.map((f) => el("li", {}, f)));
  }
  $("undo").disabled = !v.can_undo;
  $("redo").disabled = !v.can_redo;
  $("redo").title = v.redo ? `Do again: ${v.redo}` : "Nothing to do again";
  $("suggest").disabled = v.legal.length === 0;
  $("saved-to").textContent = v.saved_to ? `Every step is saved to ${v.saved_to}` : "This game is not saved to a file.";
  if (v.last_change && changed) {
    $("news").textContent = `${v.last_change.device}: ${v.last_change.what}`;
  }
  showNames();
  if (picked && changed) picked = null;
  showPlacement();
  document.body.dataset.shown = ++shown;
}


const COLOURS = ["blue", "red", "yellow", "black", "green", "pink"];

function showNames() {
  const form = $("names");
  if (form.contains(document.activeElement)) return;
  form.replaceChildren(...view.players.map((p) => {
    const colour = el("select", { "aria-label": `player ${p.number}'s meeples`, "data-player": p.number },
      ...COLOURS.map((c) => el("option", { value: c }, c)));
    colour.value = p.colour;
    return el("label", {}, `Player ${p.number} `,
      el("input", { type: "text", maxlength: "40", value: p.name, "data-player": p.number, placeholder: `player ${p.number}` }),
      " meeples ", colour);
  }), el("button", { type: "submit" }, "Save names and colours"));
}
$("names").addEventListener("submit", (e) => {
  e.preventDefault();
  step("/api/players", {
    names: [...$("names").querySelectorAll("input")].map((i) => i.value),
    colours: [...$("names").querySelectorAll("select")].map((s) => s.value),
  });
});

// -- suggestion, undo, redo, save, load, menu -----------------------------------------------

function dropSuggestion() {
  if (!suggestion) return;
  suggestion = null;
  $("suggestion").hidden = true;
  if (view) { showBoard(view.board); show(view); }
}

$("suggest").addEventListener("click", async () => {
  const s = await call("/api/suggest");
  if (!s || s.version !== view.version) return;
  suggestion = s;
  $("suggestion-words").textContent = `${playerName(view.player)}: ${s.words}`;
  $("suggestion").hidden = false;
  if (s.x !== null) { showBoard(s.board); centreOn(s.x, s.y); }
  $("suggestion").scrollIntoView({ block: "nearest" });
});
$("play-suggestion").addEventListener("click", () => step("/api/play", { move: suggestion.move }));
$("drop-suggestion").addEventListener("click", dropSuggestion);
$("undo").addEventListener("click", () => step("/api/undo"));
$("redo").addEventListener("click", () => step("/api/redo"));
$("save").addEventListener("click", async () => {
  const r = await fetch("/api/record", { headers: { "X-Table-Token": TOKEN } });
  if (!r.ok) { $("error").textContent = "cannot fetch the record"; return; }
  const a = el("a", { download: "carcassonne-game.json" });
  a.href = URL.createObjectURL(new Blob([await r.text()], { type: "application/json" }));  // the text as is: seeds stay exact
  a.click();
});
$("load").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  if (view.can_undo && view.decision !== "over" &&
      !confirm(`Replace the game in progress with ${file.name}? The game now is kept in ${view.saved_to || "no file: save its record first"}.`)) return;
  const text = await file.text();
  fitted = false;
  await step("/api/load", { record: text });
});
function toggleMenu(open) {
  $("menu").hidden = !open;
  $("menu-button").setAttribute("aria-expanded", open);
  if (open) { $("qr").src = `/api/qr.svg?token=${encodeURIComponent(TOKEN)}`; $("menu").querySelector("button").focus(); }
}
$("menu-button").addEventListener("click", () => toggleMenu($("menu").hidden));
$("menu-close").addEventListener("click", () => toggleMenu(false));
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !$("menu").hidden) toggleMenu(false); });

$("device").value = localStorage.getItem("carcassonne-device") ||
  `${/Mobi|Android/.test(navigator.userAgent) ? "phone" : "computer"} ${Math.random().toString(36).slice(2, 5)}`;
localStorage.setItem("carcassonne-device", $("device").value);
$("device").addEventListener("change", () => localStorage.setItem("carcassonne-device", $("device").value));

// Every open page follows the game: a change anywhere arrives as an event.
function follow() {
  const events = new EventSource(`/api/events?token=${encodeURIComponent(TOKEN)}`);
  events.onmessage = (e) => {
    const news = JSON.parse(e.data);
    if (!view || news.version !== view.version) refresh();
  };
}
refresh().then(follow);
