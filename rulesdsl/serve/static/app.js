// The page: a lobby to start a table, and a table drawn from the messages the server sends.
// It draws only what it is sent: the rule file's shapes (the "welcome" message) filled
// with this seat's view (each "view" message). Moves are option ids the server checks.
// Every text from the server goes into the page as text (textContent), never as markup.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const UNIT = 44;   // pixels per square cell or per triangle edge

function el(tag, attrs = {}, text = null, ns = null) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = String(text);
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

// a POST carries the request token the server wrote into this page: the server refuses
// a POST without it (another site's page cannot read it), and one that is not JSON
const REQUEST_TOKEN = document.querySelector('meta[name="request-token"]').content;

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "X-Request-Token": REQUEST_TOKEN}});
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// ---- the lobby -------------------------------------------------------------------------

// what this browser remembers: the person's name, and the tables they made or sat at
// (each table's seat token is kept under its own key, `rulesdsl:ID`)
const NAME_KEY = "rulesdsl:name", MINE_KEY = "rulesdsl:mine";
const myName = () => localStorage.getItem(NAME_KEY) || "";
function remember(id) {
  let mine = [];
  try { mine = JSON.parse(localStorage.getItem(MINE_KEY)) || []; } catch { mine = []; }
  localStorage.setItem(MINE_KEY, JSON.stringify([id, ...mine.filter((t) => t !== id)].slice(0, 30)));
}
function myTables() {
  try { return JSON.parse(localStorage.getItem(MINE_KEY)) || []; } catch { return []; }
}

function nameInput(input) {
  input.value = myName();
  input.onchange = () => localStorage.setItem(NAME_KEY, input.value.trim());
}

// a table as the lobby lists it: its name (or its game's), the game, its seats
function tableItem(t, mine) {
  const li = el("li", {"data-table": t.table});
  li.append(el("a", {href: `/t/${t.table}`}, t.name || t.game));
  const free = t.seats.filter((s) => s === "free").length;
  const seats = `${t.seats.length} seats: ${t.seats.filter((s) => s === "taken").length} taken, ${free} free, ${t.seats.filter((s) => s === "bot").length} bots`;
  li.append(el("span", {class: "about"}, `${t.name ? `${t.game}, ` : ""}${seats}${t.over ? " — over" : ""}${mine && stored(t.table) ? " — you play here" : ""}`));
  return li;
}

async function lobby() {
  $("lobby").hidden = false;
  nameInput($("your-name"));
  const {games, bots} = await api("/api/games");
  const game = $("game"), players = $("players"), kinds = $("seat-kinds");
  games.forEach((g, i) => game.append(el("option", {value: i}, `${g.name} (${g.file})`)));
  function seatsFor() {
    const g = games[game.value];
    players.replaceChildren();
    for (let n = g.players[0]; n <= g.players[1]; n++) players.append(el("option", {value: n}, n));
    kindsFor();
  }
  function kindsFor() {
    kinds.replaceChildren();
    for (let p = 1; p <= Number(players.value); p++) {
      const select = el("select", {"data-seat": p});
      select.append(el("option", {value: "person"}, "a person"));
      for (const b of bots) select.append(el("option", {value: b}, `bot: ${b}`));
      if (p > 1) select.value = bots.includes("greedy") ? "greedy" : bots[0];
      const label = el("label", {}, `Seat ${p}: `);
      label.append(select);
      kinds.append(label);
    }
  }
  game.onchange = seatsFor;
  players.onchange = kindsFor;
  seatsFor();
  $("create").onsubmit = async (event) => {
    event.preventDefault();
    const seats = [...kinds.querySelectorAll("select")].map((s) => s.value);
    try {
      const {table} = await api("/api/tables", {game: Number(game.value), seats, name: $("table-name").value, forced: $("forced").value});
      remember(table);
      location.href = `/t/${table}`;
    } catch (e) { showError(e.message); }
  };
  const kept = [];
  for (const id of myTables()) {   // a table the server cleared is forgotten
    try { kept.push(await api(`/api/tables/${encodeURIComponent(id)}`)); } catch { localStorage.removeItem(`rulesdsl:${id}`); }
  }
  localStorage.setItem(MINE_KEY, JSON.stringify(kept.map((t) => t.table)));
  $("mine").replaceChildren(...kept.map((t) => tableItem(t, true)));
  if (!kept.length) $("mine").append(el("li", {class: "hint"}, "none yet: start one below, or take a seat at an open one"));
  const mine = new Set(kept.map((t) => t.table));
  const open = (await api("/api/tables")).filter((t) => !mine.has(t.table) && t.seats.includes("free"));
  $("tables").replaceChildren(...open.map((t) => tableItem(t, false)));
  if (!open.length) $("tables").append(el("li", {class: "hint"}, "none at the moment"));
}

