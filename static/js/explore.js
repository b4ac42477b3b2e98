// Explore: act on the diagram. At any position an operation applied here (pop the head of activeQ, deliver an
// event, fail, finish or update an in-flight pod, advance the clock) FORKS the scenario: its steps up to here plus
// the new one, loaded inline at the next position, so every version shown recomputes in lockstep (a presenter's load
// drives its room). The rest of the scenario forked from is kept in the fork as its other branch (`branch`: s
// switches to it), and the scenario before the fork stays in a small history (undo / redo); the new step says so
// in its note, which the timeline marks (timeline.js), in a permalink, a room or the editor alike. "Find a divergence"
// asks the server's search (POST /api/find) and opens what it found the same way, its explanation shown.
// Every word about an operation is the server's (GET /api/operations); the events offered first are those the
// scenario's hints and plugins care about (GET /api/plugins says which events wake which plugin).
// This module is the view: it keeps the state, draws it and acts; what a fork is (explore-fork.js) and how the
// history moves (explore-history.js) are plain data apart from it; the chips one acts on are explore-chips.js's.
import { $, h, messageOf, targetOf } from "./dom.js";
import { drawKeyHelp } from "./keys.js";
import { actable, branchWords, forked, forkedWords, jsonBytes, MAX_FORK_BYTES, otherBranch, paletteOf }
  from "./explore-fork.js";
import { begun, canRedo, canUndo, EMPTY, heard, keyOf, keyOfMessage, moved, pushed } from "./explore-history.js";
import { bindChips, markChips } from "./explore-chips.js";

const DETACH_FIRST = "Following the room: press “Detach” to explore on your own.";
const NO_POD = "No pod is in flight: pop one first.";
// each button's operation, whose summary is its tip
const TIPS = { "explore-pop": "pop", "explore-fail": "fail", "explore-done": "done", "explore-update": "update",
  "explore-advance": "advance_clock", "explore-send": "event" };

