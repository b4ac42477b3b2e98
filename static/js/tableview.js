// The table view: the same state as the panes, as tables (for screen readers and exact reading).
import { h } from "./dom.js";

export function renderTables(variants) {
  return Object.entries(variants).map(([variant, { state, view }]) => {
    const inFlight = Object.entries(view.pods).filter(([, p]) => p.where === "inFlight").map(([n]) => n);
    const lanes = [["activeQ", state.activeQ], ["backoffQ", state.backoffQ],
      ["unschedulablePods", state.unschedulablePods], ["in flight", inFlight]];
    const markers = new Map((view.markers || []).map((m) => [m.pod, m]));
    return h("section", { class: "table-view", dataTableVariant: variant },
      h("table", {},
        h("caption", { text: `${variant}: queues at t = ${view.now} s` }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "queue" }), h("th", { scope: "col", text: "pods" }))),
        h("tbody", {}, lanes.map(([name, pods]) => h("tr", {}, h("th", { scope: "row", text: name }),
          h("td", { text: pods.join(", ") || "—" })))),
      ),
      h("table", {},
        h("caption", { text: `${variant}: in-flight list, front to back` }),
        h("thead", {}, h("tr", {}, ["#", "entry", "id", "detail"].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, view.entries.length ? view.entries.map((e, i) => h("tr", {},
          h("td", { text: String(i + 1) }),
          h("td", { text: e.kind === "pod" ? `pod ${e.pod}` : `event ${e.event}` }),
          h("td", { text: e.id }),
          h("td", { text: e.kind === "pod" ? (e.orphaned ? "orphaned" : "") : (e.inFlightPodsNum !== undefined ? `inFlightPodsNum ${e.inFlightPodsNum}` : "") }),
        )) : h("tr", {}, h("td", { colSpan: 4, text: "empty" }))),
      ),
      markers.size ? h("p", {}, [...markers.values()].map((m) =>
        `${m.pod}: previousEvent ${m.previousEvent ?? "nil"}${m.detached ? ` (detached; cannot see ${m.unseen.join(", ") || "later events"})` : ""}`).join("; ")) : null,
    );
  });
}
