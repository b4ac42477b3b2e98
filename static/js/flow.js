// The flow around the picture: your place kept in the address bar, keyboard and focus (the skip link, the help
// dialog as a modal, the picker letting go of the keys), Predict stopping Play at every prompt, a room's blank
// screen, the audience's locked view, the embed's locked range, and the way to the editor.
import { $, h, targetOf } from "./dom.js";
import { decodeScenario, DRAFT_KEY, HANDOFF_ID, HANDOFF_KEY, tabAddress, viewOf, VIEWER_KEY } from "./links.js";
import { trapTab, wantsPrediction } from "./predict.js";
import { useGlossary, watchTerms } from "./glossary.js";

/** @import { createDriver } from "./driver.js" */
/** @import { createPage } from "./page.js" */
/** @import { readOptions } from "./options.js" */
/** @import { createBus } from "./bus.js" */
/** @typedef {ReturnType<typeof createDriver>} Driver */
/** @typedef {ReturnType<typeof createPage>} Page */
/** @typedef {ReturnType<typeof readOptions>} Options */
/** @typedef {ReturnType<typeof createBus>} Bus */
/** @typedef {{blank: boolean}} Screen the room's blank screen, as its presenter last set it */

/**
 * @param {HTMLElement} app @param {Options} opts @param {Driver} driver @param {Page} page @param {Bus} bus
 */
export function createFlow(app, opts, driver, page, bus) {
  const served = !$("inflight-bundle"); // not the offline file
  const place = (opts.mode === "main" || opts.mode === "present") && served ? keepPlace(app, driver, page) : null;
  watchTerms($("panes"));
  bindSkipLink();
  bindHelpModal();
  // → steps again, not the picker
  $("scenario-picker")?.addEventListener("change", (/** @type {Event} */ ev) => targetOf(ev).blur());
  bindEditorLink(driver);
  if (opts.mode === "present") relayBlank(driver);
  /** @type {Screen} */
  const screen = { blank: false };
  if (opts.mode === "audience") lockAudience(app, driver, screen);
  keepStageSize(app);
  let asking = false;
  /** @type {number | null} where Play stopped for a prompt */
  let stopped = null;
  const prompting = () => !$("predict-dialog").hidden || Boolean(document.querySelector("[data-testid=poll-reveal]"));

  bus.on("scenario", (/** @type {ScenarioMessage} */ msg) => {
    useGlossary(msg.glossary, $("help")?.querySelector(".help-card"));
    if (opts.range) lockRange(opts.range);
    place?.scenario(msg);
  });

  bus.on("model", (/** @type {Model} */ model) => {
    place?.model(model);
    // With Predict on, Play stops at every prompt and waits for the answer (the step then reveals). A tick that
    // slipped past before the pause arrived is taken back while the prompt is open.
    if (stopped !== null) {
      if (model.position > stopped && prompting()) driver.drive("seek", { position: stopped });
      else if (model.position !== stopped) stopped = null;
    }
    if (model.playing && $("predict").checked && wantsPrediction(model.scene) && !driver.following() && !asking) {
      asking = true;
      stopped = model.position;
      driver.drive("pause");
      page.showPaused();
      $("btn-step").click();
      setTimeout(() => (asking = false), 0);
    }
  });

  // The room's blank screen: followers see it; a presenter only on coming back (a reload): the room's echoes of
  // its own key presses would toggle it again.
  bus.on("room", (/** @type {string} */ event, /** @type {{on: boolean, joined?: boolean}} */ msg) => {
    if (event !== "blank") return;
    screen.blank = msg.on;
    const shown = opts.mode === "audience" ? !driver.detached : opts.mode === "present" && msg.joined;
    if (shown && $("blank").hidden === msg.on) $("blank").hidden = !msg.on; // unchanged: no relay
  });
}

// The table view opens under the diagram without squeezing it: the panes keep the height they had without it
// (--panes-h, flow.css) and the page scrolls to the tables.
/** @param {HTMLElement} app */
function keepStageSize(app) {
  const panes = $("panes");
  if (!panes || typeof ResizeObserver !== "function") return;
  new ResizeObserver(() => {
    if ($("tables").hidden) app.style.setProperty("--panes-h", `${Math.round(panes.getBoundingClientRect().height)}px`);
  }).observe(panes);
}

