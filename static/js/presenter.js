// The presenter's notes: this step's note, the next one's, and what the next step will do on each variant.
// The headings are the page's (present.html, speaker.html); the lines are the scene's `notes` and `upcoming`.
// And the speaker view: from the presenter's page one key (Shift+S, keys.js) opens it in a window of its own,
// following the room (speaker.js).
import { h } from "./dom.js";
import { drawKeyHelp } from "./keys.js";
import { NOTES_WITHHELD } from "./spoilers.js";

// `withheld`: the next step is the one a prompt asks about (spoilers.js), and its notes say so instead.
/** @param {HTMLElement} box @param {Wire.Scene} scene @param {boolean} withheld */
export function renderPresenterNotes(box, scene, withheld = false) {
  const [now, next, ahead] = ["now", "next", "upcoming"].map((part) => box.querySelector(`[data-notes=${part}]`));
  if (!scene.notes || !now || !next || !ahead) return; // not a room's scene: nothing to present
  now.textContent = scene.notes.now;
  next.textContent = withheld ? NOTES_WITHHELD : scene.notes.next;
  const upcoming = withheld ? [] : Object.entries(scene.upcoming || {});
  ahead.replaceChildren(...upcoming.map(([variant, n]) =>
    h("div", { class: "upcoming" }, h("h3", { text: `${scene.panes[variant]?.title ?? variant}: ${n.title}` }),
      h("ul", {}, n.lines.map((line) => h("li", { text: line }))))));
}

// The presenter's page gets the `openSpeaker` action (its key row in keys.js) once its room is known: a window
// named for the speaker view, so a second press brings the same one back.
/**
 * @param {{mode: string, room?: string | null, token?: string | null}} opts
 * @param {Record<string, unknown>} actions @param {{showError: (message: string) => void}} page
 */
export function offerSpeakerView(opts, actions, page) {
  if (opts.mode !== "present") return;
  actions.openSpeaker = () => {
    if (!opts.room) return page.showError("The room is not open yet: the speaker view follows it once it is.");
    const theme = document.documentElement.dataset.theme;
    const query = new URLSearchParams({ room: opts.room, ...(theme === "light" || theme === "dark" ? { theme } : {}) });
    // the token in the fragment, as /present keeps it: never sent in a request, only over the speaker's socket
    const token = new URLSearchParams({ token: opts.token ?? "" });
    const speaker = open(`/speaker?${query}#${token}`, "inflight-scope-speaker", "popup,width=1100,height=700");
    speaker?.focus();
  };
  drawKeyHelp(actions);
}
