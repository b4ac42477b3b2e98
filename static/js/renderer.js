// Draws one variant pane from a `state` payload. It reads state and step records; it decides nothing.
import { h, fmtSeconds } from "./dom.js";

const TITLES = {
  "v1.28.1": { title: "v1.28.1", tag: "v1.28.0 – v1.28.1 · marker into a shared event list", cls: "bug" },
  "v1.28.2": { title: "v1.28.2", tag: "v1.28.2+ · every in-flight pod has its own entry", cls: "fix" },
};
const LANES = [
  ["activeQ", "activeQ", "●", "waiting to be popped"],
  ["backoffQ", "backoffQ", "◔", "backing off"],
  ["unschedulablePods", "unschedulable\u200bPods", "■", "parked until an event or the 5-min flush"],
  ["inFlight", "in flight", "▲", "popped; attempt running"],
];

export function renderPane(variant, payload, scenario) {
  const { state, view, narration, invariants, record } = payload;
  const meta = TITLES[variant];
  const pane = h("section", { class: `pane ${meta.cls}`, dataVariant: variant, ariaLabel: `${variant} pane`, tabindex: 0 },
    h("header", { class: "pane-head" },
      h("h2", { text: meta.title }),
      h("span", { class: `tag ${meta.cls}`, text: meta.tag }),
      h("span", { class: "clock", text: `t = ${fmtSeconds(view.now)} · cycle ${state.schedulingCycle} · moveRequestCycle ${state.moveRequestCycle}` }),
    ),
    renderList(variant, state, view, record, scenario),
    renderLanes(state, view),
    renderInvariants(invariants),
    renderNarration(narration),
  );
  return pane;
}

function renderList(variant, state, view, record, scenario) {
  const name = variant === "v1.28.1" ? "receivedEvents" : "inFlightEvents";
  const area = h("div", { class: "list-area" },
    h("div", { class: "list-title" },
      h("code", { text: name }),
      h("span", { class: "muted", text: ` · ${view.entries.length} entr${view.entries.length === 1 ? "y" : "ies"}` }),
      scenario.gate ? null : h("span", { class: "muted", text: " · gate off: nothing is tracked" }),
    ),
  );
  const markers = view.markers || [];
  const byEvent = new Map();
  const unseenBy = new Map();
  for (const m of markers) {
    const key = m.detached ? `ghost:${m.previousEvent}` : (m.previousEvent ?? "front");
    if (!byEvent.has(key)) byEvent.set(key, []);
    byEvent.get(key).push(m);
    for (const id of m.unseen) unseenBy.set(id, [...(unseenBy.get(id) || []), m.pod]);
  }
  const list = h("ol", { class: "inflight-list", dataList: name, ariaLabel: name });
  const front = byEvent.get("front");
  if (front) list.append(h("li", { class: "front-slot" }, front.map((m) => markerTag(m, "nil → walks from the front"))));
  for (const ghostId of [...byEvent.keys()].filter((k) => k.startsWith("ghost:"))) {
    const id = ghostId.slice(6);
    list.append(h("li", { class: "ghost", dataRemovedId: id, title: `${id} was removed from the list` },
      h("span", { class: "box" }, h("span", { class: "eid", text: id }), h("span", { class: "gone", text: "removed" })),
      h("div", { class: "markers" }, byEvent.get(ghostId).map((m) => markerTag(m, "Next() = nil"))),
    ));
  }
  if (!view.entries.length && !list.children.length) list.append(h("li", { class: "empty", text: "(empty)" }));
  view.entries.forEach((e, i) => {
    if (i > 0 || list.children.length) list.append(h("li", { class: "arrow", ariaHidden: "true", text: "→" }));
    list.append(entryItem(e, byEvent.get(e.id) || [], unseenBy.get(e.id)));
  });
  area.append(list);
  if (record && record.hint) area.append(hintSummary(record.hint));
  return area;
}

function entryItem(e, markers, unseenBy) {
  const classes = ["entry", e.kind];
  if (e.orphaned) classes.push("orphaned");
  if (unseenBy) classes.push("unseen");
  const box = e.kind === "pod"
    ? h("span", { class: "box" }, h("span", { class: "pod-name", text: `[${e.pod}]` }),
        h("span", { class: "eid", text: e.orphaned ? "orphaned" : "pod entry" }))
    : h("span", { class: "box" }, h("span", { class: "ename", text: e.event }),
        h("span", { class: "eid", text: e.id }),
        e.inFlightPodsNum !== undefined ? h("span", { class: "count", title: "inFlightPodsNum", text: `n=${e.inFlightPodsNum}` }) : null);
  return h("li", { class: classes.join(" "), dataEntry: e.kind, dataId: e.id },
    box,
    unseenBy ? h("span", { class: "unseen-tag", text: `unseen by ${unseenBy.join(", ")}` }) : null,
    markers.length ? h("div", { class: "markers" }, markers.map((m) => markerTag(m))) : null,
  );
}

