// Timeline: one tick per step coloured by kind, the divergence flag, the forks, and a scrubber.
import { h } from "./dom.js";

// A step made by acting on the diagram (explore.js) says so at the start of its note: the timeline marks the fork
// wherever the scenario goes (a permalink, a room, the editor and back).
export const FORK_MARK = "⎇";
/** @param {{note?: unknown}} step */
export const isFork = (step) => typeof step.note === "string" && step.note.startsWith(FORK_MARK);

// A long scenario gets one tick per run of steps, so the timeline stays cheap to lay out on every step (a tick
// per step of a long scenario is a layout of tens of thousands of elements): the tick takes the most telling
// kind among its steps.
const MAX_TICKS = 400;
const TELLING = ["fail", "done", "pop", "event", "clock", "other"];

/** @param {number} total */
function stepsPerTick(total) {
  return Math.max(1, Math.ceil(total / MAX_TICKS));
}

// A run of clock steps is one segment, as wide as its steps (the scrubber under it stays in step), labelled with
// the time it spans (the advance_clock seconds of the scenario's source): an import's minutes of waiting read as
// such, not as a row of ticks.
const SHOWN_SPAN = 10; // seconds: a segment spanning this long shows its time on the timeline (shorter: its title)

// [first, last) of each tick: `per` steps each, but a run of clock steps (one step a tick) is one.
/** @param {Wire.StepEntry[]} steps @param {number} per */
function segments(steps, per) {
  /** @type {[number, number][]} */
  const out = [];
  for (let first = 0; first < steps.length;) {
    let last = Math.min(first + per, steps.length);
    const clockRun = () => steps[first].kind === "clock" && last < steps.length && steps[last].kind === "clock";
    if (per === 1) while (clockRun()) last += 1;
    out.push([first, last]);
    first = last;
  }
  return out;
}

// The seconds the clock steps first..last-1 advance, from the scenario's source (null: it does not say).
/** @param {Wire.ScenarioMessage} scenario @param {number} first @param {number} last */
function spanOf(scenario, first, last) {
  const source = scenario.source?.steps;
  if (!Array.isArray(source)) return null;
  let total = 0;
  for (let i = first; i < last; i += 1) total += source[i]?.op === "advance_clock" ? Number(source[i].seconds) || 0 : 0;
  return total;
}

/** @param {number} seconds */
const spanText = (seconds) => `+${Number.isInteger(seconds) ? seconds : seconds.toFixed(2)} s`;

/** @param {HTMLElement} container @param {Wire.ScenarioMessage} scenario */
export function renderTicks(container, scenario) {
  const per = stepsPerTick(scenario.steps.length);
  const branch = scenario.source?.branch; // a fork's other branch parts from this one after step branch.at
  const ticks = [];
  for (const [first, last] of segments(scenario.steps, per)) {
    const steps = scenario.steps.slice(first, last);
    const kind = TELLING.find((k) => steps.some((s) => s.kind === k)) ?? "other";
    const span = kind === "clock" && per === 1 ? spanOf(scenario, first, last) : null;
    const diverges = scenario.divergence !== null && scenario.divergence > first && scenario.divergence <= last;
    const fork = steps.some(isFork);
    const parts = branch && branch.at >= first && branch.at < last; // the steps after the fork point start here
    const title = (steps.length === 1 ? `${last}: ${steps[0].label}`
      : `${first + 1}–${last}: ${steps.length} ${span === null ? "steps" : "clock steps"}`)
      + (span !== null && steps.length > 1 ? `, ${spanText(span)}` : "")
      + (fork ? " (fork)" : "") + (parts ? ` — the other branch, “${branch.name ?? scenario.name}”, ` +
        `goes on with ${branch.steps.length} other steps (s)` : "");
    const tick = h("span", { class: `tick kind-${kind}${diverges ? " divergence" : ""}${fork ? " fork" : ""}`,
      dataKind: kind, dataStep: last, dataFirst: first + 1, dataFork: fork ? "true" : null,
      dataSpan: span !== null && span >= SHOWN_SPAN ? spanText(span) : null,
      dataBranch: parts ? String(branch.steps.length) : null, title });
    if (per === 1 && steps.length > 1) tick.style.flexGrow = String(steps.length); // its steps' share of the scrubber
    ticks.push(tick);
  }
  container.dataset.stepsPerTick = String(per);
  container.replaceChildren(...ticks);
}

/** @param {HTMLElement} container @param {number} position */
export function markPosition(container, position) {
  container.querySelector(".tick.current")?.classList.remove("current");
  if (position <= 0) return;
  const per = Number(container.dataset.stepsPerTick || 1);
  const ticks = /** @type {HTMLCollectionOf<HTMLElement>} */ (container.children);
  const guess = ticks[Math.floor((position - 1) / per)]; // right unless clock runs were joined
  /** @param {HTMLElement} tick */
  const holds = (tick) => Number(tick.dataset.first) <= position && position <= Number(tick.dataset.step);
  const tick = guess && holds(guess) ? guess : [...ticks].find(holds);
  tick?.classList.add("current");
}
