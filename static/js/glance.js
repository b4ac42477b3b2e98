// Where the panes stack (a phone, a tablet: app.css), the strip that keeps the other versions in sight: pinned
// above the panes, one row per pane not in view, each the line glance-line.js makes from the scene on screen; a
// tap brings that pane into view. Which pane is in view is a layout fact, measured as the page scrolls: the one
// whose diagram shows the most between the strip and what is laid over the screen's foot (the controls, a docked
// poll sheet). Where the panes stand side by side, the strip is hidden. In an embed the panes scroll in a box of their
// own, under the strip and over the control bar; there each step's moved pods are kept in sight: the box scrolls
// the least that brings the lanes they moved to into the band the panes are seen in (in the story mode on a phone
// B's lane, where it is parked at the lost marker's climax, was under the box's foot). Nothing here draws a pane or
// sends.
import { $, h, prefersReducedMotion } from "./dom.js";
import { glanceLine } from "./glance-line.js";

/** The box of `el` as [top, bottom], or null where it is not drawn. @param {Element | null | undefined} el */
function span(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.height > 0 ? [r.top, r.bottom] : null;
}

/**
 * What of the screen the panes are seen in: from the strip's foot to the top of the first thing laid over the
 * screen's foot (the fixed or pinned controls, a docked poll sheet). @returns {[number, number]}
 */
export function seenBand() {
  const strip = $("glance");
  const top = strip && !strip.hidden ? Math.max(0, strip.getBoundingClientRect().bottom) : 0;
  let bottom = innerHeight;
  const scroller = ownScroller();
  if (scroller) bottom = Math.min(bottom, scroller.getBoundingClientRect().bottom);
  for (const el of document.querySelectorAll("#app > .controls, #app > .poll-follower")) {
    const box = span(el);
    const laidOver = ["fixed", "sticky"].includes(getComputedStyle(el).position);
    if (box && laidOver && box[1] > innerHeight / 2) bottom = Math.min(bottom, box[0]);
  }
  return [top, Math.max(top, bottom)];
}

/** The panes on the page, in order. @returns {HTMLElement[]} */
const panesOnPage = () => [
  .../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#panes > [data-variant]"))];

/** How much of `pane`'s diagram shows in `band` (px). @param {HTMLElement} pane @param {[number, number]} band */
function shown(pane, [top, bottom]) {
  const box = span(pane.querySelector("[data-testid=diagram]") ?? pane);
  return box ? Math.max(0, Math.min(box[1], bottom) - Math.max(box[0], top)) : 0;
}

/** The pane whose diagram shows the most (the first on a tie), or null. @returns {HTMLElement | null} */
export function paneInView() {
  const band = seenBand();
  let best = null;
  let most = -1;
  for (const pane of panesOnPage()) {
    const seen = shown(pane, band);
    if (seen > most) [best, most] = [pane, seen];
  }
  return best;
}

/** Whether the panes stand one above the other (and there are two or more). */
export function stacked() {
  const panes = panesOnPage();
  if (panes.length < 2) return false;
  const [a, b] = [panes[0].getBoundingClientRect(), panes[1].getBoundingClientRect()];
  return b.top >= a.bottom - 1;
}

/** The panes where they scroll in a box of their own (an embed: app.css), else null. @returns {HTMLElement | null} */
function ownScroller() {
  const panes = $("panes");
  return panes && getComputedStyle(panes).overflowY !== "visible" && panes.scrollHeight > panes.clientHeight + 1
    ? panes : null;
}

/** Scroll the page (or the panes, where they scroll in a box of their own) by `dy` px. @param {number} dy */
export function scrollPage(dy) {
  const how = { top: dy, behavior: /** @type {ScrollBehavior} */ (prefersReducedMotion() ? "instant" : "smooth") };
  if (Math.abs(dy) >= 1) (ownScroller() ?? window).scrollBy(how);
}

/** @param {HTMLElement} app @param {{shown: Model | null, latest: Model | null}} page */
export function createGlance(app, page) {
  const panes = $("panes");
  if (!panes) return;
  const strip = h("aside", { id: "glance", class: "glance", ariaLabel: "The other versions at a glance",
    dataTestid: "glance", hidden: true });
  panes.before(strip);
  let frame = 0;
  let drawn = ""; // what the strip shows: the rows' variants and the scene's position, so a scroll redraws nothing

  function update() {
    frame = 0;
    const scene = page.shown?.scene;
    const on = Boolean(scene) && stacked();
    if (strip.hidden === on) strip.hidden = !on;
    document.documentElement.style.setProperty("--glance-h", on ? `${Math.ceil(strip.offsetHeight)}px` : "0px");
    if (!on || !scene) return;
    const inView = paneInView()?.dataset.variant;
    const others = Object.keys(scene.panes).filter((v) => v !== inView);
    const key = `${scene.position}|${page.shown?.seq}|${others.join(",")}`;
    if (key === drawn) return;
    drawn = key;
    strip.replaceChildren(...others.map((variant) => row(glanceLine(scene, variant))));
  }

  /** @param {ReturnType<typeof glanceLine>} line */
  function row(line) {
    const words = [line.where, line.text].filter(Boolean).join(" · ");
    return h("button", { type: "button", class: `glance-row ${line.tone}`, dataOf: line.variant,
      dataTestid: "glance-row", ariaLabel: `${line.title}: ${words}. Show its pane`, title: words,
      onclick: () => bringIntoView(line.variant) },
    h("span", { class: "glance-title", text: line.title }),
    h("span", { class: "glance-words" },
      line.where ? h("span", { class: "glance-where", dataTestid: "glance-where", text: line.where }) : null,
      line.text ? h("span", { class: "glance-text", dataTestid: "glance-text", text: line.text }) : null));
  }

  // The pane's diagram brought to just under the strip.
  /** @param {string} variant */
  function bringIntoView(variant) {
    const pane = panes.querySelector(`[data-variant="${CSS.escape(variant)}"]`);
    const box = span(pane?.querySelector("[data-testid=diagram]") ?? pane);
    if (box) scrollPage(box[0] - seenBand()[0] - 4);
  }

  // The lanes the step on screen moved pods to, in the pane in view, scrolled into the band where the panes
  // scroll in a box of their own (the page's own scroll is the reader's).
  function keepMovedInSight() {
    const pane = ownScroller() ? paneInView() : null;
    const variant = /** @type {{record?: {moves?: {pod: string}[]}} | undefined} */ (
      pane ? page.shown?.variants?.[pane.dataset.variant ?? ""] : undefined);
    const moves = variant?.record?.moves ?? [];
    const lanes = moves
      .map((m) => pane?.querySelector(`.lane .chip[data-pod="${CSS.escape(m.pod)}"]`)?.closest(".lane"))
      .map(span).filter((box) => box !== null);
    if (!lanes.length) return;
    const [top, bottom] = seenBand();
    const below = Math.max(...lanes.map((box) => box[1])) - bottom + 4;
    const above = Math.min(...lanes.map((box) => box[0])) - top - 4;
    if (below > 0) scrollPage(Math.min(below, Math.max(0, above)));
    else if (above < 0) scrollPage(above);
  }

  const soon = () => { frame ||= requestAnimationFrame(update); };
  new MutationObserver(() => { drawn = ""; update(); keepMovedInSight(); }).observe(panes, { childList: true });
  new ResizeObserver(soon).observe(strip);
  addEventListener("scroll", soon, { passive: true });
  addEventListener("resize", soon);
  app.addEventListener("scroll", soon, { passive: true });
  panes.addEventListener("scroll", soon, { passive: true }); // an embed's panes scroll in their own box
}
