// The speaker view (/speaker?room=CODE, opened from the presenter's page with Shift+S, presenter.js): a second
// window that follows the room over its own connection, as a follower does (it never drives), without being in
// the room (join_room {speaker: true, token}: it is the presenter's, not audience, and keeps no autoplay going
// on its own).
// It draws what the speaker needs from the room's scene: the step on screen, small; the next step and what it will
// do on each version, and this step's note (the presenter's notes, presenter.js); the room's blank screen; a timer.
import { $ } from "./dom.js";
import { connect } from "./connection.js";
import { openModel } from "./model.js";
import { renderPane } from "./renderer.js";
import { fitAll } from "./fit.js";
import { attachPointers, redrawAll } from "./pointers.js";
import { renderPresenterNotes } from "./presenter.js";

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

// Time since the window opened (a click starts it from zero), and the time of day.
function startTimer() {
  let since = Date.now();
  const tick = () => {
    const s = Math.floor((Date.now() - since) / 1000);
    const hours = Math.floor(s / 3600);
    const mmss = `${String(Math.floor(s / 60) % 60).padStart(hours ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
    $("speaker-timer").textContent = hours ? `${hours}:${mmss}` : mmss;
    $("speaker-clock").textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  };
  $("speaker-timer").addEventListener("click", () => {
    since = Date.now();
    tick();
  });
  tick();
  setInterval(tick, 1000);
}

if (room) {
  startTimer();
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
    },
  });
  addEventListener("resize", () => {
    if (!shown) return;
    fitAll($("speaker-panes"));
    redrawAll($("speaker-panes"));
  });
}
