// A room's poll sheet docked at a phone's foot (poll.js makes it, phone.css sizes it): the page ends that far
// further down (--sheet-h), so every line can be scrolled above it, and the diagram the room reasons about stays in
// sight: when the sheet comes and when the panes are drawn anew under it (the reveal's step), the page scrolls the
// pane in view's diagram between the strip (glance.js) and the sheet, or its top to the strip where it is taller.
// Only where the panes stack and the document scrolls; side by side, nothing moves.
import { $ } from "./dom.js";
import { paneInView, scrollPage, seenBand, stacked } from "./glance.js";

const GAP = 4; // px between the diagram and the strip or the sheet

// The pane in view's diagram brought into the band above the sheet: where its foot is under the sheet, the page
// scrolls it up, at most until its top meets the strip; where its top is under the strip, down.
export function keepDiagramInView() {
  if (!stacked()) return;
  const diagram = paneInView()?.querySelector("[data-testid=diagram]");
  if (!diagram) return;
  const [top, bottom] = seenBand();
  const box = diagram.getBoundingClientRect();
  if (box.height <= 0) return;
  const strip = $("glance");
  const pinned = strip && !strip.hidden ? strip.offsetHeight : 0; // the strip's foot once the page scrolls under it
  if (box.bottom > bottom + GAP) scrollPage(Math.max(0, Math.min(box.top - pinned - GAP, box.bottom - bottom + GAP)));
  else if (box.top < top - GAP) scrollPage(box.top - top - GAP);
}

/** Dock `sheet`; the function returned undocks it. @param {HTMLElement} sheet @returns {() => void} */
export function dock(sheet) {
  const root = document.documentElement;
  const sized = new ResizeObserver(() => {
    root.style.setProperty("--sheet-h", `${Math.ceil(sheet.getBoundingClientRect().height)}px`);
    keepDiagramInView(); // the page's new end laid out first, so there is room to scroll
  });
  sized.observe(sheet);
  const redrawn = new MutationObserver(keepDiagramInView);
  redrawn.observe($("panes"), { childList: true });
  return () => {
    sized.disconnect();
    redrawn.disconnect();
    root.style.removeProperty("--sheet-h");
  };
}
