// The version picker: one to `opts.maxVersions` versions side by side, in lockstep. Its options are the scenario
// message's `versions` table (name, releases, summary: the server's words, never spelled here); what is ticked is
// what the scenario message says is shown (a room's: the presenter's choice). Ticking or unticking a version loads
// the scenario again on the new set, at the same position (a presenter's room follows).
import { $, h, targetOf } from "./dom.js";

const MARGIN = 8; // px the open menu keeps from the window's right edge

/**
 * What the picker reads of the driver (driver.js), and sets on it: the versions a load asks for.
 * @typedef {{versions: string[] | null, source: Source | string | undefined | null,
 *   load(source: Source | string | undefined | null, position?: number): void}} PickerDriver
 */
/**
 * @param {{maxVersions: number}} opts @param {PickerDriver} driver
 * @param {{latest: Model | null, scenario: ScenarioMessage | null}} page
 * @param {{on: (topic: string, fn: (...args: any[]) => void) => void}} bus
 */
export function createVersionPicker(opts, driver, page, bus) {
  const picker = $("versions-picker");
  const menu = $("versions-menu");
  const box = $("versions-options");
  const status = $("versions-status");
  /** @type {string[]} */
  let offered = []; // the table's names, in its order
  // One load of this picker's at a time (the server refuses a connection's second while its first is answered):
  // `asked` is the versions of the load sent and not answered yet, `next` the latest choice made meanwhile, sent
  // when that answer comes (three versions ticked quickly on a busy server: the second's load was refused, the
  // picker went back to what was shown and the third's load lost the second).
  /** @type {string[] | null} */
  let asked = null;
  /** @type {string[] | null} */
  let next = null;
  const most = () => Math.min(opts.maxVersions, offered.length);
  /** @returns {HTMLInputElement[]} */
  const inputs = () => [...box.querySelectorAll("input[type=checkbox]")];

  /** @param {Wire.VersionEntry[]} table */
  function build(table) {
    offered = table.map((v) => v.name);
    // Named by the version, described by its releases and what changed.
    box.replaceChildren(...table.map((v) => h("label", { class: "version-option", dataVersion: v.name },
      h("input", { type: "checkbox", name: "version", value: v.name, onchange: changed, ariaLabel: v.name,
        ariaDescribedby: `vo-releases-${v.name} vo-summary-${v.name}` }),
      h("span", { class: "vo-text" },
        h("span", { class: "vo-head" }, h("strong", { class: "vo-name", text: v.name }),
          h("span", { class: "vo-releases", id: `vo-releases-${v.name}`, text: v.releases })),
        h("span", { class: "vo-summary", id: `vo-summary-${v.name}`, text: v.summary })))));
  }

  // `shown`: the versions on screen (or being loaded), in the table's order.
  /** @param {string[]} shown */
  function tick(shown) {
    for (const input of inputs()) input.checked = shown.includes(input.value);
    const full = shown.length >= most();
    for (const input of inputs()) input.disabled = full && !input.checked;
    status.textContent = full ? `${shown.length} shown: untick one to choose another.`
      : `${shown.length} shown; up to ${most()} side by side.`;
    $("versions-chosen").textContent = shown.join(" · ");
  }

  /** @param {Event} ev */
  function changed(ev) {
    const chosen = inputs().filter((i) => i.checked).map((i) => i.value);
    if (!chosen.length) {
      targetOf(ev).checked = true; // one version at least
      status.textContent = "At least one version is shown.";
      return;
    }
    tick(chosen);
    if (asked) next = chosen;
    else send(chosen);
  }

  /** @param {string[]} chosen */
  function send(chosen) {
    asked = chosen;
    next = null;
    driver.versions = chosen;
    driver.load(driver.source, page.latest?.position);
  }

  // Escape or a click elsewhere closes the menu; focus goes back to its summary.
  picker.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => {
    if (ev.key !== "Escape" || !picker.open) return;
    picker.open = false;
    $("versions-summary").focus();
  });
  document.addEventListener("pointerdown", (ev) => {
    if (picker.open && !picker.contains(targetOf(ev))) picker.open = false;
  });

  // The menu opens under its summary, moved left as far as it must be to end inside the window, never past its
  // left edge (on a phone it opens in place, as wide as the page: app.css). Placed again whenever the summary's
  // box or the top bar's changes: a third version ticked lengthens the summary, the top bar wraps and the
  // summary moves to the left edge (the menu kept its old offset, -280 px at 1024x768: half of it off-screen).
  function keepInView() {
    menu.style.removeProperty("left");
    if (!picker.open) return;
    const { left, right } = menu.getBoundingClientRect();
    const over = right - (document.documentElement.clientWidth - MARGIN);
    const room = Math.max(0, left - MARGIN); // how far left it may go
    if (over > 0) menu.style.left = `${-Math.min(over, room)}px`; // it is narrower than the window (app.css)
  }
  new MutationObserver(keepInView).observe(picker, { attributes: true, attributeFilter: ["open"] }); // as it opens
  addEventListener("resize", keepInView);
  watchPlace(keepInView, $("versions-summary"), picker.parentElement);

  // A scenario message: the table (built once) and what it shows. One answering another load than the picker's,
  // while the picker's is on its way, leaves the choice ticked; the answer to the picker's sends the choice made
  // meanwhile, if any.
  /** @param {ScenarioMessage} msg */
  function heard(msg) {
    if (msg.versions && msg.versions.map((v) => v.name).join() !== offered.join()) build(msg.versions);
    if (asked && asked.join() !== msg.variants.join()) return;
    asked = null;
    if (next) return send(next);
    tick(msg.variants);
  }

  // A load was refused (e.g. a scenario that cannot run on a version as written): the choice made meanwhile is
  // sent, else back to what is shown.
  function refused() {
    asked = null;
    if (next) return send(next);
    const shown = page.scenario?.variants;
    if (!shown) return;
    driver.versions = shown;
    tick(shown);
  }

  bus.on("scenario", heard);
  bus.on("error", (/** @type {{event?: string}} */ msg) => msg.event === "load" && refused());
}

// `place()` whenever one of `boxes` changes size (a ResizeObserver; where there is none, the resize event does).
/** @param {() => void} place @param {...(Element | null)} boxes */
function watchPlace(place, ...boxes) {
  if (typeof ResizeObserver !== "function") return;
  const observer = new ResizeObserver(place);
  for (const box of boxes) if (box) observer.observe(box);
}
