// Explore: act on the diagram. At any position an operation applied here (pop the head of activeQ, deliver an
// event, fail, finish or update an in-flight pod, advance the clock) FORKS the scenario: its steps up to here plus the new
// one, loaded inline at the next position, so every version shown recomputes in lockstep (a presenter's load
// drives its room). The rest of the scenario forked from is kept in the fork as its other branch (`branch`: s
// switches to it), and the scenario before the fork stays in a small history (undo / redo); the new step says so
// in its note, which the timeline marks (timeline.js), in a permalink, a room or the editor alike. "Find a divergence"
// asks the server's search (POST /api/find) and opens what it found the same way, its explanation shown.
// Every word about an operation is the server's (GET /api/operations); the events offered first are those the
// scenario's hints and plugins care about (GET /api/plugins says which events wake which plugin).
import { h } from "./dom.js";
import { drawKeyHelp } from "./keys.js";
import { FORK_MARK } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const HISTORY = 30; // scenarios kept for undo
// The fork travels in one Socket.IO message; the server closes a connection whose message is over its limit
// (MAX_MESSAGE_BYTES, 1 MiB by default), so a fork that would not fit is not sent (the editor's Run does the same).
const MAX_FORK_BYTES = 1000 * 1000;
const PALETTE = 5; // events with a button and a key of their own: 1 … 5 (keys.js)
const unique = (items) => [...new Set(items)];
const keyOf = (source) => (typeof source === "string" ? source : JSON.stringify(source));

