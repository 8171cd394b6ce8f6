// Components drawn from their data, wherever they lie: a territory's tiles with their
// terrains, roads and features (on the board, in a market, in a hand), cards with their
// name, figures and text, and the legends that explain the marks. Everything comes from
// the screen (the rule file's shapes and the components' faces, faces.py) and the view.
"use strict";

// a name from the rule file as people read it when the display gives it no label
const words = (name) => String(name).replace(/_/g, " ");

// a component as the view calls it (its label), in words
function labelOf(kind, id, view) {
  const seen = view && view.components[kind] && view.components[kind][id];
  return words(seen ? seen.label : id);
}

// what a component shows on its face: {text: [...], facts: [[name, value], ...]}
function faceOf(kind, id) {
  const faces = table.screen.faces || {};
  return (faces[kind] && faces[kind][id]) || {text: [], facts: []};
}

// the territory whose tiles are of this kind, if any
const territoryOf = (kind) => table.screen.boards.find((b) => b.kind === "territory" && b.holding === kind);

// ---- terrains and features -------------------------------------------------------------

// well-known terrain words get their usual colours; others take the next of a palette
const KNOWN_TERRAINS = [[/water|sea|lake|river|ocean/i, "#6aa4d8"], [/mountain|rock|hill/i, "#a39e93"],
  [/forest|wood/i, "#4f8a4a"], [/pasture|grass|meadow|field|plain/i, "#8fbf6a"],
  [/desert|sand|beach/i, "#e3cf86"], [/swamp|marsh/i, "#7f8f5a"], [/snow|ice/i, "#eef2f5"]];
const PALETTE = ["#d8c36a", "#c98fbf", "#7fcfc0", "#e09a6a", "#9a8fd8"];
const terrainColours = {};
function terrainColour(name) {
  if (!name) return "#fffdf6";
  if (!(name in terrainColours)) {
    const known = KNOWN_TERRAINS.find(([re]) => re.test(name));
    const others = Object.values(terrainColours).filter((c) => PALETTE.includes(c)).length;
    terrainColours[name] = known ? known[1] : PALETTE[others % PALETTE.length];
  }
  return terrainColours[name];
}

// the shortest beginning of each fact's name that tells it from the others of its kind:
// the mark a feature gets on a tile too small for its name ("wh" whisky, "she" sheep)
function marks(kind) {
  const names = [...new Set(Object.values((table.screen.faces || {})[kind] || {}).flatMap((f) => f.facts.filter(([, v]) => /^\d+$/.test(v)).map(([n]) => n)))];
  const out = {};
  for (const n of names) {
    let k = 1;
    while (k < n.length && names.some((m) => m !== n && m.startsWith(n.slice(0, k)))) k++;
    out[n] = n.slice(0, k);
  }
  return out;
}

// a fact as a tile's mark: "wh", or "sh×2" for two
function markOf(kind, [name, value]) {
  const m = marks(kind)[name] || name;
  return /^\d+$/.test(value) ? (value === "1" ? m : `${m}×${value}`) : m;
}

// A tile: four triangles coloured by its edges' terrains (turned a quarter `q` times
// clockwise), a square for its centre, a road from the centre to each side where one
// ends, and its features' marks. Drawn into `group` at (px, py), `size` pixels a side.
function drawTile(group, look, q, px, py, size, kind, id) {
  const c = [px + size / 2, py + size / 2];
  const corners = [[px, py], [px + size, py], [px + size, py + size], [px, py + size]];  // nw, ne, se, sw
  for (let d = 0; d < 4; d++) {  // the side facing north, east, south, west
    const printed = (d - q + 4) % 4;
    const [a, b] = [corners[d], corners[(d + 1) % 4]];
    group.append(el("polygon", {points: [a, b, c].map((p) => p.join(",")).join(" "), fill: terrainColour(look.edges[printed]), class: "edge", "data-terrain": look.edges[printed]}, null, SVG));
  }
  if (look.centre) group.append(el("rect", {x: c[0] - size / 6, y: c[1] - size / 6, width: size / 3, height: size / 3, fill: terrainColour(look.centre), class: "centre", "data-terrain": look.centre}, null, SVG));
  const ends = [[c[0], py], [px + size, c[1]], [c[0], py + size], [px, c[1]]];
  for (const printed of look.roads) {
    const [ex, ey] = ends[(printed + q) % 4];
    group.append(el("line", {x1: c[0], y1: c[1], x2: ex, y2: ey, class: "road", stroke: "#6b4f2a", "stroke-width": Math.max(2, size / 15)}, null, SVG));
  }
  const facts = faceOf(kind, id).facts.filter(([, v]) => /^\d+$/.test(v));   // counted features
  if (facts.length) {
    const text = facts.map((f) => markOf(kind, f)).join(" ");
    group.append(el("text", {x: c[0], y: py + size * 0.82, class: "mark", "font-size": Math.max(8, size / 5)}, text, SVG));
  }
}

