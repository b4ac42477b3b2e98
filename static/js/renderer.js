// Draws one variant pane from the scene (webapp/presenter/scene.py): every word comes from there; this
// file only lays it out and keeps the DOM hooks tests and animate.js read (data-variant, data-entry/data-id,
// data-removed-id, data-marker/data-detached, data-queue with data-pod chips, data-testid, data-walked,
// data-ghost). The diagram (list + lanes + the pointer overlay, pointers.js) comes first and takes the room;
// under it one caption line (and, where no periodic flush runs, the moves the scheduler's would have made), then the invariants and the narration behind a disclosure. An entry's labels
// (gone, unseen, markers) sit above its box, so the arrows coming up from the lanes end on the box itself.
import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

// `narrationOpen`: whether the narration disclosures start open (the page keeps it across redraws).
/** @param {Wire.Pane} pane @param {{narrationOpen?: boolean}} [how] */
export function renderPane(pane, { narrationOpen = false } = {}) {
  return h("section", { class: `pane ${pane.tone}`, dataVariant: pane.variant, ariaLabel: `${pane.title} pane`, tabindex: 0 },
    h("header", { class: "pane-head" },
      h("h2", { text: pane.title }),
      h("span", { class: `tag ${pane.tone}`, text: pane.tag }),
      h("span", { class: "pane-time", dataTestid: "pane-time", text: pane.time ?? pane.clock.split(" · ")[0] }),
      h("span", { class: "clock", text: pane.clock }),
      pane.badge ? h("p", { class: `pane-badge ${pane.badge.tone}`, dataTestid: "badge", text: pane.badge.text }) : null,
    ),
    h("div", { class: "diagram", dataTestid: "diagram" },
      renderList(pane),
      renderLanes(pane.lanes),
      svg("svg", { class: "pointers", "aria-hidden": "true", focusable: "false" }),
    ),
    h("div", { class: "pane-says" },
      h("p", { class: "pane-caption", dataTestid: "caption", text: pane.caption ?? pane.narration.title }),
      (pane.unflushed || []).map((line) => h("p", { class: "unflushed", dataTestid: "no-flush-warning", role: "note", title: pane.unflushedWhy, text: line })),
    ),
    h("div", { class: "pane-foot" },
      renderNarration(pane.narration, narrationOpen),
      renderInvariants(pane.invariants),
    ),
  );
}

/** @typedef {Node | null | undefined | false} SvgNode what `svg` appends: a node (null, undefined, false: none) */
/**
 * An SVG element (what `h` is for HTML): attributes set as they are named.
 * @param {string} tag @param {Record<string, string | number | null | undefined>} attrs
 * @param {...(SvgNode | SvgNode[])} children @returns {SVGElement}
 */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

/** @param {{list: Wire.ListPane, hint: Wire.HintLine | null}} pane */
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
    if (item.kind === "front") items.append(h("li", { class: "front-slot", dataKey: "front" }, markerList(item.markers), h("span", { class: "front-mark", text: item.label })));
    else if (item.kind === "ghost") items.append(ghostItem(item));
    else {
      if (items.querySelector("[data-entry]")) items.append(h("li", { class: "arrow", ariaHidden: "true", text: "→" }));
      items.append(entryItem(item));
    }
  }
  if (!entries.length && !items.children.length) items.append(h("li", { class: "empty", text: list.empty }));
  area.append(items);
  if (hint) area.append(hintSummary(hint));
  return area;
}

/** @param {Wire.MarkerChip[] | undefined} markers */
function markerList(markers) { // absent when an entry has none (the scene sends marks only where they hold)
  return markers?.length ? h("div", { class: "markers" }, markers.map(markerTag)) : null;
}

// A removed element a detached v1.28.1 marker still points at.
/** @param {Wire.Item} item */
function ghostItem(item) {
  return h("li", { class: "ghost", dataRemovedId: item.id, dataKey: item.key, title: item.title },
    markerList(item.markers),
    h("span", { class: "box" }, h("span", { class: "eid", text: item.label }), h("span", { class: "gone", text: item.sub })),
  );
}

// An entry; one this step removed (`ghost`) is also a removed element (data-removed-id), where a marker
// that just lost its place is drawn.
/** @param {Wire.Item} item */
function entryItem(item) {
  const classes = ["entry", item.kind];
  if (item.orphaned) classes.push("orphaned");
  if (item.unseen) classes.push("unseen");
  if (item.walked) classes.push("walked");
  if (item.ghost) classes.push("removed");
  const box = item.kind === "pod"
    ? h("span", { class: "box" }, h("span", { class: "pod-name", text: item.label }), h("span", { class: "eid", text: item.sub }))
    : h("span", { class: "box" }, h("span", { class: "ename", text: item.label }), h("span", { class: "eid", text: item.sub }),
        item.count ? h("span", { class: "count", title: "inFlightPodsNum", text: item.count }) : null,
        item.walkHint ? h("span", { class: `walk-tag decision ${item.walkHint}`, dataWalkHint: item.walkHint, text: item.walkHint }) : null);
  return h("li", {
    class: classes.join(" "), dataEntry: item.kind, dataId: item.id, dataKey: item.key,
    dataWalked: item.walked ? "true" : null, dataGhost: item.ghost ? "true" : null, dataRemovedId: item.ghost ? item.id : null,
    dataUnseenBy: item.unseenBy?.length ? item.unseenBy.join(" ") : null, title: item.gone || null,
  },
    item.ghost && item.gone ? h("span", { class: "gone-tag", text: item.gone }) : null,
    item.unseen ? h("span", { class: "unseen-tag", text: item.unseen }) : null,
    item.forPod ? h("span", { class: "for-tag", dataForPod: item.forPod, title: item.forTitle, text: item.forText }) : null,
    markerList(item.markers),
    box,
  );
}

