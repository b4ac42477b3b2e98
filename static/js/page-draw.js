// The page's chrome (page.js draws the panes and decides when): its notices and banners, and from a scene the
// counter, the playback button, the verdict on a prediction, and focus kept inside the panes across a redraw.
import { $, focused, h, prefersReducedMotion } from "./dom.js";
import { verdict } from "./predict.js";
import { showAudienceLink } from "./present-dialog.js";

// The page's notices and banners, which keep nothing of their own: the error line, the link's notice, the
// connection's, a room's banner and the presenter's audience link.
export const notices = {
  /** @param {string} message */
  showError(message) {
    $("error").textContent = message;
    $("error").hidden = false;
  },

  hideError() {
    $("error").hidden = true;
  },

  // What was wrong with the link the page was opened with, and what is shown instead: a line of its notice
  // (the server writes the ones it finds into the page).
  /** @param {string} text */
  linkProblem(text) {
    $("link-problems").append(h("li", { text }));
    $("link-notice").hidden = false;
  },

  hideLinkNotice() {
    $("link-notice").hidden = true;
  },

  connected() {
    $("conn-status").hidden = true;
  },

  disconnected() {
    $("conn-status").hidden = false;
  },

  /** @param {string} room */
  showRoom(room) {
    $("room-banner").hidden = false;
    delete $("room-banner").dataset.held; // the room the page held for it (the first frame's, firstframe.css)
    $("room-code").textContent = room;
  },

  /** @param {boolean} detached */
  showDetached(detached) {
    $("btn-detach").textContent = detached ? "⟲ Snap back to presenter" : "Detach";
    $("room-status").textContent = detached ? "exploring on your own" : "following";
  },

  // On an address the room can reach, with the Present dialog's QR code (present-dialog.js).
  /**
   * @param {string} room
   * @param {string} token
   */
  showAudienceLink(room, token) {
    return showAudienceLink(room, token);
  },
};

// The counter, and where the variants first differ a flag with its words (on a phone only the flag); the scrubber
// and the step's note. @param {Wire.Scene} scene
/** @param {Wire.Scene} scene */
export function drawCounter(scene) {
  const differs = scene.positionText !== scene.counter && scene.counter;
  const words = scene.positionText.slice(scene.counter.length);
  $("position").replaceChildren(...(differs ? [scene.counter,
    h("span", { class: "differs", title: words.replace(/^[\s·]+/, "") },
      h("span", { class: "flag", ariaHidden: "true", text: " ⚑" }), h("span", { class: "words", text: words }))]
    : [scene.positionText]));
  $("scrubber").value = scene.position;
  $("step-note").textContent = scene.caption;
}

/**
 * The button says what the newest message says (the one drawn may be a tick behind it), or paused once Play has
 * stopped for a prompt (`stoppedForPrompt`: its pause on its way).
 * @param {{playing: boolean, speed: number}} latest @param {boolean} stoppedForPrompt
 */
export function drawPlayback({ playing, speed }, stoppedForPrompt) {
  const shown = playing && !stoppedForPrompt;
  const play = $("btn-play");
  play.textContent = shown ? "⏸ Pause" : "▶ Play";
  play.setAttribute("aria-label", shown ? "Pause" : "Play");
  // the speed playing (a room's: its presenter's); paused, the one chosen for the next Play stays (each step's
  // message put back the speed of the last Play)
  if (playing) $("speed").value = String(speed);
}

/**
 * The verdict on `guesses` (the viewer's predictions for this step; null: none, and the box is hidden).
 * @param {Record<string, string> | null} guesses @param {Wire.Scene} scene
 */
export function drawVerdict(guesses, scene) {
  const box = $("prediction");
  box.hidden = !guesses;
  if (!guesses) return;
  box.textContent = verdict(guesses, scene);
  // Brought into view above the pinned (on a phone: fixed) controls: on a short screen it was drawn under them, on
  // a phone far down the page. flow.css gives it a row and the scroll margins: the bar's height (--bar-h) is
  // measured after the next frame's layout (controls.js; this step's counter may have made the bar taller), so
  // two frames on.
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (!box.hidden) box.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }));
}

/**
 * Where the focus is inside `panes` (null: not there), to put it back after the redraw (refocus).
 * @param {HTMLElement} panes @returns {{variant?: string | null, term?: string, text: string | null} | null}
 */
export function focusedIn(panes) {
  const el = focused();
  if (!el || !panes.contains(el)) return null;
  return { variant: el.closest("[data-variant]")?.getAttribute("data-variant"), term: el.dataset.term,
    text: el.textContent };
}

/**
 * Focus inside a pane survives its redrawing: on the same term of the same pane if it is still drawn, else on the
 * pane (it fell to the page's body, and the next Tab started from the top).
 * @param {HTMLElement} panes @param {{variant?: string | null, term?: string, text: string | null}} where
 */
export function refocus(panes, { variant, term, text }) {
  const pane = [...panes.querySelectorAll(":scope > [data-variant]")]
    .find((p) => p.getAttribute("data-variant") === variant);
  if (!pane) return;
  const same = term && [...pane.querySelectorAll(".term")]
    .find((t) => t.getAttribute("data-term") === term && t.textContent === text);
  /** @type {HTMLElement} */ (same || pane).focus({ preventScroll: true });
}
