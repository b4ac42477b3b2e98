// Challenges: graded exercises at the end of the course. Pick one, work on it by acting on the diagram (explore.js
// forks) or in the editor, and press "Check": the scenario on screen (every step of it, as the page holds it in
// the scenario message's `source`) is sent to POST /api/challenges/<id>/check, which runs the model on the
// challenge's versions and answers solved or not yet, with why in words (which step, which pod, which invariant
// or placement). The list and every word of a challenge are the server's (GET /api/challenges).
import { $, h, messageOf } from "./dom.js";

const SOLVED_KEY = "inflight-scope:challenges-solved"; // ids solved in this browser, for the ✓ in the list
const CHOSEN_KEY = "inflight-scope:challenge"; // the challenge picked in this tab
const OPEN_KEY = "inflight-scope:challenges-open"; // whether the section is unfolded in this tab

/** @template T @param {string} key @param {T} fallback @returns {T} */
const remembered = (key, fallback) => {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
  } catch {
    return fallback;
  }
};

/**
 * A challenge as /api/challenges lists it (webapp/web/challenges.py).
 * @typedef {{id: string, title: string, goal: string, versions: string[], start: string}} Challenge
 */
/** @param {{scenario: ScenarioMessage | null}} page @param {(id: string) => void} pick */
export function createChallenges(page, pick) {
  const box = $("challenges");
  if (!box) return;
  /** @type {HTMLLinkElement | null} its sibling: challenges.css */
  const styles = document.querySelector('link[rel=stylesheet][href*="css/app.css"]');
  if (styles) document.head.append(h("link", { rel: "stylesheet", href: new URL("challenges.css", styles.href).href }));
  /** @type {Challenge[]} */
  let list = [];
  let solved = new Set(remembered(SOLVED_KEY, /** @type {string[]} */ ([])));
  let checking = false;

  const chooser = h("select", { id: "challenge-picker", ariaLabel: "Challenge", dataTestid: "challenge-picker" });
  const goal = h("p", { class: "challenge-goal", id: "challenge-goal" });
  const start = h("button", { class: "btn", type: "button", id: "challenge-start" });
  const check = h("button", { class: "btn primary", type: "button", id: "challenge-check",
    dataTestid: "challenge-check", text: "Check",
    title: "Run the scenario on screen, every step of it, on the challenge's versions" });
  const verdict = h("div",
    { class: "challenge-verdict", id: "challenge-verdict", role: "status", dataTestid: "challenge-verdict" });
  verdict.hidden = true;
  const mark = h("span", { class: "challenge-mark", id: "challenge-mark" });
  const fold = h("button", { class: "challenge-fold", type: "button", dataTestid: "challenges-toggle",
    ariaExpanded: "false", ariaControls: "challenge-body" }, h("span", { class: "label", text: "Challenges" }), mark);
  const body = h("div", { class: "challenge-body", id: "challenge-body" }, goal, verdict);
  const row = h("span", { class: "challenge-row" }, chooser, start, check);
  box.replaceChildren(h("div", { class: "challenge-head-row" }, fold, row), body);
  box.hidden = true;
  /** @param {boolean} open */
  function unfold(open) {
    fold.setAttribute("aria-expanded", String(open));
    row.hidden = body.hidden = !open;
    box.classList.toggle("open", open);
    sessionStorage.setItem(OPEN_KEY, open ? "1" : "0");
  }
  unfold(sessionStorage.getItem(OPEN_KEY) === "1");
  fold.addEventListener("click", () => unfold(row.hidden));

  const chosen = () => list.find((c) => c.id === chooser.value);
  /** @param {string} id */
  const lesson = (id) => [...($("scenario-picker")?.options ?? [])].find((o) => o.value === id)?.textContent ?? id;

  function drawList() {
    const keep = chooser.value || sessionStorage.getItem(CHOSEN_KEY) || list[0]?.id;
    chooser.replaceChildren(...list.map((c, i) => h("option", { value: c.id,
      text: `${i + 1}. ${c.title}${solved.has(c.id) ? " ✓" : ""}` })));
    if (list.some((c) => c.id === keep)) chooser.value = keep;
    drawChosen();
  }

  function drawChosen() {
    const c = chosen();
    if (!c) return;
    sessionStorage.setItem(CHOSEN_KEY, c.id);
    goal.replaceChildren(h("span", { text: c.goal }), " ",
      h("span", { class: "muted", text: `Checked on ${c.versions.join(" and ")}.` }));
    mark.textContent = ` · ${c.title}${solved.has(c.id) ? " ✓" : ""} · ${solved.size} of ${list.length} solved`;
    start.textContent = `Start from “${lesson(c.start)}”`;
    start.title = "Load this lesson, then act on the diagram (or open the editor) until the challenge is met";
    verdict.hidden = true;
  }

  async function run() {
    const c = chosen();
    const scenario = page.scenario; // the scenario checked
    const source = scenario?.source;
    if (!c || checking) return;
    if (!scenario || !source) return say(false, "No scenario is loaded yet.");
    checking = true;
    check.disabled = true;
    check.setAttribute("aria-busy", "true");
    try {
      const answer = await fetch(`/api/challenges/${encodeURIComponent(c.id)}/check`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(source) });
      const body = await answer.json();
      if (!answer.ok) return say(false, body.message ?? "The check failed.", "Cannot check");
      if (body.solved) {
        solved.add(c.id);
        localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
        drawList();
      }
      const what = `“${scenario.name}”, ${source.steps.length} steps`;
      say(body.solved, body.why, body.solved ? "Solved ✓" : "Not yet", what);
    } catch (err) {
      say(false, `The check failed: ${messageOf(err)}`, "Cannot check");
    } finally {
      checking = false;
      check.disabled = false;
      check.removeAttribute("aria-busy");
    }
  }

  /** @param {boolean} ok @param {string} why @param {string} head @param {string} what */
  function say(ok, why, head = "Not yet", what = "") {
    verdict.hidden = false;
    verdict.classList.toggle("solved", ok);
    verdict.dataset.solved = String(ok);
    verdict.replaceChildren(h("strong", { class: "challenge-head", text: head }),
      what ? h("span", { class: "muted", text: ` (${what})` }) : "", h("p", { class: "challenge-why", text: why }));
  }

  chooser.addEventListener("change", drawChosen);
  start.addEventListener("click", () => {
    const c = chosen();
    if (c) pick(c.start);
  });
  check.addEventListener("click", run);

  fetch("/api/challenges").then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status))))).then((body) => {
    list = body.challenges;
    box.hidden = !list.length;
    drawList();
  }).catch(() => (box.hidden = true));
}
