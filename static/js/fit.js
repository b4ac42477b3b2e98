// The list scales to fill its area: each diagram's in-flight list gets the largest font size (between --fit-min and
// --fit-max times its stylesheet size, and never under --fit-least px, app.css .list-area) at which its entries,
// wrapped onto rows, fit the list's box, the same in both panes (the smaller of the two), so like is drawn like. A
// list wraps onto more rows only when that buys real size: if keeping the fewest rows costs at most FEWER_ROWS_COST
// of the type, the fewest it is. Wrapped, it narrows as far as its rows allow, so the rows come out even (2 + 2, not
// 3 + 1 with a lone entry under the rest). Where the area's height follows its content (one column, phones: --fit:
// width) only the width bounds it. The labels above the entries (gone, unseen, markers) keep a readable size of
// their own, so in a narrow list they take the width and the entries wrap onto rows of tall label stacks: where the
// entries come out smaller than the stylesheet's size, the labels are also tried narrower (more lines each: the
// .narrow-labels list, app.css), and kept so if that buys NARROW_GAIN or more. A walked entry's hint badge takes no
// part in the fit: it is shown afterwards where it fits its entry. Fitted on every draw and whenever an area's size
// changes (pointers.js's ResizeObserver). Where the entries do not fit at the least size, the list's area grows
// (grow); in presentation mode the stage first gives them its room (tighten). Before the lists, the lanes: one row of
// four, or two rows of two where one row leaves a lane too narrow (fitLanes).
import { $ } from "./dom.js";

/** @type {WeakMap<HTMLElement, string | undefined>} */
const fitted = new WeakMap(); // list -> the area size it was fitted to
const FEWER_ROWS_COST = 0.2;
const PRECISION = 0.5; // px: a search for the largest size that fits ends within this of it
const NARROW_GAIN = 0.1;
const LABELS = ".gone-tag, .unseen-tag, .marker";

// Every diagram under `root` (both panes) gets the same size: the largest that fits them all. Unless
// `force`, only when an area's size changed since it was fitted. Returns whether anything was fitted.
/** @param {ParentNode} root @param {boolean} force */
export function fitAll(root = document, force = true) {
  if (!force) {
    const lists = diagrams(root);
    if (lists.length && lists.every((l) => fitted.get(l.list) === l.key)) return false;
  }
  fitLanes(root);
  const lists = diagrams(root);
  if (!lists.length) return false;
  const stage = root instanceof Element ? root.closest("#app") : null;
  if (stage instanceof HTMLElement && stage.classList.contains("tight") && stage.dataset.tightFor !== tightKey()) {
    stage.classList.remove("tight");
    refit(root);
  } else fitLists(lists);
  tighten(root, stage);
  return true;
}

// What the stage's .tight holds for: the window's size, the scenario loaded and whether the full narration is open
// (it takes a share of the panes' height, app.css). Within them it is kept once taken, so the controls keep their
// height from step to step under a room's eyes (three-pod-cascade at 1280x720 in presentation mode: 69 px to step 6,
// 39 at 7 and 8, 69 again at 9); a new size, a new scenario or the narration opened or closed tries again (taken with
// the narration open, it stayed after it closed: queueing-hints 7 at 1280x720).
function tightKey() {
  const narrated = $("panes")?.querySelector(".narration[open]") ? " narrated" : "";
  return `${innerWidth}x${innerHeight} ${$("scenario-name")?.textContent ?? ""}${narrated}`;
}

// The lanes, then the lists, of every diagram under `root`, as the stage now lies.
/** @param {ParentNode} root */
function refit(root) {
  fitLanes(root);
  fitLists(diagrams(root));
}

/** @param {ParentNode} root */
function diagrams(root) {
  return [...root.querySelectorAll("[data-testid=diagram]")].map(measure).filter((l) => l !== null);
}

// Presentation mode's stage has a fixed height: where even the least size leaves a list more rows than its area
// has height for (grow() lengthened the area, and the panes would scroll), the stage is marked .tight and gives the
// lists the room of its chrome (flow.css: the controls one row, the legend's row, closer rows, lanes as high as
// their chips), and the lists are fitted again. Kept for the size and the scenario it was taken at (tightKey).
/** @param {ParentNode} root @param {Element | null} stage */
function tighten(root, stage) {
  const lists = diagrams(root);
  if (!(stage instanceof HTMLElement) || !stage.classList.contains("presenting")
    || !lists.some((l) => l.area.style.minHeight)) return;
  stage.classList.add("tight");
  stage.dataset.tightFor = tightKey();
  refit(root);
}

