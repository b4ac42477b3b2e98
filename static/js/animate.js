// Animation between two scenes: the hint walk on the old view, then FLIP moves, enters and leaves.
import { prefersReducedMotion } from "./dom.js";

const KEYED = "[data-id], [data-pod].chip, [data-removed-id]";

function keyOf(el) {
  const pane = el.closest("[data-variant]")?.dataset.variant || "";
  if (el.dataset.id) return `${pane}|id|${el.dataset.id}`;
  if (el.dataset.removedId) return `${pane}|ghost|${el.dataset.removedId}`;
  return `${pane}|pod|${el.dataset.pod}`;
}

export function capture(root) {
  const rootRect = root.getBoundingClientRect();
  const snap = new Map();
  for (const el of root.querySelectorAll(KEYED)) {
    const r = el.getBoundingClientRect();
    snap.set(keyOf(el), { rect: r, clone: el.cloneNode(true), top: r.top - rootRect.top + root.scrollTop, left: r.left - rootRect.left });
  }
  return snap;
}

// Highlight each entry the hint walk visited, in order, then the decision; resolves when done. `panes` are the
// next scene's: each pane's `walk` {ids, nil} is the walk of the step that leads there, played on the old view
// (where a detached marker's removed element, `nil`, is still drawn).
export function playHintWalk(root, panes, budgetMs) {
  const walks = Object.values(panes).filter((pane) => pane.walk).map((pane) => [pane.variant, pane.walk]);
  if (!walks.length || prefersReducedMotion()) return Promise.resolve();
  const longest = Math.max(...walks.map(([, walk]) => walk.ids.length + 1));
  const per = Math.max(120, Math.min(420, budgetMs / longest));
  return new Promise((resolve) => {
    let i = 0;
    const tick = () => {
      for (const [variant, walk] of walks) {
        const pane = root.querySelector(`[data-variant="${CSS.escape(variant)}"]`);
        if (!pane) continue;
        pane.querySelectorAll(".visiting").forEach((el) => el.classList.remove("visiting"));
        if (i === 0 && walk.nil) {
          pane.querySelector(`[data-removed-id="${CSS.escape(walk.nil)}"]`)?.classList.add("visiting", "nil-flash");
        }
        const id = walk.ids[i];
        if (id) pane.querySelector(`.inflight-list [data-id="${CSS.escape(id)}"]`)?.classList.add("visiting", "visited");
      }
      i += 1;
      if (i < longest) setTimeout(tick, per);
      else setTimeout(resolve, per / 2);
    };
    tick();
  });
}

export function playTransition(root, before) {
  if (prefersReducedMotion()) {
    for (const el of root.querySelectorAll(KEYED)) if (!before.has(keyOf(el))) el.classList.add("flash");
    return;
  }
  const seen = new Set();
  for (const el of root.querySelectorAll(KEYED)) {
    const key = keyOf(el);
    seen.add(key);
    const old = before.get(key);
    if (!old) {
      el.classList.add("enter");
      continue;
    }
    const now = el.getBoundingClientRect();
    const dx = old.rect.left - now.left;
    const dy = old.rect.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 450, easing: "ease-out" });
  }
  for (const [key, old] of before) {
    if (seen.has(key)) continue;
    const ghost = old.clone;
    for (const el of [ghost, ...ghost.querySelectorAll("*")]) {
      for (const attr of [...el.attributes]) if (attr.name.startsWith("data-")) el.removeAttribute(attr.name);
    }
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("leaving");
    Object.assign(ghost.style, { position: "absolute", top: `${old.top}px`, left: `${old.left}px`, width: `${old.rect.width}px`, margin: 0 });
    root.append(ghost);
    ghost.animate([{ opacity: 1, transform: "none" }, { opacity: 0, transform: "translateY(-12px) scale(0.9)" }], { duration: 550, easing: "ease-in" })
      .finished.then(() => ghost.remove());
  }
}
