"use strict";
// The play page: pick a game and an opponent, click moves, see the agent's answers.
const $ = (id) => document.getElementById(id);
let catalog = null;
let match = null;
let busy = false;
// The server's per-start token: every POST carries it (other sites cannot read this page).
const token = document.querySelector('meta[name="serve-token"]').content;

async function api(method, path, body) {
  const init = { method, headers: { "Content-Type": "application/json", "X-Serve-Token": token } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const reply = await fetch(path, init);
  const data = await reply.json();
  if (!reply.ok) throw new Error(data.error || reply.statusText);
  return data;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function fillSeats() {
  const game = catalog.games.find((g) => g.id === $("game").value);
  $("seat").replaceChildren(...game.seats.map((label, i) => {
    const option = el("option", `${label} (seat ${i})`);
    option.value = String(i);
    return option;
  }));
}

async function load() {
  catalog = await api("GET", "/api/catalog");
  $("game").replaceChildren(...catalog.games.map((g) => {
    const option = el("option", g.name);
    option.value = g.id;
    return option;
  }));
  $("game").value = catalog.games.some((g) => g.id === "tictactoe") ? "tictactoe" : catalog.games[0].id;
  const described = new Map(catalog.players.map((p) => [p.name, p.description]));
  $("players").replaceChildren(...catalog.opponents.map((spec) => {
    const option = el("option", described.get(spec.split(":")[0]) || spec);
    option.value = spec;
    return option;
  }));
  if (!catalog.opponents.includes($("opponent").value)) $("opponent").value = catalog.opponents[0];
  fillSeats();
}

// While a request is out the agent may be deciding (a model call can take minutes):
// `waiting` says so in the status line and shows what was clicked until the reply comes.
async function act(work, waiting) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  $("error").textContent = "";
  if (waiting) waiting();
  try {
    match = await work();
    show();
  } catch (err) {
    $("error").textContent = err.message;
    if (match) show(); // the board as it was: the pending move is taken back
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

function thinking(text) {
  $("status").textContent = text;
  $("status").classList.add("thinking");
}

// The clicked move, shown until the server answers: the player's mark in a grid cell
// (its seat label when one character, else a dot), a pressed button otherwise.
function showPending(move) {
  const mine = match.seats[match.human_seat].split(" (")[0];
  const button = document.querySelector(`#board button[data-move="${CSS.escape(move)}"]`);
  if (button) {
    const td = button.parentElement;
    td.replaceChildren(document.createTextNode(mine.length === 1 ? mine : "\u2022"));
    td.classList.add("pending");
    td.title = `${move}: sent, waiting for the agent`;
  }
  for (const other of document.querySelectorAll("#board button, #moves button")) {
    other.disabled = true;
    if (other.dataset.move === move) other.classList.add("pending");
  }
  thinking(`You played ${move}; ${match.seats[1 - match.human_seat]} is thinking\u2026`);
}

function play(move) {
  act(() => api("POST", `/api/matches/${match.match_id}/move`, { move }), () => showPending(move));
}

function showGrid() {
  const table = el("table", null, "grid");
  for (const row of match.grid.cells) {
    const tr = el("tr");
    for (const cell of row) {
      const td = el("td");
      td.dataset.cell = `${cell.row},${cell.col}`;
      if (cell.mark) {
        td.textContent = cell.mark;
      } else if (cell.move && match.your_turn) {
        const button = el("button", "");
        button.dataset.move = cell.move;
        button.title = cell.move;
        button.addEventListener("click", () => play(cell.move));
        td.append(button);
      }
      tr.append(td);
    }
    table.append(tr);
  }
  return table;
}

function truthText(truth) {
  if (Array.isArray(truth)) return truth.length ? truth.join(", ") : "none";
  return truth === null || truth === undefined ? "none" : String(truth);
}

function showAgent() {
  const agent = match.agent;
  const rows = [];
  if (!agent) {
    $("agent-move").textContent = "No move yet.";
    $("reasoning").textContent = "";
  } else {
    let line = `Played ${agent.action} (${agent.status})`;
    if (agent.fallback) line += `, fallback: ${agent.fallback}`;
    $("agent-move").textContent = line;
    const texts = agent.attempts.filter((a) => a.text).map((a, i) =>
      `answer ${i + 1} [${a.status}]\n${a.text}` + (a.feedback ? `\n-> ${a.feedback}` : ""));
    $("reasoning").textContent = texts.join("\n\n") || "(no model answer: a search player)";
    for (const answer of agent.answers) {
      const tr = el("tr", null, answer.correct ? "right" : "wrong");
      tr.append(el("td", String(answer.index)),
        el("td", answer.answered ? String(answer.answer || answer.parsed) : "no answer"),
        el("td", truthText(answer.truth)),
        el("td", answer.correct ? "\u2713 right" : "\u2717 wrong"));
      rows.push(tr);
    }
  }
  document.querySelector("#answers tbody").replaceChildren(...rows);
  $("answers").hidden = rows.length === 0;
}

function show() {
  $("match").hidden = false;
  $("title").textContent = `${match.game_name}: ${match.seats.join(" vs ")}`;
  $("status").classList.remove("thinking");
  $("status").textContent = match.finished ? "Game over."
    : match.your_turn ? `Your move (${match.to_move.join(", ")}).` : "Waiting for the agent.";
  $("board").replaceChildren(match.grid ? showGrid() : el("span"));
  $("board-text").textContent = match.grid ? "" : match.board;
  $("board-text").hidden = Boolean(match.grid);
  const buttons = match.grid ? [] : match.legal_moves.map((move) => {
    const button = el("button", move);
    button.type = "button";
    button.dataset.move = move;
    button.addEventListener("click", () => play(move));
    return button;
  });
  $("moves").replaceChildren(...buttons);
  $("outcome").textContent = match.outcome || "";
  if (match.replay) {
    $("replay").href = match.replay;
    $("replay").hidden = false;
  } else {
    $("replay").hidden = true;
  }
  showAgent();
}

$("game").addEventListener("change", fillSeats);
$("setup").addEventListener("submit", (event) => {
  event.preventDefault();
  act(() => api("POST", "/api/matches", {
    game: $("game").value,
    opponent: $("opponent").value.trim(),
    human_seat: Number($("seat").value),
    seed: Number($("seed").value || 0),
  }), () => {
    // The agent moves first from seat 0: its first move comes with the new match.
    const agentFirst = Number($("seat").value) !== 0;
    $("match").hidden = false;
    for (const id of ["board", "moves", "outcome"]) $(id).replaceChildren();
    const opponent = $("opponent").value.trim();
    thinking(agentFirst ? `Starting; ${opponent} is thinking\u2026` : "Starting\u2026");
  });
});
load().catch((err) => { $("error").textContent = err.message; });
