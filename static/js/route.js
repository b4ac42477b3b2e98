// A way around the list's entries for an arrow whose plain curve would run over one (pointers.js): the shortest
// path with the fewest bends, made of vertical and horizontal runs, from `from` (reached going up) to just below
// `to` (a point on the bottom edge of the target's box), then straight up to it. The runs lie midway between
// the edges of the entries (the rows' gaps, the gaps between entries of a row), never nearer an entry than
// CLEAR px, and keep off the other arrows where they can.

import { TOKENS } from "./tokens.js";

// The numbers are the tokens' (tokens.js "route", docs/rendering.md), the ones webapp/export/route.py reads.
const { clear: CLEAR, bend: BEND, down: DOWN, near: NEAR, crowded: CROWDED } = TOKENS.route;
// CLEAR: px a run keeps off an entry; BEND: a bend costs as much as this many px of length; DOWN: a px down costs as
// much as this many (an arrow climbs to its entry, it does not dip on the way); a run NEAR px of another arrow's
// point costs CROWDED more.
/** @type {[number, number][]} */
const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // up, right, down, left (index: the direction)
// The search states one drawing's detours may take between them (`budget()`): past it, the arrows left keep their
// curves. A list of hundreds of entries costs tens of thousands a detour, in the browser and in the SVG export.
export const BUDGET = TOKENS.route.budget;

// A budget for one drawing's detours, shared by them in the order they are asked.
/** @returns {Budget} */
export function budget() {
  return { left: BUDGET };
}

// `boxes`: the entries' rects {left, right, top, bottom} (the target's too); `frame`: the rect the runs stay in;
// `others`: points along the other arrows; `spend`: the drawing's budget (what this search takes is deducted).
// Returns the corners [from, …, to], or null when there is no way (or the budget ran out first).
/** @typedef {{left: number}} Budget the search states a drawing's detours may still take */
/**
 * @param {Point} from @param {Point} to @param {Box[]} boxes @param {Box} frame @param {Point[]} others
 * @param {Budget} spend @returns {Point[] | null}
 */
export function detour(from, to, boxes, frame, others = [], spend = budget()) {
  const xs = middles([frame.left, frame.right, ...boxes.flatMap((b) => [b.left, b.right])], [from.x, to.x]);
  const ys = middles([frame.top, frame.bottom, ...boxes.flatMap((b) => [b.top, b.bottom])], [from.y])
    .filter((y) => y <= from.y);
  /** @param {Point} p @param {Point} q */
  const blocked = (p, q) => boxes.some((b) => crosses(p, q, b));
  // the last run comes straight up from a row gap below the target: only the boxes below its row are in the way
  const below = boxes.filter((b) => b.bottom > to.y + CLEAR);
  const goal = ys.filter((y) => y > to.y + CLEAR).map((y) => ({ x: to.x, y }))
    .find((g) => !below.some((b) => crosses(g, to, b)));
  if (!goal) return null;
  /** @param {Point} p @param {Point} q */
  const crowded = (p, q) => others.some((o) => o.x > Math.min(p.x, q.x) - NEAR && o.x < Math.max(p.x, q.x) + NEAR
    && o.y > Math.min(p.y, q.y) - NEAR && o.y < Math.max(p.y, q.y) + NEAR);
  const path = cheapest(xs, ys, from, goal, blocked, crowded, spend);
  return path && straighten([...path, to]);
}

// The sorted coordinates midway between neighbouring edges, and `fixed` ones.
/** @param {number[]} edges @param {number[]} fixed */
function middles(edges, fixed) {
  const sorted = [...new Set(edges.map((v) => Math.round(v * 2) / 2))].sort((a, b) => a - b);
  const mid = sorted.slice(1).map((v, i) => (v + sorted[i]) / 2);
  return [...new Set([...mid, ...fixed])].sort((a, b) => a - b);
}

// Does the run p–q (vertical or horizontal) come within CLEAR of box b?
/** @param {Point} p @param {Point} q @param {Box} b */
function crosses(p, q, b) {
  return Math.max(p.x, q.x) > b.left - CLEAR && Math.min(p.x, q.x) < b.right + CLEAR
    && Math.max(p.y, q.y) > b.top - CLEAR && Math.min(p.y, q.y) < b.bottom + CLEAR;
}

