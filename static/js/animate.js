// Animation between two scenes: the hint walk on the old view, then FLIP moves, enters and leaves.
import { prefersReducedMotion } from "./dom.js";
import { TOKENS } from "./tokens.js";

// (a faint chip of a record Pop dropped, 1.32+, stays where it is drawn: it is not the pod's chip that moved)
const KEYED = "[data-id], [data-pod].chip:not([data-ghost]), [data-removed-id]";

/** @typedef {{rect: DOMRect, clone: HTMLElement, top: number, left: number}} Shot a keyed element as it was drawn */
/** @typedef {Map<string, Shot>} Snapshot the keyed elements of a view, by keyOf */
/** @typedef {{per: number, hold: number, fade: number}} Beats the climax's beats, in ms */

/** @param {ParentNode} root @returns {HTMLElement[]} its keyed elements (each a chip, entry or ghost: HTML) */
const keyedIn = (root) => [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(KEYED))];

/** @param {HTMLElement} el @returns {string} */
function keyOf(el) {
  const pane = /** @type {HTMLElement | null} */ (el.closest("[data-variant]"))?.dataset.variant || "";
  if (el.dataset.id) return `${pane}|id|${el.dataset.id}`;
  if (el.dataset.removedId) return `${pane}|id|${el.dataset.removedId}`; // the element it was, moved to its ghost
  return `${pane}|pod|${el.dataset.pod}`;
}

/** @param {Element} root @returns {Snapshot} */
export function capture(root) {
  const rootRect = root.getBoundingClientRect();
  /** @type {Snapshot} */
  const snap = new Map();
  for (const el of keyedIn(root)) {
    const r = el.getBoundingClientRect();
    const top = r.top - rootRect.top + root.scrollTop;
    const clone = /** @type {HTMLElement} */ (el.cloneNode(true));
    snap.set(keyOf(el), { rect: r, clone, top, left: r.left - rootRect.left });
  }
  return snap;
}

// Highlight each entry the hint walk visited, in order, then the decision; resolves when done. `panes` are the
// next scene's: each pane's `walk` {ids, nil} is the walk of the step that leads there, played on the old view
// (where a detached marker's removed element, `nil`, is still drawn).
/**
 * @param {ParentNode} root @param {Wire.Scene["panes"]} panes @param {number} budgetMs
 * @returns {Promise<void>}
 */
export function playHintWalk(root, panes, budgetMs) {
  const walks = /** @type {[string, Wire.Walk][]} */ (
    Object.values(panes).filter((pane) => pane.walk).map((pane) => [pane.variant, pane.walk]));
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
        const entry = id ? pane.querySelector(`.inflight-list [data-id="${CSS.escape(id)}"]`) : null;
        entry?.classList.add("visiting", "visited");
      }
      i += 1;
      if (i < longest) setTimeout(tick, per);
      else setTimeout(resolve, per / 2);
    };
    tick();
  });
}

// The climax's beats at a pace (1 for a step by hand, 1/speed while playing): `per` entry of the walk, the `hold`
// before the deferred Done, its `fade`; scaled with the speed, never shorter than the eye can follow. At pace 1
// they are the tokens' (the animated exports play them too: webapp/export/beats.py).
/** @param {number} pace @returns {Beats} */
export function climaxBeats(pace) {
  const { per, hold, fade } = TOKENS.beats;
  return { per: Math.max(160, per * pace), hold: Math.max(300, hold * pace), fade: Math.max(300, fade * pace) };
}

// The climax of a forward step, played on the new view (the scene keeps what the step removed as ghosts):
// beat (a) the walk sweeps the entries it visited (or flashes the removed element a detached marker names)
// while the ghosts are still drawn solid; beat (b), `hold` ms later, the deferred Done: the ghosts fade to their
// ghost style. Everything is a Web Animation (so "settled" means no animation runs). Returns when beat (a) ends,
// in ms (`decided`: the moves start after the decision), and a promise of both beats' end (`finished`).
/**
 * @param {ParentNode} root @param {Wire.Scene["panes"]} panes @param {Beats} beats
 * @returns {{decided: number, finished: Promise<unknown>}}
 */
