// The controls: buttons, keys, the scrubber, the pickers and an embedding page's messages, each turned into
// an action. Moving the cursor goes through the driver (which knows who may drive); the rest changes the page.
/** @import { createDriver } from "./driver.js" */
/** @import { createPage } from "./page.js" */
/** @import { readOptions } from "./options.js" */
import { $, drawnDark, targetOf } from "./dom.js";
import { bindKeys, drawKeyHelp } from "./keys.js";
import { MAX_ADDRESS, permalink, tabAddress, tooLongForAnAddress, viewOf } from "./links.js";
import { openOnArrival } from "./present-dialog.js";
import { askPrediction, wantsPrediction } from "./predict.js";
import { downloadExport } from "./exporting.js";
import { throttle } from "./throttle.js";
import { lessonAfter, offersCourse } from "./scenarioview.js";

const SPEEDS = [0.5, 1, 2, 4, 8];

/** @typedef {ReturnType<typeof createDriver>} Driver */
/** @typedef {ReturnType<typeof createPage>} Page */
/** @typedef {ReturnType<typeof bindControls>["actions"]} Actions what the buttons, keys and swipes do */

/**
 * @param {HTMLElement} app @param {ReturnType<typeof readOptions>} opts
 * @param {Driver} driver @param {Page} page @param {{on: (topic: string, fn: (...args: any[]) => void) => void}} bus
 */
