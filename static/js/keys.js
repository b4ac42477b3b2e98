// Keyboard (and presentation clickers, which send PageDown/PageUp, "." or "b"); ignored while typing.
// One table: each row's keys, how the help dialog shows them, the action they call and what it does. The `?`
// help lists the rows whose action the page has (the explore rows only where the diagram can be acted on).
import { $, h, targetOf } from "./dom.js";

const DIGITS = ["1", "2", "3", "4", "5"]; // the palette's events (explore.js PALETTE)

// `keys` are KeyboardEvent.key values, with "Ctrl+" when Ctrl (or ⌘) is held; a letter is upper case with Shift.
export const KEYS = [
  { keys: ["ArrowRight", "PageDown"], shown: "→ / PageDown", action: "step", drives: true, does: "step forward" },
  { keys: ["ArrowLeft", "PageUp"], shown: "← / PageUp", action: "back", drives: true, does: "step back" },
  { keys: [" "], shown: "Space", action: "togglePlay", drives: true, does: "play / pause" },
  { keys: ["Home"], shown: "Home", action: "start", drives: true, does: "jump to the start" },
  { keys: ["End"], shown: "End", action: "end", drives: true, does: "jump to the end" },
  { keys: ["d"], shown: "d", action: "divergence", drives: true,
    does: "jump to the first step where the variants differ" },
  { keys: ["+", "="], shown: "+", action: "faster", drives: true, does: "faster" },
  { keys: ["-"], shown: "−", action: "slower", drives: true, does: "slower" },
  { keys: ["N"], shown: "Shift+N", action: "nextLesson", does: "the next lesson of the course" },
  { keys: ["p"], shown: "p", action: "togglePresenting", does: "presentation mode (large type, no chrome)" },
  { keys: ["n"], shown: "n", action: "toggleNarration", does: "show / hide the full narration under each diagram" },
  { keys: ["l"], shown: "l", action: "toggleLegend", does: "show / hide the legend" },
  { keys: ["b", "."], shown: "b or .", action: "toggleBlank", does: "blank the screen" },
  { keys: ["S"], shown: "Shift+S", action: "openSpeaker",
    does: "speaker view: a window with this step small, the next step, the notes and a timer; it follows the room" },
  { keys: ["v"], shown: "v", action: "toggleTables", does: "table view" },
  { keys: ["c"], shown: "c", action: "toggleSource",
    does: "show / hide the upstream source under each diagram, the lines the step ran lit in order" },
  { keys: ["C"], shown: "Shift+C", action: "toggleSourceDiff",
    does: "source diff: v1.28.1 and v1.28.2 side by side, their functions aligned (the fix, #120445)" },
  { keys: ["t"], shown: "t", action: "toggleTheme", does: "toggle theme" },
  // Acting on the diagram forks the scenario at this position (explore.js).
  { keys: ["o"], shown: "o", action: "pop",
    does: "act: pop the head of activeQ (or click the head's chip, tinted, first in activeQ)" },
  { keys: DIGITS, shown: "1 … 5", action: "event", does: "act: deliver the palette's 1st … 5th event" },
  { keys: ["e"], shown: "e", action: "chooseEvent", does: "act: choose any event (Enter delivers it)" },
  { keys: ["i"], shown: "i", action: "nextInFlight", does: "act: select the next in-flight pod (or click its chip)" },
  { keys: ["f"], shown: "f", action: "fail", does: "act: fail the selected in-flight pod with the ticked plugins" },
  { keys: ["x"], shown: "x", action: "done", does: "act: finish the selected in-flight pod (Done)" },
  { keys: ["u"], shown: "u", action: "update",
    does: "act: update the selected in-flight pod (before 1.31 a copy of it enters activeQ)" },
  { keys: ["a"], shown: "a", action: "advance", does: "act: advance the clock by the seconds set" },
  { keys: ["Ctrl+z"], shown: "Ctrl+Z", action: "undo", does: "undo the last fork (back to the scenario before it)" },
  { keys: ["Ctrl+Z", "Ctrl+y"], shown: "Ctrl+Shift+Z", action: "redo", does: "redo the fork undone" },
  { keys: ["s"], shown: "s", action: "switchBranch",
    does: "switch to the fork's other branch (the scenario it was forked from)" },
  { keys: ["F"], shown: "Shift+F", action: "find", does: "find a divergence: search, shrink and open it" },
  { keys: ["V"], shown: "Shift+V", action: "askRoom", does: "ask the room what should happen next (a vote)" },
  { keys: ["?"], shown: "?", action: "toggleHelp", does: "this help (Esc closes)" },
  { keys: ["Escape"], shown: "Esc", action: "close", does: "close what is open: the help, the legend, the link box, " +
    "a notice, the blank screen; with nothing open, leave presentation mode" },
];

