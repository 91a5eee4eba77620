// Classic Minesweeper: play with the exact probabilities, analyse a pasted board, win rates.
import { api, stream, guarded, el, svg, thousands, randomSeed } from "/static/app.js";

const $ = (id) => document.getElementById(id);
const HIDDEN = 9, EXPLODED = 10;
const game = { board: null, seed: 0, clicks: [], flags: new Set(), last: null, auto: false };

function boardSpec() {
  const level = $("m-level").value;
  const rule = $("m-rule").value;
  if (level !== "custom") return { level, rule };
  return { width: +$("m-width").value, height: +$("m-height").value, mines: +$("m-mines").value, rule };
}

function percent(p) {
  if (p === 0) return "0 %";
  if (p === 1) return "100 %";
  return `${(100 * p).toFixed(p < 0.01 || p > 0.99 ? 2 : 1)} %`;
}

/** Draws a board's cells into `host`; `decorate(cell, index)` adds what the view lacks. */
function drawBoard(host, width, view, decorate) {
  host.replaceChildren();
  host.style.gridTemplateColumns = `repeat(${width}, auto)`;
  view.forEach((v, i) => {
    const cell = el("div", "c");
    cell.dataset.index = i;
    if (v <= 8) {
      cell.classList.add("open");
      if (v > 0) { cell.textContent = v; cell.classList.add(`n${v}`); }
    } else if (v === EXPLODED) {
      cell.classList.add("boom");
      cell.textContent = "✸";
    }
    decorate(cell, i);
    host.append(cell);
  });
}

function shade(cell, p) {
  cell.style.backgroundColor = `rgb(${Math.round(200 - 20 * p)}, ${Math.round(204 - 170 * p)}, ${Math.round(212 - 180 * p)})`;
  cell.title = `mine probability ${p}`;
  cell.dataset.p = p;
}

function render(data, note) {
  game.last = data;
  const { rules } = data;
  const odds = data.odds;
  const pick = data.pick && data.pick.row * rules.width + data.pick.col;
  const mines = new Set(data.mine_cells ?? []);
  drawBoard($("m-board"), rules.width, data.view, (cell, i) => {
    const v = data.view[i];
    if (v !== HIDDEN) return;
    if (mines.has(i)) { cell.classList.add("mine"); cell.textContent = "✹"; return; }
    if (game.flags.has(i)) cell.classList.add("flag");
    if (odds) shade(cell, odds.mine[i]);
    if (i === pick) cell.classList.add("pick");
  });
  const safe = rules.width * rules.height - rules.mines;
  const name = rules.level ?? `${rules.width} x ${rules.height}, ${rules.mines} mines`;
  let text = `${name}, first click ${rules.rule}: ${data.status}, ${data.opened} of ${safe} safe cells open, ${game.flags.size} flags`;
  if (note) text += `. ${note}`;
  $("m-status").textContent = text;
  $("m-board").dataset.status = data.status;
  $("m-board").dataset.clicks = game.clicks.length;
}

async function refresh(options = {}) {
  const data = await api("/api/mines/game", {
    board: game.board, seed: game.seed, clicks: game.clicks,
    odds: $("m-odds").checked || !!options.odds, step: !!options.step,
  });
  game.clicks = data.clicks;
  return data;
}

function moveNote(mv, what) {
  if (!mv) return "";
  const where = `row ${mv.row}, column ${mv.col}`;
  return `${what}: ${where}, ${mv.certain ? "certainly safe" : `mine probability ${percent(mv.mine_probability)}`}`;
}

function newGame() {
  game.board = boardSpec();
  game.seed = randomSeed();
  game.clicks = [];
  game.flags.clear();
  game.auto = false;
  return guarded(async () => render(await refresh()));
}

function neighbours(i, width, height) {
  const r = Math.floor(i / width), c = i % width, out = [];
  for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) {
    const nr = r + dr, nc = c + dc;
    if ((dr || dc) && nr >= 0 && nc >= 0 && nr < height && nc < width) out.push(nr * width + nc);
  }
  return out;
}

