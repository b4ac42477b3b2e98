// The viewer, composed of its parts: the model over `transport` (connection.js served, local.js offline), which
// folds deltas and hands on whole models; the page that draws them; the driver that decides what is sent
// and by whom; the version picker (which versions, side by side); the controls that turn keys and buttons into
// actions; the flow around them (flow.js: the address bar, focus, Predict's stops, a room's polls and blank screen);
// exploring (explore.js: acting on the diagram forks the scenario; undo, redo, Find a divergence); the course's
// challenges (challenges.js).
import { readOptions } from "./options.js";
import { openModel } from "./model.js";
import { createPage } from "./page.js";
import { createDriver } from "./driver.js";
import { bindControls } from "./controls.js";
import { createPoll } from "./poll.js";
import { createFlow } from "./flow.js";
import { createVersionPicker } from "./versions.js";
import { createExplore } from "./explore.js";
import { createChallenges } from "./challenges.js";

export function startViewer(transport) {
  const app = document.getElementById("app");
  const opts = readOptions(app);
  const page = createPage(app, opts, { pick: (id) => controls.pick(id) });
  const conn = openModel(transport, {
    connect: () => driver.resume(),
    disconnect: () => page.disconnected(),
    scenario: (msg) => {
      driver.heard(msg);
      versions.heard(msg);
      page.drawScenario(msg);
      flow.scenario(msg);
      explore.scenario(msg);
    },
    model: (model) => {
      page.draw(model);
      flow.model(model);
      explore.model(model);
    },
    error: (msg) => {
      driver.error(msg);
      if (msg.event === "load") {
        versions.refused();
        explore.refused(msg);
      }
    },
    room: (event, msg) => flow.room(event, msg),
  });
  const driver = createDriver(opts, conn, page);
  const versions = createVersionPicker(opts, driver, page);
  const flow = createFlow(app, opts, driver, page, createPoll(opts, conn, page));
  const controls = bindControls(app, opts, driver, page);
  const explore = createExplore(app, opts, driver, page, controls.actions);
  createChallenges(page, controls.pick); // the course's exercises: Check sends the scenario on screen
}
