// EWN: the solo optimum animated, duels, a tournament log replayed, an openings log browsed.
import { api, stream, guarded, el, svg, thousands } from "/static/app.js";

const $ = (id) => document.getElementById(id);
const AGENTS = ["you", "random", "normal", "hard", "alphabeta", "mcts", "deep"];
const TIMED = new Set(["alphabeta", "mcts", "deep"]);

// --- Solo.
const solo = { frames: [], moves: [], dice: [], goal: 0, timer: null };

function drawSolo(i) {
  const cells = solo.frames[i];
  const host = $("e-solo-board");
  host.replaceChildren();
  const at = new Map();
  cells.forEach((cell, k) => { if (cell !== null) at.set(cell, k + 1); });
  for (let c = 0; c < 100; c++) {
    const node = el("div", c === 33 ? "hole" : "");
    if (c === 0) node.classList.add("corner");
    if (at.has(c)) {
      const piece = at.get(c);
      node.textContent = piece;
      node.classList.add(piece === solo.goal ? "goal-piece" : "piece");
    }
    host.append(node);
  }
  $("e-solo-step").value = i;
  const dice = solo.dice.map((d, k) => (k === i && i < solo.moves.length ? `[${d}]` : `${d}`));
  $("e-solo-dice").textContent = `dice ${dice.join(" ")}`;
  if (i === 0) $("e-solo-at").textContent = `start, ${solo.moves.length} moves`;
  else {
    const [piece, from, to] = solo.moves[i - 1];
    $("e-solo-at").textContent = `move ${i}: piece ${piece} from ${from} to ${to} (die ${solo.dice[i - 1]})`;
  }
  host.dataset.at = i;
  host.dataset.last = i === solo.frames.length - 1 ? "true" : "false";
}

function playSolo() {
  if (solo.timer) { clearInterval(solo.timer); solo.timer = null; $("e-solo-play").textContent = "Play"; return; }
  let i = +$("e-solo-step").value;
  if (i >= solo.frames.length - 1) i = 0;
  $("e-solo-play").textContent = "Pause";
  drawSolo(i);
  solo.timer = setInterval(() => {
    i += 1;
    if (i >= solo.frames.length) { playSolo(); return; }
    drawSolo(i);
  }, 400);
}

async function solveSolo() {
  const r = await api("/api/ewn/solo/solve", { text: $("e-solo-text").value });
  solo.frames = r.frames; solo.moves = r.moves ?? []; solo.dice = r.dice; solo.goal = r.goal;
  $("e-solo-step").max = solo.frames.length - 1;
  $("e-solo-step").disabled = $("e-solo-play").disabled = solo.frames.length < 2;
  let text;
  if (r.cost !== null) text = `optimal: ${r.cost} moves, ${thousands(r.generated)} nodes generated, ${r.seconds.toFixed(3)} s`;
  else if (r.unsolvable) text = "no solution within the 30 dice (proven)";
  else text = `${r.stopped}: at least ${r.lower_bound} moves`;
  $("e-solo-status").textContent = text;
  drawSolo(0);
  if (solo.frames.length > 1) playSolo();
}

// --- A 6 x 7 duel board from its 42 characters.
function drawDuel(host, board, mark = {}) {
  host.replaceChildren();
  [...board].forEach((ch, c) => {
    const node = el("div");
    node.dataset.cell = c;
    if (c === 0 || c === 41) node.classList.add("corner");
    if (ch >= "0" && ch <= "5") { node.classList.add("red"); node.textContent = ch; }
    else if (ch >= "a" && ch <= "f") { node.classList.add("blue"); node.textContent = ch.charCodeAt(0) - 97; }
    for (const [cls, cells] of Object.entries(mark)) if (cells.has(c)) node.classList.add(cls);
    host.append(node);
  });
  host.dataset.board = board;
}

// --- Duel.
const duel = { setup: "", moves: [], state: null, chosen: null, busy: false, controller: null };

function spec(side) {
  const name = $(side === "red" ? "e-red" : "e-blue").value;
  if (name === "you") return null;
  return TIMED.has(name) ? { name, move_time: +$("e-time").value } : { name };
}

function showDuel(note) {
  const s = duel.state;
  const mark = { movable: new Set(), target: new Set(), chosen: new Set() };
  const human = !s.winner && spec(s.to_move) === null && !duel.busy;
  if (human) {
    for (const m of s.moves) {
      if (duel.chosen === null) mark.movable.add(m.from);
      else if (m.from === duel.chosen) mark.target.add(m.to);
    }
    if (duel.chosen !== null) mark.chosen.add(duel.chosen);
  }
  drawDuel($("e-duel-board"), s.board, mark);
  const who = s.winner ? `${s.winner} wins after ${s.ply} moves` : `${s.to_move} to move, die ${s.die}${human ? " (your move)" : ""}`;
  $("e-duel-status").textContent = note ? `${who}. ${note}` : who;
  $("e-duel-board").dataset.winner = s.winner ?? "";
}