export function playClimax(root, panes, { per, hold, fade }) {
  if (prefersReducedMotion()) return { decided: 0, finished: Promise.resolve() };
  /** @type {Animation[]} */
  const beats = [];
  let sweep = 0;
  for (const pane of Object.values(panes)) {
    const el = root.querySelector(`[data-variant="${CSS.escape(pane.variant)}"]`);
    if (!el) continue;
    const walked = [...el.querySelectorAll('.inflight-list [data-walked="true"]')];
    walked.forEach((entry, i) => {
      const box = entry.querySelector(".box");
      if (box) beats.push(box.animate([
        { boxShadow: "0 0 0 0 transparent", transform: "none" },
        { boxShadow: "0 0 0 6px var(--visit)", transform: "translateY(-4px) scale(1.08)", offset: 0.4 },
        { boxShadow: "0 0 0 0 transparent", transform: "none" },
      ], { duration: per * 1.6, delay: i * per, easing: "ease-in-out" }));
    });
    let length = walked.length * per + (walked.length ? per : 0);
    if (pane.walk?.nil) {
      const removed = el.querySelector(`[data-removed-id="${CSS.escape(pane.walk.nil)}"] .box`);
      if (removed) beats.push(removed.animate([
        { backgroundColor: "transparent" }, { backgroundColor: "var(--bug-bg)", boxShadow: "0 0 0 6px var(--bug)" },
        { backgroundColor: "transparent" },
      ], { duration: per * 2, iterations: 1 }));
      length = Math.max(length, per * 2);
    }
    sweep = Math.max(sweep, length);
  }
  const fadeAt = sweep + hold;
  for (const box of root.querySelectorAll('.inflight-list [data-ghost="true"] > .box')) {
    const rest = getComputedStyle(box);
    beats.push(box.animate([
      { opacity: 1, borderStyle: "solid", filter: "none" },
      { opacity: 1, borderStyle: "solid", filter: "none", offset: 0.05 },
      { opacity: rest.opacity, borderStyle: rest.borderTopStyle, filter: rest.filter },
    ], { duration: fade, delay: fadeAt, fill: "backwards", easing: "ease-in" }));
  }
  for (const tag of root.querySelectorAll('.inflight-list [data-ghost="true"] > .gone-tag')) {
    beats.push(tag.animate([{ opacity: 0 }, { opacity: 1 }],
      { duration: fade * 0.7, delay: fadeAt + fade * 0.3, fill: "backwards" }));
  }
  return { decided: sweep, finished: Promise.all(beats.map((a) => a.finished)).catch(() => {}) }; // cancelled: over too
}

// A chip drawn in its new lane's style (a failed pod's gains its timer) starts its flight at the size it had in the
// lane it leaves, and grows on the way: at its new size from the start it stuck out of the in-flight lane and
// the pane while it waited for the walk's decision (a fail step's first beat).
/** @param {DOMRect} was @param {DOMRect} now @returns {string} */
function sizedAs(was, now) {
  if (!now.width || !now.height) return "";
  const [sx, sy] = [was.width / now.width, was.height / now.height];
  return Math.abs(sx - 1) < 0.01 && Math.abs(sy - 1) < 0.01 ? "" : ` scale(${sx.toFixed(3)}, ${sy.toFixed(3)})`;
}

// `delay`: the moves wait for the walk's decision (beat a) before the pods fly to their lanes; what enters
// or leaves does so at once (what the deferred Done removes stays, as a ghost: playClimax fades it).
/**
 * @param {Element} root
 * @param {Snapshot | null} captured the view before (page.js captures it on every step forward, the only time it
 *   plays a transition: never null here)
 * @param {{delay?: number}} options
 */
export function playTransition(root, captured, { delay = 0 } = {}) {
  const before = /** @type {Snapshot} */ (captured);
  if (prefersReducedMotion()) {
    for (const el of keyedIn(root)) if (!before.has(keyOf(el))) el.classList.add("flash");
    return;
  }
  const seen = new Set();
  for (const el of keyedIn(root)) {
    const key = keyOf(el);
    seen.add(key);
    const old = before.get(key);
    if (!old) {
      el.animate([{ opacity: 0, transform: "translateY(10px) scale(.9)" }, { opacity: 1, transform: "none" }],
        { duration: 600, easing: "ease-out" });
      continue;
    }
    const now = el.getBoundingClientRect();
    const dx = old.rect.left - now.left;
    const dy = old.rect.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const chip = el.matches(".chip");
    const wait = chip ? delay : 0; // a pod flies once the walk has decided where it goes
    const from = `translate(${dx}px, ${dy}px)${chip ? sizedAs(old.rect, now) : ""}`;
    el.animate([{ transform: from, transformOrigin: "0 0" }, { transform: "none", transformOrigin: "0 0" }],
      { duration: 650, delay: wait, fill: "backwards", easing: "ease-in-out" });
  }
  for (const [key, old] of before) {
    if (seen.has(key)) continue;
    const ghost = old.clone;
    for (const el of [ghost, ...ghost.querySelectorAll("*")]) {
      for (const attr of [...el.attributes]) if (attr.name.startsWith("data-")) el.removeAttribute(attr.name);
    }
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("leaving");
    Object.assign(ghost.style,
      { position: "absolute", top: `${old.top}px`, left: `${old.left}px`, width: `${old.rect.width}px`, margin: 0 });
    root.append(ghost);
    const leaving = [{ opacity: 1, transform: "none" }, { opacity: 0, transform: "translateY(-12px) scale(0.9)" }];
    ghost.animate(leaving, { duration: 600, easing: "ease-in" })
      .finished.then(() => ghost.remove());
  }
}
