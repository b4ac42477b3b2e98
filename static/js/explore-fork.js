// Forking, as plain data (explore.js acts on it): a scenario source in, the forked or switched source out, and the
// words that say what happened. No DOM and no network: node runs it as it is (tests/client).
import { FORK_MARK } from "./timeline.js";

// The fork travels in one Socket.IO message; the server closes a connection whose message is over its limit
// (MAX_MESSAGE_BYTES, 1 MiB by default), so a fork that would not fit is not sent (the editor's Run does the same).
export const MAX_FORK_BYTES = 1000 * 1000;
export const PALETTE = 5; // events with a button and a key of their own: 1 … 5 (keys.js)

const unique = (/** @type {any[]} */ items) => [...new Set(items)];

/**
 * `source`'s first `at` steps, then `steps`, named `name`; the rest of `source`, if any, kept as its other branch
 * (docs/scenario-format.md `branch`).
 * @param {Source} source @param {number} at @param {string} name @param {Step[]} steps
 * @returns {Source}
 */
export function parted(source, at, name, steps) {
  const out = { ...source, name, steps: [...source.steps.slice(0, at), ...steps] };
  delete out.branch;
  const rest = source.steps.slice(at);
  if (rest.length) out.branch = { at, name: source.name, steps: rest };
  return out;
}

/** "Name (fork)": once, however often it is forked again. @param {string} name */
export function forkedName(name) {
  return name.endsWith(" (fork)") ? name : `${name} (fork)`;
}

/**
 * The scenario `base` up to step `here`, plus `step` (its note says it was forked); the steps after `here` are
 * kept as its other branch, or, forked on at the end of a fork, the fork's own other branch stays.
 * @param {Source} base @param {number} here @param {Step} step @returns {Source}
 */
export function forked(base, here, step) {
  const note = `${FORK_MARK} Forked from “${base.name}” after step ${here}.`;
  const out = parted(base, here, forkedName(base.name), [{ ...step, note }]);
  if (!out.branch && base.branch) out.branch = base.branch;
  return out;
}

/** What the status says once the fork is shown: `label` the new step's, `rest` the steps kept as the other branch.
 * @param {number} here @param {string} label @param {number} rest */
export function forkedWords(here, label, rest) {
  const kept = rest === 1 ? "step is" : `${rest} steps are`;
  return `Forked after step ${here}: ${label}.` + (rest
    ? ` The original's other ${kept} kept as the other branch: s switches to it, ↶ Undo returns to it.`
    : " ↶ Undo returns to the scenario before.");
}

/**
 * The fork's other branch, as a scenario of its own that keeps `source` as its other branch (s switches back),
 * and where it parts from `source`; null when `source` has no other branch.
 * @param {Source} source @returns {{other: Source, from: number} | null}
 */
export function otherBranch(source) {
  if (!source.branch) return null;
  const { at: from, name, steps } = source.branch;
  return { other: parted(source, from, name ?? source.name, steps), from };
}

/** What the status says on the other branch, opened at step `to`; `from`: where it parts from `source`.
 * @param {Source} source @param {string} name @param {number} from @param {number} to @param {number} total */
export function branchWords(source, name, from, to, total) {
  return `On the other branch, “${name}”, at step ${to}` +
    (from < total ? `: it parts from “${source.name}” after step ${from}.` : ".");
}

/** The size of `source` as the JSON it travels as, in bytes. @param {Source} source */
export function jsonBytes(source) {
  return new TextEncoder().encode(JSON.stringify(source)).length;
}

/**
 * The events the scenario cares about: its hints' and steps' events, then those that wake a plugin it names (of
 * `choices`, the events an operation may deliver; `wakes`: event -> the plugins it wakes). A fork's steps are read
 * as its original's (the steps before the fork, its other branch), then its own: the palette and its number keys
 * stay as they were (after a pop, 2 was CSIDriverAdd where it had been NodeAdd). `plugins`: those it names.
 * @param {Source} source @param {string[]} choices @param {Record<string, string[]>} wakes
 * @returns {{palette: string[], plugins: string[]}}
 */
export function paletteOf(source, choices, wakes) {
  const hints = source.hints ?? [];
  const branch = source.branch;
  const steps = branch
    ? [...source.steps.slice(0, branch.at), ...branch.steps, ...source.steps.slice(branch.at)]
    : source.steps;
  const named = new Set([...hints.map((hint) => hint.plugin), ...steps.flatMap((s) => s.unschedulable_plugins ?? [])]);
  const woken = Object.entries(wakes).filter(([, plugins]) => plugins.some((p) => named.has(p)))
    .map(([label]) => label);
  const events = [...hints.map((hint) => hint.event), ...steps.filter((s) => s.op === "event").map((s) => s.event),
    ...woken];
  const palette = unique(events).filter((label) => choices.includes(label)).slice(0, PALETTE);
  return { palette, plugins: [...named] };
}

/** The pods of a queue in a scene's pane. @param {Wire.Pane} pane @param {string} queue @returns {string[]} */
const lane = (pane, queue) => pane.lanes.find((l) => l.queue === queue)?.chips.map((c) => c.pod) ?? [];

/**
 * What the scene offers to act on: the pods in flight in any version (Fail, Done, Update), and whether any
 * version has a pod to pop.
 * @param {Wire.Scene} scene @returns {{inFlight: string[], poppable: boolean}}
 */
export function actable(scene) {
  const panes = Object.values(scene.panes);
  return {
    inFlight: unique(panes.flatMap((pane) => lane(pane, "inFlight"))),
    poppable: panes.some((pane) => lane(pane, "activeQ").length > 0),
  };
}