async function agentsMove() {
  duel.busy = true;
  try {
    while (!duel.state.winner && spec(duel.state.to_move) !== null && !duel.stopped) {
      showDuel("thinking...");
      const r = await api("/api/ewn/duel/agent", { setup: duel.setup, moves: duel.moves, agent: spec(duel.state.to_move) });
      duel.moves.push(r.move);
      duel.state = r.state;
    }
  } finally {
    duel.busy = false;
  }
  showDuel();
}

async function humanClick(cell) {
  const s = duel.state;
  if (!s || s.winner || duel.busy || spec(s.to_move) !== null) return;
  if (duel.chosen === null || !s.moves.some((m) => m.from === duel.chosen && m.to === cell)) {
    duel.chosen = s.moves.some((m) => m.from === cell) ? cell : null;
    showDuel();
    return;
  }
  const move = s.moves.find((m) => m.from === duel.chosen && m.to === cell).move;
  duel.chosen = null;
  await guarded(async () => {
    duel.state = await api("/api/ewn/duel/state", { setup: duel.setup, moves: [...duel.moves, move] });
    duel.moves.push(move);
    showDuel();
    await agentsMove();
  });
}

async function newDuel() {
  duel.controller?.abort();
  duel.stopped = false;
  duel.chosen = null;
  const started = await api("/api/ewn/duel/new", { seed: +$("e-seed").value });
  duel.setup = started.setup; duel.moves = []; duel.state = started.state;
  showDuel();
  const red = spec("red"), blue = spec("blue");
  $("e-stop").disabled = false;
  if (red && blue) {
    duel.controller = new AbortController();
    duel.busy = true;
    try {
      const result = await stream("/api/ewn/duel/watch", { setup: duel.setup, red, blue }, {
        move: (m) => { duel.moves.push(m.move); duel.state = m.state; showDuel(`${m.move} in ${m.seconds.toFixed(2)} s`); },
      }, duel.controller.signal);
      if (result.stopped) $("e-duel-status").textContent += " (stopped)";
    } finally {
      duel.busy = false;
      duel.controller = null;
    }
  } else {
    await agentsMove();
  }
  $("e-stop").disabled = true;
}

// --- Tournament log.
const log = { data: null, timer: null };

function drawElo(table) {
  const chart = $("e-elo");
  chart.replaceChildren();
  const W = 480, rowH = 24, left = 90, right = 20;
  chart.setAttribute("viewBox", `0 0 ${W} ${Math.max(60, rowH * table.length + 30)}`);
  const finite = table.flatMap((s) => [s.elo, ...s.elo_interval.filter((v) => v !== null)]);
  const lo = Math.min(...finite, -100), hi = Math.max(...finite, 100);
  const x = (v) => left + ((W - left - right) * (v - lo)) / (hi - lo);
  chart.append(svg("line", { x1: x(0), x2: x(0), y1: 4, y2: rowH * table.length + 8, stroke: "#d0d5dd" }));
  table.forEach((s, k) => {
    const y = 16 + k * rowH;
    const [a, b] = s.elo_interval;
    chart.append(svg("line", { x1: a === null ? left : x(a), x2: b === null ? W - right : x(b), y1: y, y2: y, stroke: "#2f6fde", "stroke-width": 3 }));
    chart.append(svg("circle", { cx: x(s.elo), cy: y, r: 5, fill: "#1d2330" }));
    chart.append(svg("text", { x: 4, y: y + 4 }, s.name));
  });
  chart.append(svg("text", { x: x(0) - 4, y: rowH * table.length + 24 }, "0"));
}

function showLogGame(g, move) {
  const game = log.data.games[g];
  const m = move ?? game.frames.length - 1;
  $("e-log-game").value = g;
  $("e-log-move").max = game.frames.length - 1;
  $("e-log-move").value = m;
  drawDuel($("e-log-board"), game.frames[m]);
  $("e-log-at").textContent = `game ${game.game} (${g + 1} of ${log.data.games.length}): ${game.red} (red) against ${game.blue} (blue), ${game.winner} won`;
  $("e-log-status").textContent = m === 0 ? "the start" : `move ${m} of ${game.moves.length}: ${game.moves[m - 1]}`;
  // The standings count a game once it is over: after its last move.
  const counted = m === game.frames.length - 1 ? g + 1 : g;
  const table = counted > 0 ? log.data.standings[counted - 1] : undefined;
  const body = $("e-standings").tBodies[0];
  body.replaceChildren();
  $("e-standings").dataset.games = counted;
  $("e-elo").replaceChildren();
  if (!table) return;
  for (const s of table) {
    const row = el("tr");
    const [a, b] = s.elo_interval;
    const interval = a === null || b === null ? "unbounded" : `${a.toFixed(0)} to ${b.toFixed(0)}`;
    for (const v of [s.name, s.games, s.wins, s.forfeits, s.elo.toFixed(0), interval]) row.append(el("td", "", v));
    body.append(row);
  }
  drawElo(table);
}

