// Sokoboru: open a course file or generate a case, play with undo and hints, solve with the
// answer and bound over time, animate the answer.
import { api, stream, guarded, el, svg, thousands } from "/static/app.js";

const $ = (id) => document.getElementById(id);
const SAMPLE = "5 6\n---###\n$$----\n------\n---OO-\n---@--\n";
const KINDS = { "#": "wall", "@": "player", O: "ball", $: "empty", "*": "full", "-": "" };
const KEYS = { ArrowUp: "^", ArrowDown: "v", ArrowLeft: "<", ArrowRight: ">", k: "^", j: "v", h: "<", l: ">" };
const game = { puzzle: SAMPLE, moves: "", cases: [] };
let answerFrames = [];
let timer = null;
let solving = null;

function drawBoard(text) {
  const rows = text.trim().split("\n");
  const host = $("s-board");
  host.replaceChildren();
  host.style.gridTemplateColumns = `repeat(${rows[0].length}, auto)`;
  for (const row of rows) for (const ch of row) host.append(el("div", KINDS[ch] ?? ""));
  host.dataset.board = text;
}

function showGame(data, note) {
  drawBoard(data.frames[data.frames.length - 1]);
  const moves = data.moves.length;
  let text = `${moves} moves, penalty ${data.penalty}${data.solved ? ": solved" : ""}`;
  if (note) text += `. ${note}`;
  $("s-status").textContent = text;
}

async function replay(moves, note) {
  const data = await api("/api/sokoboru/play", { puzzle: game.puzzle, moves });
  game.moves = moves;
  showGame(data, note);
}

function move(dir) {
  guarded(() => replay(game.moves + dir));
}

function usePuzzle(text) {
  game.puzzle = text;
  game.moves = "";
  stopAnswer();
  answerFrames = [];
  $("s-step").disabled = $("s-play").disabled = true;
  $("s-answer").textContent = "";
  $("s-chart").replaceChildren();
  $("s-solve-status").textContent = "";
  return guarded(() => replay(""));
}

async function openFile() {
  const file = $("s-file").files[0];
  if (!file) return;
  await guarded(async () => {
    const { puzzles } = await api("/api/sokoboru/parse", { text: await file.text() });
    game.cases = puzzles;
    const select = $("s-case");
    select.replaceChildren(...puzzles.map((p, i) => el("option", "", `case ${i + 1}: ${p.rows} x ${p.cols}`)));
    select.value = select.options[0].value;
    await usePuzzle(puzzles[0].text);
  });
}

async function generate() {
  const body = { seed: +$("s-seed").value, rows: +$("s-rows").value, cols: +$("s-cols").value, balls: +$("s-balls").value };
  $("s-generate").disabled = true;
  await guarded(async () => {
    const found = await stream("/api/sokoboru/generate", body, {
      progress: (p) => { $("s-status").textContent = `generating: ${p.drawn} boards drawn`; },
    });
    await usePuzzle(found.text);
    $("s-status").textContent += `. Generated: ${found.proven ? "optimal" : "best known"} penalty ${found.penalty}`;
  });
  $("s-generate").disabled = false;
}

function drawChart(points) {
  const chart = $("s-chart");
  chart.replaceChildren();
  const W = 420, H = 200, left = 36, right = 10, top = 10, bottom = 26;
  const values = points.flatMap((p) => [p.cost, p.lower_bound]).filter((v) => v !== null && v !== undefined);
  if (!values.length) return;
  const end = Math.max(points[points.length - 1].seconds, 0.001);
  const lo = Math.min(...values), hi = Math.max(...values);
  const x = (t) => left + ((W - left - right) * t) / end;
  const y = (v) => top + ((H - top - bottom) * (hi - v)) / (hi - lo || 1);
  for (const [key, colour] of [["cost", "#b42318"], ["lower_bound", "#2f6fde"]]) {
    const line = points.filter((p) => p[key] !== null && p[key] !== undefined).map((p) => `${x(p.seconds)},${y(p[key])}`);
    if (line.length) chart.append(svg("polyline", { points: line.join(" "), fill: "none", stroke: colour, "stroke-width": 2 }));
  }
  chart.append(svg("text", { x: 4, y: y(hi) + 4 }, hi));
  chart.append(svg("text", { x: 4, y: y(lo) + 4 }, lo));
  chart.append(svg("text", { x: left, y: H - 6 }, "0 s"));
  chart.append(svg("text", { x: W - right - 40, y: H - 6 }, `${end.toFixed(1)} s`));
  chart.append(svg("text", { x: left + 40, y: H - 6, fill: "#b42318" }, "answer"));
  chart.append(svg("text", { x: left + 100, y: H - 6, fill: "#2f6fde" }, "lower bound"));
}

