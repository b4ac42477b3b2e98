// The page: draws what the connection hands it. A model is drawn from its scene alone (every word is the
// scene's), one model at a time and in order: the hint walk of a step forward plays on the old view, then the
// panes are replaced and their elements move (animate.js). The page keeps the last model it was handed
// (`latest`, what the controls act on) and the one on screen (`shown`).
import { $, prefersReducedMotion, targetOf } from "./dom.js";
import { renderPane } from "./renderer.js";
import { capture, climaxBeats, playClimax, playHintWalk, playTransition } from "./animate.js";
import { attachPointers, follow, redrawAll } from "./pointers.js";
import { fitAll, showAllBadges } from "./fit.js";
import { drawLegend } from "./legend.js";
import { markPosition } from "./timeline.js";
import { renderTables } from "./tableview.js";
import { drawCounter, drawPlayback, drawVerdict, focusedIn, notices, refocus } from "./page-draw.js";
import { paceOf, repointed, steppedForward, tickMs, walkMs } from "./page-step.js";
import { renderPresenterNotes } from "./presenter.js";
import { drawNextLesson, drawOutcomes, drawScenario, offersCourse, watchOutcomes } from "./scenarioview.js";
import { drawDescription, notesWithheld } from "./spoilers.js";

// The page draws each scenario and model the bus publishes; the course's buttons publish `pick` (load a built-in).
/**
 * @param {HTMLElement} app @param {{mode: string}} opts
 * @param {{on: (topic: string, fn: (...args: any[]) => void) => void,
 *   emit: (topic: string, ...args: any[]) => void}} bus
 */