export function bindControls(app, opts, driver, page, bus) {
  const { drive } = driver;
  const position = () => page.latest?.position || 0;
  const speedIndex = () => Math.max(0, SPEEDS.indexOf(Number($("speed").value)));

  /** @param {number} i */
  function setSpeed(i) {
    $("speed").value = String(SPEEDS[i]);
    if (page.latest?.playing) drive("play", { speed: SPEEDS[i] });
  }

  // Another scenario opens on its own versions (a lesson's pair).
  /** @param {string} id */
  function pick(id) {
    $("scenario-picker").value = id;
    page.reopenIntro();
    driver.versions = null;
    driver.load(id);
  }

  // Opened at its top (the keys first): focusing its Close button, the card's last thing, scrolled it to the end.
  function openHelp() {
    drawKeyHelp(actions, driver.following()); // a follower's keys are not a driver's
    $("help").hidden = false;
    $("help-close").focus({ preventScroll: true });
    $("help").querySelector(".help-card").scrollTop = 0;
  }

  function closeHelp() {
    $("help").hidden = true;
  }

  // Escape closes whatever of these is open (the Predict prompt, the versions menu and a term's tip close
  // themselves): the help, the blank screen, the legend, the link box and the link's notice.
  // Escape (``foundOpen``: whether it found something open, keys.js): closes what is open; with nothing open it
  // clears an error and leaves presentation mode.
  /** @param {string} _key @param {boolean} [foundOpen] */
  function close(_key, foundOpen = true) {
    closeHelp();
    $("blank").hidden = true;
    $("legend").open = false;
    closeLinkBox();
    page.hideLinkNotice();
    if (foundOpen) return;
    page.hideError();
    if (app.classList.contains("presenting")) actions.togglePresenting();
  }

  // The next step is a failure and the viewer asked to predict: ask first, reveal once the step is drawn.
  async function step() {
    if ($("predict").checked && wantsPrediction(page.latest?.scene) && !driver.following()) {
      const asked = /** @type {Wire.Scene & {predict: Wire.Predict}} */ (page.latest?.scene); // it wants one
      const guesses = await askPrediction($("predict-dialog"), asked);
      if (!guesses) return; // closed (Escape): nothing is stepped
      page.expectVerdict(guesses);
    }
    drive("step");
  }

  // The link is shown and copied; focus stays where it was (→ and PageDown still step). Where the clipboard is
  // refused, the link is selected to copy by hand (its field is read-only: the keys still act, keys.js TYPING).
  async function copyLink() {
    const source = /** @type {Source | string} */ (driver.source); // its button shows once a scenario is heard
    const link = await permalink(source, viewOf(driver, page.latest?.position));
    $("link-output").value = link;
    $("link-box").hidden = false;
    const tooLong = tooLongForAnAddress(link)
      ? ` It is ${link.length.toLocaleString("en")} characters: servers refuse addresses over ` +
        `${MAX_ADDRESS.toLocaleString("en")}, so share this scenario as an Offline file instead.`
      : "";
    try {
      await navigator.clipboard.writeText(link);
      $("link-status").textContent = `Link copied.${tooLong}`;
    } catch {
      $("link-output").select();
      $("link-status").textContent = `Copy the selected link.${tooLong}`;
    }
  }

  // Closed, the link box hands the focus it held back to its button.
  function closeLinkBox() {
    const box = $("link-box");
    if (!box || box.hidden) return;
    const held = box.contains(document.activeElement);
    box.hidden = true;
    if (held) $("btn-copy-link").focus();
  }

  function toggleTheme() {
    document.documentElement.dataset.theme = drawnDark() ? "light" : "dark";
  }

  // The scenario on screen, where it is and as it looks: a built-in by its id, one of the viewer's own inline
  // (or, too long for an address, handed over in this tab).
  async function present() {
    if (!driver.source) return; // nothing loaded yet: no room to present
    const address = (await tabAddress(driver.source, viewOf(driver, position()), "/present")).href;
    openOnArrival(); // the presenter's page opens on the Present dialog
    location.href = address;
  }

  const actions = {
    step,
    back: () => drive("back"),
    start: () => drive("seek", { position: opts.range ? opts.range[0] : 0 }),
    end: () => drive("seek", { position: opts.range ? opts.range[1] : page.scenario?.total ?? 0 }),
    divergence: () => page.scenario?.divergence != null && drive("seek", { position: page.scenario.divergence }),
    togglePlay: () => (page.latest?.playing ? drive("pause") : drive("play", { speed: Number($("speed").value) })),
    faster: () => setSpeed(Math.min(SPEEDS.length - 1, speedIndex() + 1)),
    slower: () => setSpeed(Math.max(0, speedIndex() - 1)),
    toggleTheme,
    toggleHelp: () => ($("help").hidden ? openHelp() : closeHelp()),
    close,
    togglePresenting: () => app.classList.toggle("presenting"),
    toggleBlank: () => ($("blank").hidden = !$("blank").hidden),
    toggleTables: () => page.setTables(!page.tables),
    toggleNarration: () => page.toggleNarration(),
    toggleLegend: () => ($("legend").open = !$("legend").open),
    /** @type {(() => void) | undefined} the course's next lesson, where the page offers the course */
    nextLesson: undefined,
  };
  if (offersCourse(opts.mode)) {
    actions.nextLesson = () => {
      const next = lessonAfter(page.scenario?.id);
      if (next) pick(next.id);
    };
  }

  /** @param {string} id @param {string} event @param {(ev: Event) => unknown} fn */
  const on = (id, event, fn) => $(id)?.addEventListener(event, fn);
  on("btn-step", "click", actions.step);
  on("btn-next-lesson", "click", () => actions.nextLesson?.());
  on("btn-back", "click", actions.back);
  on("btn-start", "click", actions.start);
  on("btn-end", "click", actions.end);
  on("btn-divergence", "click", actions.divergence);
  on("btn-play", "click", actions.togglePlay);
  on("btn-reset", "click", () => drive("reset"));
  on("speed", "change", () => setSpeed(speedIndex()));
  on("scrubber", "input", throttle((/** @type {number} */ to) => drive("seek", { position: to }), 50,
    (/** @type {Event} */ ev) => /** @type {[number]} */ ([Number(targetOf(ev).value)])));
  on("theme-toggle", "click", actions.toggleTheme);
  on("help-toggle", "click", actions.toggleHelp);
  on("help-close", "click", closeHelp);
  on("btn-copy-link", "click", copyLink);
  on("link-notice-close", "click", page.hideLinkNotice);
  on("link-box-close", "click", closeLinkBox);
  on("btn-presenting", "click", actions.togglePresenting);
  on("btn-exit-presenting", "click", actions.togglePresenting);
  on("btn-tables", "click", actions.toggleTables);
  on("btn-detach", "click", () => driver.toggleDetach());
  const range = /** @type {[number, number] | null} */ (opts.range); // readOptions makes it [from, to]
  const exportAs = (/** @type {string} */ kind) => {
    const button = $(`btn-export-${kind}`); // busy while the server draws (an animation takes seconds): one at a time
    if (button) button.disabled = true;
    const source = /** @type {Source | string} */ (driver.source); // null before any load: sent as it is
    return downloadExport(kind, source, position(), driver.linkVersions(), range)
      .catch((/** @type {Error} */ e) => page.showError(e.message))
      .finally(() => { if (button) button.disabled = false; });
  };
  on("btn-export-html", "click", () => exportAs("html"));
  on("btn-export-svg", "click", () => exportAs("svg"));
  on("btn-export-gif", "click", () => exportAs("gif"));
  on("btn-export-apng", "click", () => exportAs("apng"));
  on("btn-present", "click", present);
  on("scenario-picker", "change", (ev) => pick(targetOf(ev).value));
  if (opts.mode === "embed") listenToTheHost(app, actions, drive);
  bindSwipe($("panes"), actions);
  measureBar(document.querySelector(".controls"));
  bindKeys(actions);
  bus.on("pick", pick);
  return { actions };
}