// a tile's look from its territory's screen (edges, centre, roads)
function lookOf(board, id) {
  return board.tiles[id] || {edges: ["", "", "", ""], centre: "", roads: []};
}

// a tile on its own, `size` pixels a side, turned `degrees`: in a market, a hand, a preview
function tileCard(board, kind, id, view, degrees = 0, size = 56) {
  const node = el("span", {class: "card tile", "data-card": id, "data-tile": id});
  const svg = el("svg", {width: size + 2, height: size + 2}, null, SVG);
  const group = el("g", {}, null, SVG);
  group.append(el("title", {}, faceTitle(kind, id, view), SVG));
  drawTile(group, lookOf(board, id), Math.round(degrees / 90) % 4, 1, 1, size, kind, id);
  svg.append(group);
  node.append(svg, el("span", {class: "card-name"}, labelOf(kind, id, view)));
  const facts = faceOf(kind, id).facts;
  if (facts.length) node.append(el("span", {class: "facts"}, facts.map(([n, v]) => v === "1" ? n : `${n} ${v}`).join(", ")));
  return node;
}

// what a component's face says, on one line (a tooltip)
function faceTitle(kind, id, view) {
  const face = faceOf(kind, id);
  return [labelOf(kind, id, view), ...face.facts.map(([n, v]) => `${n} ${v}`), ...face.text].join(" · ");
}

// ---- cards -----------------------------------------------------------------------------

// a card: its name, its figures (from its face and the counters kept on it) and its text
function cardNode(kind, id, view, counted) {
  const board = territoryOf(kind);
  const owner = ownerOf(kind, id, view);
  let node;
  if (board) node = tileCard(board, kind, id, view);
  else {
    node = el("span", {class: "card", "data-card": id});
    node.append(el("span", {class: "card-name"}, labelOf(kind, id, view)));
    const face = faceOf(kind, id);
    if (face.facts.length) node.append(el("span", {class: "facts"}, face.facts.map(([n, v]) => `${n} ${v}`).join(", ")));
    for (const t of face.text) node.append(el("span", {class: "text"}, t));
  }
  if (counted.length) node.append(el("span", {class: "facts counters"}, counted.join(", ")));
  if (owner) node.classList.add("owned", `p${owner}`);
  return node;
}

function ownerOf(kind, id, view) {
  const seen = (view.components[kind] || {})[id], by = display().owners[kind];
  return seen && by ? playerOf(seen.counters[by]) : null;
}

// ---- legends ---------------------------------------------------------------------------

