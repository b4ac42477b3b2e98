// The page: draws what the connection hands it. A model is drawn from its scene alone (every word is the
// scene's), one model at a time and in order: the hint walk of a step forward plays on the old view, then the
// panes are replaced and their elements move (animate.js). The page keeps the last model it was handed
// (`latest`, what the controls act on) and the one on screen (`shown`).
import { $, focused, h, prefersReducedMotion } from "./dom.js";
import { renderPane } from "./renderer.js";
import { capture, climaxBeats, playClimax, playHintWalk, playTransition } from "./animate.js";
import { attachPointers, follow, redrawAll } from "./pointers.js";
import { fitAll, showAllBadges } from "./fit.js";
import { drawLegend } from "./legend.js";
import { markPosition } from "./timeline.js";
import { renderTables } from "./tableview.js";
import { verdict } from "./predict.js";
import { renderPresenterNotes } from "./presenter.js";
import { drawOutcomes, drawScenario } from "./scenarioview.js";

// The page draws each scenario and model the bus publishes; the course's buttons publish `pick` (load a built-in).
export function createPage(app, opts, bus) {
  const pick = (id) => bus.emit("pick", id);
  let queue = Promise.resolve();
  let tables = $("tables").hidden === false; // the link's (?tables=1)
  let guesses = null; // the viewer's predictions for the step on its way
  let stoppedForPrompt = false; // Play stopped for a prompt, its pause not yet drawn (showPaused)
  let introClosed = false;
  let narrationOpen = false; // the panes' narration disclosures: closed (the caption tells), `n` opens them all
  /** @type {Promise<unknown>} what the next model waits for (drawModel) */
  let held = Promise.resolve();
  addEventListener("resize", () => {
    fitAll($("panes"));
    redrawAll($("panes"));
  });
  // A click on one pane's disclosure is remembered for the panes drawn next.
  $("panes").addEventListener("toggle", (ev) => {
    if (ev.target.matches?.("details[data-testid=narration]")) narrationOpen = ev.target.open;
  }, true);
  document.fonts?.ready.then(() => {
    fitAll($("panes"));
    redrawAll($("panes"));
  });

  const page = {
    scenario: null,
    latest: null,
    shown: null,

    drawScenario(msg) {
      page.scenario = msg;
      drawScenario(msg, { mode: opts.mode, pick });
    },

    draw(model) {
      page.latest = model;
      if (!model.playing) stoppedForPrompt = false; // the pause Play stopped with has arrived
      queue = queue.then(() => drawModel(model));
    },

    showError(message) {
      $("error").textContent = message;
      $("error").hidden = false;
    },

    hideError() {
      $("error").hidden = true;
    },

    // What was wrong with the link the page was opened with, and what is shown instead: a line of its notice
    // (the server writes the ones it finds into the page).
    linkProblem(text) {
      $("link-problems").append(h("li", { text }));
      $("link-notice").hidden = false;
    },

    hideLinkNotice() {
      $("link-notice").hidden = true;
    },

    // Play stopped for a prompt (flow.js): the button says so at once, not when the paused state is drawn (the
    // step before may still be playing its walk).
    showPaused() {
      stoppedForPrompt = true;
      drawPlayback();
    },

    expectVerdict(predicted) {
      guesses = predicted;
    },

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

    connected() {
      $("conn-status").hidden = true;
    },

    disconnected() {
      $("conn-status").hidden = false;
    },

    showRoom(room) {
      $("room-banner").hidden = false;
      $("room-code").textContent = room;
    },

    showDetached(detached) {
      $("btn-detach").textContent = detached ? "⟲ Snap back to presenter" : "Detach";
      $("room-status").textContent = detached ? "exploring on your own" : "following";
    },

    showAudienceLink(room) {
      const link = new URL(`/r/${room}`, location.href).href;
      $("audience-link").replaceChildren("Audience: ", h("a", { href: link, text: link }), h("span", { class: "code", text: ` code ${room}` }));
      $("audience-link").hidden = false;
    },
  };

  // The pods whose arrow is new in `now`, or aims elsewhere (another target, broken, decided) than `before`'s.
  function repointed(before, now) {
    const aim = (p) => `${p.target}|${p.key}|${p.detached}|${p.decided}`;
    const was = new Map((before?.pointers ?? []).map((p) => [p.pod, aim(p)]));
    return (now.pointers ?? []).filter((p) => was.get(p.pod) !== aim(p)).map((p) => p.pod);
  }

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
    const forward = previous && scene.position === previous.scene.position + 1 && sameScenario(previous, model);
    const drawsGhosts = Object.values(scene.panes).some((pane) => pane.pointers !== undefined);
    const pace = model.playing ? Math.min(1, 1 / (model.speed || 1)) : 1;
    if (forward && !drawsGhosts) {
      await playHintWalk(panes, scene.panes, model.playing ? (1000 / (model.speed || 1)) * 0.45 : 1400);
    }
    const before = forward ? capture(panes) : null;
    const focused = focusedIn(panes);
    panes.replaceChildren(...Object.values(scene.panes).map((pane) => renderPane(pane, { narrationOpen })));
    panes.dataset.count = String(Object.keys(scene.panes).length); // 1 to 4 columns (app.css)
    fitAll(panes);
    for (const pane of Object.values(scene.panes)) {
      const diagram = panes.querySelector(`[data-variant="${CSS.escape(pane.variant)}"] [data-testid=diagram]`);
      const entering = forward && !prefersReducedMotion()
        ? { fresh: repointed(previous.scene.panes[pane.variant], pane), ms: climaxBeats(pace).fade } : {};
      if (diagram) attachPointers(diagram, pane.pointers, entering);
    }
    if (focused) queueMicrotask(() => refocus(panes, focused)); // after glossary.js has marked the new terms
    drawLegend(scene.legend);
    const climax = forward && drawsGhosts ? playClimax(panes, scene.panes, climaxBeats(pace)) : { decided: 0, finished: null };
    if (forward) {
      playTransition(panes, before, { delay: climax.decided });
      follow(panes);
      const moves = panes.getAnimations({ subtree: true }).map((a) => a.finished);
      Promise.all(moves).catch(() => {}).then(() => showAllBadges(panes)); // cancelled by a later draw: its own lists
    }
    if (tables) $("tables").replaceChildren(...renderTables(scene));
    // the counter, and where the variants first differ a flag with its words (on a phone only the flag)
    const differs = scene.positionText !== scene.counter && scene.counter;
    $("position").replaceChildren(...(differs ? [scene.counter,
      h("span", { class: "differs", title: scene.positionText.slice(scene.counter.length).replace(/^[\s·]+/, "") },
        h("span", { class: "flag", ariaHidden: "true", text: " ⚑" }), h("span", { class: "words", text: scene.positionText.slice(scene.counter.length) }))]
      : [scene.positionText]));
    $("scrubber").value = scene.position;
    $("step-note").textContent = scene.caption;
    drawOutcomes(scene.outcomes, Object.keys(scene.panes));
    markPosition($("ticks"), scene.position);
    drawPlayback();
    drawVerdict(scene);
    if ($("presenter-notes")) renderPresenterNotes($("presenter-notes"), scene);
    if (opts.mode === "embed") parent.postMessage({ type: "inflight-scope", event: "position", position: scene.position, total: scene.total }, "*");
    // Playing, the next step is drawn a tick after this one at the soonest, and once both beats of the climax have
    // played (at 8x a tick is 125 ms, shorter than the beats): the page may fall behind Play, never skip a beat
    held = model.playing ? Promise.all([climax.finished, new Promise((resolve) => setTimeout(resolve, 1000 / (model.speed || 1)))])
      : Promise.resolve();
  }

  // Focus inside a pane survives its redrawing: on the same term of the same pane if it is still drawn, else on
  // the pane (it fell to the page's body, and the next Tab started from the top).
  function focusedIn(panes) {
    const el = focused();
    if (!el || !panes.contains(el)) return null;
    return { variant: el.closest("[data-variant]")?.getAttribute("data-variant"), term: el.dataset.term, text: el.textContent };
  }

  function refocus(panes, { variant, term, text }) {
    const pane = [...panes.querySelectorAll(":scope > [data-variant]")].find((p) => p.dataset.variant === variant);
    if (!pane) return;
    const same = term && [...pane.querySelectorAll(".term")].find((t) => t.dataset.term === term && t.textContent === text);
    (same || pane).focus({ preventScroll: true });
  }

  // A step forward within one scenario (a new load starts over at its own position).
  function sameScenario(previous, model) {
    return previous.scene.total === model.scene.total && Object.keys(previous.scene.panes).join() === Object.keys(model.scene.panes).join();
  }

  // The button says what the newest message says (the one drawn may be a tick behind it), or paused once Play has
  // stopped for a prompt (its pause on its way).
  function drawPlayback() {
    const { playing, speed } = page.latest;
    const shown = playing && !stoppedForPrompt;
    const play = $("btn-play");
    play.textContent = shown ? "⏸ Pause" : "▶ Play";
    play.setAttribute("aria-label", shown ? "Pause" : "Play");
    // the speed playing (a room's: its presenter's); paused, the one chosen for the next Play stays (each step's
    // message put back the speed of the last Play)
    if (playing) $("speed").value = String(speed);
  }

  function drawVerdict(scene) {
    const box = $("prediction");
    box.hidden = !guesses;
    if (!guesses) return;
    box.textContent = verdict(guesses, scene);
    guesses = null;
    // Brought into view above the pinned (on a phone: fixed) controls: on a short screen it was drawn under them, on
    // a phone far down the page. flow.css gives it a row and the scroll margins: the bar's height (--bar-h) is
    // measured after the next frame's layout (controls.js; this step's counter may have made the bar taller), so
    // two frames on.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (!box.hidden) box.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
    }));
  }

  bus.on("disconnect", () => page.disconnected());
  bus.on("scenario", (msg) => page.drawScenario(msg));
  bus.on("model", (model) => page.draw(model));
  return page;
}