// --- your place: the address bar is the view (scenario, position, versions, theme, presentation mode, Predict);
// the presenter's keeps its room in the fragment ---------------------------------------------------------------
/** @param {HTMLElement} app @param {Driver} driver @param {Page} page */
function keepPlace(app, driver, page) {
  /** @type {string | null} the scenario on screen (its key) */
  let shown = null;
  let newEntry = false; // the next address is a new history entry (another scenario)
  let restoring = false; // Back/Forward is loading a scenario: no new entry for it
  let writing = Promise.resolve();
  /** @type {Source | string | null} the scenario held in the current history entry's state (one handed over) */
  let kept = null;

  /** @param {Model} model @returns {Promise<{href: string, handedOff: Source | string | null}>} */
  async function address(model) {
    const source = /** @type {Source | string} */ (driver.source); // a model is shown: its scenario was heard
    const { href, handedOff } = await tabAddress(source, viewOf(driver, model.position), location.pathname);
    return { href: Object.assign(new URL(href), { hash: location.hash }).href, handedOff };
  }

  // A scenario handed over in the tab is also kept in its history entry: Back and Forward between two long
  // scenarios find each its own (the tab's hand-off holds the latest only).
  /** @param {Model | null} model */
  function write(model) {
    writing = writing.then(async () => {
      if (!driver.source || !model) return;
      const { href, handedOff } = await address(model);
      if (href === location.href && kept === handedOff) return;
      const state = handedOff ? { handedOff } : null;
      if (newEntry) history.pushState(state, "", href);
      else history.replaceState(state, "", href);
      kept = handedOff;
      newEntry = false;
    }).catch(() => {});
  }

  function handedOver() {
    try {
      return history.state?.handedOff ?? JSON.parse(sessionStorage.getItem(HANDOFF_KEY) ?? "null") ?? driver.source;
    } catch {
      return driver.source;
    }
  }

  const rewrite = () => write(page.latest);
  const changes = new MutationObserver(rewrite);
  changes.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  changes.observe(app, { attributes: true, attributeFilter: ["class"] }); // presentation mode
  changes.observe($("tables"), { attributes: true, attributeFilter: ["hidden"] }); // the table view
  $("predict").addEventListener("change", rewrite);

  // Back and Forward: the entry's scenario, position, versions and theme (presentation mode and Predict stay as
  // they are, and are written into it).
  addEventListener("popstate", async () => {
    const q = new URLSearchParams(location.search);
    const theme = q.get("theme");
    document.documentElement.dataset.theme = theme === "light" || theme === "dark" ? theme : "auto";
    driver.versions = q.get("versions")?.split(",") ?? null; // the scenario message ticks the picker
    const source = q.get("inline") ? await decodeScenario(q.get("inline"))
      : q.get("scenario") === HANDOFF_ID ? handedOver() : q.get("scenario") || driver.source;
    restoring = true;
    kept = q.get("scenario") === HANDOFF_ID ? source : null;
    driver.source = source; // an inline scenario is what the page now shows (a fork's Back goes to the one before)
    driver.load(source, Number(q.get("position")) || 0);
  });

  return {
    /** @param {ScenarioMessage} msg */
    scenario(msg) {
      const key = msg.id ?? `inline:${msg.name}:${msg.total}`;
      newEntry = shown !== null && key !== shown && !restoring;
      restoring = false;
      shown = key;
    },
    model: write,
  };
}

// --- keyboard and focus ----------------------------------------------------------------------------------
function bindSkipLink() {
  const link = $("skip-link");
  link?.addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    ev.preventDefault(); // no fragment: a presenter's address holds its room there
    $("btn-step").focus();
  });
}

