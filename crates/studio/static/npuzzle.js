// Sliding-tile puzzles: shuffle, solve with live IDA* iterations, animate the answer.
import { api, stream, guarded, el, thousands, randomSeed } from "/static/app.js";

const $ = (id) => document.getElementById(id);
let frames = [];
let timer = null;
let running = null;

function drawTiles(text) {
  const tiles = text.trim().split(/\s+/).map(Number);
  const width = Math.round(Math.sqrt(tiles.length));
  const host = $("n-board");
  host.replaceChildren();
  host.style.gridTemplateColumns = `repeat(${width}, auto)`;
  for (const t of tiles) host.append(el("div", t === 0 ? "blank" : "", t === 0 ? "" : t));
  host.dataset.tiles = tiles.join(" ");
}

function showFrame(i) {
  $("n-step").value = i;
  $("n-at").textContent = frames.length ? `move ${i} of ${frames.length - 1}` : "";
  drawTiles(frames[i]);
  $("n-board").dataset.goal = i === frames.length - 1 ? "true" : "false";
}

function stopPlaying() {
  clearInterval(timer);
  timer = null;
  $("n-play").textContent = "Play";
}

function play() {
  if (timer) return stopPlaying();
  let i = +$("n-step").value;
  if (i >= frames.length - 1) i = 0;
  $("n-play").textContent = "Pause";
  showFrame(i);
  timer = setInterval(() => {
    i += 1;
    if (i >= frames.length) return stopPlaying();
    showFrame(i);
  }, 250);
}

function addIteration(it) {
  const body = $("n-iterations").tBodies[0];
  const row = el("tr");
  for (const v of [body.rows.length + 1, it.bound, thousands(it.generated), thousands(it.expanded)]) row.append(el("td", "", v));
  body.append(row);
}

async function solve() {
  stopPlaying();
  frames = [];
  $("n-step").disabled = $("n-play").disabled = true;
  $("n-moves-text").textContent = "";
  $("n-iterations").tBodies[0].replaceChildren();
  drawTiles($("n-tiles").value);
  const controller = new AbortController();
  running = controller;
  $("n-solve").disabled = true;
  $("n-cancel").disabled = false;
  $("n-status").textContent = "solving...";
  await guarded(async () => {
    const result = await stream("/api/npuzzle/solve", { tiles: $("n-tiles").value, heuristic: $("n-heuristic").value }, {
      progress: (p) => {
        p.iterations.forEach(addIteration);
        const bound = p.bound === null ? "" : `iteration with bound ${p.bound}, `;
        $("n-status").textContent = `solving: ${bound}${thousands(p.generated)} nodes generated, ${p.seconds.toFixed(1)} s`;
      },
    }, controller.signal);
    const body = $("n-iterations").tBodies[0];
    body.replaceChildren();
    result.iterations.forEach(addIteration);
    if (result.cost === null) {
      $("n-status").textContent = `${result.stopped ?? "no solution"}: the optimum is at least ${result.lower_bound} (${thousands(result.generated)} nodes generated)`;
      return;
    }
    $("n-status").textContent = `optimal: ${result.cost} moves with ${result.heuristic}, ${thousands(result.generated)} nodes generated, ${result.seconds.toFixed(2)} s`;
    $("n-moves-text").textContent = result.moves;
    frames = result.frames;
    $("n-step").max = frames.length - 1;
    $("n-step").disabled = $("n-play").disabled = false;
    showFrame(0);
    play();
  });
  if (controller.signal.aborted) $("n-status").textContent = "cancelled";
  $("n-solve").disabled = false;
  $("n-cancel").disabled = true;
  running = null;
}

async function shuffle() {
  await guarded(async () => {
    const data = await api("/api/npuzzle/shuffle", { width: +$("n-width").value, moves: +$("n-moves").value, seed: randomSeed() });
    $("n-tiles").value = data.tiles;
    drawTiles(data.tiles);
  });
}

export async function init() {
  $("n-shuffle").addEventListener("click", shuffle);
  $("n-solve").addEventListener("click", solve);
  $("n-cancel").addEventListener("click", () => running?.abort());
  $("n-play").addEventListener("click", play);
  $("n-step").addEventListener("input", () => { stopPlaying(); showFrame(+$("n-step").value); });
  $("n-tiles").addEventListener("change", () => guarded(async () => drawTiles($("n-tiles").value)));
  drawTiles($("n-tiles").value);
}
