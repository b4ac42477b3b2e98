// The legend of the visual language, from scene.legend [{key, label, text}]: each key is drawn with the same
// shape and colour as in the diagram (app.css .lg-*), in the help dialog and in the stage's compact legend.
import { $, h } from "./dom.js";
import { svg } from "./renderer.js";

let last = "";

/** @param {Wire.LegendItem[] | undefined} legend */
export function drawLegend(legend) {
  if (!legend?.length) return;
  const key = JSON.stringify(legend);
  if (key === last) return;
  last = key;
  for (const id of ["legend-items", "help-legend"]) {
    const box = $(id);
    if (box) box.replaceChildren(...legend.map(item));
  }
}

/** @param {Wire.LegendItem} item */
function item({ key, label, text }) {
  return h("li", { class: `lg-item lg-${key}`, dataLegend: key }, swatch(key, label),
    h("span", { class: "lg-text", text }));
}

/** @param {string} key @param {string} label */
function swatch(key, label) {
  if (key === "marker" || key === "detached") {
    const line = key === "detached"
      ? [svg("path", { class: "pointer-line", d: "M2 10 L17 10" }),
        svg("path", { class: "pointer-line", d: "M27 10 L40 10" }),
        svg("path", { class: "pointer-break", d: "M19 4 L17 16 M25 4 L23 16" })]
      : [svg("path", { class: "pointer-line", d: "M2 10 L40 10" })];
    return h("span", { class: "lg-swatch lg-arrow" },
      svg("svg", { class: `pointer${key === "detached" ? " detached" : ""}`, viewBox: "0 0 50 20", width: 50,
        height: 20, "aria-hidden": "true" },
        svg("circle", { class: "pointer-tail", cx: 3, cy: 10, r: 3 }), ...line,
        svg("path", { class: "pointer-head", d: "M48 10 L39 5 L39 15 Z" })),
      h("span", { class: "lg-label", text: label }));
  }
  if (key === "wait" || key === "backoff") {
    return h("span", { class: `lg-swatch timer timer-${key}` },
      svg("svg", { class: "ring", viewBox: "0 0 20 20", "aria-hidden": "true" },
        svg("circle", { class: "ring-track", cx: 10, cy: 10, r: 7.5, pathLength: 100 }),
        svg("circle", { class: "ring-fill", cx: 10, cy: 10, r: 7.5, pathLength: 100, transform: "rotate(-90 10 10)",
          "stroke-dasharray": key === "wait" ? "35 100" : "65 100" })),
      h("span", { class: "timer-text", text: label }));
  }
  return h("span", { class: "lg-swatch" }, h("span", { class: "box", text: label }));
}