function markerTag(m, extra) {
  const text = m.detached ? `${m.pod} ⇡ ${extra || ""}` : `${m.pod} ↑${extra ? " " + extra : ""}`;
  return h("span", {
    class: `marker${m.detached ? " detached" : ""}`, dataMarker: m.pod, dataDetached: m.detached ? "true" : "false",
    title: m.detached ? `${m.pod}'s previousEvent ${m.previousEvent} was removed: it cannot see ${m.unseen.join(", ") || "later events"}`
      : `${m.pod}'s previousEvent marker`,
    text,
  });
}

function hintSummary(hint) {
  const walked = hint.walk.filter((w) => w.event).map((w) => `${w.id}${w.hint ? ": " + w.hint : ""}`);
  return h("div", { class: "hint-summary", dataHintPod: hint.pod },
    h("strong", { text: `${hint.pod}: ` }),
    h("span", { text: walked.length ? `walked ${walked.join(", ")} → ` : "walked nothing → " }),
    h("span", { class: `decision ${hint.decision}`, text: hint.decision }),
  );
}

function renderLanes(state, view) {
  const lanes = h("div", { class: "lanes" });
  const members = { activeQ: state.activeQ, backoffQ: state.backoffQ, unschedulablePods: state.unschedulablePods,
    inFlight: Object.entries(view.pods).filter(([, p]) => p.where === "inFlight").map(([name]) => name) };
  for (const [queue, label, icon, help] of LANES) {
    lanes.append(h("div", { class: `lane lane-${queue}`, dataQueue: queue, title: help },
      h("span", { class: "lane-name" }, h("span", { class: "icon", ariaHidden: "true", text: icon }), ` ${label}`),
      h("div", { class: "chips" }, members[queue].map((pod) => chip(pod, queue, view.pods[pod], view.now))),
    ));
  }
  return lanes;
}

function chip(pod, queue, info, now) {
  let detail = "";
  if (queue === "backoffQ" && info) detail = `until ${fmtSeconds(info.backoffExpiry)}`;
  if (queue === "unschedulablePods" && info) detail = `since ${fmtSeconds(info.timestamp)}`;
  if (queue === "inFlight" && info) detail = `attempt ${info.attempts}`;
  return h("span", { class: `chip chip-${queue}`, dataPod: pod, title: info && info.plugins?.length ? `plugins: ${info.plugins.join(", ")}` : pod },
    h("span", { class: "pod-name", text: pod }), detail ? h("span", { class: "detail", text: detail }) : null);
}

function renderInvariants(invariants) {
  const broken = invariants.filter((i) => !i.ok);
  const box = h("div", { class: `invariants ${broken.length ? "broken" : "ok"}`, dataTestid: "invariants" });
  if (!broken.length) {
    box.append(h("span", { text: `✓ all ${invariants.length} invariants hold` }));
    return box;
  }
  for (const inv of broken) {
    box.append(h("div", { class: "violation", dataInvariant: inv.name },
      h("strong", { text: `✗ ${inv.name.replaceAll("_", " ")}: ` }),
      h("span", { class: "detail", text: inv.violations.map(describeViolation).join("; ") }),
      " ",
      h("details", {}, h("summary", { text: "why it matters" }), h("span", { text: inv.description })),
    ));
  }
  return box;
}

function describeViolation(v) {
  if (v.unseen !== undefined) return `${v.pod}: marker ${v.marker ?? v.id} detached, cannot see ${v.unseen.join(", ") || "later events"}`;
  if (v.queues) return `${v.pod} in ${v.queues.join(" and ")}`;
  if (v.orphaned_pod_entries !== undefined) return `${v.orphaned_pod_entries} orphaned pod entr${v.orphaned_pod_entries === 1 ? "y" : "ies"}`;
  return JSON.stringify(v);
}

function renderNarration(n) {
  return h("div", { class: "narration", dataTestid: "narration", ariaLive: "polite" },
    h("h3", { text: n.title }),
    h("div", { class: "functions" }, n.functions.map((f) => h("code", { text: f }))),
    h("ul", {}, n.lines.map((line) => h("li", { text: line }))),
  );
}
