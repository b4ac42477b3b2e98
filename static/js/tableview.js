// The table view: the same scene as the panes, as tables (for screen readers and exact reading).
import { h } from "./dom.js";

export function renderTables(scene) {
  return Object.values(scene.panes).map((pane) => {
    const rows = pane.list.items.filter((item) => item.table);
    return h("section", { class: "table-view", dataTableVariant: pane.variant },
      h("table", {},
        h("caption", { text: `${pane.title}: queues at ${pane.clock}` }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "queue" }), h("th", { scope: "col", text: "pods" }))),
        h("tbody", {}, pane.lanes.map((lane) => h("tr", {}, h("th", { scope: "row", text: lane.label }),
          h("td", { text: lane.chips.map((c) => c.pod).join(", ") || "—" })))),
      ),
      h("table", {},
        h("caption", { text: `${pane.title}: ${pane.list.name}, front to back` }),
        h("thead", {}, h("tr", {}, ["#", "entry", "id", "detail"].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, rows.length ? rows.map((item, i) => h("tr", {},
          h("td", { text: String(i + 1) }),
          h("td", { text: item.table[0] }),
          h("td", { text: item.id }),
          h("td", { text: item.table[1] }),
        )) : h("tr", {}, h("td", { colSpan: 4, text: "empty" }))),
      ),
      pane.list.markerNotes.length ? h("p", {}, pane.list.markerNotes.join("; ")) : null,
    );
  });
}