// ---- a table ---------------------------------------------------------------------------

const table = {id: null, ws: null, seat: null, screen: null, last: null, filter: null};

function stored(id = table.id) {
  try { return JSON.parse(localStorage.getItem(`rulesdsl:${id}`)); } catch { return null; }
}

function connect() {
  const mine = stored();
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${table.id}`);
  table.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({type: "hello", token: mine ? mine.token : null}));
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => { if (table.ws === ws) setTimeout(connect, 1500); };  // reconnect
}

function receive(message) {
  if (message.type === "error") {
    showError(message.message);
    if (message.fatal) { table.ws = null; return; }  // no such table, full, cleared: stay
    if (message.message.includes("seat token is not valid")) {  // an old token: watch
      localStorage.removeItem(`rulesdsl:${table.id}`);
      table.ws.send(JSON.stringify({type: "hello", token: null}));
    }
    return;
  }
  if (message.type === "welcome") {
    table.seat = message.seat;
    document.body.dataset.seat = message.seat || "";
    table.screen = message.screen;
    seatColours((message.screen.display.seats || {}).colours || []);
    $("title").textContent = `${message.name ? `${message.name}: ` : ""}${message.game}${message.seat ? ` — you are player ${message.seat}` : " — watching"}`;
    return;
  }
  if (message.type === "view") {
    table.before = table.last ? table.last.view.boards : null;   // to mark what changed
    table.last = message;
    table.filter = null;
    if (message.turn !== table.shownTurn) table.search = "";   // a new decision: a new search
    table.shownTurn = message.turn;
    draw();
    document.body.dataset.turn = message.turn;   // for people's tools and the browser tests
    document.body.dataset.over = message.over;
  }
}

// the seats' colours where the rules name them (`seat colours`), in place of the page's own
function seatColours(colours) {
  const rules = colours.map((c, i) => /^(#[0-9a-fA-F]{6}|[a-zA-Z]+)$/.test(c) ?
    `.p${i + 1} { fill: ${c}; color: ${c}; } .card.p${i + 1} { border-left-color: ${c}; }` : "");
  let style = $("seat-colours");
  if (!style) { style = el("style", {id: "seat-colours"}); document.head.append(style); }
  style.textContent = rules.join("\n");
}

function move(option) {
  table.ws.send(JSON.stringify({type: "move", option, turn: table.last.turn}));
}

// this seat chooses an option: remembered (a tile and where it goes, to preview its turn)
function choose(option) {
  remembered(option);
  move(option);
}

async function takeSeat(player) {
  try {
    const name = $("seat-name").value.trim();
    if (name) localStorage.setItem(NAME_KEY, name);
    const {token} = await api(`/api/tables/${table.id}/seats`, {seat: player, name});
    localStorage.setItem(`rulesdsl:${table.id}`, JSON.stringify({seat: player, token}));
    remember(table.id);
    const old = table.ws;
    table.ws = null;
    old.close();
    connect();
  } catch (e) { showError(e.message); }
}

// this seat's options: those of the decision it takes now, or of a secret step that asks
// every seat in it at once (the server plays the answer when the rules come to this seat)
function myOptions() {
  if (table.last.ahead) return table.last.ahead;
  const d = table.last.view.decision;
  return d && d.options ? d.options : [];
}

function draw() {
  const {view, seats, over, error} = table.last;
  const status = $("status");
  const decider = view.decision ? view.decision.player + 1 : null;
  status.className = "";
  if (error) status.textContent = `The rules stopped the game: ${error}`;
  else if (over && view.result) {
    const winners = view.result.ranking.map((r, p) => r === 1 ? p + 1 : null).filter((p) => p);
    status.textContent = `Game over: ${winners.length === view.players ? "nobody wins" : `${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "share first place" : "wins"}`}` +
      (view.result.scores ? ` (scores ${view.result.scores.join(", ")})` : "");
    const link = el("a", {href: `/api/tables/${table.id}/record`, id: "record"}, "download the game's record");
    status.append(" — ", link);
    status.append(standings(view.result));
  } else if (decider === table.seat || table.last.ahead) {
    status.textContent = "Your turn";
    status.className = "mine";
    if (view.decision.simultaneous && view.decision.simultaneous.length > 1) status.append(" (a secret choice: the others choose at the same time)");
  } else if (table.last.held) status.textContent = `You chose “${table.last.held}” in secret: waiting for ${waitingFor(view)}`;
  else status.textContent = decider ? `${capital(seatName(decider))} decides` : "";
  document.title = `${status.className === "mine" ? "● " : ""}${view.game} — rulesdsl`;
  drawSeats(seats);
  drawBoards(view);
  drawOptions(view);
  drawDice(view);
  drawCounters(view);
  drawZones(view);
  document.querySelectorAll("#table svg:not([viewBox])").forEach(scalable);
  drawLegend(view);
  const log = $("log");
  log.replaceChildren(...view.log.map((line) => el("li", {}, line)));
  log.scrollTop = log.scrollHeight;
}

// the final standing: each seat by its place, with its score; why the game ended when
// the view says it
function standings(result) {
  const box = el("div", {class: "standings"});
  // the rules ended it, or it reached the rule file's limit of decisions (`ended_by`)
  // (`why`: the rule file's words for the end it met, `ended RULE "words"`)
  const why = result.why ? `the game ended: ${result.why}` : result.ended_by === "limit"
    ? "the game reached its limit of decisions before the rules ended it"
    : "the rules ended the game";
  box.append(el("div", {class: "why"}, capital(why)));
  const order = result.ranking.map((r, p) => [r, p]).sort((a, b) => a[0] - b[0]);
  const list = el("ol", {class: "places"});
  for (const [rank, p] of order) {
    const score = result.scores ? `: ${result.scores[p]}` : "";
    list.append(el("li", {value: rank, class: `p${p + 1}`}, `${seatName(p + 1)}${score}`));
  }
  box.append(list);
  return box;
}

// the seats still to choose in a secret step (all but those that answered ahead)
function waitingFor(view) {
  const still = (view.decision.simultaneous || [view.decision.player]).map((p) => p + 1).filter((p) => !table.last.chosen.includes(p));
  return still.map(seatName).join(" and ");
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// a seat as the page names it: the person's name when they gave one, or "player N"
function seatName(player) {
  const s = table.last && table.last.seats[player - 1];
  return s && s.name ? `${s.name} (player ${player})` : `player ${player}`;
}

function drawSeats(seats) {
  const box = $("seats");
  box.replaceChildren();
  $("name-to-sit").hidden = table.seat !== null || !seats.some((s) => !s.taken);
  for (const s of seats) {
    const span = el("span", {}, `player ${s.player}: `);
    span.prepend(el("b", {class: `p${s.player}`}, "● "));
    if (s.bot) span.append(`bot (${s.bot})`);
    else if (s.player === table.seat) span.append(`you${s.name ? ` (${s.name})` : ""}`);
    else if (s.taken) span.append(s.name || "a person");
    else if (table.seat === null) {
      const b = el("button", {"data-take": s.player}, "take this seat");
      b.onclick = () => takeSeat(s.player);
      span.append(b);
    } else span.append("free");
    box.append(span);
  }
}

// ---- boards ----------------------------------------------------------------------------

// the special spaces a rule file names (Cronberg's parks and guards): each set its own
// outline, said in the cell's tooltip and in the legend
function specialSets(board) { return (table.screen.special || {})[board] || []; }
function special(node, board, cell) {
  specialSets(board).forEach(([title, cells], k) => {
    if (!cells.includes(cell)) return;
    node.classList.add("special", `special${k % 4}`);
    node.setAttribute("data-special", title);
    node.append(el("title", {}, `${cell}: ${title}`, SVG));
  });
}

// a picture drawn at its size that shrinks to the width of a phone (the CSS caps its width)
function scalable(svg) {
  const w = svg.getAttribute("width"), h = svg.getAttribute("height");
  if (w && h) svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
}

// ---- the display declaration: what the screen calls things, hides, groups, and marks -----

const display = () => table.screen.display;
const nameOf = (name) => display().labels[name] || words(name);
const drawn = (name) => !display().hidden.includes(name);

// names in the order the screen draws them: each group's under its title, then the rest
function ordered(names) {
  const out = [], placed = new Set();
  for (const [title, members] of display().groups) {
    const here = members.filter((n) => names.includes(n) && drawn(n));
    here.forEach((n, i) => { out.push([i === 0 ? title : null, n]); placed.add(n); });
  }
  for (const n of names) if (!placed.has(n) && drawn(n)) out.push([null, n]);
  return out;
}

const playerOf = (value) => typeof value === "string" && /^player \d+$/.test(value) ? Number(value.slice(7)) : null;

// how a piece on a board is marked: a player's disc, a glyph or label, and its owner's colour
function pieceText(piece, holding, view) {
  if (typeof piece === "number") return {player: piece + 1, text: ""};  // a bare player number
  if (playerOf(piece)) return {player: playerOf(piece), text: ""};
  const glyphs = (holding && display().glyphs[holding]) || {};
  const seen = holding && view.components[holding] && view.components[holding][piece];
  if (!seen) return {player: null, text: glyphs[String(piece)] || words(piece), title: words(piece)};
  const owner = display().owners[holding];
  const facts = Object.entries(seen.counters).filter(([k]) => drawn(k) && k !== owner).map(([k, v]) => `${nameOf(k)} ${show(v)}`);
  const whose = owner ? playerOf(seen.counters[owner]) : null;
  return {player: whose, text: glyphs[piece] || words(seen.label),
          title: [faceTitle(holding, piece, view), ...facts].join(" · ") + (whose ? ` — ${seatName(whose)}'s` : "")};
}

