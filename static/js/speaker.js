// The speaker view (/speaker?room=CODE, opened from the presenter's page with Shift+S, presenter.js): a second
// window that follows the room over its own connection, as a follower does (it never drives), without being in
// the room (join_room {speaker: true, token}: it is the presenter's, not audience, and keeps no autoplay going
// on its own).
// It draws what the speaker needs from the room's scene: the step on screen, small; the next step and what it will
// do on each version, and this step's note (the presenter's notes, presenter.js); the room's blank screen; the room's
// vote as it comes in (vote.js); a timer.
import { $ } from "./dom.js";
import { connect } from "./connection.js";
import { openModel } from "./model.js";
import { renderPane } from "./renderer.js";
import { fitAll } from "./fit.js";
import { attachPointers, redrawAll } from "./pointers.js";
import { renderPresenterNotes } from "./presenter.js";
import { startTimer } from "./timer.js";
import { offerRemote } from "./remote-link.js";
import { NO_TALLY, tallyOf, voteOf } from "./vote-state.js";
import { speakerParts } from "./vote-view.js";

const box = $("speaker");
const room = box.dataset.room;
// The presenter's token, in the fragment the presenter's page opened this window with (presenter.js): without it
// the server refuses to send the speaker's notes.
const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
/** @type {Model | null} the model drawn */
let shown = null;

/** @param {string} text */
function status(text) {
  $("speaker-status").textContent = text;
  $("speaker-status").hidden = !text;
}

/** @param {Model} model */
function draw(model) {
  shown = model;
  const scene = model.scene;
  $("speaker-position").textContent = scene.positionText;
  const panes = $("speaker-panes");
  panes.replaceChildren(...Object.values(scene.panes).map((pane) => renderPane(pane)));
  panes.dataset.count = String(Object.keys(scene.panes).length);
  fitAll(panes);
  for (const pane of Object.values(scene.panes)) {
    const diagram = panes.querySelector(`[data-variant="${CSS.escape(pane.variant)}"] [data-testid=diagram]`);
    if (diagram) attachPointers(diagram, pane.pointers);
  }
  renderPresenterNotes($("speaker-notes"), scene);
}

// The room's vote, live (vote.js is the presenter's; this window only shows it): the bars as votes come in, then
// what the room chose.
/** @type {Wire.Vote | null} */
let vote = null;
let tally = NO_TALLY;
/**
 * @type {{label: string, counts: number[], answered: number, winner: number, actions: Wire.Action[]} | null}
 */
let result = null;
/** @param {string} event @param {any} msg a `vote` or `vote_tally` message (docs/protocol.md) */
function heardVote(event, msg) {
  if (event === "vote" && msg.open) [vote, tally, result] = [voteOf(msg), NO_TALLY, null];
  else if (event === "vote" && msg.cancelled) [vote, result] = [null, null];
  else if (event === "vote") [result, vote] = [{ ...msg, actions: vote?.actions ?? [] }, null];
  else if (event === "vote_tally" && vote && msg.position === vote.position) tally = tallyOf(msg);
  else return;
  const parts = speakerParts(vote, tally, result);
  $("speaker-vote").replaceChildren(...parts);
  $("speaker-vote").hidden = !parts.length;
}

if (room) {
  startTimer("speaker-timer", "speaker-clock");
  offerRemote($("speaker-remote"), room, token);
  const conn = openModel(connect, {
    connect() {
      status("");
      conn.follow(room);
      conn.send("join_room", { room, speaker: true, token });
    },
    disconnect() {
      status("Connection lost — reconnecting.");
    },
    scenario() {},
    model: draw,
    /** @param {{message: string}} msg */
    error(msg) {
      status(msg.message);
    },
    /** @param {string} event @param {{on?: boolean}} msg */
    room(event, msg) {
      if (event === "blank") $("speaker-screen").hidden = !msg.on;
      else heardVote(event, msg);
    },
  });
  addEventListener("resize", () => {
    if (!shown) return;
    fitAll($("speaker-panes"));
    redrawAll($("speaker-panes"));
  });
}
