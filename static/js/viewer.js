// The viewer, composed of its parts around one event bus (bus.js): the model over `transport` (connection.js
// served, local.js offline) folds deltas and publishes whole models; the page draws them; the driver decides
// what is sent and by whom; the version picker (which versions, side by side); a room's poll; the flow around
// the picture (flow.js: the address bar, focus, Predict's stops, a room's blank screen); the controls that turn
// keys and buttons into actions; exploring (explore.js: acting on the diagram forks the scenario; undo, redo, Find
// a divergence); the course's challenges (challenges.js). Each part is made from the parts before it and
// subscribes to the topics it needs, so the graph has no cycle and no part is named before it exists.
import { $ } from "./dom.js";
import { createBus } from "./bus.js";
import { readOptions } from "./options.js";
import { openModel } from "./model.js";
import { createPage } from "./page.js";
import { createDriver } from "./driver.js";
import { bindControls } from "./controls.js";
import { createPoll } from "./poll.js";
import { createVote } from "./vote.js";
import { createFlow } from "./flow.js";
import { createVersionPicker } from "./versions.js";
import { createExplore } from "./explore.js";
import { createChallenges } from "./challenges.js";
import { createGlance } from "./glance.js";
import { offerSpeakerView } from "./presenter.js";
import { createSourcePanes } from "./source-pane.js";

/** @param {(handlers: Record<string, (...args: any[]) => void>) => {send: Function, request?: Function}} transport */
export function startViewer(transport) {
  const app = $("app");
  const opts = readOptions(app);
  const bus = createBus();
  const conn = openModel(transport, bus.publisher(["connect", "disconnect", "scenario", "model", "error", "room"]));
  const page = createPage(app, opts, bus);
  createGlance(app, page); // where the panes stack, the other versions in a strip
  const driver = createDriver(opts, conn, page);
  bus.on("connect", () => driver.resume());
  bus.on("scenario", (msg) => driver.heard(msg));
  bus.on("error", (msg) => driver.error(msg));
  createVersionPicker(opts, driver, page, bus);
  createPoll(opts, conn, page, bus);
  createFlow(app, opts, driver, page, bus);
  const controls = bindControls(app, opts, driver, page, bus);
  createExplore(app, opts, driver, page, controls.actions, bus);
  createVote(opts, conn, page, controls.actions, bus); // a room votes on what happens next (vote.js)
  offerSpeakerView(opts, controls.actions, page); // the presenter's speaker window (presenter.js)
  /** @param {string} id */
  const pick = (id) => bus.emit("pick", id);
  createChallenges(page, pick); // the course's exercises: Check sends the scenario on screen
  createSourcePanes(app, bus, controls.actions); // the upstream lines each step ran (`c`)
}