/** @param {string} url */
const getJSON = (url) => fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: ${r.status}`))));
const checkedPlugins = () => [...$("explore-plugins").querySelectorAll("input:checked")].map((input) => input.value);

/**
 * A load this module asked for: committed by its scenario message (`commit` gives the history after it and the
 * words to say), undone by a refusal or by another scenario message (the driver's source goes back to `before`).
 * @typedef {{source: Source | string, before: Driver["source"],
 *   commit: (msg: ScenarioMessage) => {history: ExploreHistory, words: string}, found?: boolean}} Pending
 */
/** @import { createDriver } from "./driver.js" */
/** @import { createPage } from "./page.js" */
/** @import { readOptions } from "./options.js" */
/** @import { createBus } from "./bus.js" */
/** @typedef {ReturnType<typeof createDriver>} Driver */
/** @typedef {ReturnType<typeof createPage>} Page */
/** @typedef {ReturnType<typeof readOptions>} Options */
/** @typedef {ReturnType<typeof createBus>} Bus */
/** @typedef {{name: string, summary: string, params: {name: string, choices?: string[]}[]}} Operation the server's */
/**
 * What POST /api/find answers (webapp/web/find.py): what it found, or a refusal (`{message, kind}`).
 * @typedef {{ok: true, found: {scenario: Source, position: number, explanation: string}}
 *   | {ok: false, found: Partial<Wire.Reply>}} FindAnswer
 */
/**
 * The explore bar's acts (bindButtons).
 * @typedef {{pop: (pod?: string) => void, deliver: (event: string | undefined) => void, select: (pod: string) => void,
 *   fail: () => void, done: () => void, update: () => void, advance: () => void, find: () => void,
 *   switchBranch: () => void, undo: () => void, redo: () => void}} Acts
 */

/**
 * @param {HTMLElement} app @param {Options} opts @param {Driver} driver @param {Page} page
 * @param {Record<string, unknown>} actions the keys' actions, given explore's @param {Bus} bus
 */
export function createExplore(app, opts, driver, page, actions, bus) {
  const box = $("explore");
  const served = !$("inflight-bundle"); // not the offline file: nothing to fork with
  if (!box || !served || !["main", "present"].includes(opts.mode)) {
    if (box) box.hidden = true;
    return;
  }
  app.classList.add("exploring");

  /** @type {Record<string, Operation>} */
  let ops = {}; // operation name -> {summary, params} (the server's registry)
  /** @type {Record<string, string[]>} event label -> plugins it wakes */
  let wakes = {};
  let history = EMPTY;
  /** @type {Pending | null} */
  let pending = null;
  /** @type {string | null} the in-flight pod Fail and Done act on */
  let selected = null;
  /** @type {string[]} the events with keys 1 … 5 */
  let palette = [];
  let seed = 1; // each Find asks the next seed
  let searching = false;
  const choices = () => ops.event?.params.find((param) => param.name === "event")?.choices ?? [];

  const status = $("explore-status");
  /** @param {string} text @param {{found?: boolean}} how */
  function say(text, { found = false } = {}) {
    status.textContent = text;
    status.hidden = !text;
    status.classList.toggle("found", found);
  }
  say("");

  // --- the server's words -----------------------------------------------------------------------------------
  Promise.all([getJSON("/api/operations"), getJSON("/api/plugins")]).then(([o, p]) => {
    ops = Object.fromEntries(o.operations.map((/** @type {Operation} */ op) => [op.name, op]));
    wakes = p.events ?? {};
    for (const [id, op] of Object.entries(TIPS)) $(id).title = ops[op]?.summary ?? "";
    $("explore-any").replaceChildren(h("option", { value: "", text: "Other event…" }),
      ...choices().map((label) => h("option", { value: label, text: label })));
    if (page.scenario) drawScenario(page.scenario);
  }).catch((err) => say(`The palette could not be loaded (${err.message}).`));

  // --- forking ------------------------------------------------------------------------------------------------
  // The scenario on screen up to here, plus `step`; opened at the new step.
  /** @param {Step} step */
  function fork(step) {
    if (driver.following()) return say(DETACH_FIRST);
    const base = page.scenario?.source;
    const here = page.latest?.position;
    if (!base || here == null || pending) return;
    const source = forked(base, here, step);
    const bytes = jsonBytes(source);
    if (bytes > MAX_FORK_BYTES) {
      return say(`Too large to fork in the viewer (${bytes.toLocaleString("en")} bytes as JSON): ` +
        "edit it in the editor instead.");
    }
    const rest = base.steps.length - here; // the original's steps kept as the other branch
    open(source, here + 1, here, (msg) => forkedWords(here, msg.steps[here]?.label ?? step.op, rest));
  }

  // The fork's other branch (its `branch`, docs/scenario-format.md), opened at the same position; it keeps this
  // one as its own other branch, so s switches back.
  function switchBranch() {
    if (driver.following()) return say(DETACH_FIRST);
    const source = page.scenario?.source;
    if (pending) return;
    const branch = source && otherBranch(source);
    if (!branch) return say("This scenario has no other branch: act on the diagram to fork it.");
    const { other, from } = branch;
    const here = page.latest?.position ?? 0;
    const to = Math.min(here, other.steps.length);
    open(other, to, here, (msg) => branchWords(source, msg.name, from, to, other.steps.length));
  }

  // Load `source` at `position` as a new entry of the history (`here`: where the one on screen was left).
  /**
   * @param {Source | string} source @param {number} position @param {number} here
   * @param {(msg: ScenarioMessage) => string} words what to say once it is on screen @param {boolean} found
   */
  function open(source, position, here, words, found = false) {
    // the scenario on screen: the driver holds its source once one is shown (driver.js `heard`)
    const before = /** @type {Source | string} */ (driver.source);
    history = begun(history, before, here);
    ask(source, position, { before, found, commit: (msg) => ({ history: pushed(history, here, source, position),
      words: words(msg) }) });
  }

  // Load `source` at `position`, pending until its scenario message commits it or a refusal undoes it.
  /**
   * @param {Source | string} source @param {number} position
   * @param {{before: Pending["before"], commit: Pending["commit"], found?: boolean}} pending
   */
  function ask(source, position, { before, commit, found = false }) {
    pending = { source, before, commit, found };
    driver.source = source;
    driver.load(source, position);
  }

  // Undo / redo: the scenario before (after) in the history, where it was left.
  /** @param {number} to */
  function move(to) {
    if (pending) return;
    if (to < 0 || to >= history.entries.length) return say(to < 0 ? "Nothing to undo." : "Nothing to redo.");
    if (driver.following()) return;
    const here = page.latest?.position ?? 0;
    const from = history.at;
    const entry = history.entries[to];
    ask(entry.source, entry.position, { before: driver.source, commit: (msg) => ({
      history: moved(history, from, here, to),
      words: to < from ? `Undone: back to “${msg.name}” at step ${entry.position}.`
        : `Redone: “${msg.name}” at step ${entry.position}.`,
    }) });
  }

  // --- the operations -----------------------------------------------------------------------------------------
  /** @param {string} [pod] */
  const pop = (pod) => fork(pod ? { op: "pop", expect: pod } : { op: "pop" });
  /** @param {string | undefined} event */
  const deliver = (event) => event && fork({ op: "event", event });
  const fail = () => (selected ? fork({ op: "fail", pod: selected, unschedulable_plugins: checkedPlugins() })
    : say(NO_POD));
  // Done and Update name only the selected pod (Update's `changed` is left at its default: relevant).
  const onSelected = (/** @type {string} */ op) => () => (selected ? fork({ op, pod: selected }) : say(NO_POD));
  const done = onSelected("done");
  const update = onSelected("update");
  function advance() {
    const seconds = Number($("explore-seconds").value);
    if (!Number.isFinite(seconds) || seconds < 0 || $("explore-seconds").value === "") {
      return say("Advance by a number of seconds ≥ 0.");
    }
    fork({ op: "advance_clock", seconds });
  }

  async function find() {
    if (searching || pending) return;
    if (driver.following()) return say(DETACH_FIRST);
    searching = true;
    const button = $("explore-find");
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    say("Searching generated scenarios for a divergence…");
    try {
      const { ok, found } = await searchDivergence(page.scenario?.variants ?? [], seed++);
      if (!ok) return say(`${found.message ?? "The search failed."}`);
      open(found.scenario, found.position, page.latest?.position ?? 0, () => found.explanation, true);
    } catch (err) {
      say(`The search failed: ${messageOf(err)}`);
    } finally {
      searching = false;
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  // --- drawing ----------------------------------------------------------------------------------------------
  /** @param {ScenarioMessage} msg */
  function drawScenario(msg) {
    const source = msg.source ?? { steps: [], hints: [] };
    const offered = paletteOf(source, choices(), wakes);
    palette = offered.palette;
    drawPalette(palette, ops.event?.summary ?? "", deliver);
    drawPlugins(offered.plugins);
    drawMoves(history, source);
  }

  /** @param {Model} model */
  function drawModel(model) {
    const { inFlight, poppable } = actable(model.scene);
    if (selected === null || !inFlight.includes(selected)) selected = inFlight[0] ?? null;
    drawPods(inFlight, selected, poppable);
    markChips($("panes"), selected);
  }

  /** @param {string} pod */
  function select(pod) {
    selected = pod;
    $("explore-pod").value = pod;
    markChips($("panes"), selected);
  }

  new MutationObserver(() => markChips($("panes"), selected)).observe($("panes"), { childList: true });
  bindChips($("panes"), { pop, select });

  // A scenario message: the one a fork, an undo or a Find asked for, or another (the picker, a link): a new
  // history then. One the history holds (other versions, a reconnection, Back) keeps it.
  /** @param {ScenarioMessage} msg */
  function scenario(msg) {
    const key = keyOfMessage(msg);
    const asked = pending;
    pending = null;
    if (asked && key === keyOf(asked.source)) {
      const { history: after, words } = asked.commit(msg);
      history = after;
      say(words, { found: asked.found });
    } else {
      if (asked) driver.source = asked.before;
      const { history: after, cleared } = heard(history, key);
      history = after;
      if (cleared) say("");
    }
    drawScenario(msg);
  }

  // A load was refused: if it was ours (the new step cannot run on some version), the scenario on screen stays.
  /** @param {Wire.Reply} msg */
  function refused(msg) {
    if (!pending) return;
    driver.source = pending.before;
    pending = null;
    say(`Not forked: ${String(msg.message).replace(/\.?$/, ".")} The scenario on screen is unchanged.`);
  }

  // --- wiring -------------------------------------------------------------------------------------------------
  bindButtons({ pop, deliver, select, fail, done, update, advance, find, switchBranch,
    undo: () => move(history.at - 1), redo: () => move(history.at + 1) });
  Object.assign(actions, {
    pop: () => pop(),
    event: (/** @type {string} */ key) => deliver(palette[Number(key) - 1]),
    chooseEvent: () => $("explore-any").focus(),
    nextInFlight: () => {
      /** @type {string[]} */
      const pods = [...$("explore-pod").options].map((o) => o.value).filter(Boolean);
      // no pod is "": none selected, the next is the first
      if (pods.length) select(pods[(pods.indexOf(selected ?? "") + 1) % pods.length]);
    },
    fail,
    done,
    update,
    advance,
    undo: () => move(history.at - 1),
    redo: () => move(history.at + 1),
    switchBranch,
    find,
  });
  drawKeyHelp(actions);

  bus.on("scenario", scenario);
  bus.on("model", drawModel);
  bus.on("error", (/** @type {Wire.Reply & {event?: string}} */ msg) => msg.event === "load" && refused(msg));
}

// The search for a divergence (POST /api/find) on `variants` (two or more; else the server's pair), with `seed`.
/** @param {string[]} variants @param {number} seed @returns {Promise<FindAnswer>} */
async function searchDivergence(variants, seed) {
  const body = { target: "divergence", seed, ...(variants.length >= 2 ? { versions: variants } : {}) };
  const answer = await fetch("/api/find",
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { ok: answer.ok, found: await answer.json() };
}

// The palette's events, keyed 1 … 5; `summary`: the event operation's, in each tip.
/** @param {string[]} palette @param {string} summary @param {(label: string) => void} deliver */
function drawPalette(palette, summary, deliver) {
  $("explore-events").replaceChildren(...palette.map((label, i) => h("button", {
    class: "btn event-btn", type: "button", dataEvent: label, ariaKeyshortcuts: String(i + 1),
    title: `${i + 1}: ${label} — ${summary}`, onclick: () => deliver(label),
  }, h("kbd", { text: String(i + 1) }), ` ${label}`)));
}

// The plugins a failure may name, ticked as they were where they are still offered, else the first.
/** @param {string[]} plugins */
function drawPlugins(plugins) {
  const ticked = new Set(checkedPlugins());
  const keep = plugins.some((p) => ticked.has(p));
  $("explore-plugins").replaceChildren(...plugins.map((plugin, i) => h("label", { class: "plugin" },
    h("input", { type: "checkbox", value: plugin, checked: keep ? ticked.has(plugin) : i === 0 }), ` ${plugin}`)));
  $("explore-plugins").hidden = !plugins.length;
}

// Undo, redo and the other branch, as the history and the scenario on screen allow.
/** @param {ExploreHistory} history @param {Source | {steps: Step[], branch?: undefined, name?: string}} source */
function drawMoves(history, source) {
  $("explore-undo").disabled = !canUndo(history);
  $("explore-redo").disabled = !canRedo(history);
  const button = $("explore-branch");
  button.hidden = !source.branch;
  if (source.branch) button.title = `Switch to the other branch, “${source.branch.name ?? source.name}” (s)`;
}

// The in-flight pods to pick (`selected` picked) and the buttons that act on them or pop.
/** @param {string[]} inFlight @param {string | null} selected @param {boolean} poppable */
function drawPods(inFlight, selected, poppable) {
  const pick = $("explore-pod");
  pick.replaceChildren(...(inFlight.length ? inFlight.map((pod) => h("option", { value: pod, text: pod }))
    : [h("option", { value: "", text: "—" })]));
  pick.value = selected ?? "";
  pick.disabled = !inFlight.length;
  for (const id of ["explore-fail", "explore-done", "explore-update"]) $(id).disabled = !inFlight.length;
  $("explore-pop").disabled = !poppable;
}

// The explore bar's buttons and fields, each to its act.
/** @param {Acts} act */
function bindButtons(act) {
  /** @template {Event} E @param {string} id @param {string} event @param {(ev: E) => void} fn */
  const on = (id, event, fn) => $(id).addEventListener(event, fn);
  /** @param {KeyboardEvent} ev */
  const leaveOnEscape = (ev) => ev.key === "Escape" && targetOf(ev).blur();
  on("explore-pop", "click", () => act.pop());
  on("explore-send", "click", () => ($("explore-any").value ? act.deliver($("explore-any").value)
    : $("explore-any").focus()));
  on("explore-any", "keydown", (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key !== "Enter") return leaveOnEscape(ev);
    ev.preventDefault();
    targetOf(ev).blur();
    act.deliver(targetOf(ev).value);
  });
  on("explore-pod", "change", (/** @type {Event} */ ev) => act.select(targetOf(ev).value));
  on("explore-fail", "click", act.fail);
  on("explore-done", "click", act.done);
  on("explore-update", "click", act.update);
  on("explore-advance", "click", act.advance);
  on("explore-seconds", "keydown",
    (/** @type {KeyboardEvent} */ ev) => (ev.key === "Enter" ? act.advance() : leaveOnEscape(ev)));
  on("explore-undo", "click", act.undo);
  on("explore-redo", "click", act.redo);
  on("explore-find", "click", act.find);
  on("explore-branch", "click", act.switchBranch);
}
