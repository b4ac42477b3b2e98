// The viewer's way to the plugin catalogue (which events wake which plugin): a "Plugin catalogue…" button in the
// help dialog, and a "Plugins…" one beside the Act bar's events (where a user picks an event to deliver), open a
// modal <dialog> drawn by catalogue.js. On its own (index.html loads it beside app.js): it
// only adds the button, the dialog and their stylesheet. While the dialog is open its keys stay in it (the
// viewer's shortcuts do not fire while one searches), and Escape closes it alone, back to the help.
import { $, h, messageOf } from "./dom.js";
import { drawCatalogue, loadCatalogue } from "./catalogue.js";

function mount() {
  const close = $("help-close");
  if (!close || $("btn-catalogue")) return;
  // its stylesheet, unless the page names it already (webapp/web/bundles.py STYLESHEETS, or their bundle: linked,
  // or inline, webapp/web/inline_style.py)
  if (!document.querySelector('link[rel=stylesheet][href*="/bundle/"], link[rel=stylesheet][href$="/catalogue.css"], '
    + 'style[data-stylesheet*="/bundle/"]'))
    document.head.append(h("link", { rel: "stylesheet", href: new URL("../css/catalogue.css", import.meta.url).href }));
  const body = h("div", { class: "catalogue-body" },
    h("p", { class: "muted", text: "Loading kube-scheduler 1.28's plugins…" }));
  const shut = h("button", { class: "btn cat-close", type: "button", text: "Close" });
  const dialog = h("dialog", { class: "catalogue-dialog", id: "catalogue-dialog", ariaLabelledby: "catalogue-title",
    dataTestid: "catalogue-dialog" },
    shut, h("h2", { id: "catalogue-title", text: "Plugin catalogue: which events wake which plugin" }), body);
  // keys typed here are the dialog's; focus moving inside it is not the page's business either (flow.js)
  dialog.addEventListener("keydown", (ev) => {
    ev.stopPropagation();
    if (ev.key === "Escape") {
      ev.preventDefault();
      dialog.close();
    }
  });
  dialog.addEventListener("focusin", (ev) => ev.stopPropagation());
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) dialog.close(); // a click on the backdrop
  });
  shut.addEventListener("click", () => dialog.close());
  document.body.append(dialog);

  let search = null;
  function show() {
    dialog.showModal();
    loadCatalogue().then((/** @type {Catalogue} */ data) => {
      search ??= drawCatalogue(body, data, "catalogue-view-search");
      search.focus();
    }).catch((/** @type {unknown} */ err) => body.replaceChildren(
      h("p", { class: "bad", text: `Could not load the catalogue: ${messageOf(err)}` })));
  }
  const title = "kube-scheduler 1.28's plugins and the events that wake each";
  const open = h("button", { class: "btn", id: "btn-catalogue", type: "button", ariaHaspopup: "dialog",
    text: "Plugin catalogue…", title, onclick: show });
  close.closest(".help-card").append(h("p", {}, open));
  $("explore-send")?.after(" ", h("button", { class: "btn", id: "explore-catalogue",
    type: "button", ariaHaspopup: "dialog", text: "Plugins…", title, onclick: show }));
}

mount();
