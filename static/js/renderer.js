// Draws one variant pane from the scene (webapp/presenter/scene.py): every word comes from there; this
// file only lays it out and keeps the DOM hooks tests and animate.js read (data-variant, data-entry/data-id,
// data-removed-id, data-marker/data-detached, data-queue with data-pod chips, data-testid).
import { h } from "./dom.js";

export function renderPane(pane) {
  return h("section", { class: `pane ${pane.tone}`, dataVariant: pane.variant, ariaLabel: `${pane.title} pane`, tabindex: 0 },
    h("header", { class: "pane-head" },
      h("h2", { text: pane.title }),
      h("span", { class: `tag ${pane.tone}`, text: pane.tag }),
      h("span", { class: "clock", text: pane.clock }),
    ),
    renderList(pane),
    renderLanes(pane.lanes),
    renderInvariants(pane.invariants),
    renderNarration(pane.narration),
  );
}

function renderList({ list, hint }) {
  const area = h("div", { class: "list-area" },
    h("div", { class: "list-title" },
      h("code", { text: list.name }),
      h("span", { class: "muted", text: ` · ${list.count}` }),
      list.note ? h("span", { class: "muted", text: ` · ${list.note}` }) : null,
    ),
  );
  const items = h("ol", { class: "inflight-list", dataList: list.name, ariaLabel: list.name });
  const entries = list.items.filter((item) => item.kind === "event" || item.kind === "pod");
  for (const item of list.items) {
    if (item.kind === "front") items.append(h("li", { class: "front-slot" }, item.markers.map(markerTag)));
    else if (item.kind === "ghost") items.append(ghostItem(item));
    else {
      if (items.children.length) items.append(h("li", { class: "arrow", ariaHidden: "true", text: "→" }));
      items.append(entryItem(item));
    }
  }
  if (!entries.length && !items.children.length) items.append(h("li", { class: "empty", text: list.empty }));
  area.append(items);
  if (hint) area.append(hintSummary(hint));
  return area;
}

function ghostItem(item) {
  return h("li", { class: "ghost", dataRemovedId: item.id, title: item.title },
    h("span", { class: "box" }, h("span", { class: "eid", text: item.label }), h("span", { class: "gone", text: item.sub })),
    h("div", { class: "markers" }, item.markers.map(markerTag)),
  );
}

function entryItem(item) {
  const classes = ["entry", item.kind];
  if (item.orphaned) classes.push("orphaned");
  if (item.unseen) classes.push("unseen");
  const box = item.kind === "pod"
    ? h("span", { class: "box" }, h("span", { class: "pod-name", text: item.label }), h("span", { class: "eid", text: item.sub }))
    : h("span", { class: "box" }, h("span", { class: "ename", text: item.label }), h("span", { class: "eid", text: item.sub }),
        item.count ? h("span", { class: "count", title: "inFlightPodsNum", text: item.count }) : null);
  return h("li", { class: classes.join(" "), dataEntry: item.kind, dataId: item.id },
    box,
    item.unseen ? h("span", { class: "unseen-tag", text: item.unseen }) : null,
    item.markers.length ? h("div", { class: "markers" }, item.markers.map(markerTag)) : null,
  );
}

function markerTag(m) {
  return h("span", {
    class: `marker${m.detached ? " detached" : ""}`, dataMarker: m.pod, dataDetached: m.detached ? "true" : "false",
    title: m.title, text: m.text,
  });
}

function hintSummary(hint) {
  return h("div", { class: "hint-summary", dataHintPod: hint.pod },
    h("strong", { text: `${hint.pod}: ` }),
    h("span", { text: hint.walked }),
    h("span", { class: `decision ${hint.decision}`, text: hint.decision }),
  );
}

function renderLanes(lanes) {
  return h("div", { class: "lanes" }, lanes.map((lane) =>
    h("div", { class: `lane lane-${lane.queue}`, dataQueue: lane.queue, title: lane.help },
      h("span", { class: "lane-name" }, h("span", { class: "icon", ariaHidden: "true", text: lane.icon }), " ", breakable(lane.label)),
      h("div", { class: "chips" }, lane.chips.map((c) => chip(c, lane.queue))),
    )));
}

// A camelCase name may wrap before an inner word ("unschedulable|Pods") when its lane is narrow.
function breakable(label) {
  return label.split(/(?<=[a-z])(?=[A-Z][a-z])/).flatMap((part, i) => (i ? [h("wbr"), part] : [part]));
}

function chip(c, queue) {
  return h("span", { class: `chip chip-${queue}`, dataPod: c.pod, title: c.title },
    h("span", { class: "pod-name", text: c.pod }), c.detail ? h("span", { class: "detail", text: c.detail }) : null);
}

function renderInvariants(invariants) {
  const box = h("div", { class: `invariants ${invariants.ok ? "ok" : "broken"}`, dataTestid: "invariants" });
  if (invariants.ok) {
    box.append(h("span", { text: invariants.summary }));
    return box;
  }
  for (const inv of invariants.broken) {
    box.append(h("div", { class: "violation", dataInvariant: inv.name },
      h("strong", { text: `✗ ${inv.title}: ` }),
      h("span", { class: "detail", text: inv.detail }),
      " ",
      h("details", {}, h("summary", { text: "why it matters" }), h("span", { text: inv.description })),
    ));
  }
  return box;
}

function renderNarration(n) {
  return h("div", { class: "narration", dataTestid: "narration", ariaLive: "polite" },
    h("h3", { text: n.title }),
    h("div", { class: "functions" }, n.functions.map((f) => h("code", { text: f }))),
    h("ul", {}, n.lines.map((line) => h("li", { text: line }))),
  );
}