function optionsAt(cell) {
  return myOptions().filter(([id]) => id === cell || id.split("+").includes(cell));
}

// a cell, crossing, card or tile that options name: a click chooses the one option, or
// narrows the list to those that use it
function cellClick(node, cell) {
  const here = optionsAt(cell);
  if (!here.length) return;
  node.classList.add("can");
  node.addEventListener("click", () => {
    if (here.length === 1) choose(here[0][0]);
    else { table.filter = here.map(([id]) => id); drawOptions(table.last.view); }
  });
}

// the player who placed the piece on a cell, where the display gives a board's pieces to
// their placers (`owner BOARD by placer`)
function placerOf(view, board, cell) {
  return playerOf(((view.placed || {})[board] || {})[cell]);
}

function drawPiece(svg, x, y, piece, holding, view, r, placer = null) {
  let {player, text, title} = pieceText(piece, holding, view);
  if (placer && !player) { player = placer; title = `${title || text} — placed by ${seatName(placer)}`; }
  const group = el("g", {"data-piece": String(piece)}, null, SVG);
  if (placer) group.dataset.placedBy = String(placer);
  if (title) group.append(el("title", {}, title, SVG));
  if (player) group.append(el("circle", {cx: x, cy: y, r: text ? r * 1.25 : r, class: `disc p${player}`}, null, SVG));
  if (text) group.append(el("text", {x, y, class: player ? "piece on" : "piece", "font-size": text.length > 8 ? 9 : 12}, text.length > 13 ? text.slice(0, 12) + "…" : text, SVG));
  svg.append(group);
}

