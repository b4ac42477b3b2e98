// Entry point of the offline export: the viewer over the messages inlined in the page, no network at all.
// Framed in another page (an article driving it with scrolly.js), it is driven as an embed is; in story mode its
// article's description is drawn (story.js).
import { $ } from "./dom.js";
import { localConnection } from "./local.js";
import { startViewer } from "./viewer.js";
import { drawStory } from "./story.js";

const app = $("app");
if (window.parent !== window && app.dataset.mode === "main") {
  app.dataset.mode = "embed";
  app.classList.replace("mode-main", "mode-embed");
}
const bundle = JSON.parse($("inflight-bundle").textContent);
startViewer(localConnection(bundle));
drawStory();