// the legend of what the page's colours and marks mean: terrains, features, glyphs
function drawLegend(view) {
  const box = $("legend");
  box.replaceChildren();
  const items = [];
  for (const board of table.screen.boards.filter((b) => b.kind === "territory")) {
    const terrains = new Set();
    for (const look of Object.values(board.tiles)) [...look.edges, look.centre].forEach((t) => t && terrains.add(t));
    for (const t of [...terrains].sort()) {
      const swatch = el("span", {class: "swatch", style: `background:${terrainColour(t)}`});
      items.push([swatch, words(t)]);
    }
    items.push([el("span", {class: "swatch road-swatch"}), "road"]);
    for (const [name, m] of Object.entries(marks(board.holding))) items.push([el("b", {}, m), name]);
  }
  table.screen.boards.forEach((board) => specialSets(board.name).forEach(([title], k) => items.push([el("span", {class: `swatch special-swatch special${k % 4}`}), title])));
  for (const [holding, glyphs] of Object.entries(display().glyphs)) {
    const seen = new Map();
    for (const [piece, glyph] of Object.entries(glyphs)) {
      if (!seen.has(glyph)) seen.set(glyph, view.components[holding] ? labelOf(holding, piece, view) : words(piece));
    }
    for (const [glyph, label] of seen) if (glyph !== label) items.push([el("b", {}, glyph), label]);
  }
  if ((display().placers || []).length) {
    // a board whose pieces are their placers': a disc of each seat's colour
    for (let p = 1; p <= view.players; p++) {
      const disc = el("svg", {width: 14, height: 14, class: "legend-disc"}, null, SVG);
      disc.append(el("circle", {cx: 7, cy: 7, r: 6, class: `disc p${p}`}, null, SVG));
      items.push([disc, `placed by ${seatName(p)}`]);
    }
  }
  if (!items.length) { box.hidden = true; return; }
  box.hidden = false;
  box.append(el("span", {class: "name"}, "Legend"));
  for (const [mark, text] of items) {
    const item = el("span", {class: "legend-item"});
    item.append(mark, ` ${text}`);
    box.append(item);
  }
}

// ---- a tile's turn, previewed ----------------------------------------------------------

// whether every option is a quarter turn (0, 90, 180, 270): the turn of a tile being placed
const QUARTERS = ["0", "90", "180", "270"];
const turning = (options) => options.length > 0 && options.every(([id]) => QUARTERS.includes(id));

// the tile this seat is placing: the last tile of a territory and the last cell of it that
// it chose (the page remembers its own choices), if both are known
function placing() {
  const p = table.placing;
  if (!p || !p.tile || !p.cell) return null;
  const board = table.screen.boards.find((b) => b.kind === "territory" && p.tile in b.tiles);
  return board ? {board, ...p} : null;
}

// remember a choice of this seat's that names a tile of a territory, or a cell of one
function remembered(id) {
  const territories = table.screen.boards.filter((b) => b.kind === "territory");
  table.placing = table.placing || {};
  if (territories.some((b) => id in b.tiles)) table.placing = {tile: id};
  else if (territories.some((b) => b.cells.some(([n]) => n === id))) table.placing.cell = id;
}

// the options of a turn as buttons showing the tile as it would lie
function turnButtons(box, options, view) {
  const p = placing();
  if (!p) return false;
  box.append(el("div", {class: "prompt"}, `How to turn ${labelOf(p.board.holding, p.tile, view)} at ${p.cell}:`));
  const row = el("div", {class: "turns"});
  for (const [id, label] of options) {
    const b = el("button", {"data-option": id, class: "turn"});
    b.append(tileCard(p.board, p.board.holding, p.tile, view, Number(id), 48));
    b.append(el("span", {}, label));
    b.onclick = () => move(id);
    row.append(b);
  }
  box.append(row);
  return true;
}

// ---- dice ------------------------------------------------------------------------------

// where the pips of 1 to 6 sit on a die's face, in thirds of its side
const PIPS = {1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]]};

// a die showing its face: pips for 1 to 6, the face's name for anything else; "?" a die
// the seat cannot see (under another player's cup)
function dieNode(face) {
  const node = el("span", {class: "die", "data-face": face === null ? "" : String(face)});
  if (face === null) { node.textContent = "–"; return node; }
  if (face === "?") { node.textContent = "?"; node.classList.add("hidden-die"); node.title = "hidden"; return node; }
  if (!(face in PIPS)) { node.textContent = words(face); return node; }
  const size = 30, svg = el("svg", {width: size, height: size, role: "img", "aria-label": String(face)}, null, SVG);
  svg.append(el("title", {}, String(face), SVG));
  for (const [x, y] of PIPS[face]) svg.append(el("circle", {cx: 6 + x * 9, cy: 6 + y * 9, r: 3, class: "pip"}, null, SVG));
  node.append(svg);
  node.classList.add("pips");
  return node;
}
