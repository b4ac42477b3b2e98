// The phone remote (/remote/CODE#TOKEN, webapp/web/remote.py): the presenter's phone steps the room, blanks its
// screens and opens and closes its polls (remote-actions.js), and shows where the room is, the next step's note
// and a timer. Its token (the URL fragment, never sent in a request) is the presenter's authority over this one
// room until the presenter's screen revokes it; it follows the room as the speaker view does.
import { $, h } from "./dom.js";
import { connect } from "./connection.js";
import { KINDS } from "./kinds.js";
import { openModel } from "./model.js";
import { startTimer } from "./timer.js";
import { REMOTE_ACTIONS } from "./remote-actions.js";

const box = $("remote");
const room = box.dataset.room;
const token = decodeURIComponent(location.hash.slice(1));
/** @type {import("./remote-actions.js").RemoteRoom} */
const state = { blank: false, poll: null, at: null, end: null, vote: null };
let refused = false; // the link was revoked or its room ended: nothing more is sent

/** @param {string} text @param {boolean} [alarm] */
function status(text, alarm = false) {
  $("remote-status").textContent = text;
  $("remote-status").hidden = !text;
  $("remote-status").classList.toggle("remote-alarm", alarm);
}

function drawActions() {
  $("remote-actions").replaceChildren(...REMOTE_ACTIONS.filter((a) => a.shown(state)).map((action) =>
    h("button", { class: `btn remote-action${action.wide ? " remote-wide" : ""}`, type: "button",
      "data-testid": `remote-${action.id}`, "data-action": action.id, disabled: refused, text: action.label(state) })));
  const poll = state.poll;
  $("remote-poll").textContent = [poll?.open ? `Poll open · ${poll.answered ?? 0} answered` : "",
    state.vote ? `Vote open · ${state.vote.answered} voted` : ""].filter(Boolean).join(" — ");
  $("remote-screen").hidden = !state.blank;
}

/** @param {Model} model */
function draw(model) {
  const scene = model.scene;
  $("remote-position").textContent = `Step ${scene.positionText}`;
  $("remote-next").textContent = scene.notes?.next ?? "";
  $("remote-now").textContent = scene.notes?.now ?? "";
  drawActions();
}

// Refused (revoked, or the room ended): the page shows why and nothing of the room, and stops following it.
/** @param {string} message @param {{send(event: string, payload: object): void}} conn */
function refuse(message, conn) {
  refused = true;
  status(message, true);
  for (const id of ["remote-position", "remote-next", "remote-now"]) $(id).textContent = "";
  drawActions();
  conn.send("leave_room", { room });
}

if (!room || !token) {
  status(room ? "This remote link has no key: open it again from the presenter's screen (📱 Phone remote)."
    : "This is no room's remote link: open it from the presenter's screen (📱 Phone remote).", true);
} else {
  startTimer("remote-timer");
  const conn = openModel(connect, {
    connect() {
      if (refused) return;
      status("");
      conn.follow(room);
      conn.send("join_room", { room, speaker: true, token });
    },
    disconnect() {
      if (!refused) status("Connection lost — reconnecting.");
    },
    scenario() {},
    model: (/** @type {Model} */ model) => refused || draw(model),
    /** @param {{kind?: string, message: string}} msg */
    error(msg) {
      if (msg.kind === KINDS.NOT_ALLOWED) return refuse(msg.message, conn);
      status(msg.message);
    },
    /** @param {string} event @param {Record<string, any>} msg */
    room(event, msg) {
      if (event === "blank") state.blank = msg.on;
      if (event === "poll") state.poll = msg.cancelled ? null : /** @type {{open: boolean}} */ (msg);
      if (event === "poll_tally" && state.poll) state.poll = { ...state.poll, answered: msg.answered };
      if (event === "vote") state.vote = msg.open ? { answered: 0 } : null;
      if (event === "vote_tally" && state.vote) state.vote = { answered: msg.answered };
      drawActions();
    },
  });
  connect({
    /** @param {{room?: string, revoked?: boolean}} msg */
    remote(msg) {
      if (msg?.room === room && msg.revoked) refuse("The presenter's screen revoked this remote link.", conn);
    },
  });
  $("remote-actions").addEventListener("click", (/** @type {Event} */ ev) => {
    const button = /** @type {HTMLElement} */ (ev.target).closest("[data-action]");
    const action = REMOTE_ACTIONS.find((a) => a.id === button?.getAttribute("data-action"));
    if (!action || refused) return;
    conn.send(action.event, { ...(action.payload?.(state) ?? {}), room, token });
  });
  drawActions();
}
