// "Predict" mode: before a failure is evaluated, ask where the pod will go; reveal after the step.
// The scene says when to ask (`predict`: the next step is a fail with the gate on), about which pod, with which
// choices; each pane's `outcome` is where the pod went and its `caption` what the walk saw (the why).
//
// The prompt owns its keys while it is open: ←/→ move between a row's choices (focus only), Space or Enter
// answers the focused choice (then the next unanswered row, then "Step and reveal"), Escape closes it
// (resolving null: nothing is stepped). Keys never reach the page's own bindings (keys.js) meanwhile.
import { focused, h, targetOf } from "./dom.js";

// The question asked of each pane, in the prompt and in a room's live poll (poll.js).
/** @param {string} pod @param {string} title */
export const question = (pod, title) => `Where will ${pod} go on ${title}?`;

/** @param {Wire.Scene | null | undefined} scene */
export function wantsPrediction(scene) {
  return Boolean(scene?.predict);
}

/**
 * What asks for a prediction: resolves with {variant: queue}, or null when nothing was answered.
 * @typedef {(dialog: HTMLElement, scene: Wire.Scene & {predict: Wire.Predict})
 *   => Promise<Record<string, string> | null>} Asker
 */
/** @type {Asker | null} a room's presenter asks the room instead (poll.js) */
let asker = null;

/** @param {Asker} fn */
export function askWith(fn) {
  asker = fn;
}

// Shows the prompt in `dialog`; resolves with {variant: queue} once the viewer answers every variant, or with
// null when it is closed. Focus returns where it was.
/** @type {Asker} */
export function askPrediction(dialog, scene) {
  if (asker) return asker(dialog, scene);
  const { pod, choices } = scene.predict;
  /** @type {Record<string, string>} */
  const guesses = {};
  const returnTo = focused();
  return new Promise((resolve) => {
    const reveal = h("button", { class: "btn primary", type: "button", text: "Step and reveal", disabled: true });
    const close = h("button", { class: "btn", type: "button", text: "Close", ariaKeyshortcuts: "Escape" });
    const panes = Object.values(scene.panes);
    const rows = panes.map((pane) =>
      h("fieldset", { class: "predict-row", dataVariant: pane.variant },
        h("legend", { text: question(pod, pane.title) }),
        choices.map((queue) => h("label", { class: "predict-choice" },
          h("input", { type: "radio", name: `guess-${pane.variant}`, value: queue,
            onchange: () => answered(pane.variant, queue) }),
          ` ${queue}`))));
    /** @param {Element} row */
    const radios = (row) =>
      [.../** @type {NodeListOf<HTMLInputElement>} */ (row.querySelectorAll("input[type=radio]"))];

    /** @param {string} variant @param {string} queue */
    function answered(variant, queue) {
      guesses[variant] = queue;
      reveal.disabled = Object.keys(guesses).length < rows.length;
      const next = rows.find((row) => !((row.dataset.variant ?? "") in guesses));
      (next ? radios(next)[0] : reveal).focus();
    }

    /** @param {Record<string, string> | null} result */
    function finish(result) {
      dialog.hidden = true;
      dialog.removeEventListener("keydown", onKey);
      dialog.replaceChildren();
      if (returnTo?.isConnected && returnTo !== document.body) returnTo.focus({ preventScroll: true });
      else focused()?.blur?.();
      resolve(result);
    }

    /** @param {KeyboardEvent} ev */
    function onKey(ev) {
      ev.stopPropagation(); // the page's keys (step, play…) do not act under the prompt
      const radio = targetOf(ev).closest?.("input[type=radio]");
      if (ev.key === "Escape") {
        ev.preventDefault();
        finish(null);
      } else if ((ev.key === "ArrowRight" || ev.key === "ArrowLeft") && radio) {
        ev.preventDefault(); // move, do not answer (a native radio group would check as it moves)
        const all = radios(radio.closest("fieldset"));
        const i = all.indexOf(radio) + (ev.key === "ArrowRight" ? 1 : -1);
        all[(i + all.length) % all.length].focus();
      } else if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && radio) {
        ev.preventDefault(); // the next or previous row
        const at = rows.indexOf(radio.closest("fieldset")) + (ev.key === "ArrowDown" ? 1 : -1);
        const row = rows[(at + rows.length) % rows.length];
        (/** @type {HTMLInputElement | null} */ (row.querySelector("input:checked")) ?? radios(row)[0]).focus();
      } else if ((ev.key === " " || ev.key === "Enter") && radio) {
        ev.preventDefault();
        radio.checked = true;
        answered(radio.closest("fieldset").dataset.variant, radio.value);
      } else if (ev.key === "Tab") {
        trapTab(ev, dialog);
      }
    }

    reveal.addEventListener("click", () => finish({ ...guesses }));
    close.addEventListener("click", () => finish(null));
    dialog.replaceChildren(h("div", { class: "help-card predict-card" }, h("h2", { text: "Predict" }), rows,
      h("div", { class: "predict-actions" }, reveal, close)));
    dialog.addEventListener("keydown", onKey);
    dialog.hidden = false;
    dialog.querySelector("input")?.focus();
  });
}

const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])";

// Keeps Tab inside `box` (a modal): from its last focusable to its first and back.
/** @param {KeyboardEvent} ev @param {Element} box */
export function trapTab(ev, box) {
  const focusable = [.../** @type {NodeListOf<HTMLElement & {disabled?: boolean}>} */ (box.querySelectorAll(FOCUSABLE))]
    .filter((el) => !el.disabled && el.getClientRects().length);
  if (!focusable.length) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (ev.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
    ev.preventDefault();
    last.focus();
  } else if (!ev.shiftKey && (document.activeElement === last || !box.contains(document.activeElement))) {
    ev.preventDefault();
    first.focus();
  }
}

// The guesses against where the pod went (the scene after the step), with why (the pane's caption): one line
// per variant.
/** @param {Record<string, string>} guesses @param {Wire.Scene} scene */
export function verdict(guesses, scene) {
  return Object.entries(guesses).map(([variant, guess]) => {
    const pane = scene.panes[variant];
    const actual = pane?.outcome;
    const why = pane?.caption ? ` — ${pane.caption}` : "";
    return `${variant}: you said ${guess}, it went to ${actual} ${guess === actual ? "✓" : "✗"}${why}`;
  }).join("\n");
}