export function createExplore(app, opts, driver, page, actions) {
  const box = $("explore");
  const served = !document.getElementById("inflight-bundle"); // not the offline file: nothing to fork with
  if (!box || !served || !["main", "present"].includes(opts.mode)) {
    if (box) box.hidden = true;
    return { scenario() {}, model() {}, refused: () => false };
  }
  app.classList.add("exploring");

  let ops = {}; // operation name -> {summary, params} (the server's registry)
  let wakes = {}; // event label -> plugins it wakes
  let history = []; // [{source, position}]: the scenarios forked from and to, `at` the one on screen
  let at = -1;
  let pending = null; // a load this module asked for: committed by its scenario message, undone by a refusal
  let selected = null; // the in-flight pod Fail and Done act on
  let palette = []; // the events with keys 1 … 5
  let seed = 1; // each Find asks the next seed
  let searching = false;

  const status = $("explore-status");
  function say(text, { found = false } = {}) {
    status.textContent = text;
    status.hidden = !text;
    status.classList.toggle("found", found);
  }
  say("");

  // --- the server's words -----------------------------------------------------------------------------------
  const getJSON = (url) => fetch(url).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${url}: ${r.status}`))));
  Promise.all([getJSON("/api/operations"), getJSON("/api/plugins")]).then(([o, p]) => {
    ops = Object.fromEntries(o.operations.map((op) => [op.name, op]));
    wakes = p.events ?? {};
    for (const [id, op] of [["explore-pop", "pop"], ["explore-fail", "fail"], ["explore-done", "done"], ["explore-update", "update"], ["explore-advance", "advance_clock"], ["explore-send", "event"]]) {
      $(id).title = ops[op]?.summary ?? "";
    }
    const choices = ops.event?.params.find((param) => param.name === "event")?.choices ?? [];
    $("explore-any").replaceChildren(h("option", { value: "", text: "Other event…" }), ...choices.map((label) => h("option", { value: label, text: label })));
    if (page.scenario) drawScenario(page.scenario);
  }).catch((err) => say(`The palette could not be loaded (${err.message}).`));

  // --- forking ------------------------------------------------------------------------------------------------
  // The scenario on screen up to here, plus `step`; opened at the new step.
  function fork(step) {
    if (driver.following()) return say("Following the room: press “Detach” to explore on your own.");
    const base = page.scenario?.source;
    const here = page.latest?.position;
    if (!base || here == null || pending) return;
    const note = `${FORK_MARK} Forked from “${base.name}” after step ${here}.`;
    const forked = parted(base, here, forkedName(base.name), [{ ...step, note }]);
    if (!forked.branch && base.branch) forked.branch = base.branch; // forked on at the end of a fork: the fork's own
    const rest = base.steps.length - here; // the original's steps kept as the other branch
    const bytes = new TextEncoder().encode(JSON.stringify(forked)).length;
    if (bytes > MAX_FORK_BYTES) return say(`Too large to fork in the viewer (${bytes.toLocaleString("en")} bytes as JSON): edit it in the editor instead.`);
    open(forked, here + 1, here, (msg) => {
      const label = msg.steps[here]?.label ?? step.op;
      const kept = rest === 1 ? "step is" : `${rest} steps are`;
      return `Forked after step ${here}: ${label}.` + (rest
        ? ` The original's other ${kept} kept as the other branch: s switches to it, ↶ Undo returns to it.`
        : " ↶ Undo returns to the scenario before.");
    });
  }

  // The fork's other branch (its `branch`, docs/scenario-format.md), opened at the same position; it keeps this
  // one as its own other branch, so s switches back.
  function switchBranch() {
    if (driver.following()) return say("Following the room: press “Detach” to explore on your own.");
    const source = page.scenario?.source;
    if (pending) return;
    if (!source?.branch) return say("This scenario has no other branch: act on the diagram to fork it.");
    const { at: from, name, steps } = source.branch;
    const other = parted(source, from, name ?? source.name, steps);
    const here = page.latest?.position ?? 0;
    const to = Math.min(here, other.steps.length);
    open(other, to, here, (msg) => `On the other branch, “${msg.name}”, at step ${to}` +
      (from < other.steps.length ? `: it parts from “${source.name}” after step ${from}.` : "."));
  }

  // Load `source` at `position` as a new entry of the history (`here`: where the one on screen was left).
  function open(source, position, here, words, options = {}) {
    const before = driver.source;
    if (!history.length) {
      history = [{ source: before, position: here }];
      at = 0;
    }
    pending = {
      source,
      commit(msg) {
        history[at].position = here;
        history = [...history.slice(0, at + 1), { source, position }].slice(-HISTORY);
        at = history.length - 1;
        say(words(msg), options);
      },
      undo: () => (driver.source = before),
    };
    driver.source = source;
    driver.load(source, position);
  }

  // Undo / redo: the scenario before (after) in the history, where it was left.
  function move(to) {
    if (pending) return;
    if (to < 0 || to >= history.length) return say(to < 0 ? "Nothing to undo." : "Nothing to redo.");
    if (driver.following()) return;
    const before = driver.source;
    const here = page.latest?.position ?? 0;
    const from = at;
    const entry = history[to];
    pending = {
      source: entry.source,
      commit(msg) {
        history[from].position = here;
        at = to;
        say(to < from ? `Undone: back to “${msg.name}” at step ${entry.position}.` : `Redone: “${msg.name}” at step ${entry.position}.`);
      },
      undo: () => (driver.source = before),
    };
    driver.source = entry.source;
    driver.load(entry.source, entry.position);
  }

  // --- the operations -----------------------------------------------------------------------------------------
  const pop = (pod) => fork(pod ? { op: "pop", expect: pod } : { op: "pop" });
  const deliver = (event) => event && fork({ op: "event", event });
  function fail() {
    if (!selected) return say("No pod is in flight: pop one first.");
    const plugins = [...$("explore-plugins").querySelectorAll("input:checked")].map((input) => input.value);
    fork({ op: "fail", pod: selected, unschedulable_plugins: plugins });
  }
  // Done and Update name only the selected pod (Update's `changed` is left at its default: relevant).
  const onSelected = (op) => () => (selected ? fork({ op, pod: selected }) : say("No pod is in flight: pop one first."));
  const done = onSelected("done");
  const update = onSelected("update");
  function advance() {
    const seconds = Number($("explore-seconds").value);
    if (!Number.isFinite(seconds) || seconds < 0 || $("explore-seconds").value === "") return say("Advance by a number of seconds ≥ 0.");
    fork({ op: "advance_clock", seconds });
  }

  async function find() {
    if (searching || pending) return;
    if (driver.following()) return say("Following the room: press “Detach” to explore on your own.");
    searching = true;
    const button = $("explore-find");
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    say("Searching generated scenarios for a divergence…");
    const shown = page.scenario?.variants ?? [];
    const body = { target: "divergence", seed: seed++, ...(shown.length >= 2 ? { versions: shown } : {}) };
    try {
      const answer = await fetch("/api/find", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const found = await answer.json();
      if (!answer.ok) return say(`${found.message ?? "The search failed."}`);
      open(found.scenario, found.position, page.latest?.position ?? 0, () => found.explanation, { found: true });
    } catch (err) {
      say(`The search failed: ${err.message}`);
    } finally {
      searching = false;
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  // --- drawing ----------------------------------------------------------------------------------------------
  // The events the scenario cares about: its hints' and steps' events, then those that wake a plugin it names. A
  // fork's steps are read as its original's (the steps before the fork, its other branch), then its own: the
  // palette and its number keys stay as they were (after a pop, 2 was CSIDriverAdd where it had been NodeAdd).
  function drawScenario(msg) {
    const source = msg.source ?? { steps: [], hints: [] };
    const choices = ops.event?.params.find((param) => param.name === "event")?.choices ?? [];
    const hints = source.hints ?? [];
    const branch = source.branch;
    const steps = branch ? [...source.steps.slice(0, branch.at), ...branch.steps, ...source.steps.slice(branch.at)] : source.steps;
    const named = new Set([...hints.map((hint) => hint.plugin), ...steps.flatMap((s) => s.unschedulable_plugins ?? [])]);
    const events = [...hints.map((hint) => hint.event), ...steps.filter((s) => s.op === "event").map((s) => s.event),
      ...Object.entries(wakes).filter(([, plugins]) => plugins.some((p) => named.has(p))).map(([label]) => label)];
    palette = unique(events).filter((label) => choices.includes(label)).slice(0, PALETTE);
    $("explore-events").replaceChildren(...palette.map((label, i) => h("button", {
      class: "btn event-btn", type: "button", dataEvent: label, ariaKeyshortcuts: String(i + 1),
      title: `${i + 1}: ${label} — ${ops.event?.summary ?? ""}`, onclick: () => deliver(label),
    }, h("kbd", { text: String(i + 1) }), ` ${label}`)));
    const ticked = new Set([...$("explore-plugins").querySelectorAll("input:checked")].map((input) => input.value));
    const plugins = [...named];
    const keep = plugins.some((p) => ticked.has(p));
    $("explore-plugins").replaceChildren(...plugins.map((plugin, i) => h("label", { class: "plugin" },
      h("input", { type: "checkbox", value: plugin, checked: keep ? ticked.has(plugin) : i === 0 }), ` ${plugin}`)));
    $("explore-plugins").hidden = !plugins.length;
    drawHistory();
    drawBranch(source);
  }

  function drawHistory() {
    $("explore-undo").disabled = at <= 0;
    $("explore-redo").disabled = at < 0 || at >= history.length - 1;
  }

  function drawBranch(source) {
    const button = $("explore-branch");
    button.hidden = !source.branch;
    if (source.branch) button.title = `Switch to the other branch, “${source.branch.name ?? source.name}” (s)`;
  }

  const lane = (pane, queue) => pane.lanes.find((l) => l.queue === queue)?.chips.map((c) => c.pod) ?? [];

  function drawModel(model) {
    const panes = Object.values(model.scene.panes);
    const inFlight = unique(panes.flatMap((pane) => lane(pane, "inFlight")));
    if (!inFlight.includes(selected)) selected = inFlight[0] ?? null;
    const pick = $("explore-pod");
    pick.replaceChildren(...(inFlight.length ? inFlight.map((pod) => h("option", { value: pod, text: pod })) : [h("option", { value: "", text: "—" })]));
    pick.value = selected ?? "";
    pick.disabled = !inFlight.length;
    for (const id of ["explore-fail", "explore-done", "explore-update"]) $(id).disabled = !inFlight.length;
    $("explore-pop").disabled = !panes.some((pane) => lane(pane, "activeQ").length);
    markChips();
  }

  function select(pod) {
    selected = pod;
    $("explore-pod").value = pod;
    markChips();
  }

  // The chips one can act on: a head of activeQ's pop (it forks; a pod behind the head cannot be popped), in
  // flight's select; reachable by Tab, Enter acts.
  const ACTING = "[data-queue=activeQ] .chip[data-head], [data-queue=inFlight] .chip[data-pod]";
  function markChips() {
    for (const chip of $("panes").querySelectorAll("[data-queue=activeQ] .chip:not([data-head])[role=button]")) {
      for (const name of ["role", "tabindex", "aria-label"]) chip.removeAttribute(name);
    }
    for (const chip of $("panes").querySelectorAll(ACTING)) {
      const popping = chip.closest("[data-queue]").dataset.queue === "activeQ";
      chip.setAttribute("role", "button");
      chip.tabIndex = 0;
      chip.setAttribute("aria-label", popping ? `Pop ${chip.dataset.pod} (forks here)` : `Select ${chip.dataset.pod} for Fail, Done or Update`);
      chip.classList.toggle("picked", !popping && chip.dataset.pod === selected);
      if (!popping) chip.setAttribute("aria-pressed", String(chip.dataset.pod === selected));
    }
  }
  new MutationObserver(markChips).observe($("panes"), { childList: true });

  function actOn(chip) {
    const queue = chip.closest("[data-queue]")?.dataset.queue;
    if (queue === "activeQ") pop(chip.dataset.pod);
    else if (queue === "inFlight") select(chip.dataset.pod);
  }
  const chipOf = (target) => target.closest?.(ACTING);
  $("panes").addEventListener("click", (ev) => {
    const chip = chipOf(ev.target);
    if (chip) actOn(chip);
  });
  $("panes").addEventListener("keydown", (ev) => {
    const chip = chipOf(ev.target);
    if (!chip || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    ev.stopPropagation(); // Space here acts on the chip, it does not play
    actOn(chip);
  });

  // --- wiring -------------------------------------------------------------------------------------------------
  const on = (id, event, fn) => $(id).addEventListener(event, fn);
  on("explore-pop", "click", () => pop());
  on("explore-send", "click", () => ($("explore-any").value ? deliver($("explore-any").value) : $("explore-any").focus()));
  on("explore-any", "keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      ev.target.blur();
      deliver(ev.target.value);
    } else if (ev.key === "Escape") ev.target.blur();
  });
  on("explore-pod", "change", (ev) => select(ev.target.value));
  on("explore-fail", "click", fail);
  on("explore-done", "click", done);
  on("explore-update", "click", update);
  on("explore-advance", "click", advance);
  on("explore-seconds", "keydown", (ev) => {
    if (ev.key === "Enter") advance();
    else if (ev.key === "Escape") ev.target.blur();
  });
  on("explore-undo", "click", () => move(at - 1));
  on("explore-redo", "click", () => move(at + 1));
  on("explore-find", "click", find);
  on("explore-branch", "click", switchBranch);

  Object.assign(actions, {
    pop: () => pop(),
    event: (key) => deliver(palette[Number(key) - 1]),
    chooseEvent: () => $("explore-any").focus(),
    nextInFlight: () => {
      const pods = [...$("explore-pod").options].map((o) => o.value).filter(Boolean);
      if (pods.length) select(pods[(pods.indexOf(selected) + 1) % pods.length]);
    },
    fail,
    done,
    update,
    advance,
    undo: () => move(at - 1),
    redo: () => move(at + 1),
    switchBranch,
    find,
  });
  drawKeyHelp(actions);

  return {
    // A scenario message: the one a fork, an undo or a Find asked for, or another (the picker, a link): a new
    // history then. One the history holds (other versions, a reconnection, Back) keeps it.
    scenario(msg) {
      const key = msg.id ?? JSON.stringify(msg.source);
      if (pending && key === keyOf(pending.source)) {
        const done_ = pending;
        pending = null;
        done_.commit(msg);
      } else {
        if (pending) pending.undo();
        pending = null;
        // the browser's Back and Forward may go to a scenario of the history; anything else starts a new one
        const known = history.findIndex((entry) => keyOf(entry.source) === key);
        if (known >= 0) at = known;
        else if (history.length) {
          history = [];
          at = -1;
          say("");
        }
      }
      drawScenario(msg);
    },
    model: drawModel,
    // A load was refused: if it was ours (the new step cannot run on some version), the scenario on screen stays.
    refused(msg) {
      if (!pending) return false;
      pending.undo();
      pending = null;
      say(`Not forked: ${String(msg.message).replace(/\.?$/, ".")} The scenario on screen is unchanged.`);
      return true;
    },
  };
}

// "Name (fork)": once, however often it is forked again.
// `source`'s first `at` steps, then `steps`, named `name`; the rest of `source`, if any, kept as its other branch
// (docs/scenario-format.md `branch`).
function parted(source, at, name, steps) {
  const out = { ...source, name, steps: [...source.steps.slice(0, at), ...steps] };
  delete out.branch;
  const rest = source.steps.slice(at);
  if (rest.length) out.branch = { at, name: source.name, steps: rest };
  return out;
}

function forkedName(name) {
  return name.endsWith(" (fork)") ? name : `${name} (fork)`;
}
