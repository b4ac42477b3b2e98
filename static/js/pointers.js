// The pointer overlay: one SVG per diagram draws, for each of the scene's pane.pointers, an arrow from the
// pod's chip (wherever the pod is now) to where it marks the list: an entry ([data-id]), the front slot
// ("front") or the ghost of a removed element ([data-removed-id], a detached v1.28.1 marker: drawn broken).
// Positions are measured, so the arrows are drawn again whenever the diagram's size changes and, while
// elements move, on every frame (`follow`). An arrow whose curve would run over another entry goes round the
// entries instead (route.js).
import { svg } from "./renderer.js";
import { fitAll } from "./fit.js";
import { budget, detour } from "./route.js";
import { TOKENS } from "./tokens.js";

// The arrows' numbers are the tokens' (tokens.js, docs/rendering.md), the ones webapp/export/geometry.py and cut.py
// read for the SVG export.
const ARROW = TOKENS.arrow;
const CURVE = TOKENS.curve;
const CUT = TOKENS.cut;

/** @typedef {Box & {cx: number, cy: number}} Rel a box relative to the diagram's, with its centre */
/** @typedef {{start: Point, turn: Point, up: Point}} Route an arrow's way out of the lanes */
/** @typedef {{length: number, point: (d: number) => Point, between: (d0: number, d1: number) => Point[]}} Measured */
/** @typedef {{points: Point[], path: Measured, from: number, start: Point, detoured?: boolean}} Line */
/** @typedef {{gap: [number, number], bars: [Point, Point][], cross: Point, bent: boolean, room: number}} Cut */
/**
 * An arrow as redraw hands it to layOut, and what layOut sets on it (`path`, `detoured`, `line`, `cut`).
 * @typedef {{route: Route, end: Point, to: unknown, p: {detached: boolean}, g?: SVGElement, path?: Point[],
 *   detoured?: boolean, line?: Line, cut?: Cut}} Arrow
 */

/** @type {WeakMap<Element, Wire.Pointer[]>} diagram -> its pane's pointers */
const drawn = new WeakMap();
/** @type {WeakMap<Element, Map<string, {start: number, ms: number}>>} diagram -> pod -> its arrow fading in */
const entering = new WeakMap(); // arrows that appear or re-point, fading in
/** @type {Set<Element>} */
const observed = new Set(); // diagrams (and their lists) under the ResizeObserver, let go once replaced
const observer = typeof ResizeObserver === "function" ? new ResizeObserver((items) => {
  const diagrams = new Set(items.map((item) => item.target.closest("[data-testid=diagram]") || item.target));
  for (const root of new Set([...diagrams].map((d) => d.closest("#panes") || d.parentElement))) {
    if (root && fitAll(root, false)) redrawAll(root);
  }
  for (const d of diagrams) redraw(d);
}) : null;

// Hand a diagram its pointers (and mark the entries they reach or cannot see), then draw them. `fresh`: the pods
// whose arrow appears or points elsewhere than in the frame before (a step forward): those fade in over `ms`,
// so an arrow re-pointing, or breaking, is seen happening.
/**
 * @param {Element} diagram @param {Wire.Pointer[] | undefined} pointers
 * @param {{fresh?: string[], ms?: number}} entering
 */
export function attachPointers(diagram, pointers, { fresh = [], ms = 0 } = {}) {
  const list = pointers || [];
  drawn.set(diagram, list);
  const start = performance.now();
  entering.set(diagram, new Map(ms > 0 ? fresh.map((pod) => [pod, { start, ms }]) : []));
  for (const p of list) {
    for (const id of reachedIds(diagram, p.reach)) mark(diagram, id, "reach", p.pod);
    for (const id of p.unseen || []) mark(diagram, id, "unseen-by", p.pod);
  }
  if (observer) {
    for (const el of observed) if (!el.isConnected) { observer.unobserve(el); observed.delete(el); }
    observed.add(diagram);
    observer.observe(diagram);
    for (const el of diagram.querySelectorAll(".list-area, .inflight-list")) {
      observed.add(el);
      observer.observe(el);
    }
  }
  redraw(diagram);
}

