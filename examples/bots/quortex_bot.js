#!/usr/bin/env node
// Quortex example bot for the Opponent Lab player protocol (docs/protocol.md and
// docs/protocol/quortex.md). Node.js, no packages.
//
// It plays the lab's reference AI (docs: quortex rule book, "The reference
// implementation's AI"; Sources/Quortex/Strategies/QuortexReferenceAI.swift) from the
// protocol's data alone: every legal placement on a candidate cell is scored by the
// shortest routes left afterwards, -2a^2 + e^2 with a its own route and e the shortest
// route of any other seat, counted in empty cells.
//
// Options (hello.options; declared in `ready`):
//   random_ties (bool, default false): break ties between equal best scores at random,
//     seeded per match from start.seed. By default ties go as the reference AI breaks
//     them (lowest rotation, then cell order), and the bot plays exactly as `reference`;
//     random ties play more varied games but lose more (0.435 [0.393, 0.478] of the score
//     against `reference` over 400 matches).
//   noise (float 0..1, default 0): adds a uniform amount in [0, 100 * noise) to each
//     non-winning score, so a placement within that margin of the best may be chosen.
//
// Usage: oplab ... 'external(command="node examples/bots/quortex_bot.js", opt.noise=0.1)'
'use strict';

const readline = require('readline');

const PORT = 1000; // follow() ends at or above this are ports: PORT + edge
const WIN = 100000, LOSS = -200000;

const options = { random_ties: false, noise: 0 };
let board = null; // tables derived from hello.setup
let rng = null; // this match's generator, from start.seed

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function log(text) {
  process.stderr.write(`quortex_bot: ${text}\n`);
}

// splitmix64 over BigInt, seeded from start.seed (a decimal 64-bit string).
function makeRandom(seedText) {
  const mask = (1n << 64n) - 1n;
  let state = BigInt.asUintN(64, BigInt(seedText));
  return function next() {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53; // uniform in [0, 1)
  };
}

// Tables from hello.setup: neighbours, ports, tile channels, seats' axes and the
// cells the reference AI always considers.
function readSetup(setup) {
  const n = setup.cell_count;
  const neighbour = new Int32Array(n * 6);
  const port = new Int32Array(n * 6);
  const rimEdges = [];
  const neighbours = [];
  for (const cell of setup.cells) {
    const c = cell.cell;
    const near = [];
    const rim = [];
    for (let d = 0; d < 6; d++) {
      const x = cell.neighbours[d];
      neighbour[c * 6 + d] = x === null ? -1 : x;
      if (x !== null) near.push(x);
      const e = cell.ports[d];
      port[c * 6 + d] = e === null ? -1 : e;
      if (e !== null && !rim.includes(e)) rim.push(e);
    }
    neighbours[c] = near;
    rimEdges[c] = rim;
  }
  // partner[code * 6 + side]: the side a tile of code type * 6 + rotation joins to side.
  const partner = new Int32Array(setup.tiles.length * 36);
  for (const tile of setup.tiles) {
    for (let r = 0; r < 6; r++) {
      for (const [a, b] of tile.pairs_by_rotation[r]) {
        partner[(tile.type * 6 + r) * 6 + a] = b;
        partner[(tile.type * 6 + r) * 6 + b] = a;
      }
    }
  }
  const seatEdge = setup.seats.map((s) => s.edge);
  const teamOfSeat = setup.seats.map((s) => s.team);
  const teamAxis = setup.teams.map((t) => t.axis);
  let liveAxes = 0;
  for (const axis of teamAxis) liveAxes |= 1 << axis;
  // On the start edge of some seat, or next to such a cell (the published AI's filter).
  const candidate = new Uint8Array(n);
  for (const e of seatEdge) {
    for (const c of setup.edges[e].cells) {
      candidate[c] = 1;
      for (const x of neighbours[c]) candidate[x] = 1;
    }
  }
  return { n, neighbour, port, rimEdges, neighbours, partner, seatEdge, teamOfSeat, teamAxis, liveAxes, candidate };
}

