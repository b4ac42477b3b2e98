// Timeline: one tick per step coloured by kind, the divergence flag, the forks, and a scrubber.
import { h } from "./dom.js";

// A step made by acting on the diagram (explore.js) says so at the start of its note: the timeline marks the fork
// wherever the scenario goes (a permalink, a room, the editor and back).
export const FORK_MARK = "⎇";
export const isFork = (step) => typeof step.note === "string" && step.note.startsWith(FORK_MARK);

// A long scenario gets one tick per run of steps, so the timeline stays cheap to lay out (30,000 ticks
// cost ~55 ms on every step): the tick takes the most telling kind among its steps.
const MAX_TICKS = 400;
const TELLING = ["fail", "done", "pop", "event", "clock", "other"];

function stepsPerTick(total) {
  return Math.max(1, Math.ceil(total / MAX_TICKS));
}

export function renderTicks(container, scenario) {
  const per = stepsPerTick(scenario.steps.length);
  const branch = scenario.source?.branch; // a fork's other branch parts from this one after step branch.at
  const ticks = [];
  for (let first = 0; first < scenario.steps.length; first += per) {
    const steps = scenario.steps.slice(first, first + per);
    const kind = TELLING.find((k) => steps.some((s) => s.kind === k)) ?? "other";
    const last = first + steps.length;
    const diverges = scenario.divergence !== null && scenario.divergence > first && scenario.divergence <= last;
    const fork = steps.some(isFork);
    const parts = branch && branch.at >= first && branch.at < last; // the steps after the fork point start here
    const title = (per === 1 ? `${last}: ${steps[0].label}` : `${first + 1}–${last}: ${steps.length} steps`)
      + (fork ? " (fork)" : "") + (parts ? ` — the other branch, “${branch.name ?? scenario.name}”, ` +
        `goes on with ${branch.steps.length} other steps (s)` : "");
    ticks.push(h("span", { class: `tick kind-${kind}${diverges ? " divergence" : ""}${fork ? " fork" : ""}`,
      dataKind: kind, dataStep: last, dataFork: fork ? "true" : null,
      dataBranch: parts ? String(branch.steps.length) : null, title }));
  }
  container.dataset.stepsPerTick = String(per);
  container.replaceChildren(...ticks);
}

export function markPosition(container, position) {
  container.querySelector(".tick.current")?.classList.remove("current");
  const per = Number(container.dataset.stepsPerTick || 1);
  if (position > 0) container.children[Math.floor((position - 1) / per)]?.classList.add("current");
}
