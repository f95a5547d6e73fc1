// The page that follows a game at a real table. The server (table_page/app.py) holds the game
// and answers every step with the whole view: nothing about the rules is decided here.
"use strict";

let view = null;      // the last view the server sent
let picked = null;    // {x, y, rotation} while a placement is being entered
let shown = 0;        // views shown so far (body[data-shown]: scripts wait for the next one)

const $ = (id) => document.getElementById(id);

function button(text, cls, data, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
  if (typeof text === "string") b.textContent = text; else b.append(...text);
  b.addEventListener("click", onClick);
  return b;
}

function tilePicture(id, rotation, label) {
  const img = document.createElement("img");
  img.src = `/tile/${encodeURIComponent(id)}.svg?rotation=${rotation}`;
  img.alt = `${id} turned ${rotation}`;
  const span = document.createElement("span");
  span.textContent = label;
  return [img, span];
}

async function call(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  const data = await r.json();
  if (!r.ok) { $("error").textContent = data.error; return null; }
  $("error").textContent = "";
  return data;
}

async function step(path, body) {
  const v = await call(path, body);
  if (v) { picked = null; show(v); }
}

// What the page shows while a tile waits: the moves for the picked spot and rotation.
function movesAt(x, y, rotation) {
  const prefix = `${x},${y} ${rotation}`;
  return view.legal.filter((m) => m === prefix || m.startsWith(prefix + " "));
}

function showPlacement() {
  const rot = $("rotations"), figs = $("figures");
  rot.replaceChildren(); figs.replaceChildren();
  for (const g of document.querySelectorAll("#board .open-position")) {
    g.classList.toggle("selected", picked !== null && +g.dataset.x === picked.x && +g.dataset.y === picked.y);
  }
  if (picked === null) return;
  const here = document.querySelector(`#board .open-position[data-x="${picked.x}"][data-y="${picked.y}"]`);
  for (const r of here.dataset.rotations.split(" ")) {
    const b = button(tilePicture(view.tile, r, `${r}°`), "rotation-choice", { rotation: r }, () => {
      picked.rotation = r; showPlacement();
    });
    if (picked.rotation === r) b.classList.add("selected");
    rot.append(b);
  }
  if (picked.rotation === null) return;
  for (const m of movesAt(picked.x, picked.y, picked.rotation)) {
    const what = m.split(" ").slice(2).join(" ") || "no figure";
    figs.append(button(what, "move-choice", { move: m }, () => step("/api/play", { move: m })));
  }
}

function show(v) {
  view = v;
  document.body.dataset.shown = ++shown;
  const status = $("status");
  status.dataset.decision = v.decision;
  status.dataset.player = v.player;
  const doing = {
    draw: "draw a tile", place: `place ${v.tile}`, choose: "choose a tile of the hand",
    farmer: "keep or return the farmer", reveal: "reveal the animal token under the big top",
  }[v.decision];
  status.textContent = v.decision === "over"
    ? `Game over: player ${v.winners.join(" and ")} ${v.winners.length > 1 ? "win" : "wins"}`
    : `Move ${v.moves + 1}: player ${v.player} to ${doing}`;
  $("board").innerHTML = v.board;
  for (const g of document.querySelectorAll("#board .open-position")) {
    g.addEventListener("click", () => {
      picked = { x: +g.dataset.x, y: +g.dataset.y, rotation: null };
      showPlacement();
    });
  }
  const choices = $("choices");
  choices.replaceChildren();
  let title = "";
  if (v.decision === "draw") {
    title = "Which tile was drawn?" + (v.hand.length ? ` (hand: ${v.hand.join(", ")})` : "");
    for (const [id, n] of Object.entries(v.drawable)) {
      choices.append(button(tilePicture(id, 0, `${id} ×${n}`), "draw-tile", { tile: id },
        () => step("/api/draw", { tile: id })));
    }
  } else if (v.decision === "reveal") {
    title = "Which animal token is under the big top?";
    for (const [id, n] of Object.entries(v.drawable)) {
      choices.append(button(`${id.split(":")[1]} points (${n} left)`, "draw-tile", { tile: id },
        () => step("/api/draw", { tile: id })));
    }
  } else if (v.decision === "place") {
    title = `Place ${v.tile}: click an outlined spot, then a rotation, then the figure`;
  } else if (v.decision !== "over") {
    title = v.decision === "choose" ? `Choose from the hand: ${v.hand.join(", ")}` : "Keep or return the farmer?";
    for (const m of v.legal) {
      choices.append(button(m, "move-choice", { move: m }, () => step("/api/play", { move: m })));
    }
  }
  $("step-title").textContent = title;
  const scores = $("scores");
  scores.replaceChildren();
  v.scores.forEach((s, i) => {
    const li = document.createElement("li");
    li.className = "score";
    li.dataset.player = i + 1;
    li.dataset.points = s;
    li.textContent = `Player ${i + 1}: ${s}`;
    scores.append(li);
  });
  const scored = $("scored");
  scored.replaceChildren(...(v.scored.length ? v.scored : ["nothing"]).map((t) => {
    const li = document.createElement("li"); li.textContent = t; return li;
  }));
  $("undo").disabled = !v.can_undo;
  $("suggest").disabled = v.legal.length === 0;
  $("suggestion").replaceChildren();
  showPlacement();
}

$("undo").addEventListener("click", () => step("/api/undo", {}));
$("suggest").addEventListener("click", async () => {
  const s = await call("/api/suggest");
  if (!s) return;
  const p = $("suggestion");
  const play = button("play it", "move-choice", { move: s.move }, () => step("/api/play", { move: s.move }));
  play.id = "play-suggestion";
  p.replaceChildren(`Suggested: ${s.move} `, play);
});
$("save").addEventListener("click", async () => {
  const rec = await call("/api/record");
  if (!rec) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(rec)], { type: "application/json" }));
  a.download = "carcassonne-game.json";
  a.click();
});
$("load").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  try { await step("/api/load", JSON.parse(await file.text())); }
  catch (err) { $("error").textContent = `not a record: ${err.message}`; }
});
call("/api/state").then((v) => v && show(v));