// The help dialog is a modal: Tab stays inside, Escape closes it (keys.js), focus returns where it was.
function bindHelpModal() {
  const help = $("help");
  if (!help) return;
  /** @type {HTMLElement | null} */
  let returnTo = null;
  document.addEventListener("focusin", (ev) => {
    if (!help.contains(ev.target)) returnTo = targetOf(ev); // the element taking the focus
  });
  help.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key === "Tab") trapTab(ev, help);
  });
  help.addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    if (ev.target === help) $("help-close").click(); // a click beside the card closes it
  });
  new MutationObserver(() => {
    if (help.hidden && help.contains(document.activeElement)) {
      (returnTo?.isConnected ? returnTo : $("help-toggle"))?.focus();
    } else if (help.hidden && document.activeElement === document.body && returnTo?.isConnected) {
      returnTo.focus();
    }
  }).observe(help, { attributes: true, attributeFilter: ["hidden"] });
}

// --- the editor opens the scenario on screen ---------------------------------------------------------------
/** @param {Driver} driver */
function bindEditorLink(driver) {
  const link = $("btn-editor");
  link?.addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    const source = driver.source;
    if (!source) return;
    ev.preventDefault();
    sessionStorage.setItem(VIEWER_KEY, location.href);
    if (typeof source === "string") {
      location.href = `/editor?scenario=${encodeURIComponent(source)}`;
      return;
    }
    let draft = null;
    try {
      draft = JSON.parse(localStorage.getItem(DRAFT_KEY) ?? "null");
    } catch { /* no draft */ }
    if (!draft || JSON.stringify(draft.ran) !== JSON.stringify(source)) {
      draft = { from: "", text: JSON.stringify(source, null, 2), format: "json", ran: source };
      try {
        localStorage.setItem(DRAFT_KEY, JSON.stringify(draft));
      } catch { /* storage full or refused: the editor starts from its template */ }
    }
    location.href = `/editor?draft=1${draft.from ? `&scenario=${encodeURIComponent(draft.from)}` : ""}`;
  });
}

// --- rooms -------------------------------------------------------------------------------------------------
// The presenter's blank key (b or .) blanks the followers' screens too, one change at a time: the next is sent
// once the server has taken the one before (two presses within a round trip were taken in either order, and the
// room's screens stayed blank under an unblanked presenter). A change made meanwhile is sent then, if it still
// differs from what the room was told.
/** @param {Driver} driver */
function relayBlank(driver) {
  const blank = $("blank");
  let told = false; // what the room was last told: a page starts unblanked
  let asking = false;
  const relay = async () => {
    if (asking || told === !blank.hidden) return;
    asking = true;
    told = !blank.hidden;
    try {
      await driver.ask("blank", { on: told });
    } catch {
      // unanswered (the connection dropped): the room hears the screen's state at the next change
    }
    asking = false;
    relay();
  };
  new MutationObserver(relay).observe(blank, { attributes: true, attributeFilter: ["hidden"] });
}

// What a follower's blank screen says: dim, not black, so a phone that joins then is not taken for a broken page.
export const PAUSED_SCREEN = "The presenter paused the screen";

// An audience member follows: no driving controls (until it detaches), the room's scenario only.
/** @param {HTMLElement} app @param {Driver} driver @param {Screen} screen */
function lockAudience(app, driver, screen) {
  $("blank").classList.add("paused");
  $("blank").replaceChildren(h("p", { class: "blank-note", role: "status", text: PAUSED_SCREEN }));
  const sync = () => {
    app.classList.toggle("following", !driver.detached);
    $("scenario-picker").disabled = !driver.detached;
    $("scrubber").disabled = !driver.detached;
    $("versions-menu").disabled = !driver.detached; // the room shows the presenter's versions
    $("scenario-picker").title = driver.detached ? "" : "Locked to the room's scenario";
    $("blank").hidden = driver.detached || !screen.blank; // snapped back: the room's screen, blank or not
  };
  $("btn-detach")?.addEventListener("click", () => setTimeout(sync)); // after the driver has toggled
  sync();
}

// An embed locked to [from, to]: its scrubber and ticks span that range only.
/** @param {number[]} range */
function lockRange([from, to]) {
  const scrubber = $("scrubber");
  scrubber.min = String(from);
  scrubber.max = String(to);
  for (const tick of $("ticks").children) {
    tick.hidden = Number(tick.dataset.step) <= from || Number(tick.dataset.step) > to;
  }
}