// whether a cell's content changed with the last move (the page marks it)
function changed(board, cell) {
  const before = table.before && table.before[board], now = table.last.view.boards[board];
  return Boolean(before && now) && JSON.stringify(before[cell]) !== JSON.stringify(now[cell]);
}

function drawBoards(view) {
  const box = $("boards");
  box.replaceChildren();
  const shapes = table.screen.boards;
  for (const board of shapes) {
    if (board.kind === "corners" || !drawn(board.name)) continue;  // corners: drawn over their board
    const cells = view.boards[board.name] || {};
    const title = el("div", {class: "board-name"}, nameOf(board.name));
    let svg;
    if (board.kind === "square") {
      svg = el("svg", {width: board.width * UNIT + 30, height: board.height * UNIT + 30, "data-board": board.name}, null, SVG);
      for (const [name, x, y] of board.cells) {
        const px = 20 + x * UNIT, py = 5 + (board.height - 1 - y) * UNIT;
        const rect = el("rect", {x: px, y: py, width: UNIT, height: UNIT, class: "cell", "data-cell": name}, null, SVG);
        if (name in cells) rect.classList.add("taken");
        if (changed(board.name, name)) rect.classList.add("fresh");
        cellClick(rect, name);
        special(rect, board.name, name);
        svg.append(rect);
        if (name in cells) drawPiece(svg, px + UNIT / 2, py + UNIT / 2, cells[name], board.holding, view, UNIT / 3, placerOf(view, board.name, name));
      }
      for (let x = 0; x < board.width; x++) svg.append(el("text", {x: 20 + x * UNIT + UNIT / 2, y: board.height * UNIT + 18, class: "piece"}, "abcdefghijklmnopqrstuvwxyz"[x], SVG));
      for (let y = 0; y < board.height; y++) svg.append(el("text", {x: 10, y: 5 + (board.height - 1 - y) * UNIT + UNIT / 2, class: "piece"}, y + 1, SVG));
    } else if (board.kind === "triangles") {
      const pts = board.corners.map(([, p]) => p);
      const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      const at = ([x, y]) => [20 + (x - x0) * UNIT * 1.6, 20 + (y - y0) * UNIT * 1.6];
      svg = el("svg", {width: (Math.max(...xs) - x0) * UNIT * 1.6 + 40, height: (Math.max(...ys) - y0) * UNIT * 1.6 + 40, "data-board": board.name}, null, SVG);
      for (const [name, corners] of board.cells) {
        const poly = el("polygon", {points: corners.map((c) => at(c).join(",")).join(" "), class: "cell", "data-cell": name}, null, SVG);
        if (name in cells) poly.classList.add("taken");
        if (changed(board.name, name)) poly.classList.add("fresh");
        cellClick(poly, name);
        special(poly, board.name, name);
        svg.append(poly);
        const [cx, cy] = at([corners.reduce((s, c) => s + c[0], 0) / 3, corners.reduce((s, c) => s + c[1], 0) / 3]);
        if (name in cells) drawPiece(svg, cx, cy, cells[name], board.holding, view, 8, placerOf(view, board.name, name));
        else svg.append(el("text", {x: cx, y: cy, class: "piece", fill: "#aaa"}, name, SVG));
      }
      for (const over of shapes.filter((s) => s.kind === "corners" && s.of === board.name && drawn(s.name))) {
        const taken = view.boards[over.name] || {};
        for (const [name, p] of over.cells) {
          const [x, y] = at(p);
          const dot = el("circle", {cx: x, cy: y, r: 7, class: "crossing", "data-cell": name}, null, SVG);
          if (changed(over.name, name)) dot.classList.add("fresh");
          cellClick(dot, name);
          svg.append(dot);
          if (name in taken) drawPiece(svg, x, y, taken[name], over.holding, view, 9);
        }
      }
    } else if (board.kind === "territory") {
      const seats = board.per_player ? (view.boards[board.name] || []) : [cells];
      svg = el("div", {class: "territories", "data-board": board.name});
      seats.forEach((placed, seat) => svg.append(drawTerritory(board, placed, board.per_player ? seat : null)));
    } else if (board.kind === "ring") {
      // a circle of positions, the first at the top; the radius grows with their number
      const radius = Math.max(2 * UNIT, board.cells.length * UNIT * 0.8 / (2 * Math.PI)), middle = radius + UNIT;
      const at = ([x, y]) => [middle + x * radius, middle + y * radius];
      svg = el("svg", {width: 2 * middle, height: 2 * middle, "data-board": board.name}, null, SVG);
      const ends = board.cells.map(([, p]) => at(p));
      const path = ends.map(([x, y], i) => `${i ? "L" : "M"}${x},${y}`).join(" ") + (board.open ? "" : " Z");
      svg.append(el("path", {d: path, class: "ring-line"}, null, SVG));
      board.cells.forEach(([name], i) => {
        const [x, y] = ends[i];
        const spot = el("circle", {cx: x, cy: y, r: UNIT * 0.32, class: "cell", "data-cell": name}, null, SVG);
        spot.append(el("title", {}, `${nameOf(board.name)}, position ${i + 1}`, SVG));
        if (name in cells) spot.classList.add("taken");
        if (changed(board.name, name)) spot.classList.add("fresh");
        cellClick(spot, name);
        svg.append(spot);
        if (name in cells) drawPiece(svg, x, y, cells[name], board.holding, view, UNIT * 0.22, placerOf(view, board.name, name));
        else svg.append(el("text", {x, y, class: "piece", fill: "#aaa"}, i + 1, SVG));
      });
    } else {
      svg = el("div", {"data-board": board.name});
      for (const [name] of board.cells) svg.append(el("span", {class: "card"}, name in cells ? `${name}: ${cells[name]}` : name));
    }
    box.append(title, svg);
  }
}