// Where keys type (a read-only field, the copied link's, types nothing: the keys still step there).
// What Escape closes while it is open (controls.js close(); the Predict prompt, a term's tip and the versions menu
// close themselves): a key that closes one of these does nothing else (poll.js does not withdraw the poll then).
export const CLOSED_BY_ESCAPE = ".help:not([hidden]), .term-tip:not([hidden]), details[open].versions-picker, "
  + "#legend[open], #link-box:not([hidden]), #link-notice:not([hidden]), #blank:not([hidden])";

export const TYPING = "input[type=text]:not([readonly]), input[type=url]:not([readonly]), input[type=number], " +
  "textarea, select, [contenteditable]";
// A focused (closed) select keeps ↑/↓ and its letters, but the page's stepping keys step and play, and ? opens the
// help: ← and → changed the speed (or the event chosen) instead, and Escape leaves it (it kept the keys after
// choosing a speed).
const PRESSABLE = "button, summary, input[type=checkbox]"; // what Space presses or ticks
// What else Escape closes, by itself: the Predict prompt, a presenter's open poll (poll.js withdraws it)
const CLOSE_THEMSELVES = "#predict-dialog:not([hidden]), [data-testid=poll-reveal]";
const STEPPING = new Set(["ArrowLeft", "ArrowRight", "PageUp", "PageDown", " ", "?"]);

// `actions`: name -> fn(key); looked up at each key press, so actions added later (explore.js) work.
/** @param {Record<string, ((key: string, foundOpen: boolean) => void) | undefined>} actions */
export function bindKeys(actions) {
  const rows = new Map(KEYS.flatMap((row) => row.keys.map((key) => [key, row])));
  // Whether Escape found something open, asked before anything closes itself on it (a tip, the Predict prompt, the
  // versions menu): such an Escape closes only that (it must not also leave presentation mode).
  let foundOpen = false;
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") foundOpen = Boolean(document.querySelector(`${CLOSED_BY_ESCAPE}, ${CLOSE_THEMSELVES}`));
  }, true);
  // The control the pointer last pressed, while it keeps the focus (a key press makes it :focus-visible, so that
  // cannot tell).
  /** @type {Element | null} */
  let clicked = null;
  document.addEventListener("pointerdown", (ev) => {
    const target = targetOf(ev);
    const label = target.closest?.("label")?.control; // a control's label clicked: that control
    clicked = target.closest?.(PRESSABLE) ?? (label?.matches(PRESSABLE) ? label : null);
  }, true);
  document.addEventListener("focusout", (ev) => ev.target === clicked && (clicked = null), true);
  document.addEventListener("keydown", (ev) => {
    const target = targetOf(ev);
    const select = target.closest?.("select");
    if (select && ev.key === "Escape" && !ev.altKey) {
      select.blur();
      return;
    }
    if ((target.closest(TYPING) && !(select && STEPPING.has(ev.key))) || ev.altKey) return;
    const chord = ev.ctrlKey || ev.metaKey ? `Ctrl+${letter(ev)}` : letter(ev);
    // A modal (help, the Predict prompt) owns the keys: only Escape and ? (help) reach the page meanwhile.
    if (document.querySelector(".help:not([hidden])") && chord !== "Escape" && chord !== "?") return;
    const row = rows.get(chord);
    const fn = row && actions[row.action];
    if (!fn) return;
    // Space on a button or disclosure focused from the keyboard clicks it, on such a checkbox ticks it; focused by a
    // click, Space plays (it clicked the control again: Theme back, Predict off, Reset again).
    const pressable = chord === " " && target.closest(PRESSABLE);
    if (pressable && pressable !== clicked) return;
    ev.preventDefault();
    fn(ev.key, foundOpen);
  });
  drawKeyHelp(actions);
}

// A letter's case says whether Shift is held, not Caps Lock (Ctrl+Shift+Z may arrive as "z", "f" as "F").
/** @param {KeyboardEvent} ev */
function letter(ev) {
  if (!/^[a-z]$/i.test(ev.key)) return ev.key;
  return ev.shiftKey ? ev.key.toUpperCase() : ev.key.toLowerCase();
}

// The help dialog's table: a row per key the page answers; a follower of a room (`following`) is shown no key that
// drives (they only said "press Detach"), and how to drive.
/** @param {Record<string, unknown>} actions @param {boolean} following */
export function drawKeyHelp(actions, following = false) {
  const table = $("help-keys");
  if (!table) return;
  const rows = KEYS.filter((row) => row.does && actions[row.action] && !(following && row.drives));
  table.replaceChildren(
    ...(following ? [h("tr", { dataAction: "detach" }, h("th", { text: "Detach" }),
      h("td", { text: "you follow the presenter: Detach (the button) to step, play and seek on your own" }))] : []),
    ...rows.map((row) => h("tr", { dataAction: row.action },
      h("th", { text: row.shown }), h("td", { text: row.does }))));
}