/** @param {Wire.MarkerChip} m */
function markerTag(m) {
  return h("span", {
    class: `marker${m.detached ? " detached" : ""}`, dataMarker: m.pod, dataDetached: m.detached ? "true" : "false",
    title: m.title, text: m.text,
  });
}

/** @param {Wire.HintLine} hint */
function hintSummary(hint) {
  return h("div", { class: "hint-summary", dataHintPod: hint.pod },
    h("strong", { text: `${hint.pod}: ` }),
    h("span", { text: hint.walked }),
    h("span", { class: `decision ${hint.decision}`, text: hint.decision }),
  );
}

/** @param {Wire.Lane[]} lanes */
function renderLanes(lanes) {
  return h("div", { class: "lanes" }, lanes.map((lane) =>
    h("div", { class: `lane lane-${lane.queue}`, dataQueue: lane.queue, title: lane.help },
      h("span", { class: "lane-name" }, h("span", { class: "icon", ariaHidden: "true", text: lane.icon }), " ", breakable(lane.label)),
      h("div", { class: "chips" }, lane.chips.flatMap((c) => [c.window ? windowRule(c.window) : null, chip(c, lane.queue)])),
    )));
}

// A camelCase name may wrap before an inner word ("unschedulable|Pods", "Scheduling|Gates") when its lane or
// chip is narrow.
/** @param {string} label */
function breakable(label) {
  return label.split(/(?<=[a-z])(?=[A-Z][a-z])/).flatMap((part, i) => (i ? [h("wbr"), part] : [part]));
}

// A chip's marks (the scene's `marks`): what 1.32+ adds to a pod's place, each a small labelled tag (popped from
// backoffQ early, the error heap, its backoff window, its scheduling gate, its pod group, a discarded duplicate),
// beside the pod's name where the chip has room, its timer after them.
/** @param {Wire.Chip} c @param {string} queue */
function chip(c, queue) {
  return h("span", { class: `chip chip-${queue}${c.ghost ? " chip-ghost" : ""}`, dataPod: c.pod, dataHead: c.head ? "true" : null,
    dataGhost: c.ghost ? "true" : null,
    dataMissed: c.timer && "missed" in c.timer ? "true" : null, ariaDescription: c.timer && "missed" in c.timer ? "no flush ran" : null,
    title: c.head ? `${c.title} · at the head: the next pop takes it` : c.title },
    h("span", { class: "pod-name", text: c.pod }),
    (c.marks || []).map((m) => h("span", { class: `chip-mark mark-${m.kind}`, dataMark: m.kind, title: m.title },
      breakable(m.text))),
    c.timer ? timer(c.timer) : c.detail ? h("span", { class: "detail", text: c.detail }) : null);
}

// backoffQ's one-second window (1.33+), over the first chip of the pods whose backoff ends in it.
/** @param {Wire.ChipMark} w */
function windowRule(w) {
  const [word, ...rest] = w.text.split(" ");
  return h("span", { class: "window-rule", dataWindow: w.text, title: w.title }, `${word} `, h("span", { text: rest.join(" ") }));
}

// A ring that fills (time waited against the flush limit) or empties (backoff left), with its seconds.
/** @param {Wire.Timer} t */
function timer(t) {
  const fraction = Math.max(0, Math.min(1, Number(t.fraction) || 0));
  const ring = svg("svg", { class: "ring", viewBox: "0 0 20 20", "aria-hidden": "true", focusable: "false" },
    svg("circle", { class: "ring-track", cx: 10, cy: 10, r: 7.5, pathLength: 100 }),
    svg("circle", { class: "ring-fill", cx: 10, cy: 10, r: 7.5, pathLength: 100, transform: "rotate(-90 10 10)",
      "stroke-dasharray": `${(fraction * 100).toFixed(1)} 100` }),
  );
  return h("span", { class: `timer timer-${t.kind}`, dataTimer: t.kind, dataFraction: fraction.toFixed(3) },
    ring, h("span", { class: "timer-text" }, (t.parts || [t.text]).flatMap((part, i) => (i ? [" ", h("span", { text: `· ${part}` })] : [h("span", { text: part })]))));
}

/** @param {Wire.Invariants} invariants */
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

// The full narration, one click (its summary) or one key (n) away; its summary is the narration's title.
/** @param {Wire.Narration} n @param {boolean} open */
function renderNarration(n, open) {
  return h("details", { class: "narration", dataTestid: "narration", ariaLive: "polite", open },
    h("summary", {}, h("span", { class: "narration-title", text: n.title })),
    h("div", { class: "functions" }, n.functions.map((f) => h("code", { text: f }))),
    n.where ? h("p", { class: "narration-where", dataTestid: "narration-where" }, h("code", { text: n.where })) : null,
    h("ul", {}, n.lines.map((line) => h("li", { text: line }))),
    n.note ? h("p", { class: "narration-note", text: n.note }) : null,
  );
}
