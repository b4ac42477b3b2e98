// A room's poll sheet docked at a phone's foot (poll.js makes it, phone.css sizes it): the page ends that far
// further down (--sheet-h), so every line can be scrolled above it, and the diagram the room reasons about stays in
// sight: where less than 85% of the pane in view's diagram shows above the sheet, when the sheet comes and when the
// panes are drawn anew under it (the reveal's step), the page scrolls it up to just under the strip (glance.js).
// Only where the panes stack and the document scrolls; side by side, nothing moves.
import { $ } from "./dom.js";
import { paneInView, scrollPage, seenBand, stacked } from "./glance.js";

const ENOUGH = 0.85; // of the diagram's height shown above the sheet, or else it is brought up

// The pane in view's diagram brought above the sheet, where too little of it shows.
export function keepDiagramInView() {
  if (!stacked()) return;
  const diagram = paneInView()?.querySelector("[data-testid=diagram]");
  if (!diagram) return;
  const [top, bottom] = seenBand();
  const box = diagram.getBoundingClientRect();
  const seen = Math.max(0, Math.min(box.bottom, bottom) - Math.max(box.top, top));
  if (box.height > 0 && seen < ENOUGH * Math.min(box.height, bottom - top)) scrollPage(box.top - top - 4);
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
