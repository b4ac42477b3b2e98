// The pointer overlay: one SVG per diagram draws, for each of the scene's pane.pointers, an arrow from the
// pod's chip (wherever the pod is now) to where it marks the list: an entry ([data-id]), the front slot
// ("front") or the ghost of a removed element ([data-removed-id], a detached v1.28.1 marker: drawn broken).
// Positions are measured, so the arrows are drawn again whenever the diagram's size changes and, while
// elements move, on every frame (`follow`).
import { svg } from "./renderer.js";

const drawn = new WeakMap(); // diagram -> its pane's pointers
const observed = new Set(); // diagrams (and their lists) under the ResizeObserver, let go once replaced
const observer = typeof ResizeObserver === "function" ? new ResizeObserver((items) => {
  for (const item of items) redraw(item.target.closest("[data-testid=diagram]") || item.target);
}) : null;

// Hand a diagram its pointers (and mark the entries they reach or cannot see), then draw them.
export function attachPointers(diagram, pointers) {
  const list = pointers || [];
  drawn.set(diagram, list);
  for (const p of list) {
    for (const id of p.reach || []) mark(diagram, id, "reach", p.pod);
    for (const id of p.unseen || []) mark(diagram, id, "unseen-by", p.pod);
  }
  if (observer) {
    for (const el of observed) if (!el.isConnected) { observer.unobserve(el); observed.delete(el); }
    observed.add(diagram);
    observer.observe(diagram);
    const listEl = diagram.querySelector(".inflight-list");
    if (listEl) {
      observed.add(listEl);
      observer.observe(listEl);
    }
  }
  redraw(diagram);
}

function mark(diagram, id, what, pod) {
  const el = diagram.querySelector(`.inflight-list [data-id="${CSS.escape(id)}"]`);
  if (!el) return;
  el.classList.add(what === "reach" ? "in-reach" : "unseen");
  const attr = what === "reach" ? "reachBy" : "unseenBy";
  const pods = new Set((el.dataset[attr] || "").split(" ").filter(Boolean));
  pods.add(pod);
  el.dataset[attr] = [...pods].join(" ");
}

export function redrawAll(root = document) {
  for (const d of root.querySelectorAll("[data-testid=diagram]")) redraw(d);
}