export function createPage(app, opts, bus) {
  /** @param {string} id */
  const pick = (id) => bus.emit("pick", id);
  let queue = Promise.resolve();
  let tables = $("tables").hidden === false; // the link's (?tables=1)
  /** @type {Record<string, string> | null} the viewer's predictions for the step on its way */
  let guesses = null;
  let stoppedForPrompt = false; // Play stopped for a prompt, its pause not yet drawn (showPaused)
  let introClosed = false;
  let narrationOpen = false; // the panes' narration disclosures: closed (the caption tells), `n` opens them all
  /** @type {Promise<unknown>} what the next model waits for (drawModel) */
  let held = Promise.resolve();
  watchOutcomes();
  addEventListener("resize", () => {
    fitAll($("panes"));
    redrawAll($("panes"));
  });
  // A click on one pane's disclosure is remembered for the panes drawn next.
  $("panes").addEventListener("toggle", (/** @type {Event} */ ev) => {
    const target = targetOf(ev);
    if (target.matches?.("details[data-testid=narration]")) narrationOpen = target.open;
  }, true);
  // Ticking or unticking Predict withholds or brings back what tells the answers ahead (spoilers.js).
  $("predict")?.addEventListener("change", () => page.shown && drawSpoilable(page.shown.scene));
  document.fonts?.ready.then(() => {
    fitAll($("panes"));
    redrawAll($("panes"));
  });

  const page = {
    ...notices,
    /** @type {ScenarioMessage | null} */
    scenario: null,
    /** @type {Model | null} */
    latest: null,
    /** @type {Model | null} */
    shown: null,

    /** @param {ScenarioMessage} msg */
    drawScenario(msg) {
      page.scenario = msg;
      drawScenario(msg, { mode: opts.mode, pick, position: 0 });
    },

    /** @param {Model} model */
    draw(model) {
      page.latest = model;
      if (!model.playing) stoppedForPrompt = false; // the pause Play stopped with has arrived
      queue = queue.then(() => drawModel(model));
    },

    // Play stopped for a prompt (flow.js): the button says so at once, not when the paused state is drawn (the
    // step before may still be playing its walk).
    showPaused() {
      stoppedForPrompt = true;
      if (page.latest) drawPlayback(page.latest, stoppedForPrompt);
    },

    /** @param {Record<string, string> | null} predicted */
    expectVerdict(predicted) {
      guesses = predicted;
    },

    /** @param {boolean} on */
    setTables(on) {
      tables = on;
      $("tables").hidden = !on;
      $("btn-tables").setAttribute("aria-pressed", String(on));
      if (on && page.shown) $("tables").replaceChildren(...renderTables(page.shown.scene));
    },

    get tables() {
      return tables;
    },

    toggleNarration(open = !narrationOpen) {
      narrationOpen = open;
      for (const d of $("panes").querySelectorAll("details[data-testid=narration]")) d.open = open;
    },

    reopenIntro() {
      introClosed = false;
      $("intro").open = true;
    },
  };

  /** @param {Model} model */
  async function drawModel(model) {
    await held;
    const previous = page.shown;
    const scene = model.scene;
    page.shown = model;
    app.classList.toggle("at-start", scene.position === 0);
    if (scene.position > 0 && !introClosed) {
      introClosed = true; // the intro folds away once the story starts; the summary reopens it
      $("intro").open = false;
    }
    page.hideError();
    const panes = $("panes");
    // Only a step forward moves; going back, seeking or loading cuts to the new picture.
    const forward = steppedForward(previous, model);
    const drawsGhosts = Object.values(scene.panes).some((pane) => pane.pointers !== undefined);
    const pace = paceOf(model);
    if (forward && !drawsGhosts) await playHintWalk(panes, scene.panes, walkMs(model));
    const before = forward ? capture(panes) : null;
    const focus = focusedIn(panes);
    $("first-frame")?.remove(); // the panes drawn on the server give way to the live ones, in the same frame
    panes.replaceChildren(...Object.values(scene.panes).map((pane) => renderPane(pane, { narrationOpen })));
    panes.dataset.count = String(Object.keys(scene.panes).length); // 1 to 4 columns (app.css)
    fitAll(panes);
    for (const pane of Object.values(scene.panes)) {
      const diagram = panes.querySelector(`[data-variant="${CSS.escape(pane.variant)}"] [data-testid=diagram]`);
      const entering = forward && previous && !prefersReducedMotion()
        ? { fresh: repointed(previous.scene.panes[pane.variant], pane), ms: climaxBeats(pace).fade } : {};
      if (diagram) attachPointers(diagram, pane.pointers, entering);
    }
    if (focus) queueMicrotask(() => refocus(panes, focus)); // after glossary.js has marked the new terms
    drawLegend(scene.legend);
    const climax = forward && drawsGhosts ? playClimax(panes, scene.panes, climaxBeats(pace))
      : { decided: 0, finished: null };
    if (forward) {
      playTransition(panes, before, { delay: climax.decided });
      follow(panes);
      const moves = panes.getAnimations({ subtree: true }).map((/** @type {Animation} */ a) => a.finished);
      Promise.all(moves).catch(() => {}).then(() => showAllBadges(panes)); // cancelled by a later draw: its own lists
    }
    if (tables) $("tables").replaceChildren(...renderTables(scene));
    drawCounter(scene);
    drawOutcomes(scene.outcomes, Object.keys(scene.panes));
    markPosition($("ticks"), scene.position);
    drawPlayback(page.latest ?? model, stoppedForPrompt);
    drawVerdict(guesses, scene);
    guesses = null;
    drawSpoilable(scene);
    drawNextLesson(page.scenario, scene, offersCourse(opts.mode));
    if (opts.mode === "embed") {
      const { position, total } = scene;
      parent.postMessage({ type: "inflight-scope", event: "position", position, total }, "*");
    }
    // Playing, the next step is drawn a tick after this one at the soonest, and once both beats of the climax have
    // played (at 8x a tick is 125 ms, shorter than the beats): the page may fall behind Play, never skip a beat
    held = model.playing ? Promise.all([climax.finished, new Promise((resolve) => setTimeout(resolve, tickMs(model)))])
      : Promise.resolve();
  }

  /** @param {Wire.Scene} scene */
  function drawSpoilable(scene) {
    if (page.scenario) drawDescription(page.scenario, scene.position);
    if ($("presenter-notes")) renderPresenterNotes($("presenter-notes"), scene, notesWithheld(scene));
  }

  bus.on("disconnect", () => page.disconnected());
  bus.on("scenario", (/** @type {ScenarioMessage} */ msg) => page.drawScenario(msg));
  bus.on("model", (/** @type {Model} */ model) => page.draw(model));
  return page;
}
