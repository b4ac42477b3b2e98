// Entry point of the offline export: the viewer over the messages inlined in the page, no network at all.
import { $ } from "./dom.js";
import { localConnection } from "./local.js";
import { startViewer } from "./viewer.js";

const bundle = JSON.parse($("inflight-bundle").textContent);
startViewer(localConnection(bundle));