// Redraw every frame until no animation runs in `root` (or `ms` have passed): arrows follow flying chips.
export function follow(root, ms = 4000) {
  const until = performance.now() + ms;
  const frame = () => {
    redrawAll(root);
    const moving = root.getAnimations ? root.getAnimations({ subtree: true }).length : 0;
    if (moving && performance.now() < until) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

function target(diagram, key) {
  if (!key) return null;
  if (key === "front") return diagram.querySelector(".front-slot");
  if (key.startsWith("ghost:")) return diagram.querySelector(`[data-removed-id="${CSS.escape(key.slice(6))}"]`);
  return diagram.querySelector(`.inflight-list [data-id="${CSS.escape(key)}"]`);
}

export function redraw(diagram) {
  const layer = diagram.querySelector(":scope > svg.pointers");
  const pointers = drawn.get(diagram);
  if (!layer || !pointers || !diagram.isConnected) return;
  const box = diagram.getBoundingClientRect();
  const width = diagram.scrollWidth;
  const height = diagram.scrollHeight;
  layer.setAttribute("width", width);
  layer.setAttribute("height", height);
  layer.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const rel = (r) => ({ left: r.left - box.left, right: r.right - box.left, top: r.top - box.top, bottom: r.bottom - box.top,
    cx: (r.left + r.right) / 2 - box.left, cy: (r.top + r.bottom) / 2 - box.top });
  const arriving = new Map(); // target element -> how many arrows end there so far
  const groups = [];
  for (const p of pointers) {
    const from = diagram.querySelector(`.chip[data-pod="${CSS.escape(p.pod)}"]`);
    const to = target(diagram, p.key);
    const g = svg("g", { class: `pointer${p.detached ? " detached" : ""}${p.decided ? " decided" : ""}`,
      "data-pointer": p.pod, "data-pod": p.pod, "data-target": p.target, "data-key": p.key || "" });
    if (p.title || p.text) g.append(svg("title", {}, document.createTextNode(p.title || p.text)));
    if (from && to) {
      const a = rel(from.getBoundingClientRect());
      const host = to.querySelector(":scope > .box, :scope > .front-mark") || to;
      const b = { ...rel(host.getBoundingClientRect()), bottom: rel(to.getBoundingClientRect()).bottom };
      const n = arriving.get(to) || 0;
      arriving.set(to, n + 1);
      const spread = Math.min(14, (b.right - b.left) / 4);
      const end = { x: b.cx + (n % 2 ? 1 : -1) * Math.ceil(n / 2) * spread, y: b.bottom + 2 };
      drawArrow(g, startOf(from, a, b), end, p);
    }
    groups.push(g);
  }
  layer.replaceChildren(...groups);
}

// Where an arrow leaves its chip: the top, unless another chip sits above it in its lane (then the side
// facing the target, so the arrow does not cross that chip).
function startOf(chip, a, b) {
  const first = chip.parentElement?.firstElementChild;
  const covered = first && first !== chip && first.getBoundingClientRect().bottom <= chip.getBoundingClientRect().top + 1;
  if (!covered) return { x: a.cx, y: a.top - 1, side: 0 };
  return b.cx < a.cx ? { x: a.left - 1, y: a.cy, side: -1 } : { x: a.right + 1, y: a.cy, side: 1 };
}

// A cubic from the chip up to the entry; a detached pointer is cut in the middle with a break mark.
function drawArrow(g, s, e, p) {
  const dy = Math.max(28, Math.abs(s.y - e.y) * 0.5);
  const c1 = s.side ? { x: s.x + s.side * Math.max(24, Math.abs(e.x - s.x) * 0.5), y: s.y } : { x: s.x, y: s.y - dy };
  const c2 = { x: e.x, y: e.y + dy };
  const at = (t) => {
    const u = 1 - t;
    return { x: u * u * u * s.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * e.x,
      y: u * u * u * s.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * e.y };
  };
  const line = (t0, t1) => {
    const pts = [];
    for (let i = 0; i <= 24; i += 1) pts.push(at(t0 + ((t1 - t0) * i) / 24));
    return pts.map((q, i) => `${i ? "L" : "M"}${q.x.toFixed(1)} ${q.y.toFixed(1)}`).join(" ");
  };
  g.append(svg("circle", { class: "pointer-tail", cx: s.x.toFixed(1), cy: s.y.toFixed(1), r: 3.5 }));
  if (p.detached) {
    g.append(svg("path", { class: "pointer-line", d: line(0, 0.42) }), svg("path", { class: "pointer-line", d: line(0.58, 0.985) }));
    const m = at(0.5);
    const before = at(0.46);
    const after = at(0.54);
    const ang = Math.atan2(after.y - before.y, after.x - before.x);
    const nx = -Math.sin(ang) * 9;
    const ny = Math.cos(ang) * 9;
    for (const off of [-0.06, 0.06]) {
      const q = at(0.5 + off);
      g.append(svg("path", { class: "pointer-break", d: `M${(q.x - nx).toFixed(1)} ${(q.y - ny).toFixed(1)} L${(q.x + nx).toFixed(1)} ${(q.y + ny).toFixed(1)}` }));
    }
    g.append(svg("text", { class: "pointer-cross", x: m.x.toFixed(1), y: (m.y + 5).toFixed(1), "text-anchor": "middle" }, document.createTextNode("✕")));
  } else {
    g.append(svg("path", { class: "pointer-line", d: line(0, 0.985) }));
  }
  const tip = e;
  const back = at(0.93);
  const ang = Math.atan2(tip.y - back.y, tip.x - back.x);
  const size = 10;
  const wing = (da) => `${(tip.x - size * Math.cos(ang + da)).toFixed(1)} ${(tip.y - size * Math.sin(ang + da)).toFixed(1)}`;
  g.append(svg("path", { class: "pointer-head", d: `M${tip.x.toFixed(1)} ${tip.y.toFixed(1)} L${wing(0.45)} L${wing(-0.45)} Z` }));
}
