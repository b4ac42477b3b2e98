// The viewer, composed of its parts: the model over `transport` (connection.js served, local.js offline), which
// folds deltas and hands on whole models; the page that draws them; the driver that decides what is sent
// and by whom; the controls that turn keys and buttons into actions.
import { readOptions } from "./options.js";
import { openModel } from "./model.js";
import { createPage } from "./page.js";
import { createDriver } from "./driver.js";
import { bindControls } from "./controls.js";

export function startViewer(transport) {
  const app = document.getElementById("app");
  const opts = readOptions(app);
  const page = createPage(app, opts, { pick: (id) => controls.pick(id) });
  const conn = openModel(transport, {
    connect: () => driver.resume(),
    disconnect: () => page.disconnected(),
    scenario: (msg) => {
      driver.heard(msg);
      page.drawScenario(msg);
    },
    model: (model) => page.draw(model),
    error: (msg) => driver.error(msg),
  });
  const driver = createDriver(opts, conn, page);
  const controls = bindControls(app, opts, driver, page);
}