// A pointer's reach is [first, last]: the event entries from first to last, in list order (the scene sends
// the two ends, not every entry: a long list with many pods in flight stays a small message).
/** @param {Element} diagram @param {string[] | undefined} reach @returns {string[]} */
function reachedIds(diagram, reach) {
  if (!reach || reach.length !== 2) return [];
  const ids = [...diagram.querySelectorAll(".inflight-list .entry.event[data-id]:not(.ghost)")]
    .map((el) => /** @type {HTMLElement} */ (el).dataset.id ?? "");
  const first = ids.indexOf(reach[0]), last = ids.indexOf(reach[1]);
  return first < 0 || last < first ? [] : ids.slice(first, last + 1);
}

/** @param {Element} diagram @param {string} id @param {"reach" | "unseen-by"} what @param {string} pod */
function mark(diagram, id, what, pod) {
  const el = /** @type {HTMLElement | null} */ (diagram.querySelector(`.inflight-list [data-id="${CSS.escape(id)}"]`));
  if (!el) return;
  el.classList.add(what === "reach" ? "in-reach" : "unseen");
  const attr = what === "reach" ? "reachBy" : "unseenBy";
  const pods = new Set((el.dataset[attr] || "").split(" ").filter(Boolean));
  pods.add(pod);
  el.dataset[attr] = [...pods].join(" ");
}

/** @param {ParentNode} root */
export function redrawAll(root = document) {
  for (const d of root.querySelectorAll("[data-testid=diagram]")) redraw(d);
}