function clickCell(i) {
  const data = game.last;
  if (!data || data.status !== "playing") return;
  const { width, height } = data.rules;
  const v = data.view[i];
  let targets = [];
  if (v === HIDDEN && !game.flags.has(i)) targets = [i];
  else if (v >= 1 && v <= 8) {
    const around = neighbours(i, width, height);
    const flagged = around.filter((n) => game.flags.has(n)).length;
    if (flagged === v) targets = around.filter((n) => data.view[n] === HIDDEN && !game.flags.has(n));
  }
  if (!targets.length) return;
  for (const t of targets) game.clicks.push([Math.floor(t / width), t % width]);
  guarded(async () => render(await refresh()));
}

async function step() {
  const data = await refresh({ step: true });
  render(data, moveNote(data.step, "the solver opened"));
  return data.status === "playing";
}

async function autoplay() {
  game.auto = !game.auto;
  $("m-auto").textContent = game.auto ? "Stop" : "Autoplay";
  await guarded(async () => {
    while (game.auto && (await step())) await new Promise((r) => setTimeout(r, 120));
  });
  game.auto = false;
  $("m-auto").textContent = "Autoplay";
}

// --- Analysis of a pasted or drawn board.
const drawn = { rules: null, view: [], flagged: new Set() };

function boardText() {
  const { width, height, mines } = drawn.rules;
  const rows = [`mines ${mines}`];
  for (let r = 0; r < height; r++) {
    let row = "";
    for (let c = 0; c < width; c++) {
      const i = r * width + c, v = drawn.view[i];
      row += v === HIDDEN ? (drawn.flagged.has(i) ? "F" : "#") : v === 0 ? "." : String(v);
    }
    rows.push(row);
  }
  return rows.join("\n") + "\n";
}

async function analyse() {
  const data = await api("/api/mines/analyse", { text: $("a-text").value, rule: $("m-rule").value });
  drawn.rules = data.rules;
  drawn.view = data.view;
  drawn.flagged = new Set(data.flagged);
  const safe = new Set(data.odds.safe), sure = new Set(data.odds.certain_mine);
  const best = data.best && data.best.row * data.rules.width + data.best.col;
  const host = $("a-board");
  host.classList.toggle("small", true);
  drawBoard(host, data.rules.width, data.view, (cell, i) => {
    if (data.view[i] !== HIDDEN) return;
    const p = data.odds.mine[i];
    shade(cell, p);
    cell.textContent = Math.round(100 * p);
    if (drawn.flagged.has(i)) cell.classList.add("flag");
    if (safe.has(i)) cell.classList.add("safe");
    if (sure.has(i)) cell.classList.add("sure-mine");
    if (i === best) cell.classList.add("pick");
  });
  const bestText = data.best ? moveNote(data.best, "best move") : "no covered cell";
  $("a-summary").textContent = `${safe.size} certainly safe, ${sure.size} certain mines${data.odds.exact ? "" : " (estimated: a part was too large to count)"}; ${bestText}. Numbers are percent.`;
}

function cycleDrawn(i) {
  if (!drawn.rules) return;
  const v = drawn.view[i];
  if (v === HIDDEN && !drawn.flagged.has(i)) drawn.flagged.add(i);
  else if (v === HIDDEN) { drawn.flagged.delete(i); drawn.view[i] = 0; }
  else drawn.view[i] = v >= 8 ? HIDDEN : v + 1;
  $("a-text").value = boardText();
  guarded(analyse);
}

function blank() {
  const w = +$("a-w").value, h = +$("a-h").value;
  const rows = [`mines ${Math.max(1, Math.round(w * h * 0.15))}`];
  for (let r = 0; r < h; r++) rows.push("#".repeat(w));
  $("a-text").value = rows.join("\n") + "\n";
  guarded(analyse);
}

// --- Win rate: the tally after each part, its interval narrowing.
let winRun = null;

