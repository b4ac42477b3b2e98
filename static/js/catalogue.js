// The 1.28 plugin catalogue (GET /api/plugins) drawn for people: per plugin, each event registration with the
// scenario events it wakes, the hint the model uses and the upstream file:line, filtered by a search box (a plugin
// or an event name). Shared by the editor's panel and the viewer's dialog (catalogue-view.js).
import { h } from "./dom.js";

let loading = null;

// The catalogue, fetched once per page.
export function loadCatalogue() {
  loading ??= fetch("/api/plugins").then((res) => {
    if (!res.ok) throw new Error(`the server answered HTTP ${res.status}`);
    return res.json();
  });
  loading.catch(() => { loading = null; });
  return loading;
}

/** @param {string} source */
const short = (source) => source.replace(/^framework\/plugins\//, "");

/** @param {CataloguePlugin["registrations"][number]} r @param {Catalogue} data */
function registration(r, data) {
  const full = `${data.source.root}${r.source} (${data.source.repo} @ ${data.source.commit})`;
  return h("li", { class: "cat-reg" },
    h("span", { class: "cat-res", text: `${r.resource} · ${r.action_name}` }),
    h("span", { class: "cat-events" },
      r.events.length ? r.events.map((e) => h("span", { class: "cat-event", dataEvent: e, text: e }))
        : h("span", { class: "muted", text: "no scenario event" })),
    h("span", { class: "cat-hint", title: r.assumption, text: `${r.hint} · ${r.hint_fn}` }),
    h("code", { class: "cat-src", title: full, text: short(r.source) }));
}

/** @param {CataloguePlugin} p @param {Catalogue} data */
function plugin(p, data) {
  const events = [...new Set(p.registrations.flatMap((r) => r.events))];
  return h("details", { class: "cat-plugin", dataPlugin: p.name, dataEvents: events.join(" ") },
    h("summary", {}, h("strong", { text: p.name }),
      h("span", { class: "cat-count", text: ` wakes on ${events.length} event${events.length === 1 ? "" : "s"}` })),
    h("p", { class: "cat-meta" }, "EventsToRegister: ",
      h("code", { title: `${data.source.root}${p.source}`, text: short(p.source) })),
    p.note ? h("p", { class: "cat-note", text: p.note }) : null,
    h("ul", { class: "cat-regs" }, p.registrations.map((r) => registration(r, data))),
    p.later ? h("p", { class: "cat-note", text: `Later: ${p.later}` }) : null);
}

// Draws the catalogue into ``root`` (replacing what it held); ``id`` names the search box.
/** @param {Element} root @param {Catalogue} data @param {string} id */
export function drawCatalogue(root, data, id) {
  const search = h("input", { type: "text", id, class: "cat-search", placeholder: "VolumeBinding, PvAdd, Node…",
    autocomplete: "off", spellcheck: false, role: "searchbox" });
  const list = h("div", { class: "cat-list", dataTestid: "catalogue-list" }, data.plugins.map((p) => plugin(p, data)));
  const count = h("p", { class: "cat-status", role: "status" });
  const filter = () => {
    const q = search.value.trim().toLowerCase();
    let shown = 0;
    for (const el of /** @type {HTMLCollectionOf<HTMLDetailsElement>} */ (list.children)) {
      const hit = !q || (el.dataset.plugin ?? "").toLowerCase().includes(q) ||
        (el.dataset.events ?? "").toLowerCase().split(" ").some((e) => e.includes(q));
      el.hidden = !hit;
      el.open = Boolean(q) && hit;
      if (hit) shown++;
      for (const ev of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll(".cat-event"))) {
        ev.dataset.match = String(Boolean(q) && (ev.dataset.event ?? "").toLowerCase().includes(q));
      }
    }
    count.textContent = q ? `${shown} of ${data.plugins.length} plugins match “${search.value.trim()}”.`
      : `${data.plugins.length} plugins. Events without a plugin's hint use ${data.default_hint_fn.name} ` +
        `(${data.default_hint_fn.returns}).`;
  };
  search.addEventListener("input", filter);
  root.replaceChildren(
    h("label", { class: "cat-label", htmlFor: id, text: "Find a plugin or an event" }), search, count, list,
    h("p", { class: "cat-foot muted" },
      `kube-scheduler ${data.version}, read from ${data.source.repo} @ ${data.source.commit}, `,
      h("code", { text: data.source.root })));
  filter();
  return search;
}
