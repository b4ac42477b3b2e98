// The presenter's notes: this step's note, and what the next step will do on each variant.
import { h } from "./dom.js";

export function renderPresenterNotes(box, msg) {
  const next = msg.next;
  box.replaceChildren(
    h("h2", { text: "Now" }),
    h("p", { text: msg.step ? `${msg.step.index + 1}. ${msg.step.note || msg.step.label}` : "Before the first step." }),
    h("h2", { text: "Next" }),
    next ? h("p", { text: `${msg.position + 1}. ${next.note || next.label}` }) : h("p", { text: "End of the scenario." }),
    ...Object.entries(msg.upcoming || {}).map(([variant, n]) =>
      h("div", { class: "upcoming" }, h("h3", { text: `${variant}: ${n.title}` }), h("ul", {}, n.lines.map((l) => h("li", { text: l }))))),
  );
}
