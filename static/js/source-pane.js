// The source panes: under the diagrams, one per version shown (1 to 4), the upstream functions the step ran with
// the lines it executed lit in order (data-lit), the line the current beat is on (data-current) and the live value
// beside each lit line. The lines come with each model (`variants[v].source`: [anchor, value] in order, made by
// webapp/presenter/sourcelines.py); each version's map, paraphrase and, when cached, the real text come once from
// /api/sources/VERSION (the page never calls upstream; permalinks only link to it). `c` shows or hides the panes;
// Shift+C sets v1.28.1 and v1.28.2 side by side in diff mode, their functions aligned (the fix, #120445).
import { $, h, prefersReducedMotion } from "./dom.js";

const BEAT_MS = 140; // the current line's pace through the lit lines of a step forward
const PHONE = "(max-width: 600px)"; // a phone's panes start folded
const DIFF = ["v1.28.1", "v1.28.2"];

/**
 * What /api/sources/VERSION gives of a version (webapp/presenter/sourcepane.py pane_payload), the fields read here:
 * the source map's facts, the paraphrase ([anchor or null, line] per function), where each anchor is, each
 * function's lines and permalink (none in the offline file), and the cached upstream text (null: not cached).
 * @typedef {{repository: string, ref: string, reconstructed: string | null, omitted: number[],
 *   files?: Record<string, unknown>, paraphrase: Record<string, [string | null, string][]>,
 *   anchorLines: Record<string, number>, anchorFunctions: Record<string, string>,
 *   permalinks: Record<string, {first: number, last: number, file: string, permalink?: string}>,
 *   text: UpstreamText | null}} Payload
 */
/** @typedef {{licence: string[], functions: Record<string, string[]>}} UpstreamText licence, functions' lines */
/** @typedef {(version: string) => Promise<Payload | null>} FetchMap a version's payload (null: none) */
/** @typedef {Record<string, Payload | null | undefined>} ByVersion */
/** @typedef {{anchor: string, value: string | null, line: number, function: string}} Lit a line the step ran */
/** @typedef {(version: string) => Lit[]} LitOf */
/** @typedef {Map<number, {orders: number[], values: string[]}>} ByLine a function's lit lines by line number */

/**
 * @param {HTMLElement} app @param {{on: (topic: string, fn: (...args: any[]) => void) => void}} bus
 * @param {Record<string, unknown>} actions the keys' actions, given toggleSource and toggleSourceDiff
 * @param {FetchMap} fetchMap
 */
export function createSourcePanes(app, bus, actions, fetchMap = defaultFetch) {
  const root = h("section", { id: "sources", class: "sources", ariaLabel: "Upstream source", hidden: true });
  $("panes").after(root);
  /** @type {Map<string, Promise<Payload | null>>} version -> Promise of its payload */
  const maps = new Map();
  let shown = false;
  let diff = false;
  /** @type {Model | null} */
  let latest = null;
  /** @type {Model | null} */
  let previous = null;
  let timer = 0;

  /** @param {string} version */
  const mapOf = (version) => {
    if (!maps.has(version)) maps.set(version, fetchMap(version).catch(() => null));
    return maps.get(version);
  };

  /** @param {Model | null} model @param {boolean | undefined} stepped a step forward */
  async function draw(model, stepped) {
    if (!shown || !model?.scene) return;
    const versions = Object.keys(model.scene.panes);
    const payloads = await Promise.all(versions.map(mapOf));
    if (model !== latest) return; // a later model is on its way
    /** @type {ByVersion} */
    const byVersion = Object.fromEntries(versions.map((v, i) => [v, payloads[i]]));
    // [anchor, value] per line run, in order, placed by the version's map
    /** @type {LitOf} */
    const lit = (v) => {
      const payload = byVersion[v];
      if (!payload) return [];
      const ran = /** @type {[string, string | null][]} */ (model.variants?.[v]?.source ?? []);
      return ran.map(([anchor, value]) => ({
        anchor, value, line: payload.anchorLines[anchor], function: payload.anchorFunctions[anchor] }));
    };
    const inDiff = diff && DIFF.every((v) => versions.includes(v));
    root.dataset.count = String(inDiff ? 1 : versions.length);
    root.classList.toggle("diff", inDiff);
    root.replaceChildren(...(inDiff ? [diffView(byVersion, lit)]
      : versions.map((v) => paneView(v, byVersion[v], lit(v)))));
    playBeats(stepped);
  }

  // The current line walks through the lit lines in order on a step forward, and rests on the last. Opened, or
  // at a position reached otherwise, it rests on the first: the pane opens where the step starts, read downwards.
  /** @param {boolean | undefined} stepped */
  function playBeats(stepped) {
    clearInterval(timer);
    const views = [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-testid=source]"))];
    const orders = views.flatMap((view) => [
      .../** @type {NodeListOf<HTMLElement>} */ (view.querySelectorAll("[data-lit=true]"))]
      .flatMap((el) => (el.dataset.order ?? "").split(",").map(Number)));
    const last = Math.max(0, ...orders);
    const versions = [...new Set(views.map((view) => view.dataset.version))]
      .map((v) => views.filter((view) => view.dataset.version === v));
    const mark = (/** @type {number} */ beat) => versions.forEach((own) => markCurrent(own, beat));
    if (!stepped) {
      mark(1);
      return;
    }
    if (prefersReducedMotion() || last < 2) {
      mark(last);
      return;
    }
    let beat = 1;
    mark(beat);
    timer = setInterval(() => {
      beat += 1;
      mark(Math.min(beat, last));
      if (beat >= last) clearInterval(timer);
    }, BEAT_MS);
  }

  function toggle(on = !shown) {
    shown = on;
    root.hidden = !on;
    app.classList.toggle("with-sources", on);
    $("btn-sources")?.setAttribute("aria-pressed", String(on));
    // The diagrams above gain or give up room: their lists are fitted again (page.js listens to resize).
    const refit = () => dispatchEvent(new Event("resize"));
    if (on) draw(latest, false).then(() => { refit(); root.scrollIntoView({ block: "nearest" }); });
    else refit();
  }

  actions.toggleSource = () => toggle();
  actions.toggleSourceDiff = () => {
    diff = !diff;
    if (!shown) toggle(true);
    else draw(latest, false);
  };
  $("btn-sources")?.addEventListener("click", () => toggle()); // the page's own button (_viewer.html)

  bus.on("model", (/** @type {Model} */ model) => {
    const stepped = previous?.scene && model?.scene && model.scene.position === previous.scene.position + 1;
    previous = latest = model;
    draw(model, stepped);
  });
  return { toggle, get shown() { return shown; } };
}