function drawChart(points, games) {
  const chart = $("w-chart");
  chart.replaceChildren();
  const W = 600, H = 220, left = 48, right = 10, top = 10, bottom = 30;
  if (!points.length) return;
  let lo = Math.min(...points.map((p) => p.interval[0])), hi = Math.max(...points.map((p) => p.interval[1]));
  const pad = Math.max(0.01, (hi - lo) * 0.1);
  lo = Math.max(0, lo - pad); hi = Math.min(1, hi + pad);
  const x = (g) => left + ((W - left - right) * g) / games;
  const y = (v) => top + ((H - top - bottom) * (hi - v)) / (hi - lo || 1);
  const band = points.map((p) => `${x(p.games)},${y(p.interval[1])}`)
    .concat(points.slice().reverse().map((p) => `${x(p.games)},${y(p.interval[0])}`));
  chart.append(svg("polygon", { points: band.join(" "), fill: "#c7d7fe" }));
  chart.append(svg("polyline", { points: points.map((p) => `${x(p.games)},${y(p.rate)}`).join(" "), fill: "none", stroke: "#2f6fde", "stroke-width": 2 }));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), stroke: "#eaecf0" }));
    chart.append(svg("text", { x: 4, y: y(v) + 4 }, `${(100 * v).toFixed(1)} %`));
  }
  chart.append(svg("text", { x: left, y: H - 8 }, "0 games"));
  chart.append(svg("text", { x: W - right - 90, y: H - 8 }, `${thousands(games)} games`));
}

async function winRate() {
  const games = +$("w-games").value;
  const controller = new AbortController();
  winRun = controller;
  const points = [];
  $("w-run").disabled = true;
  $("w-cancel").disabled = false;
  $("w-bar").value = 0;
  await guarded(async () => {
    const result = await stream("/api/mines/winrate", { board: boardSpec(), games, seed: +$("w-seed").value }, {
      progress: (d) => { $("w-bar").value = d.played / d.games; },
      tally: (t) => {
        points.push(t);
        $("w-bar").value = t.games / games;
        $("w-status").textContent = `${thousands(t.wins)} won of ${thousands(t.games)}: ${percent(t.rate)}, 95 % interval ${percent(t.interval[0])} to ${percent(t.interval[1])}`;
        drawChart(points, games);
      },
    }, controller.signal);
    $("w-status").textContent = `${result.stopped ? "stopped: " : ""}${thousands(result.wins)} won of ${thousands(result.games)}: ${percent(result.rate)}, 95 % interval ${percent(result.interval[0])} to ${percent(result.interval[1])}, ${result.seconds.toFixed(1)} s`;
  });
  $("w-run").disabled = false;
  $("w-cancel").disabled = true;
  winRun = null;
}

export async function init() {
  $("m-level").addEventListener("change", () => { $("m-custom").hidden = $("m-level").value !== "custom"; newGame(); });
  $("m-rule").addEventListener("change", newGame);
  $("m-new").addEventListener("click", newGame);
  $("m-odds").addEventListener("change", () => guarded(async () => render(await refresh())));
  $("m-hint").addEventListener("click", () => guarded(async () => {
    const data = await refresh({ odds: true });
    render(data, data.pick ? moveNote(data.pick, "hint") : "no move left");
  }));
  $("m-step").addEventListener("click", () => guarded(step));
  $("m-auto").addEventListener("click", autoplay);
  const board = $("m-board");
  board.addEventListener("click", (e) => { const c = e.target.closest(".c"); if (c) clickCell(+c.dataset.index); });
  board.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    const c = e.target.closest(".c");
    if (!c || !game.last || game.last.view[+c.dataset.index] !== HIDDEN || game.last.status !== "playing") return;
    const i = +c.dataset.index;
    if (game.flags.has(i)) game.flags.delete(i); else game.flags.add(i);
    render(game.last);
  });
  $("a-run").addEventListener("click", () => guarded(analyse));
  $("a-blank").addEventListener("click", blank);
  $("a-board").addEventListener("click", (e) => { const c = e.target.closest(".c"); if (c) cycleDrawn(+c.dataset.index); });
  $("w-run").addEventListener("click", winRate);
  $("w-cancel").addEventListener("click", () => winRun?.abort());
  await Promise.all([newGame(), guarded(analyse)]);
}