// Leaves `cell` by `side` and follows channels through placed tiles to the first empty
// cell ([cell, side entered by]) or off the board ([PORT + edge, -1]).
function follow(codes, cell, side) {
  let c = cell, d = side;
  for (;;) {
    const x = board.neighbour[c * 6 + d];
    if (x < 0) return [PORT + board.port[c * 6 + d], -1];
    const entering = (d + 3) % 6;
    const code = codes[x];
    if (code < 0) return [x, entering];
    d = board.partner[code * 6 + entering];
    c = x;
  }
}

// The viability graph with empty cells as junctions (rule book, "Legal placement"):
// the junctions each empty cell is linked to and, per edge, the cells reaching its ports.
function buildGraph(codes) {
  const n = board.n;
  const adjacency = [];
  const touching = [];
  for (let e = 0; e < 6; e++) touching.push(new Uint8Array(n));
  for (let c = 0; c < n; c++) {
    if (codes[c] >= 0) { adjacency[c] = []; continue; }
    const links = new Set();
    for (const e of board.rimEdges[c]) touching[e][c] = 1;
    for (let d = 0; d < 6; d++) {
      const x = board.neighbour[c * 6 + d];
      if (x < 0) continue;
      if (codes[x] < 0) { links.add(x); continue; }
      const [end] = follow(codes, c, d);
      if (end >= PORT) touching[end - PORT][c] = 1; else if (end !== c) links.add(end);
    }
    adjacency[c] = [...links];
  }
  return { adjacency, touching };
}

// What a tile of `code` on empty `cell` links: the things at the two ends of each
// channel (cells or ports), a chain that comes back into the cell being followed on.
function linksOf(cell, code, ends, entering) {
  const links = [];
  let used = 0;
  for (let s = 0; s < 6; s++) {
    if ((used & (1 << s)) !== 0 || ends[s] === cell) continue;
    used |= 1 << s;
    let side = s;
    for (;;) {
      const p = board.partner[code * 6 + side];
      used |= 1 << p;
      if (ends[p] !== cell) { links.push([ends[s], ends[p]]); break; }
      side = entering[p];
      used |= 1 << side;
    }
  }
  return links;
}

// Number of empty cells on a shortest route from `sources` to `targets` within
// `allowed`, through the graph and the extra cell-to-cell `links`; null when none.
function distance(graph, sources, targets, allowed, links) {
  const reach = new Uint8Array(board.n);
  let frontier = [];
  for (let c = 0; c < board.n; c++) if (sources[c] && allowed[c]) { reach[c] = 1; frontier.push(c); }
  let level = 1;
  while (frontier.length > 0) {
    for (const c of frontier) if (targets[c]) return level;
    const next = [];
    const add = (x) => { if (x < PORT && allowed[x] && !reach[x]) { reach[x] = 1; next.push(x); } };
    for (const c of frontier) {
      for (const x of graph.adjacency[c]) add(x);
      for (const [a, b] of links) {
        if (a === c && b < PORT) add(b);
        if (b === c && a < PORT) add(a);
      }
    }
    frontier = next;
    level++;
  }
  return null;
}

// The reference AI's evaluation of a non-winning position (null: no route).
function score(a, e) {
  if (a === null && e === null) return 0;
  if (a === null) return -100000;
  if (e === null) return -75000;
  return -2 * a * a + e * e - (e === 1 ? 50000 : 0);
}