// Dijkstra on the grid xs × ys, a state being a node and the direction it was reached in; `from` is reached going
// up and left going up, and `goal` is left going up (a bend, unless it was reached going up). Returns the nodes of
// the path, or null.
/** @typedef {[number, number, number]} State a node of the grid (i, j) and the direction it was reached in */
/** @typedef {[number, number, number, boolean]} Queued a state and whether the path ends there */
/**
 * @param {number[]} xs @param {number[]} ys @param {Point} from @param {Point} goal
 * @param {(p: Point, q: Point) => boolean} blocked @param {(p: Point, q: Point) => boolean} crowded
 * @param {Budget} spend @returns {Point[] | null}
 */
function cheapest(xs, ys, from, goal, blocked, crowded, spend) {
  /** @param {State} state @returns {Point} */
  const at = ([i, j]) => ({ x: xs[i], y: ys[j] });
  /** @param {State} state */
  const id = ([i, j, d]) => (j * xs.length + i) * 4 + d;
  /** @type {State} */
  const start = [xs.indexOf(from.x), ys.indexOf(from.y), 0];
  const [gi, gj] = [xs.indexOf(goal.x), ys.indexOf(goal.y)];
  const cost = new Map([[id(start), 0]]);
  /** @type {Map<number, State>} state id -> the state before it */
  const came = new Map();
  const open = heap();
  open.push(0, [...start, false]);
  for (let next = open.pop(); next; next = open.pop()) {
    if (spend.left <= 0) return null;
    spend.left -= 1;
    const [c, [i, j, d, finished]] = next;
    /** @type {State} */
    const state = [i, j, d];
    if (finished) {
      const nodes = [];
      for (let /** @type {State | undefined} */ s = state; s; s = came.get(id(s))) nodes.unshift(at(s));
      return nodes;
    }
    if (c > (cost.get(id(state)) ?? Infinity)) continue;
    if (i === gi && j === gj) open.push(c + (d === 0 ? 0 : BEND), [i, j, d, true]); // then up to the target
    STEPS.forEach(([di, dj], nd) => {
      /** @type {State} */
      const to = [i + di, j + dj, nd];
      if (to[0] < 0 || to[1] < 0 || to[0] >= xs.length || to[1] >= ys.length || (nd + 2) % 4 === d) return;
      if (c === 0 && nd !== 0) return; // up out of the channel first…
      if (to[1] === start[1] && !(to[0] === gi && to[1] === gj)) return; // …and never back down to its top
      // (no run along the lanes' tops), unless the goal is there
      const [p, q] = [at(state), at(to)];
      if (blocked(p, q)) return;
      const nc = c + Math.abs(q.x - p.x) + Math.abs(q.y - p.y) * (nd === 2 ? DOWN : 1) + (nd === d ? 0 : BEND)
        + (crowded(p, q) ? CROWDED : 0);
      if (nc >= (cost.get(id(to)) ?? Infinity)) return;
      cost.set(id(to), nc);
      came.set(id(to), state);
      open.push(nc, [...to, false]);
    });
  }
  return null;
}

// The corners only: points in line with their neighbours go.
/** @param {Point[]} points */
function straighten(points) {
  return points.filter((p, k) => {
    const [a, b] = [points[k - 1], points[k + 1]];
    return !a || !b || !((a.x === p.x && p.x === b.x) || (a.y === p.y && p.y === b.y));
  });
}

// A binary min-heap of [cost, value].
function heap() {
  /** @type {[number, Queued][]} */
  const items = [];
  /** @param {number} a @param {number} b */
  const swap = (a, b) => ([items[a], items[b]] = [items[b], items[a]]);
  return {
    /** @param {number} c @param {Queued} value */
    push(c, value) {
      items.push([c, value]);
      for (let k = items.length - 1; k > 0 && items[(k - 1) >> 1][0] > items[k][0]; k = (k - 1) >> 1) {
        swap(k, (k - 1) >> 1);
      }
    },
    pop() {
      if (!items.length) return null;
      const top = items[0];
      const last = items.pop();
      if (items.length && last) {
        items[0] = last;
        for (let k = 0; ;) {
          const [l, r] = [2 * k + 1, 2 * k + 2];
          let m = k;
          if (l < items.length && items[l][0] < items[m][0]) m = l;
          if (r < items.length && items[r][0] < items[m][0]) m = r;
          if (m === k) break;
          swap(k, m);
          k = m;
        }
      }
      return top;
    },
  };
}