// A territory of tiles: the tiles placed (pieces.js draws each) and the empty cells
// around them, which a click chooses when an option names them.
function drawTerritory(board, placed, seat) {
  const xy = {};
  for (const [name, x, y] of board.cells) xy[name] = [x, y];
  const spots = Object.keys(placed).map((n) => xy[n]);
  const xs = spots.map((p) => p[0]), ys = spots.map((p) => p[1]);
  const x0 = Math.max(0, Math.min(...xs) - 1), x1 = Math.min(board.width - 1, Math.max(...xs) + 1);
  const y0 = Math.max(0, Math.min(...ys) - 1), y1 = Math.min(board.height - 1, Math.max(...ys) + 1);
  const wrap = el("div", {class: "territory", "data-seat": seat === null ? "" : String(seat + 1)});
  if (seat !== null) wrap.append(el("div", {class: `board-name p${seat + 1}`}, seatName(seat + 1)));
  const svg = el("svg", {width: (x1 - x0 + 1) * UNIT + 30, height: (y1 - y0 + 1) * UNIT + 30}, null, SVG);
  for (const [name, x, y] of board.cells) {
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    const px = 20 + (x - x0) * UNIT, py = 5 + (y1 - y) * UNIT;
    if (!(name in placed)) {
      const rect = el("rect", {x: px, y: py, width: UNIT, height: UNIT, class: "cell", "data-cell": name}, null, SVG);
      if (seat === null || seat === table.seat - 1) cellClick(rect, name);
      svg.append(rect);
      continue;
    }
    const [tile, degrees] = placed[name];
    const group = el("g", {"data-cell": name, "data-tile": tile}, null, SVG);
    group.append(el("title", {}, `${faceTitle(board.holding, tile, table.last.view)} — at ${name}, turned ${degrees}°`, SVG));
    drawTile(group, lookOf(board, tile), Math.round(degrees / 90) % 4, px, py, UNIT, board.holding, tile);
    if (changed(board.name, name)) group.classList.add("fresh");
    svg.append(group);
  }
  for (let x = x0; x <= x1; x++) svg.append(el("text", {x: 20 + (x - x0) * UNIT + UNIT / 2, y: (y1 - y0 + 1) * UNIT + 18, class: "piece"}, "abcdefghijklmnopqrstuvwxyz"[x], SVG));
  for (let y = y0; y <= y1; y++) svg.append(el("text", {x: 10, y: 5 + (y1 - y) * UNIT + UNIT / 2, class: "piece"}, y + 1, SVG));
  wrap.append(svg);
  return wrap;
}

