// Scrollytelling: the section being read drives the diagram. A classic script (no module: an article opened from
// file:// runs it too), included by an author's page, by the embed's story mode and by the offline file's.
//
// Sections are the <section data-step="<position>"> elements. The one crossing the reading line (the middle of the
// part of the screen the diagram does not cover) is being read; its position is posted, with the documented
// postMessage API ({type: "inflight-scope", action: "seek", position}), to the view: the page's
// <iframe data-inflight-scrolly> (an embed, or an offline file framed), else this page's own viewer (story mode).
// The view says where it is after every change ({type: "inflight-scope", event: "position", position, total}):
// its first such message says it is ready (what was posted before may have been lost, so it is posted again), and
// the section of the position shown is marked aria-current="step". Where this page's own viewer opened at a
// position past the first section, that section is scrolled to the reading line first.
(() => {
  "use strict";
  const API = "inflight-scope";
  const frame = /** @type {HTMLIFrameElement | null} */ (document.querySelector("iframe[data-inflight-scrolly]"));
  const app = /** @type {HTMLElement | null} */ (document.querySelector("#app"));
  const found = frame ?? app;
  const sections = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("section[data-step]")]);
  if (!found || !sections.length) return;
  const pinned = found; // the view the sections drive, found (a constant the functions below read)
  const target = () => (frame ? frame.contentWindow : window);
  /** @param {HTMLElement} section */
  const stepOf = (section) => Number(section.dataset.step);

  /** @type {number | null} the position of the section being read */
  let wanted = null;
  let ready = false; // the view has said where it is once

  /** @param {number} position */
  function post(position) {
    target()?.postMessage({ type: API, action: "seek", position }, "*");
  }

  /** @param {HTMLElement} section */
  function read(section) {
    const position = stepOf(section);
    if (!Number.isInteger(position) || position === wanted) return;
    wanted = position;
    if (ready) post(position);
  }

  window.addEventListener("message", (ev) => {
    const m = ev.data;
    if (!m || m.type !== API || m.event !== "position" || ev.source !== target()) return;
    if (!ready) {
      ready = true;
      if (wanted !== null && wanted !== m.position) post(wanted);
    }
    for (const section of sections) {
      if (stepOf(section) === m.position) section.setAttribute("aria-current", "step");
      else section.removeAttribute("aria-current");
    }
  });

  // The reading line, from the top of the window: the middle of what the pinned view leaves uncovered (below it
  // where it spans the page's width at the top, as on a phone; else the middle of the window).
  function line() {
    const r = pinned.getBoundingClientRect();
    const across = r.width >= 0.8 * innerWidth && r.top <= 1 && r.bottom < innerHeight;
    const top = across ? Math.max(0, r.bottom) : 0;
    return Math.round((top + innerHeight) / 2);
  }

  // Which sections cross the reading line (a band one pixel high): the last of them in the page is being read.
  /** @type {Set<Element>} */
  const crossing = new Set();
  /** @type {IntersectionObserver | null} */
  let observer = null;
  function observe() {
    observer?.disconnect();
    crossing.clear();
    const y = line();
    const margin = `${-y}px 0px ${-(innerHeight - y - 1)}px 0px`;
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) crossing.add(e.target);
        else crossing.delete(e.target);
      }
      const last = sections.filter((s) => crossing.has(s)).pop();
      if (last) read(last);
    }, { rootMargin: margin });
    for (const section of sections) observer.observe(section);
  }

  let resized = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resized);
    resized = requestAnimationFrame(observe);
  });

  // This page's viewer opened at a position (an offline file exported there, a link's position=): read from there.
  const opened = !frame && app ? sections.find((s) => stepOf(s) === Number(app.dataset.position)) : null;
  if (opened && opened !== sections[0]) {
    window.scrollBy(0, opened.getBoundingClientRect().top - line() + 8);
  }
  observe();
})();