// The offline file carries each version's payload in its bundle (webapp/export/offline.py); the page asks its server.
/** @type {Record<string, Payload> | null | undefined} the offline file's payloads (null: served, none inlined) */
let inlined;
/** @type {FetchMap} */
function defaultFetch(version) {
  inlined ??= $("inflight-bundle") ? JSON.parse($("inflight-bundle").textContent).sources ?? {} : null;
  if (inlined) return Promise.resolve(inlined[version] ?? null);
  return fetch(`/api/sources/${encodeURIComponent(version)}`).then((r) => (r.ok ? r.json() : null));
}

// A beat's line in one version's views (diff mode splits a version into a view per function): the line whose
// execution order holds `beat` (an anchor run twice holds two), else the version's last line run.
/** @param {HTMLElement[]} views @param {number} beat */
function markCurrent(views, beat) {
  const lines = views.flatMap((view) => [
    .../** @type {NodeListOf<HTMLElement>} */ (view.querySelectorAll("[data-lit=true]"))]);
  for (const view of views) {
    for (const el of view.querySelectorAll("[data-current]")) el.removeAttribute("data-current");
  }
  /** @param {HTMLElement} el a lit line (row gives each its data-order) */
  const orders = (el) => /** @type {string} */ (el.dataset.order).split(",").map(Number);
  const line = lines.find((el) => orders(el).includes(beat))
    ?? lines.reduce((a, b) => (Math.max(...orders(b)) > Math.max(...orders(a)) ? b : a), lines[0]);
  if (!line) return;
  line.setAttribute("data-current", "true");
  // the pane scrolls, not the page: the line a third of the way down its box
  const box = line.closest(".src-body");
  if (box) box.scrollTop += line.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3;
}

// One version's pane: a disclosure (folded on phones) with its source view.
/** @param {string} version @param {Payload | null | undefined} payload @param {Lit[]} lit */
function paneView(version, payload, lit) {
  const open = !window.matchMedia(PHONE).matches;
  return h("details", { class: "src-pane", open, dataVariant: version },
    h("summary", {}, h("span", { class: "src-version", text: version }), " ", headline(payload)),
    sourceView(version, payload, lit));
}

/** @param {Payload | null | undefined} payload */
function headline(payload) {
  if (!payload) return h("span", { class: "muted", text: "no source map" });
  const mode = payload.text ? "upstream text" : "paraphrase";
  return h("span", { class: "muted" }, `${payload.repository} ${payload.ref}, ${mode}`,
    payload.reconstructed ? h("span", { class: "src-reconstructed", title: payload.reconstructed,
      text: " (reconstructed)" }) : null);
}

// The functions the step ran, in the order first entered; each its lines with the lit ones marked in order.
/**
 * @param {string} version @param {Payload | null | undefined} payload @param {Lit[]} lit
 * @param {string[]} functions @param {boolean} notes
 */