// Chooses the id of one entry of `legal` for the observation.
function choose(observation, legal) {
  const n = board.n;
  const codes = new Int32Array(n).fill(-1);
  for (const t of observation.tiles) codes[t.cell] = t.type * 6 + t.rotation;
  const type = observation.tile;
  const me = observation.seat;
  const myAxis = board.seatEdge[me] % 3;
  const myTeam = board.teamOfSeat[me];
  let otherAxes = 0;
  for (let s = 0; s < board.seatEdge.length; s++) if (s !== me) otherAxes |= 1 << (board.seatEdge[s] % 3);

  // Candidates: the fixed cells and the cells next to a tile; all when none is legal.
  const allowedCells = Uint8Array.from(board.candidate);
  for (const t of observation.tiles) for (const x of board.neighbours[t.cell]) allowedCells[x] = 1;
  const filtered = legal.some((entry) => allowedCells[entry.action.cell]);

  const graph = buildGraph(codes);
  const empty = new Uint8Array(n);
  for (let c = 0; c < n; c++) empty[c] = codes[c] < 0 ? 1 : 0;

  let best = legal[0].id, bestScore = -Infinity, bestKey = Infinity, ties = 0;
  let endsCell = -1, ends = null, entering = null;
  for (const entry of legal) {
    const { cell, rotation } = entry.action;
    if (filtered && !allowedCells[cell]) continue;
    if (cell !== endsCell) {
      ends = []; entering = [];
      for (let d = 0; d < 6; d++) { const [x, s] = follow(codes, cell, d); ends.push(x); entering.push(s); }
      endsCell = cell;
    }
    const links = linksOf(cell, type * 6 + rotation, ends, entering);
    let completed = 0;
    for (const [a, b] of links) {
      if (a >= PORT && b >= PORT && Math.abs(a - b) === 3) completed |= 1 << ((a - PORT) % 3);
    }
    completed &= board.liveAxes;
    let value;
    if (completed !== 0) {
      const mine = board.teamAxis.some((axis, team) => (completed & (1 << axis)) !== 0 && team === myTeam);
      value = mine ? WIN : LOSS;
    } else {
      const allowed = Uint8Array.from(empty);
      allowed[cell] = 0;
      const route = (axis) => {
        const sources = Uint8Array.from(graph.touching[axis]);
        const targets = Uint8Array.from(graph.touching[axis + 3]);
        for (const [a, b] of links) {
          if (a === PORT + axis && b < PORT) sources[b] = 1;
          if (b === PORT + axis && a < PORT) sources[a] = 1;
          if (a === PORT + axis + 3 && b < PORT) targets[b] = 1;
          if (b === PORT + axis + 3 && a < PORT) targets[a] = 1;
        }
        for (let c = 0; c < n; c++) targets[c] &= allowed[c];
        return distance(graph, sources, targets, allowed, links);
      };
      const a = route(myAxis);
      let e = null;
      for (let axis = 0; axis < 3; axis++) {
        if ((otherAxes & (1 << axis)) === 0) continue;
        const d = axis === myAxis ? a : route(axis);
        if (d !== null && (e === null || d < e)) e = d;
      }
      value = score(a, e);
      if (options.noise > 0) value += rng() * 100 * options.noise;
    }
    const key = rotation * 128 + cell;
    if (value > bestScore) {
      best = entry.id; bestScore = value; bestKey = key; ties = 1;
    } else if (value === bestScore) {
      if (options.random_ties) {
        ties++;
        if (rng() * ties < 1) best = entry.id;
      } else if (key < bestKey) {
        best = entry.id; bestKey = key;
      }
    }
  }
  return best;
}

function handle(message) {
  switch (message.type) {
    case 'hello': {
      if (message.game !== 'quortex') log(`hello for ${message.game}: this bot plays quortex`);
      for (const [name, value] of Object.entries(message.options || {})) {
        if (name === 'noise' && typeof value === 'number') options.noise = Math.min(Math.max(value, 0), 1);
        else if (name === 'random_ties' && typeof value === 'boolean') options.random_ties = value;
        else log(`option ${name}=${JSON.stringify(value)} ignored`);
      }
      board = readSetup(message.setup);
      send({
        type: 'ready', name: 'quortex_bot', version: '1.0', follow: false,
        options: [
          { name: 'noise', type: 'float', default: 0, min: 0, max: 1 },
          { name: 'random_ties', type: 'bool', default: false },
        ],
      });
      break;
    }
    case 'start':
      rng = makeRandom(message.seed);
      break;
    case 'turn':
      if (rng === null) rng = makeRandom('0');
      send({ type: 'action', id: choose(message.observation, message.legal) });
      break;
    case 'played':
    case 'end':
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      log(`unknown message type ${message.type}`);
  }
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on('line', (line) => {
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    log(`not JSON: ${line.slice(0, 200)}`);
    return;
  }
  handle(message);
});
input.on('close', () => process.exit(0));