// ---- options, dice, counters, zones ----------------------------------------------------

const MANY = 12;   // options past which the list is grouped and can be searched

function drawOptions(view) {
  const box = $("options");
  box.replaceChildren();
  const options = myOptions();
  if (!options.length) return;
  if (!table.filter && turning(options) && turnButtons(box, options, view)) return;
  // the question the rule file's `ask` line puts (else "Your choice"), never rule source
  const asked = (view.decision && view.decision.prompt) || "Your choice";
  const prompt = el("div", {class: "prompt"}, table.filter ? `${asked} (the ${table.filter.length} of ${options.length} options there)` : asked);
  box.append(prompt);
  let shown = options.filter(([id]) => !table.filter || table.filter.includes(id));
  if (options.length > MANY && !table.filter) {
    const search = el("input", {type: "search", id: "option-search", placeholder: `search ${options.length} options${document.querySelector("#table .can") ? ", or click the board" : ""}`, "aria-label": "search the options"});
    search.value = table.search || "";
    search.oninput = () => { table.search = search.value; drawList(); search.focus(); };
    box.append(search);
  }
  const list = el("div", {class: "option-list"});
  box.append(list);
  function drawList() {
    list.replaceChildren();
    const q = (table.search || "").trim().toLowerCase();
    const here = shown.filter(([, label]) => !q || label.toLowerCase().includes(q));
    const groups = grouped(here);
    for (const [title, members] of groups) {
      const holder = title && groups.length > 1 ? el("details", {class: "option-group", open: ""}) : list;
      if (holder !== list) { holder.append(el("summary", {}, `${title} (${members.length})`)); list.append(holder); }
      for (const [id, label] of members) holder.append(optionButton(id, label));
    }
    if (!here.length) list.append(el("div", {class: "hint"}, "no option says that"));
  }
  drawList();
  if (table.filter) {
    const all = el("button", {class: "all"}, "show every option");
    all.onclick = () => { table.filter = null; drawOptions(view); };
    box.append(all);
  }
}

function optionButton(id, label) {
  const b = el("button", {"data-option": id}, label);
  b.onclick = () => choose(id);
  b.onmouseenter = () => id.split("+").forEach((c) => document.querySelectorAll(`[data-cell="${CSS.escape(c)}"], [data-card="${CSS.escape(c)}"]`).forEach((n) => n.classList.add("hint")));
  b.onmouseleave = () => document.querySelectorAll(".hint").forEach((n) => n.classList.remove("hint"));
  return b;
}