/** @param {Measured[]} lists */
function fitLists(lists) {
  for (const l of lists) {
    l.list.classList.add("fitting"); // the walk's hint badges take no part in the fit
    l.area.style.minHeight = ""; // the area's own height (grow() sets it again where the entries need more)
  }
  narrow(lists, false);
  let size = fit(lists);
  // narrower labels, where the entries come out smaller than the stylesheet draws them, or than the least size
  // lets them grow to where that is larger (presentation mode: labels at the least text took the row's width), or
  // where they need more height than their areas have (not in one column: there the rows follow the stylesheet's
  // size)
  const short = size < Math.min(...lists.map((l) => Math.max(natural(l.list), 1.5 * bounds(l.list, l.style)[0]))) - 0.01;
  if (!lists.some((l) => l.widthOnly) && lists.some((l) => l.list.querySelector(LABELS))
      && (short || overflow(lists, size) > 0)) {
    const over = overflow(lists, size);
    narrow(lists, true);
    const narrower = fit(lists);
    // kept where it buys size, or, at the least size both ways, where the entries need less height beyond the area
    if (narrower >= (1 + NARROW_GAIN) * size || (narrower >= size && overflow(lists, narrower) < over - 1)) size = narrower;
    else narrow(lists, false);
  }
  for (const l of lists) {
    l.list.style.fontSize = `${size.toFixed(2)}px`;
    if (!l.widthOnly) {
      balance(l.list);
      grow(l);
    }
    markRowEnds(l.list);
    fitted.set(l.list, measure(l.diagram)?.key);
    l.list.classList.remove("fitting");
    showBadges(l.list);
  }
}

// The lanes of every diagram under `root` in one row of four, unless that leaves a lane too narrow in any of them
// (its heading, a name that never breaks, sticking out into the next lane; narrower than --lane-min, app.css: a
// chip's timer stuck out of its chip and lane, four panes in presentation mode at 1920x1080): then all of them
// in two rows of two (.two-rows, app.css), like drawn like. Measured at one row, so the answer depends on the
// pane's width and type only, not on the chips of the moment: a step does not reshuffle the lanes.
/** @param {ParentNode} root */
function fitLanes(root) {
  const all = [...root.querySelectorAll("[data-testid=diagram] > .lanes")];
  for (const lanes of all) lanes.classList.remove("two-rows");
  const cramped = all.some(crampedLanes);
  for (const lanes of all) lanes.classList.toggle("two-rows", cramped);
}

/** @param {Element} lanes */
function crampedLanes(lanes) {
  const least = parseFloat(getComputedStyle(lanes).getPropertyValue("--lane-min")) || 0; // in the lane's ems
  return [...lanes.children].some((lane) => {
    const style = getComputedStyle(lane);
    const heading = lane.querySelector(".lane-name");
    // the heading may take the lane's inner padding, not its border (3 px of it at 1920x1080, four panes)
    const room = lane.clientWidth - parseFloat(style.paddingLeft);
    return lane.clientWidth < least * parseFloat(style.fontSize) || (heading && heading.scrollWidth > room + 0.5);
  });
}

// Every list's badges under `root` again, as the lists now lie: once a step's animations have ended (measured
// while entries slid in, a badge was hidden for good: the offline file's decisive frame lost its hint badge).
// An arrow between two entries that ends a row (the entry after it wrapped to the next) or starts one (it wrapped
// itself, under the entry before it) points at nothing: hidden (its place kept), the row after the break starting
// with an entry.
/** @param {HTMLElement} list */
function markRowEnds(list) {
  for (const arrow of /** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll(":scope > .arrow"))) {
    const next = /** @type {HTMLElement | null} */ (arrow.nextElementSibling);
    const before = /** @type {HTMLElement | null} */ (arrow.previousElementSibling);
    arrow.classList.toggle("row-end", (next !== null && next.offsetTop >= arrow.offsetTop + arrow.offsetHeight)
      || (before !== null && arrow.offsetTop >= before.offsetTop + before.offsetHeight));
  }
}

/** @param {ParentNode} root */
export function showAllBadges(root) {
  for (const list of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".inflight-list"))) showBadges(list);
}

// A walked entry's hint badge (on its box's lower edge, readable size) is shown where it has room: within the
// list, over no other item (an entry, an arrow between two); where the list is drawn too small for it, the hint
// line above the list says the same.
/** @param {HTMLElement} list */
function showBadges(list) {
  const badges = [.../** @type {NodeListOf<HTMLElement>} */ (list.querySelectorAll(".walk-tag"))];
  for (const badge of badges) badge.hidden = false;
  const frame = list.getBoundingClientRect();
  const items = [...list.children].map((li) => /** @type {[Element, DOMRect]} */ ([li, li.getBoundingClientRect()]));
  /** @param {Box} a @param {Box} b */
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const badge of badges) {
    const r = badge.getBoundingClientRect();
    const own = badge.closest("li");
    const outside = r.left < frame.left || r.right > frame.right || r.bottom > frame.bottom;
    badge.hidden = outside || items.some(([li, box]) => li !== own && meets(r, box));
  }
}