// Redraw every frame until no animation runs in `root` (or `ms` have passed): arrows follow flying chips.
/** @param {Element} root @param {number} ms */
export function follow(root, ms = 4000) {
  const until = performance.now() + ms;
  const frame = () => {
    redrawAll(root);
    const moving = root.getAnimations ? root.getAnimations({ subtree: true }).length : 0;
    if (moving && performance.now() < until) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** @param {Element} diagram @param {string} key @returns {Element | null} */
function target(diagram, key) {
  if (!key) return null;
  if (key === "front") return diagram.querySelector(".front-slot");
  if (key.startsWith("ghost:")) return diagram.querySelector(`[data-removed-id="${CSS.escape(key.slice(6))}"]`);
  return diagram.querySelector(`.inflight-list [data-id="${CSS.escape(key)}"]`);
}

// The chip an arrow leaves from: a pod in flight can also have a copy queued (an update while in flight puts one
// in activeQ), so a live pointer leaves from the in-flight lane and a decided one from wherever the pod went
// (export/arrows.py chip_of says the same).
/** @param {Element} diagram @param {Wire.Pointer} pointer @returns {Element | null} */
function chipOf(diagram, pointer) {
  const chips = [...diagram.querySelectorAll(`.chip[data-pod="${CSS.escape(pointer.pod)}"]`)];
  const preferred = chips.filter((c) => !!c.closest('[data-queue="inFlight"]') !== pointer.decided);
  return preferred[0] || chips[0] || null;
}

/** @param {Element} diagram */
export function redraw(diagram) {
  const layer = diagram.querySelector(":scope > svg.pointers");
  const pointers = drawn.get(diagram);
  if (!layer || !pointers || !diagram.isConnected) return;
  const box = diagram.getBoundingClientRect();
  // The diagram's size without the layer's own: the layer is in the diagram's overflow, so measured with it in
  // place it never shrank (a window made narrower, a phone turned upright, kept the old width: sideways scroll).
  // Only a layer larger than the diagram's box can be holding it open; else (every frame of a move) one layout.
  if (Number(layer.getAttribute("width")) > diagram.clientWidth
      || Number(layer.getAttribute("height")) > diagram.clientHeight) {
    layer.setAttribute("width", "0");
    layer.setAttribute("height", "0");
  }
  const width = diagram.scrollWidth;
  const height = diagram.scrollHeight;
  layer.setAttribute("width", String(width));
  layer.setAttribute("height", String(height));
  layer.setAttribute("viewBox", `0 0 ${width} ${height}`);
  /** @param {DOMRect} r @returns {Rel} */
  const rel = (r) => ({
    left: r.left - box.left, right: r.right - box.left, top: r.top - box.top, bottom: r.bottom - box.top,
    cx: (r.left + r.right) / 2 - box.left, cy: (r.top + r.bottom) / 2 - box.top });
  const lanes = diagram.querySelector(".lanes");
  const lanesTop = lanes ? rel(lanes.getBoundingClientRect()).top : height;
  const gap = lanes ? parseFloat(getComputedStyle(lanes).columnGap) || 6 : 6;
  const list = diagram.querySelector(".inflight-list");
  const frame = list ? rel(list.getBoundingClientRect()) : { left: 0, right: width, top: 0, bottom: lanesTop };
  const entries = [...diagram.querySelectorAll(".inflight-list > li:not(.empty)")]
    .map((li) => ({ li, ...rel(li.getBoundingClientRect()) }));
  /** @type {Map<Element, number>} target element -> how many arrows end there so far */
  const arriving = new Map();
  /** @type {Map<number, number>} a channel's x -> how many arrows run up it so far */
  const channels = new Map();
  /** @type {SVGElement[]} */
  const groups = [];
  /** @type {(Arrow & {g: SVGElement})[]} */
  const arrows = [];
  for (const p of pointers) {
    const from = chipOf(diagram, p);
    const to = target(diagram, p.key);
    const g = svg("g", { class: `pointer${p.detached ? " detached" : ""}${p.decided ? " decided" : ""}`,
      "data-pointer": p.pod, "data-pod": p.pod, "data-target": p.target, "data-key": p.key || "" });
    if (p.title || p.text) g.append(svg("title", {}, document.createTextNode(p.title || p.text)));
    if (from && to) {
      const a = rel(from.getBoundingClientRect());
      const host = to.querySelector(":scope > .box, :scope > .front-mark") || to;
      const b = rel(host.getBoundingClientRect());
      const n = arriving.get(host) || 0;
      arriving.set(host, n + 1);
      const end = endUnder(b.left, b.right - b.left, b.bottom, n);
      const lane = from.closest("[data-queue]");
      const laneBox = lane ? rel(lane.getBoundingClientRect()) : a;
      const route = routeOf(from, a, laneBox, end, { lanesTop, gap, width, channels, rel });
      arrows.push({ g, p, route, end, to });
    }
    groups.push(g);
  }
  const laid = layOut(arrows, entries, frame);
  layer.replaceChildren(...groups);
  /** @type {Map<boolean, number>} a live / a decided arrow's line width, read once a redraw (a style recalculation) */
  const widths = new Map();
  for (const { g, line, cut } of laid) drawArrow(g, line, cut, widths);
  fadeIn(diagram, groups);
}

// The arrows' lines from where they leave the lanes (each `{ route: { start, turn, up }, end, to, p }`, in the
// pointers' order; `entries`: the list's items' boxes, each with its element as `li`, `to` being the target's):
// each one's approach, a curve up to its end, or where the curve would run over another entry, the way round the
// entries (route.js: off the other arrows as laid so far; if there is no way round, the curve it is); then its
// whole line and, for a detached pointer, its cut (its gap, two bars and cross) where it has room, off the
// entries, the other arrows and the cuts placed before it. Sets `path`, `detoured`, `line` and `cut` on each.
// (webapp/export/arrows.py lay_out is its twin: tests/export/test_geometry.py runs both.)
// Returns the arrows, each with its line (and cut) set.
/**
 * @template {Arrow} A @param {A[]} arrows @param {(Box & {li: unknown})[]} entries @param {Box} frame
 * @returns {(A & {path: Point[], line: Line})[]}
 */
export function layOut(arrows, entries, frame) {
  const paths = arrows.map((arrow) => curve(arrow.route.up, arrow.end));
  const spend = budget();
  arrows.forEach((arrow, k) => {
    if (!runsOver(paths[k], entries.filter((b) => b.li !== arrow.to))) return;
    const others = paths.filter((_, o) => o !== k).flat();
    const corners = detour(arrow.route.up, arrow.end, entries, frame, others, spend);
    if (corners) Object.assign(arrow, { detoured: true }), (paths[k] = rounded(corners));
  });
  const laid = arrows.map((arrow, k) => Object.assign(arrow, { path: paths[k],
    line: lineOf(arrow.route, paths[k], arrow.detoured) }));
  /** @type {Cut[]} */
  const cuts = [];
  for (const arrow of laid.filter((a) => a.p.detached)) {
    const others = laid.filter((other) => other !== arrow).map((other) => other.line);
    const cut = placeCut(arrow.line, entries, others, cuts);
    if (cut) cuts.push((arrow.cut = cut));
  }
  return laid;
}

// An entering arrow fades in; drawn again mid-way (every frame while chips fly), it goes on where it was.
/** @param {Element} diagram @param {SVGElement[]} groups */
function fadeIn(diagram, groups) {
  const fading = entering.get(diagram);
  if (!fading?.size) return;
  const now = performance.now();
  for (const g of groups) {
    const pod = g.dataset.pod ?? "";
    const entry = fading.get(pod);
    if (!entry) continue;
    if (now - entry.start >= entry.ms) {
      fading.delete(pod);
      continue;
    }
    const fade = g.animate([{ opacity: 0 }, { opacity: 1 }],
      { duration: entry.ms, easing: "ease-out", fill: "backwards" });
    fade.currentTime = now - entry.start;
  }
}

// The way out of the lanes: from the chip's side (the one with no other chip of its row in the way, then the one
// whose gap no arrow runs up yet, then the one nearer the target) across to the gap beside its lane, then up that
// gap above the lanes, so no arrow runs over a lane's title or another chip; from there a curve to the entry's
// box. (Two chips facing each other across one gap sent their arrows up it together: one line from chip to chip,
// as if one pod had two arrows.) Where every side it may leave by has a chip of its row in the way (the last lane
// has no gap on its right) and no chip sits above it, it leaves from the middle of its top, straight up.
/**
 * @param {Element} chip @param {Rel} a @param {Box} lane @param {Point} end
 * @param {{lanesTop: number, gap: number, width: number, channels: Map<number, number>,
 *   rel: (r: DOMRect) => Rel}} around
 * @returns {Route}
 */
function routeOf(chip, a, lane, end, { lanesTop, gap, width, channels, rel }) {
  const siblings = [...(chip.parentElement?.children || [])].filter((c) => c !== chip)
    .map((c) => rel(c.getBoundingClientRect()));
  const others = siblings.filter((c) => c.bottom > a.top + 1 && c.top < a.bottom - 1);
  /** @param {number} side */
  const blocked = (side) => others.some((c) => (side < 0 ? c.right <= a.left + 1 : c.left >= a.right - 1));
  const half = Math.max(3, gap / 2);
  /** @param {number} side */
  const channel = (side) => (side < 0 ? lane.left - half : lane.right + half);
  const sides = [-1, 1].filter((side) => channel(side) > 1 && channel(side) < width - 1);
  /** @param {number} side */
  const used = (side) => (channels.get(Math.round(channel(side))) ? 1 : 0);
  const order = (sides.length ? sides : [-1, 1]).sort((s, t) => (Number(blocked(s)) - Number(blocked(t)))
    || (used(s) - used(t))
    || (Math.abs(channel(s) - end.x) - Math.abs(channel(t) - end.x)));
  const side = order[0];
  const over = siblings.some((c) => c.bottom <= a.top + 1 && c.right > a.left && c.left < a.right);
  if (blocked(side) && !over) {
    const top = { x: a.cx, y: a.top - 1 };
    return { start: top, turn: top, up: { x: a.cx, y: Math.min(lanesTop - ARROW.aboveLanes, top.y) } };
  }
  const base = channel(side);
  const k = channels.get(Math.round(base)) || 0;
  channels.set(Math.round(base), k + 1);
  const x = base + (k % 2 ? 1 : -1) * Math.ceil(k / 2) * Math.min(ARROW.channelStep, half - 1);
  const y = Math.min(lanesTop - ARROW.aboveLanes, a.cy);
  return { start: { x: side < 0 ? a.left - 1 : a.right + 1, y: a.cy }, turn: { x, y: a.cy }, up: { x, y } };
}

// Where the `n`-th arrow (from 0) to arrive at a box `width` wide from `left` ends: just under its `bottom`, the
// first at the middle and the others spread either side, in turn. (endUnder, curve, rounded, head and tailRadius are
// exported for tests/export/test_geometry.py, which holds webapp/export/geometry.py to them.)
/** @param {number} left @param {number} width @param {number} bottom @param {number} n @returns {Point} */
export function endUnder(left, width, bottom, n) {
  const spread = Math.min(ARROW.spread, width * ARROW.spreadShare);
  return { x: left + width / 2 + (n % 2 ? 1 : -1) * Math.ceil(n / 2) * spread, y: bottom + ARROW.below };
}

// From the top of the channel up to the entry's box: a curve.
/** @param {Point} up @param {Point} end */
export function curve(up, end) {
  const dy = Math.max(CURVE.rise, Math.abs(up.y - end.y) * CURVE.bend);
  return bezier(up, { x: up.x, y: up.y - dy }, { x: end.x, y: end.y + dy }, end, CURVE.samples);
}

// Does the path come within ARROW.overReach px of one of the boxes (the entries but its target)?
/** @param {Point[]} path @param {Box[]} boxes */
function runsOver(path, boxes) {
  const m = ARROW.overReach;
  /** @param {Point} q @param {Box} b */
  const over = (q, b) => q.x > b.left - m && q.x < b.right + m && q.y > b.top - m && q.y < b.bottom + m;
  return boxes.some((b) => path.some((q) => over(q, b)));
}

// Points along a cubic Bézier.
/** @param {Point} p0 @param {Point} p1 @param {Point} p2 @param {Point} p3 @param {number} n @returns {Point[]} */
function bezier(p0, p1, p2, p3, n) {
  return Array.from({ length: n + 1 }, (_, i) => {
    const t = i / n;
    const u = 1 - t;
    const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    return { x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y };
  });
}

// Points along a run of straight lines, each corner rounded (near enough a quarter of a circle, radius at most
// ARROW.corner px).
/** @param {Point[]} corners */
export function rounded(corners) {
  const out = [corners[0]];
  for (let k = 1; k < corners.length - 1; k += 1) {
    const [a, c, b] = [corners[k - 1], corners[k], corners[k + 1]];
    const [la, lb] = [Math.hypot(c.x - a.x, c.y - a.y), Math.hypot(b.x - c.x, b.y - c.y)];
    if (!la || !lb) {
      out.push(c);
      continue;
    }
    const r = Math.min(ARROW.corner, la / 2, lb / 2);
    const from = { x: c.x + ((a.x - c.x) / la) * r, y: c.y + ((a.y - c.y) / la) * r };
    const to = { x: c.x + ((b.x - c.x) / lb) * r, y: c.y + ((b.y - c.y) / lb) * r };
    out.push(...bezier(from, c, c, to, ARROW.cornerSteps));
  }
  out.push(corners[corners.length - 1]);
  return out;
}

// A polyline measured along its length: the point at distance `d`, and the points between two distances.
// (measured, cutAt and placeCut are exported for tests/export/test_cut.py, which holds webapp/export/cut.py to them.)
/** @param {Point[]} points @returns {Measured} */
export function measured(points) {
  const at = [0];
  for (let i = 1; i < points.length; i += 1) {
    at.push(at[i - 1] + Math.hypot(points[i].x - points[i - 1].x, points[i].y - points[i - 1].y));
  }
  const length = at[at.length - 1];
  /** @param {number} d */
  const point = (d) => {
    const found = at.findIndex((v) => v >= d);
    const i = found < 0 ? at.length - 1 : Math.max(1, found);
    const [p, q] = [points[i - 1], points[i]];
    const t = at[i] > at[i - 1] ? (d - at[i - 1]) / (at[i] - at[i - 1]) : 0;
    return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
  };
  /** @param {number} d0 @param {number} d1 */
  const between = (d0, d1) => [point(d0), ...points.filter((_, i) => at[i] > d0 && at[i] < d1), point(d1)];
  return { length, point, between };
}

// An arrow's whole line: the run out of the lanes (straight, its corner rounded), then the approach to the entry.
// `detoured`: the approach ends with a straight run up to the entry (route.js).
/** @param {Route} route @param {Point[]} approach @param {boolean | undefined} detoured @returns {Line} */
function lineOf(route, approach, detoured) {
  const leg = rounded([route.start, route.turn, route.up]);
  const points = [...leg, ...approach.slice(1)];
  return { points, path: measured(points), from: measured(leg).length, start: route.start, detoured };
}

// A detached pointer's cut, centred at `f` of its approach (0.5: the middle): the gap in the line (CUT.gap of the
// approach each side, at most CUT.maxGap px), two bars across it (CUT.bar of it from the middle, at most CUT.maxBar
// px) and the cross between them; `bent`: the gap takes in a corner of the line (the cut would hide it).
/** @param {{path: Measured, from: number}} line @param {number} f @returns {Cut} */
function cutAt({ path, from }, f) {
  const span = path.length - from;
  const mid = from + span * f;
  const [half, bar] = [Math.min(span * CUT.gap, CUT.maxGap), Math.min(span * CUT.bar, CUT.maxBar)];
  /** @param {number} d0 @param {number} d1 */
  const heading = (d0, d1) => {
    const [p, q] = [path.point(d0), path.point(d1)];
    return Math.atan2(q.y - p.y, q.x - p.x);
  };
  const ang = heading(mid - bar / 2, mid + bar / 2);
  const [nx, ny] = [-Math.sin(ang) * CUT.barHalf, Math.cos(ang) * CUT.barHalf];
  /** @type {[Point, Point][]} */
  const bars = [-bar, bar].map((off) => {
    const q = path.point(mid + off);
    return [{ x: q.x - nx, y: q.y - ny }, { x: q.x + nx, y: q.y + ny }];
  });
  /** @param {number} a @param {number} b */
  const turn = (a, b) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
  const ends = [heading(mid - half, mid - half + 3), heading(mid + half - 3, mid + half)];
  const bent = Math.max(turn(ends[0], ang), turn(ends[1], ang)) > CUT.bent;
  return { gap: [mid - half, mid + half], bars, cross: path.point(mid), bent, room: 0 };
}

// Where along its approach a detached pointer is cut: the middle, unless the cut's marks come nearer than ROOM px
// to an entry (its box or labels), another arrow's line or another cut's cross, or the cut takes in a corner;
// then the place nearest the middle (CUT.step of the approach at a time either side, CUT.tries places) with the
// most room.
const ROOM = CUT.room;
const CROSS = CUT.cross; // the cross's half size
/**
 * @param {{path: Measured, from: number}} line @param {Box[]} entries @param {{points: Point[]}[]} others
 * @param {{cross: Point}[]} cuts @returns {Cut | null} (null only where CUT.tries places none)
 */
export function placeCut(line, entries, others, cuts) {
  /** @type {(o: {points: Point[]}) => [Point, Point][]} */
  const runs = (o) => o.points.slice(1).map((q, i) => [o.points[i], q]);
  const segments = others.flatMap(runs);
  const crosses = cuts.map((c) => c.cross);
  /** @param {Point} q */
  const room = (q) => Math.min(
    ...entries.map((b) => Math.hypot(Math.max(b.left - q.x, 0, q.x - b.right),
      Math.max(b.top - q.y, 0, q.y - b.bottom))),
    ...segments.map(([a, b]) => toSegment(q, a, b)),
    ...crosses.map((c) => Math.hypot(q.x - c.x, q.y - c.y) - CROSS));
  /** @type {Cut | null} */
  let best = null;
  for (let k = 0; k <= CUT.tries; k += 1) {
    const f = 0.5 + (k % 2 ? -1 : 1) * Math.ceil(k / 2) * CUT.step;
    const cut = cutAt(line, f);
    const marks = cut.bars.flatMap(([a, b]) => [0, 0.25, 0.5, 0.75, 1]
      .map((t) => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t })));
    cut.room = cut.bent ? -Infinity : Math.min(ROOM, room(cut.cross) - CROSS, ...marks.map(room));
    if (!best || cut.room > best.room + 0.5) best = cut;
    if (best.room >= ROOM) break;
  }
  return best;
}