// many options in groups by the words their labels begin with (before the first figure,
// bracket or capital after the first word): "place the Cemetery on ...", "buy the ..."
function grouped(options) {
  if (options.length <= MANY) return [[null, options]];
  const groups = new Map();
  for (const o of options) {
    const head = o[1].split(/ (?=[\[\d(])/)[0].split(" ").slice(0, 4).join(" ");
    if (!groups.has(head)) groups.set(head, []);
    groups.get(head).push(o);
  }
  return groups.size > 1 && groups.size < options.length ? [...groups] : [[null, options]];
}

function drawDice(view) {
  const box = $("dice");
  box.replaceChildren();
  for (const [title, name] of ordered(Object.keys(view.dice))) {
    const faces = view.dice[name];
    if (title) box.append(el("h3", {}, title));
    // a set per player: a row per seat, named as the page names seats
    const rows = faces.length && Array.isArray(faces[0]) ? faces.map((fs, p) => [`${nameOf(name)} of ${seatName(p + 1)}`, fs, p + 1]) : [[nameOf(name), faces, null]];
    for (const [label, fs, seat] of rows) {
      const row = el("div", {class: "zone", "data-dice": name});
      if (seat !== null) row.dataset.seat = String(seat);
      row.append(el("span", {class: "name"}, label));
      for (const f of fs) row.append(dieNode(f));
      box.append(row);
    }
  }
}

function show(value) {
  if (value === null) return "none";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (Array.isArray(value)) return value.map(show).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${words(k)} ${show(v)}`).join(", ");
  return String(value);
}

// counters: those of each player in a table with a column per player (the seats deciding
// marked), those of nobody on a line each beside it, under "on the table"
function drawCounters(view) {
  const box = $("counters"), shared = $("shared");
  box.replaceChildren();
  shared.replaceChildren();
  const shapes = Object.fromEntries(table.screen.counters.map((c) => [c.name, c]));
  const perPlayer = (name) => shapes[name].keys.length >= 1 && shapes[name].keys[0] === "player" && Array.isArray(view.counters[name]);
  const rows = ordered(table.screen.counters.map((c) => c.name).filter((n) => n in view.counters));
  const keyed = (name) => Boolean(shapes[name].headings) && Array.isArray(view.counters[name]);
  const theirs = rows.filter(([, n]) => perPlayer(n) && !keyed(n)), ours = rows.filter(([, n]) => !perPlayer(n) && !keyed(n));
  for (const [title, name] of rows.filter(([, n]) => keyed(n))) {
    if (title) shared.append(el("h3", {}, title));
    shared.append(keyedTable(name, shapes[name], view));
  }
  for (const [title, name] of ours) {
    if (title) shared.append(el("h3", {}, title));
    const line = el("div", {class: "zone", "data-counter": name});
    line.append(el("span", {class: "name"}, nameOf(name)), show(view.counters[name]));
    shared.append(line);
  }
  if (!theirs.length) return;
  const head = el("tr");
  head.append(el("th"));
  const deciding = new Set(view.decision ? (view.decision.simultaneous || [view.decision.player]) : []);
  for (let p = 1; p <= view.players; p++) {
    const th = el("th", {class: `p${p}`}, seatName(p));
    if (deciding.has(p - 1)) { th.append(" ◀"); th.title = "deciding"; }
    head.append(th);
  }
  box.append(head);
  for (const [title, name] of theirs) {
    if (title) {
      const tr = el("tr", {class: "group"});
      tr.append(el("th", {colspan: view.players + 1}, title));
      box.append(tr);
    }
    const tr = el("tr", {"data-counter": name});
    tr.append(el("th", {}, nameOf(name)));
    tr.append(...view.counters[name].map((v) => el("td", {}, show(v))));
    box.append(tr);
  }
}

// a counter kept per key (and per player): a table with the key's values as headings, a
// row per player (or one row), yes/no as a tick or nothing
function keyedTable(name, shape, view) {
  const wrap = el("div", {class: "keyed", "data-counter": name});
  wrap.append(el("div", {class: "name"}, nameOf(name)));
  const grid = el("table", {class: "keyed-table"});
  const head = el("tr");
  head.append(el("th"), ...shape.headings.map((h) => el("th", {}, words(h))));
  grid.append(head);
  const perPlayer = shape.keys[0] === "player";
  const rows = perPlayer ? view.counters[name].map((values, p) => [seatName(p + 1), values, p + 1]) : [["", view.counters[name], null]];
  for (const [who, values, p] of rows) {
    const tr = el("tr");
    tr.append(el("th", p ? {class: `p${p}`} : {}, who));
    const cells = Array.isArray(values) ? values : values && typeof values === "object" ? shape.headings.map((h) => values[h]) : [values];
    for (const v of cells) tr.append(el("td", {}, v === true ? "✓" : v === false || v === undefined ? "" : show(v)));
    grid.append(tr);
  }
  wrap.append(grid);
  return wrap;
}

function cards(row, items, kind, view, omit = null) {
  if (!Array.isArray(items)) {
    if (items.size) row.append(el("span", {class: "card back"}, `${items.size} face down`));
    return;
  }
  // alike cards side by side are one card "× n" (a box of 20 Scions)
  let last = null;
  for (const id of items) {
    const seen = (view.components[kind] || {})[id];
    const counted = seen ? Object.entries(seen.counters).filter(([k, v]) => drawn(k) && k !== omit && k !== display().owners[kind] && v !== false && v !== 0 && v !== null).map(([k, v]) => `${nameOf(k)} ${show(v)}`) : [];
    const key = JSON.stringify([labelOf(kind, id, view), faceOf(kind, id), counted, ownerOf(kind, id, view)]);
    if (last && last.key === key && !territoryOf(kind)) {
      last.count += 1;
      last.badge.textContent = `× ${last.count}`;
      continue;
    }
    const node = cardNode(kind, id, view, counted);
    const badge = el("span", {class: "count"});
    node.append(badge);
    cellClick(node, id);   // a card an option names is chosen by a click too
    row.append(node);
    last = {key, count: 1, badge};
  }
}

function ringZone(row, items, z, view) {
  // a zone the display draws as a ring (`ring zone by counter`): its places round a circle,
  // the first at the top and then clockwise, each with how many cards stand there; then
  // each place with its cards
  const ring = display().rings[z.name], places = ring.places;
  const at = Object.fromEntries(places.map((p) => [p, []])), elsewhere = [];
  for (const id of items) {
    const seen = (view.components[z.kind] || {})[id];
    const place = seen ? seen.counters[ring.by] : null;
    (typeof place === "string" && place in at ? at[place] : elsewhere).push(id);
  }
  const radius = Math.max(2 * UNIT, places.length * UNIT * 0.8 / (2 * Math.PI)), middle = radius + UNIT;
  const svg = el("svg", {width: 2 * middle, height: 2 * middle, "data-ring": z.name}, null, SVG);
  svg.append(el("circle", {cx: middle, cy: middle, r: radius, class: "ring-line"}, null, SVG));
  places.forEach((place, k) => {
    const angle = 2 * Math.PI * k / places.length;
    const x = middle + radius * Math.sin(angle), y = middle - radius * Math.cos(angle);
    const spot = el("circle", {cx: x, cy: y, r: UNIT * 0.42, class: at[place].length ? "cell taken" : "cell", "data-place": place}, null, SVG);
    spot.append(el("title", {}, place, SVG));
    svg.append(spot);
    // the stones standing there, side by side, each by its name's first letter
    at[place].forEach((id, j) => {
      const n = at[place].length, sx = x + (j - (n - 1) / 2) * UNIT * 0.34;
      const owner = ownerOf(z.kind, id, view);
      const stone = el("g", {"data-card": id, class: "stone"}, null, SVG);
      stone.append(el("title", {}, `${place}: ${faceTitle(z.kind, id, view)}`, SVG));
      stone.append(el("circle", {cx: sx, cy: y, r: UNIT * 0.16, class: owner ? `disc p${owner}` : "disc stone-disc"}, null, SVG));
      stone.append(el("text", {x: sx, y, class: "piece", "font-size": 10}, labelOf(z.kind, id, view).charAt(0), SVG));
      svg.append(stone);
    });
  });
  row.append(svg);
  for (const [place, ids] of [...places.map((p) => [p, at[p]]), ["in no place", elsewhere]]) {
    if (!ids.length) continue;
    const line = el("div", {class: "zone", "data-place": place});
    line.append(el("span", {class: "name"}, place));
    cards(line, ids, z.kind, view, ring.by);   // the place is the line's title
    row.append(line);
  }
}

function drawZones(view) {
  const box = $("zones");
  box.replaceChildren();
  const zones = Object.fromEntries(table.screen.zones.map((z) => [z.name, z]));
  for (const [group, name] of ordered(Object.keys(zones))) {
    const z = zones[name], shown = view.zones[name];
    if (group) box.append(el("h3", {}, group));
    const rows = z.per_player ? shown.map((items, p) => [`${nameOf(z.name)} of ${seatName(p + 1)}`, items]) : [[nameOf(z.name), shown]];
    for (const [title, items] of rows) {
      if (Array.isArray(items) ? !items.length : !items.size) continue;  // an empty zone says nothing
      const row = el("div", {class: "zone", "data-zone": title});
      row.append(el("span", {class: "name"}, title));
      if (Array.isArray(items) && (display().rings || {})[name]) ringZone(row, items, z, view);
      else cards(row, items, z.kind, view);
      box.append(row);
    }
  }
}

// ---- start -----------------------------------------------------------------------------

const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
if (match) {
  table.id = match[1];
  $("table").hidden = false;
  nameInput($("seat-name"));
  connect();
} else lobby().catch((e) => showError(e.message));