// The size (px) all `lists` get: the largest that fits them all, or fewer rows if that costs little. The fewest rows
// are searched for only down to PRECISION above the size where they would cost FEWER_ROWS_COST of it (a choice
// between the two does not hang on less than the searches can tell): where they do not fit there, the largest it is.
/** @param {Measured[]} lists */
function fit(lists) {
  const largest = Math.min(...best(lists));
  const most = fewestRows(lists);
  const floor = (1 - FEWER_ROWS_COST) * largest + PRECISION;
  const fewest = best(lists, most, floor, largest);
  return fewest.every((size) => size !== null) ? Math.min(...fewest.map(Number)) : largest;
}

/** @param {Measured[]} lists @param {boolean} on */
function narrow(lists, on) {
  for (const l of lists) l.list.classList.toggle("narrow-labels", on);
}

/** @typedef {{diagram: Element, area: HTMLElement, list: HTMLElement, style: CSSStyleDeclaration, widthOnly: boolean,
 *   key: string}} Measured */
/** @param {Element} diagram @returns {Measured | null} */
function measure(diagram) {
  const area = /** @type {HTMLElement | null} */ (diagram.querySelector(".list-area"));
  const list = /** @type {HTMLElement | null | undefined} */ (area?.querySelector(".inflight-list"));
  if (!area || !list || !diagram.isConnected) return null;
  const style = getComputedStyle(area);
  const widthOnly = style.getPropertyValue("--fit").trim() === "width";
  const key = widthOnly ? `${Math.round(area.clientWidth)}` : `${Math.round(area.clientWidth)}x${Math.round(area.clientHeight)}`;
  return { diagram, area, list, style, widthOnly, key };
}

// The largest size (px) at which each list's entries fit (on at most `most` rows, list by list). The lists are
// searched side by side: each trial sets every list still searching to its own size and reads them all after one
// layout (a list's layout does not depend on the other lists' sizes). Searched between `from` and `to` px (within
// each list's own range), a list that does not fit at the lower gets null, and the others are not searched.
/** @overload @param {Measured[]} lists @param {number[]} [most] @returns {number[]} */
/** @overload @param {Measured[]} lists @param {number[]} most @param {number} from @param {number} to
 *  @returns {(number | null)[]} */
/** @param {Measured[]} lists @param {number[]} [most] @param {number} [from] @param {number} [to] */
function best(lists, most = lists.map(() => Infinity), from = 0, to = Infinity) {
  const range = lists.map((l) => bounds(l.list, l.style)).map(([lo, hi]) => {
    const bottom = Math.max(lo, from);
    return /** @type {[number, number]} */ ([bottom, Math.max(bottom, Math.min(hi, to))]);
  });
  // bounded by the width alone, growing must not wrap more rows than the stylesheet's size does
  const limit = lists.map((l, i) => Math.min(most[i], l.widthOnly ? rows(l.list) : Infinity));
  /** @param {(number | null)[]} sizes each list's trial size, null where it has its answer */
  const fits = (sizes) => {
    lists.forEach((l, i) => { if (sizes[i] !== null) l.list.style.fontSize = `${sizes[i].toFixed(2)}px`; });
    return lists.map((l, i) => sizes[i] !== null && inside(l.list, l.widthOnly) && rows(l.list) <= limit[i]);
  };
  if (from > 0) {
    const least = fits(range.map(([lo]) => lo));
    if (!least.every(Boolean)) return lists.map(() => null);
  }
  const atMost = fits(range.map(([, hi]) => hi));
  const found = range.map(([lo, hi], i) => (atMost[i] ? [hi, hi] : [lo, hi]));
  for (let i = 0; i < 9; i += 1) {
    const mid = found.map(([a, b]) => (b - a > PRECISION ? (a + b) / 2 : null));
    if (mid.every((m) => m === null)) break;
    fits(mid).forEach((ok, k) => {
      const m = mid[k];
      if (m !== null) found[k] = ok ? [m, found[k][1]] : [found[k][0], m];
    });
  }
  return found.map(([a]) => a);
}

// [smallest, largest] size (px), from the stylesheet's size; leaves the list at the stylesheet's size.
/** @param {HTMLElement} list @param {CSSStyleDeclaration} style @returns {[number, number]} */
function bounds(list, style) {
  const base = natural(list);
  const least = Math.max(base * (parseFloat(style.getPropertyValue("--fit-min")) || 0.6), parseFloat(style.getPropertyValue("--fit-least")) || 0);
  return [least, Math.max(least, base * (parseFloat(style.getPropertyValue("--fit-max")) || 1))];
}