function sourceView(version, payload, lit, functions = ranFunctions(lit), notes = true) {
  const body = h("div", { class: "src-body" });
  const view = h("div", { class: "src-view", dataTestid: "source", dataVersion: version,
    dataText: payload?.text ? "upstream" : "paraphrase" }, body);
  if (!payload) return view;
  if (notes && payload.reconstructed) body.append(h("p", { class: "src-note", text: payload.reconstructed }));
  if (notes && payload.text) body.append(licence(payload));
  const none = "No upstream function runs at this position.";
  if (!lit.length) body.append(h("p", { class: "src-note muted", text: none }));
  for (const name of functions) body.append(functionView(name, payload, lit));
  return view;
}

/** @param {Lit[]} lit @returns {string[]} */
const ranFunctions = (lit) => [...new Set(lit.map((x) => x.function))];

/** @param {Payload} payload one with the upstream text (each caller asks) */
function licence(payload) {
  const header = /** @type {UpstreamText} */ (payload.text).licence;
  const text = header.filter((line) => !["/*", "*/"].includes(line.trim())).join(" ").trim();
  return h("details", { class: "src-licence" }, h("summary", { text: "Kubernetes source: licence" }),
    h("p", { text }));
}

// Lit lines of one function: line number -> {orders, values}.
/** @param {string} name @param {Lit[]} lit @returns {ByLine} */
function litIn(name, lit) {
  /** @type {ByLine} */
  const byLine = new Map();
  lit.forEach((x, i) => {
    if (x.function !== name) return;
    const at = byLine.get(x.line) ?? { orders: [], values: [] };
    at.orders.push(i + 1);
    if (x.value) at.values.push(x.value);
    byLine.set(x.line, at);
  });
  return byLine;
}

/** @param {string} name @param {Payload} payload @param {Lit[]} lit */
function functionView(name, payload, lit) {
  const fn = payload.permalinks[name];
  const byLine = litIn(name, lit);
  const lines = `L${fn.first}–L${fn.last}`;
  // From 1.32 the queue is three files: each function says which (active_queue.go, backoff_queue.go, ...).
  const several = Object.keys(payload.files ?? {}).length > 1;
  const file = several ? h("span", { class: "muted src-file", text: fn.file }) : null;
  const head = h("div", { class: "src-fn-head" }, h("code", { text: name }), " ", file, file ? " " : null,
    fn.permalink ? h("a", { href: fn.permalink, target: "_blank", rel: "noopener noreferrer", text: lines,
      title: `${payload.repository} ${payload.ref} ${fn.file}` }) : h("span", { class: "muted", text: lines }));
  const rows = payload.text?.functions?.[name]
    ? payload.text.functions[name].map((text, i) => row(fn.first + i, text, byLine, payload.omitted))
    : (payload.paraphrase[name] ?? []).map(([anchor, text]) =>
      row(anchor ? payload.anchorLines[anchor] : null, text, byLine, [], anchor));
  return h("div", { class: "src-fn", dataFunction: name }, head, h("ol", { class: "src-lines" }, ...rows));
}

/**
 * @param {number | null} number @param {string} text @param {ByLine} byLine
 * @param {(number | null)[]} omitted the line numbers this version does not have (a null number is not among them)
 * @param {string | null} [anchor]
 */
function row(number, text, byLine, omitted, anchor) {
  const at = number !== null && number !== undefined ? byLine.get(number) : undefined;
  const gone = omitted.includes(number);
  return h("li", {
    class: "src-line", dataLine: number ?? undefined, dataAnchor: anchor, dataLit: at ? "true" : undefined,
    dataOrder: at ? at.orders.join(",") : undefined, dataOmitted: gone || undefined,
    title: gone ? "not in this version (reconstructed)" : undefined },
  h("span", { class: "src-no", text: number ?? "" }),
  h("span", { class: "src-order", text: at ? at.orders.join(",") : "" }),
  h("code", { class: "src-code", text }),
  at?.values.length ? h("span", { class: "src-value", dataTestid: "source-value", text: at.values.join("; ") }) : null);
}

// v1.28.1 and v1.28.2 side by side, a row per function the step ran on either, the same step lit on both.
/** @param {ByVersion} byVersion @param {LitOf} lit */
function diffView(byVersion, lit) {
  const [left, right] = DIFF; // the fix's two sides
  const functions = [...new Set([...ranFunctions(lit(right)), ...ranFunctions(lit(left))])];
  const grid = h("div", { class: "src-diff", dataTestid: "source-diff" },
    ...DIFF.map((v) => h("div", { class: "src-diff-head" }, h("strong", { text: v }), " ", headline(byVersion[v]),
      byVersion[v]?.reconstructed ? h("p", { class: "src-note", text: byVersion[v].reconstructed }) : null,
      byVersion[v]?.text ? licence(byVersion[v]) : null)));
  for (const name of functions) {
    for (const v of DIFF) {
      const payload = byVersion[v];
      const cell = payload?.permalinks[name] ? sourceView(v, payload, lit(v), [name], false)
        : h("div", { class: "src-view src-absent", text: `${name}: not run` });
      cell.dataset.function = name;
      grid.append(cell);
    }
  }
  return grid;
}
