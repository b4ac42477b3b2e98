// Entry point of the offline export: the viewer over the messages inlined in the page, no network at all.
import { localConnection } from "./local.js";
import { startViewer } from "./viewer.js";

const bundle = JSON.parse(document.getElementById("inflight-bundle").textContent);
startViewer(localConnection(bundle));