// The stylesheet's size (px); leaves the list at it.
/** @param {HTMLElement} list */
function natural(list) {
  list.style.fontSize = "";
  list.style.paddingInline = "";
  return parseFloat(getComputedStyle(list).fontSize) || 16;
}

// The fewest rows each list's entries take (at the smallest size); by the width alone (widthOnly), rows are
// bounded already.
/** @param {Measured[]} lists */
function fewestRows(lists) {
  for (const { list, style } of lists) list.style.fontSize = `${bounds(list, style)[0].toFixed(2)}px`;
  return lists.map((l) => (l.widthOnly ? Infinity : rows(l.list)));
}

// Wrapped onto rows, the list's content narrows (inline padding, centred) to the least width that keeps as many
// rows: the rows come out even.
/** @param {HTMLElement} list */
function balance(list) {
  list.style.paddingInline = "";
  const count = rows(list);
  if (count < 2) return;
  const width = list.getBoundingClientRect().width;
  const keeps = (/** @type {number} */ pad) => {
    list.style.paddingInline = `${pad.toFixed(1)}px`;
    return rows(list) === count && inside(list, false);
  };
  let [a, b] = [0, width / 2];
  for (let i = 0; i < 9 && b - a > 1; i += 1) {
    const mid = (a + b) / 2;
    if (keeps(mid)) a = mid;
    else b = mid;
  }
  list.style.paddingInline = `${a.toFixed(1)}px`;
}

// Where a child of the list is laid out, in px from the list's border edge. Layout, not what is painted: an
// entry sliding in or a pod flying (a transform, animate.js) is not where it will rest, and a fit measured
// mid-flight (a resize during a step's animations) shrank the list to its smallest size until the next draw.
/** @param {HTMLElement} el @param {HTMLElement} list @returns {Box} */
function laidOut(el, list) {
  const [dx, dy] = el.offsetParent === list ? [0, 0] : [list.offsetLeft + list.clientLeft, list.offsetTop + list.clientTop];
  const left = el.offsetLeft - dx + list.clientLeft;
  const top = el.offsetTop - dy + list.clientTop;
  return { left, top, right: left + el.offsetWidth, bottom: top + el.offsetHeight };
}

// Do the list's children lie within its content box?
/** @param {HTMLElement} list @param {boolean} widthOnly */
function inside(list, widthOnly) {
  const cs = getComputedStyle(list);
  const [left, right] = [list.clientLeft + parseFloat(cs.paddingLeft), list.clientLeft + list.clientWidth - parseFloat(cs.paddingRight)];
  const [top, bottom] = [list.clientTop + parseFloat(cs.paddingTop), list.clientTop + list.clientHeight - parseFloat(cs.paddingBottom)];
  for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    if (!el.offsetWidth && !el.offsetHeight) continue;
    const c = laidOut(el, list);
    if (c.left < left - 1 || c.right > right + 1) return false;
    if (!widthOnly && (c.top < top - 1 || c.bottom > bottom + 1)) return false;
    // an entry's own content wider than its box (a long name) counts too
    if (el.scrollWidth > el.clientWidth + 1) return false;
  }
  return true;
}

// Where even the least size (--fit-least) leaves the entries more rows than the area has height for, the list
// grows to hold them, and its row of the panes with it (the panes scroll up and down): the entries stay readable
// and never lie over the lanes.
/** @param {Measured} measured */
function grow({ area, list }) {
  if (inside(list, false)) return;
  const more = beyond(list);
  if (more > 0) area.style.minHeight = `${Math.ceil(area.getBoundingClientRect().height + more)}px`;
}

// How much more height (px) the list's entries need than its box has (0 where they fit).
/** @param {HTMLElement} list */
function beyond(list) {
  const cs = getComputedStyle(list);
  let [top, bottom] = [Infinity, 0];
  for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    if (!el.offsetHeight) continue;
    const c = laidOut(el, list);
    [top, bottom] = [Math.min(top, c.top), Math.max(bottom, c.bottom)];
  }
  if (bottom <= top) return 0;
  return Math.max(0, bottom - top + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + 2 - list.clientHeight);
}

// The height (px) all `lists` at `size` need beyond their boxes, together.
/** @param {Measured[]} lists @param {number} size */
function overflow(lists, size) {
  for (const l of lists) l.list.style.fontSize = `${size.toFixed(2)}px`;
  return lists.reduce((sum, l) => sum + beyond(l.list), 0);
}

// How many rows the entries wrap onto (they sit on their row's bottom line).
/** @param {HTMLElement} list */
function rows(list) {
  const lines = new Set();
  for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
    if (el.offsetHeight) lines.add(Math.round(laidOut(el, list).bottom / 4));
  }
  return lines.size;
}