// The distance from point q to the segment a-b.
/** @param {Point} q @param {Point} a @param {Point} b */
function toSegment(q, a, b) {
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  const t = dx || dy ? Math.max(0, Math.min(1, ((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy))) : 0;
  return Math.hypot(q.x - a.x - t * dx, q.y - a.y - t * dy);
}

// The line (a detached pointer's broken by its cut), the tail on the chip, the head on the entry; tail and head
// are sized by the line's width (app.css .pointer-line, which grows with the type), so a projector's arrow keeps
// its shape. A detoured line's head points straight up (aimed from ARROW.headAim px back along the path, a short
// last run would tilt it into the corner before).
/** @param {SVGElement} g @param {Line} line @param {Cut | undefined} cut @param {Map<boolean, number>} widths */
function drawArrow(g, line, cut, widths) {
  const { path, start: s, detoured } = line;
  g.dataset.route = detoured ? "detour" : "curve";
  const end = path.length - ARROW.stopShort; // the line stops under the head
  /** @param {Point[]} pts */
  const d = (pts) => pts.map((q, i) => `${i ? "L" : "M"}${q.x.toFixed(1)} ${q.y.toFixed(1)}`).join(" ");
  const tail = svg("circle", { class: "pointer-tail", cx: s.x.toFixed(1), cy: s.y.toFixed(1) });
  g.append(tail);
  if (cut) {
    g.append(svg("path", { class: "pointer-line", d: d(path.between(0, cut.gap[0])) }),
      svg("path", { class: "pointer-line", d: d(path.between(cut.gap[1], end)) }));
    for (const [a, b] of cut.bars) {
      g.append(svg("path", { class: "pointer-break", d: d([a, b]) }));
    }
    const m = cut.cross;
    const cross = { class: "pointer-cross", x: m.x.toFixed(1), y: (m.y + 6).toFixed(1), "text-anchor": "middle" };
    g.append(svg("text", cross, document.createTextNode("✕")));
  } else {
    g.append(svg("path", { class: "pointer-line", d: d(path.between(0, end)) }));
  }
  const tip = path.point(path.length);
  const back = detoured ? { x: tip.x, y: tip.y + ARROW.headAim } : path.point(path.length - ARROW.headAim);
  const kind = g.classList.contains("decided");
  if (!widths.has(kind)) {
    const line = g.querySelector(".pointer-line");
    const drawn = line ? parseFloat(getComputedStyle(line).strokeWidth) : 0;
    widths.set(kind, drawn || (kind ? ARROW.decidedLine : ARROW.line));
  }
  const width = widths.get(kind) ?? ARROW.line;
  tail.setAttribute("r", tailRadius(width).toFixed(1));
  g.append(svg("path", { class: "pointer-head", d: `${d(head(tip, back, width))} Z` }));
}

// The arrow head's corners: the tip, then its two wings, aimed from `back`; its size grows with the line's width.
/** @param {Point} tip @param {Point} back @param {number} width */
export function head(tip, back, width) {
  const ang = Math.atan2(tip.y - back.y, tip.x - back.x);
  const size = Math.max(ARROW.head, ARROW.headPerLine * width);
  /** @param {number} da */
  const wing = (da) => ({ x: tip.x - size * Math.cos(ang + da), y: tip.y - size * Math.sin(ang + da) });
  return [tip, wing(ARROW.headAngle), wing(-ARROW.headAngle)];
}

// The tail dot's radius for a line `width` wide.
/** @param {number} width */
export function tailRadius(width) {
  return Math.max(ARROW.tail, ARROW.tailPerLine * width);
}