// The bottom bar's height as --bar-h (on a phone the bar is fixed: the page ends that far below its content,
// so nothing stays hidden under it once scrolled to the end).
/** @param {Element | null} bar */
function measureBar(bar) {
  if (!bar || typeof ResizeObserver !== "function") return;
  new ResizeObserver(() => {
    document.documentElement.style.setProperty("--bar-h", `${Math.ceil(bar.getBoundingClientRect().height)}px`);
  }).observe(bar);
}

// A horizontal swipe on the stage steps: to the left forward, to the right back (vertical moves scroll).
/** @param {HTMLElement | null} stage @param {Actions} actions */
function bindSwipe(stage, actions) {
  if (!stage) return;
  /** @type {Point | null} */
  let start = null;
  stage.addEventListener("pointerdown", (ev) => {
    const reading = targetOf(ev).closest?.(".narration, .invariants, input, select, button, a");
    start = reading || ev.button > 0 ? null : { x: ev.clientX, y: ev.clientY };
  });
  stage.addEventListener("pointercancel", () => (start = null));
  stage.addEventListener("pointerup", (ev) => {
    if (!start) return;
    const dx = ev.clientX - start.x;
    const dy = ev.clientY - start.y;
    start = null;
    if (Math.abs(dx) < 50 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    if (dx < 0) actions.step();
    else actions.back();
  });
}

// An embedding page steps, goes back or seeks with postMessage; a click inside gives the keys to the embed. Only
// the embedding page (the parent window) and the embed itself (its story mode's scrolly.js) drive it: any origin
// may embed it, so the sender is told by its window, never its origin; a sibling frame's message is ignored.
/** @param {HTMLElement} app @param {Actions} actions @param {Driver["drive"]} drive */
function listenToTheHost(app, actions, drive) {
  app.tabIndex = -1;
  app.addEventListener("pointerdown", () => app.focus());
  window.addEventListener("message", (ev) => {
    const m = ev.data;
    if (ev.source !== window.parent && ev.source !== window) return;
    if (!m || m.type !== "inflight-scope") return;
    if (m.action === "step") actions.step();
    else if (m.action === "back") actions.back();
    else if (m.action === "seek" && Number.isInteger(m.position)) drive("seek", { position: m.position });
  });
}
