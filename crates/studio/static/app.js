// ply studio: the page's router and the API helpers every section uses.

const params = new URLSearchParams(location.search);
export const token = params.get("token") || sessionStorage.getItem("ply-token") || "";
if (token) sessionStorage.setItem("ply-token", token);

const errorLine = document.getElementById("error");

/** Shows one line of error (or hides it with no message). */
export function showError(message) {
  errorLine.textContent = message || "";
  errorLine.hidden = !message;
}

/** Runs `action`, showing its error as the page's one line. */
export async function guarded(action) {
  try {
    showError("");
    return await action();
  } catch (e) {
    if (e.name !== "AbortError") showError(e.message);
  }
}

function headers() {
  return { "content-type": "application/json", "x-ply-token": token };
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body.error) message = body.error;
  } catch (_) { /* not JSON: keep the status */ }
  return new Error(message);
}

/** POSTs `body` as JSON to `path` and returns the JSON answer, or throws its error line. */
export async function api(path, body, method = "POST") {
  const response = await fetch(path, {
    method,
    headers: headers(),
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw await failure(response);
  return response.json();
}

/**
 * POSTs `body` to a streaming route and calls `on[name](data)` for each server-sent event
 * until the stream ends; resolves with the `done` event's data, or throws the `error`
 * event's message. Aborting `signal` ends the request, which stops the job on the server.
 */
export async function stream(path, body, on, signal) {
  const response = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body), signal });
  if (!response.ok) throw await failure(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let result;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (!data.length) continue;
      const value = JSON.parse(data.join("\n"));
      if (name === "error") throw new Error(value.error);
      if (name === "done") result = value;
      on[name]?.(value);
    }
  }
  if (result === undefined) throw new Error("the job ended without an answer");
  return result;
}

/** A number with thousands separators. */
export function thousands(n) {
  return Number(n).toLocaleString("en-US");
}

/** A random seed a JavaScript number holds exactly. */
export function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

/** An element with a class and text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG element with attributes. */
export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const sections = { "/": "home", "/mines": "mines", "/npuzzle": "npuzzle", "/sokoboru": "sokoboru", "/ewn": "ewn" };

async function refreshJobs() {
  try {
    const { jobs, limit } = await api("/api/jobs", undefined, "GET");
    document.getElementById("jobs").textContent = jobs.length ? `${jobs.length} of ${limit} jobs running` : "";
  } catch (_) { /* the server went away: the next action says so */ }
}

async function start() {
  for (const link of document.querySelectorAll("a[data-nav]")) {
    link.href = `${link.getAttribute("href")}?token=${encodeURIComponent(token)}`;
    if (new URL(link.href).pathname === location.pathname) link.classList.add("active");
  }
  const id = sections[location.pathname] ?? "home";
  document.getElementById(id).hidden = false;
  if (!token) showError("no token: open the address that `ply studio` printed, which carries it");
  if (id !== "home") {
    const section = await import(`/static/${id}.js`);
    await section.init();
  }
  setInterval(refreshJobs, 2000);
  // Milliseconds from the navigation's start to the section's first answers shown.
  document.body.dataset.readyMs = Math.round(performance.now());
  document.body.dataset.ready = "true";
}

start();