async function openLog() {
  const file = $("e-log-file").files[0];
  if (!file) return;
  log.data = await api("/api/ewn/log", { text: await file.text() });
  if (!log.data.games.length) { $("e-log-status").textContent = "the log holds no game"; return; }
  $("e-log-game").max = log.data.games.length - 1;
  $("e-log-game").disabled = $("e-log-move").disabled = $("e-log-play").disabled = false;
  showLogGame(0, 0);
}

function playLog() {
  if (log.timer) { clearInterval(log.timer); log.timer = null; $("e-log-play").textContent = "Play games"; return; }
  let g = +$("e-log-game").value, m = +$("e-log-move").value;
  $("e-log-play").textContent = "Pause";
  log.timer = setInterval(() => {
    const game = log.data.games[g];
    if (m < game.frames.length - 1) m += 1;
    else if (g < log.data.games.length - 1) { g += 1; m = 0; }
    else { playLog(); return; }
    showLogGame(g, m);
  }, 60);
}

// --- Openings log.
const openings = { records: [] };

function showOpening(move) {
  const r = openings.records[$("e-open-start").selectedIndex];
  if (!r) return;
  const m = move ?? 0;
  $("e-open-move").max = r.frames.length - 1;
  $("e-open-move").value = m;
  drawDuel($("e-open-board"), r.frames[m]);
  const who = r.winner ? `${r.winner} wins (first winning move ${r.move})` : "open: not proven within its budget";
  $("e-open-status").textContent = `start ${r.start}, red ${r.red}, blue ${r.blue}, dice ${r.dice}: ${who}; ${thousands(r.nodes)} positions, ${r.seconds.toFixed(2)} s. Line: ${r.line.join(" ") || "none"}${m ? ` (move ${m}: ${r.line[m - 1]})` : ""}`;
}

// A log's lines without their certificates (`prove --certify`: hundreds of kilobytes a start,
// which the browser does not show and which would outgrow the request limit); a line that is
// not JSON goes as it is, for the server to name.
function withoutCertificates(text) {
  return text.split("\n").map((line) => {
    if (!line.includes('"certificate"')) return line;
    try {
      const value = JSON.parse(line);
      delete value.certificate;
      if (value.result) delete value.result.certificate;
      return JSON.stringify(value);
    } catch {
      return line;
    }
  }).join("\n");
}

async function openOpenings() {
  const file = $("e-open-file").files[0];
  if (!file) return;
  const data = await api("/api/ewn/openings", { text: withoutCertificates(await file.text()) });
  openings.records = data.records;
  $("e-open-start").replaceChildren(...data.records.map((r) => el("option", "", `start ${r.start}: ${r.winner ?? "open"}`)));
  $("e-open-move").disabled = false;
  showOpening(0);
}

export async function init() {
  for (const id of ["e-red", "e-blue"]) $(id).replaceChildren(...AGENTS.map((a) => el("option", "", a)));
  $("e-blue").value = "hard";
  $("e-solo-solve").addEventListener("click", () => guarded(solveSolo));
  $("e-solo-play").addEventListener("click", playSolo);
  $("e-solo-step").addEventListener("input", () => drawSolo(+$("e-solo-step").value));
  $("e-new").addEventListener("click", () => guarded(newDuel));
  $("e-stop").addEventListener("click", () => { duel.stopped = true; duel.controller?.abort(); });
  $("e-duel-board").addEventListener("click", (e) => { const c = e.target.closest("[data-cell]"); if (c) humanClick(+c.dataset.cell); });
  $("e-log-file").addEventListener("change", () => guarded(openLog));
  $("e-log-game").addEventListener("input", () => showLogGame(+$("e-log-game").value));
  $("e-log-move").addEventListener("input", () => showLogGame(+$("e-log-game").value, +$("e-log-move").value));
  $("e-log-play").addEventListener("click", playLog);
  $("e-open-file").addEventListener("change", () => guarded(openOpenings));
  $("e-open-start").addEventListener("change", () => showOpening(0));
  $("e-open-move").addEventListener("input", () => showOpening(+$("e-open-move").value));
  await guarded(solveSolo);
  await guarded(newDuel);
}
