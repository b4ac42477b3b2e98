// The presenter's notes: this step's note, the next one's, and what the next step will do on each variant.
// The headings are the page's (present.html); the lines are the scene's `notes` and `upcoming`.
import { h } from "./dom.js";

export function renderPresenterNotes(box, scene) {
  if (!scene.notes) return; // not a room's scene: nothing to present
  box.querySelector("[data-notes=now]").textContent = scene.notes.now;
  box.querySelector("[data-notes=next]").textContent = scene.notes.next;
  const upcoming = Object.entries(scene.upcoming || {});
  box.querySelector("[data-notes=upcoming]").replaceChildren(...upcoming.map(([variant, n]) =>
    h("div", { class: "upcoming" }, h("h3", { text: `${scene.panes[variant]?.title ?? variant}: ${n.title}` }),
      h("ul", {}, n.lines.map((line) => h("li", { text: line }))))));
}
