// Draws the `scenario` message (what is loaded, sent once per load): its name and description, its entry in
// the picker, the timeline's ticks, the returns line and the course of built-in lessons.
import { h, fmtSeconds } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { renderTicks } from "./timeline.js";

const $ = (id) => document.getElementById(id);

// `pick(id)` loads a built-in (the course's buttons); the course is not offered to an audience.
export function drawScenario(msg, { mode, pick }) {
  $("scenario-name").textContent = msg.name;
  $("scenario-description").replaceChildren(...renderMarkdown(msg.description));
  $("scrubber").max = msg.total;
  showInPicker(msg);
  renderTicks($("ticks"), msg);
  renderReturns(msg);
  renderCourse(msg, mode === "audience" ? null : pick);
  $("btn-divergence").disabled = msg.divergence === null;
}

// A scenario that is not a built-in (the editor's, a link's) gets its own entry, chosen and not choosable.
function showInPicker(msg) {
  const picker = $("scenario-picker");
  picker.querySelector("option.own")?.remove();
  const listed = picker.querySelector('option[value=""]'); // an offline file lists its own scenario
  if (!msg.id && !listed) picker.prepend(h("option", { class: "own", value: "", disabled: true, text: `${msg.name} (not a built-in)` }));
  picker.value = msg.id ?? "";
}

function renderReturns(msg) {
  const byPod = new Map();
  for (const [variant, summary] of Object.entries(msg.returns)) {
    const returned = new Map();
    for (const r of summary.returned) returned.set(r.pod, [...(returned.get(r.pod) || []), r]);
    const waiting = new Map(summary.still_waiting.map((r) => [r.pod, r.via])); // a pod waits once at most
    for (const pod of new Set([...returned.keys(), ...waiting.keys()])) {
      const texts = returnTexts(returned.get(pod) || []);
      if (waiting.has(pod)) texts.push(`still in ${waiting.get(pod)}`);
      byPod.set(pod, [...(byPod.get(pod) || []), `${variant}: ${texts.join(", ")}`]);
    }
  }
  $("returns").replaceChildren(
    byPod.size ? h("span", { class: "label", text: "Back in activeQ after failing (whole scenario)" }) : "",
    ...[...byPod].map(([pod, parts]) => h("span", { class: "return", dataReturnPod: pod }, h("strong", { text: pod }), ` ${parts.join(" · ")}`)),
  );
}

// Up to two returns of a pod are listed; more (a generated scenario) are summed up, so the line stays short.
function returnTexts(returns) {
  if (returns.length <= 2) return returns.map((r) => `${fmtSeconds(r.seconds)} via ${r.via}`);
  const longest = returns.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  return [`${returns.length} returns, longest ${fmtSeconds(longest.seconds)} via ${longest.via}`];
}

// The built-in scenarios, in the picker's order, are a short course.
function renderCourse(msg, pick) {
  const ids = [...$("scenario-picker").options].filter((o) => o.value).map((o) => o.value);
  const i = ids.indexOf(msg.id);
  const course = $("course");
  if (i < 0 || !pick) return course.replaceChildren();
  const go = (id) => h("button", { class: "btn", type: "button", text: id === ids[i - 1] ? "‹ Previous lesson" : "Next lesson ›",
    onclick: () => pick(id) });
  course.replaceChildren(h("span", { class: "label", text: `Lesson ${i + 1} of ${ids.length}` }),
    i > 0 ? go(ids[i - 1]) : "", i < ids.length - 1 ? go(ids[i + 1]) : "");
}