function showAnswerFrame(i) {
  $("s-step").value = i;
  $("s-at").textContent = `move ${i} of ${answerFrames.length - 1}`;
  drawBoard(answerFrames[i]);
}

function stopAnswer() {
  clearInterval(timer);
  timer = null;
  $("s-play").textContent = "Play answer";
}

function playAnswer() {
  if (timer) return stopAnswer();
  let i = +$("s-step").value;
  if (i >= answerFrames.length - 1) i = 0;
  $("s-play").textContent = "Pause";
  showAnswerFrame(i);
  timer = setInterval(() => {
    i += 1;
    if (i >= answerFrames.length) return stopAnswer();
    showAnswerFrame(i);
  }, 200);
}

function describe(a) {
  if (a.unsolvable) return "no solution";
  const answer = a.cost === null ? "no answer yet" : `answer ${a.cost}`;
  const bound = a.proven ? "proven optimal" : `the optimum is at least ${a.lower_bound}`;
  return `${answer}, ${bound}`;
}

async function solve() {
  const controller = new AbortController();
  solving = controller;
  const points = [];
  $("s-solve").disabled = true;
  $("s-cancel").disabled = false;
  $("s-solve-status").textContent = "solving...";
  const limit = $("s-limit").value;
  await guarded(async () => {
    const result = await stream("/api/sokoboru/solve", { puzzle: game.puzzle, time_limit: limit ? +limit : null }, {
      progress: (p) => {
        points.push(p);
        drawChart(points);
        $("s-solve-status").textContent = `solving: ${describe(p)}, ${p.seconds.toFixed(1)} s`;
      },
    }, controller.signal);
    points.push(result);
    drawChart(points);
    $("s-solve-status").textContent = `${result.stopped ? "stopped: " : ""}${describe(result)}, ${thousands(result.generated)} states generated, ${result.seconds.toFixed(2)} s`;
    if (result.moves) {
      $("s-answer").textContent = result.moves;
      const data = await api("/api/sokoboru/play", { puzzle: game.puzzle, moves: result.moves });
      answerFrames = data.frames;
      $("s-step").max = answerFrames.length - 1;
      $("s-step").disabled = $("s-play").disabled = false;
      showAnswerFrame(0);
    }
  });
  if (controller.signal.aborted) $("s-solve-status").textContent += " (cancelled)";
  $("s-solve").disabled = false;
  $("s-cancel").disabled = true;
  solving = null;
}

export async function init() {
  $("s-file").addEventListener("change", openFile);
  $("s-case").addEventListener("change", () => usePuzzle(game.cases[$("s-case").selectedIndex].text));
  $("s-generate").addEventListener("click", generate);
  for (const button of document.querySelectorAll("#sokoboru [data-dir]")) {
    button.addEventListener("click", () => move(button.dataset.dir));
  }
  $("s-undo").addEventListener("click", () => guarded(() => replay(game.moves.slice(0, -1))));
  $("s-reset").addEventListener("click", () => guarded(() => replay("")));
  $("s-hint").addEventListener("click", () => guarded(async () => {
    const hint = await api("/api/sokoboru/hint", { puzzle: game.puzzle, moves: game.moves });
    await replay(game.moves, `hint: ${hint.move} (the first of ${hint.moves.length} moves, ${hint.proven ? "an optimal answer" : "the best answer found"})`);
  }));
  $("s-board").addEventListener("keydown", (e) => {
    if (KEYS[e.key]) { e.preventDefault(); move(KEYS[e.key]); }
    if (e.key === "u") guarded(() => replay(game.moves.slice(0, -1)));
  });
  $("s-solve").addEventListener("click", solve);
  $("s-cancel").addEventListener("click", () => solving?.abort());
  $("s-play").addEventListener("click", playAnswer);
  $("s-step").addEventListener("input", () => { stopAnswer(); showAnswerFrame(+$("s-step").value); });
  await usePuzzle(SAMPLE);
}
