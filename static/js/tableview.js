// The table view: the same scene as the panes, as tables (for screen readers and exact reading).
import { h } from "./dom.js";

// An entry this step removed (drawn faint in the picture: a ghost) is listed where it was, unnumbered, with what
// removed it; the numbers count the entries the list holds.
/** @param {Wire.Item[]} items */
function listRows(items) {
  let number = 0;
  return items.filter((item) => item.table).map((item) => h("tr", { dataGhost: item.ghost ? "true" : null },
    h("td", { text: item.ghost ? "removed" : String(number += 1) }),
    h("td", { text: item.table?.[0] }),
    h("td", { text: item.id }),
    h("td", { text: item.ghost ? item.gone : item.table?.[1] }), // (its count was the one before the step)
  ));
}

/** @param {Wire.Scene} scene */
export function renderTables(scene) {
  return Object.values(scene.panes).map((pane) => {
    const rows = listRows(pane.list.items);
    return h("section", { class: "table-view", dataTableVariant: pane.variant },
      h("table", {},
        h("caption", { text: `${pane.title}: queues at ${pane.clock}` }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "queue" }), h("th", { scope: "col", text: "pods" }))),
        h("tbody", {}, pane.lanes.map((lane) => h("tr", {}, h("th", { scope: "row", text: lane.label }),
          h("td", { text: lane.chips.map((c) => c.pod).join(", ") || "—" })))),
      ),
      h("table", {},
        h("caption", { text: `${pane.title}: ${pane.list.name}${pane.list.count ? ` · ${pane.list.count}` : ""}, ` +
          "front to back" }),
        h("thead", {}, h("tr", {}, ["#", "entry", "id", "detail"].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colSpan: 4, text: "empty" }))),
      ),
      pane.list.markerNotes.length ? h("p", {}, pane.list.markerNotes.join("; ")) : null,
    );
  });
}
