// Draws the `scenario` message (what is loaded, sent once per load): its name and description, its entry in
// the picker, the timeline's ticks, the returns line and the course of built-in lessons with its words.
import { $, h } from "./dom.js";
import { definitions } from "./glossary.js";
import { drawDescription } from "./spoilers.js";
import { renderTicks } from "./timeline.js";

// `pick(id)` loads a built-in (the course's buttons); the course is not offered to an audience. `position`: where
// the page is (its description may be withheld from there on, spoilers.js).
/**
 * @param {Wire.ScenarioMessage} msg
 * @param {{mode: string, pick: (id: string) => void, position: number}} how
 */
export function drawScenario(msg, { mode, pick, position }) {
  $("scenario-name").textContent = msg.name;
  drawDescription(msg, position);
  $("scrubber").max = msg.total;
  showInPicker(msg);
  renderTicks($("ticks"), msg);
  renderCourse(msg, mode === "audience" ? null : pick);
  $("btn-divergence").disabled = msg.divergence === null;
}

// A scenario that is not a built-in (the editor's, a link's) gets its own entry, chosen and not choosable.
/** @param {Wire.ScenarioMessage} msg */
function showInPicker(msg) {
  const picker = $("scenario-picker");
  picker.querySelector("option.own")?.remove();
  const listed = picker.querySelector('option[value=""]'); // an offline file lists its own scenario
  if (!msg.id && !listed) {
    picker.prepend(h("option", { class: "own", value: "", disabled: true, text: `${msg.name} (not a built-in)` }));
  }
  picker.value = msg.id ?? "";
}

// Each failed pod's way back so far (the scene's `outcomes`: nothing from steps not yet applied), for the
// variants on screen.
/** @param {Wire.Outcomes} outcomes @param {string[]} variants */
export function drawOutcomes(outcomes, variants) {
  const pods = outcomes.pods.map(({ pod, parts }) => /** @type {[string, Wire.OutcomePart[]]} */ (
    [pod, parts.filter((p) => variants.includes(p.variant))])).filter(([, parts]) => parts.length);
  $("returns").replaceChildren(
    pods.length ? h("span", { class: "label", text: outcomes.label }) : "",
    ...pods.map(([pod, parts]) => h("span", { class: "return", dataReturnPod: pod }, h("strong", { text: pod }),
      ` ${parts.map((p) => p.text).join(" · ")}`)),
  );
  $("returns").hidden = !pods.length; // nothing to say yet: the step note has the row (and no empty tab stop)
}

// The outcomes' height past the step note's one line, as --returns-extra (0px while hidden): up to 800 px tall the
// panes' least height gives it to them (app.css), so a long outcome line wraps whole above the pinned controls and a
// short one costs the lists nothing. Kept up to date as the line changes or the window is resized.
export function watchOutcomes() {
  const returns = $("returns");
  const note = returns.parentElement?.querySelector(".note");
  new ResizeObserver(() => {
    const extra = returns.hidden ? 0 : Math.max(0, returns.offsetHeight - (note?.offsetHeight ?? 0));
    document.documentElement.style.setProperty("--returns-extra", `${Math.ceil(extra)}px`);
  }).observe(returns);
}

// The pages that offer the course of built-in lessons (not an audience's, which follows, nor an embed).
export const offersCourse = (/** @type {string} */ mode) => mode === "main" || mode === "present";

// The built-in scenarios, in the picker's order, are a short course.
/** @returns {HTMLOptionElement[]} */
const course = () => [...$("scenario-picker").options].filter((o) => o.value);

// The lesson after built-in `id` ({id, name}), or null: the last, or not a built-in.
/** @param {string | null | undefined} id @returns {{id: string, name: string | null} | null} */
export function lessonAfter(id) {
  const lessons = course();
  const i = lessons.findIndex((o) => o.value === id);
  const next = i < 0 ? null : lessons[i + 1];
  return next ? { id: next.value, name: next.textContent } : null;
}

// At a lesson's last step, the control that leads on to the next lesson (`offered`: the page offers the course).
/** @param {Wire.ScenarioMessage | null} scenario @param {Wire.Scene} scene @param {boolean} offered */
export function drawNextLesson(scenario, scene, offered) {
  const next = offered && scene.position === scene.total ? lessonAfter(scenario?.id) : null;
  const button = $("btn-next-lesson");
  button.hidden = !next;
  if (!next) return;
  button.textContent = "Next lesson ›";
  button.title = next.name;
  button.setAttribute("aria-label", `Next lesson: ${next.name}`);
}

// The course's words (the scenario's glossary) go with every scenario, behind a disclosure.
/** @param {Wire.ScenarioMessage} msg @param {((id: string) => void) | null} pick */
function renderCourse(msg, pick) {
  const ids = course().map((o) => o.value);
  const i = msg.id === null ? -1 : ids.indexOf(msg.id); // indexOf(null): -1, as an option's value is a string
  const go = (/** @type {string} */ id) => h("button", { class: "btn", type: "button",
    text: id === ids[i - 1] ? "‹ Previous lesson" : "Next lesson ›", onclick: () => pick?.(id) });
  const lessons = i < 0 || !pick ? [] : [h("span", { class: "label", text: `Lesson ${i + 1} of ${ids.length}` }),
    i > 0 ? go(ids[i - 1]) : "", i < ids.length - 1 ? go(ids[i + 1]) : ""];
  $("course").replaceChildren(...lessons, courseWords(msg.glossary));
}

/** @param {Record<string, string>} glossary */
function courseWords(glossary) {
  const words = definitions(glossary);
  return words.length ? h("details", { class: "course-words", dataTestid: "course-words" },
    h("summary", { text: "Words" }), h("dl", { class: "glossary" }, ...words)) : "";
}
