// The palette: a scenario built by clicking. Its operations and their parameters come from the operation registry
// (GET /api/operations; the editor page names the ones shown first in data-palette), events and plugins from the
// 1.28 catalogue (GET /api/plugins). Each "Append" writes one step into the text beside it (editor-yaml.js),
// declaring under `pods:` any pod the step names that is not declared yet; the editor then validates as usual.
import { h, messageOf } from "./dom.js";
import { appendItem, declaredPods } from "./editor-yaml.js";

/**
 * An operation of GET /api/operations (webapp/web/find.py), and one of its parameters.
 * @typedef {{name: string, kind: string, summary: string, params: Param[]}} Operation
 * @typedef {{name: string, type: string, what: string, required: boolean, doc: string, choices: string[]}} Param
 * A parameter's control: the labelled field, and its value as the step holds it (undefined: not given).
 * @typedef {{param: Param, read: () => unknown, el: HTMLElement}} Field
 * An operation's form, built once.
 * @typedef {{body: HTMLElement, fields: Field[], note: HTMLInputElement}} Form
 * What the fields share: the pods' datalist's id, the catalogue once it is there, and who redraws then.
 * @typedef {{podList: string, catalogue: Catalogue | null, onCatalogue: (() => void)[]}} Context
 * What the palette asks of the editor.
 * @typedef {{text(): string, write(text: string, line: number | null): void, notice(text: string): void}} Writer
 */

let uid = 0;

/** @param {string} value */
const words = (value) => value.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);

// One parameter's control: {el (the labelled field), read() -> value | undefined, type, param}.
/** @param {Param} param @param {Context} ctx @returns {Field} */
function field(param, ctx) {
  const id = `pal-${param.name}-${++uid}`;
  const label = `${param.name.replaceAll("_", " ")}${param.required ? "" : " (optional)"}`;
  const help = param.doc ? h("span", { class: "pal-doc", id: `${id}-doc`, text: param.doc }) : null;
  const described = help ? `${id}-doc` : undefined;
  /** @type {HTMLInputElement | HTMLSelectElement} */
  let input;
  /** @type {() => unknown} */
  let read;
  switch (param.type) {
    case "pod":
      input = h("input", { type: "text", id, autocomplete: "off", spellcheck: false,
        placeholder: "pod name", ariaDescribedby: described, dataParam: param.name });
      input.setAttribute("list", ctx.podList); // a read-only property: only the attribute names the datalist
      read = () => input.value.trim() || undefined;
      break;
    case "pods":
      input = h("input", { type: "text", id, autocomplete: "off", spellcheck: false, placeholder: "A, B",
        ariaDescribedby: described, dataParam: param.name });
      read = () => (words(input.value).length ? words(input.value) : undefined);
      break;
    case "event": {
      input = h("select", { id, ariaDescribedby: `${id}-wakes`, dataParam: param.name },
        param.choices.map((c) => h("option", { value: c, text: c })));
      const wakes = h("span", { class: "pal-doc", id: `${id}-wakes` });
      const show = () => {
        const woken = ctx.catalogue?.events?.[input.value];
        wakes.textContent = woken === undefined ? "wakes every parked pod, whatever its plugins"
          : woken.length ? `wakes ${woken.join(", ")}` : "wakes no catalogue plugin";
      };
      input.addEventListener("change", show);
      ctx.onCatalogue.push(show);
      show();
      return { param, read: () => input.value || undefined,
        el: h("div", { class: "pal-field" }, h("label", { htmlFor: id, text: label }), input, wakes) };
    }
    case "enum":
    case "bool":
      input = h("select", { id, ariaDescribedby: described, dataParam: param.name },
        h("option", { value: "", text: param.required ? "choose…" : "default" }),
        (param.type === "bool" ? ["true", "false"] : param.choices).map((c) => h("option", { value: c, text: c })));
      read = () => (input.value === "" ? undefined : param.type === "bool" ? input.value === "true" : input.value);
      break;
    case "seconds":
    case "cycle":
      input = h("input", { type: "number", id, min: "0", step: param.type === "cycle" ? "1" : "any",
        inputMode: param.type === "cycle" ? "numeric" : "decimal", ariaDescribedby: described, dataParam: param.name });
      if (param.type === "seconds" && param.required) input.value = "1";
      read = () => (input.value === "" ? undefined : Number(input.value));
      break;
    case "plugins":
      return pluginsField(param, id, label, help, ctx);
    default: // a type this page does not know yet: its value as YAML-ish text
      input = h("input", { type: "text", id, ariaDescribedby: described, dataParam: param.name });
      read = () => input.value.trim() || undefined;
  }
  return { param, read, el: h("div", { class: "pal-field" }, h("label", { htmlFor: id, text: label }), input, help) };
}

// Plugin names: a checkbox per catalogue plugin (the events that wake it on hover) and a box for other names.
/**
 * @param {Param} param @param {string} id @param {string} label @param {HTMLElement | null} help
 * @param {Context} ctx @returns {Field}
 */
function pluginsField(param, id, label, help, ctx) {
  const boxes = h("div",
    { class: "pal-plugins", role: "group", ariaLabelledby: `${id}-legend`, dataParam: param.name });
  const other = h("input", { type: "text", id: `${id}-other`, placeholder: "other names, e.g. P", autocomplete: "off",
    spellcheck: false });
  const fill = () => {
    if (!ctx.catalogue) return;
    boxes.replaceChildren(...ctx.catalogue.plugins.map((p) => {
      const events = [...new Set(p.registrations.flatMap((r) => r.events))];
      const title = events.length ? `woken by ${events.join(", ")}` : "woken by no scenario event";
      return h("label", { class: "pal-plugin", title },
        h("input", { type: "checkbox", value: p.name }), p.name);
    }));
  };
  ctx.onCatalogue.push(fill);
  fill();
  const read = () => {
    const checked = /** @type {NodeListOf<HTMLInputElement>} */ (boxes.querySelectorAll("input:checked"));
    const names = [...checked].map((b) => b.value).concat(words(other.value));
    return names.length ? [...new Set(names)] : undefined;
  };
  return { param, read, el: h("div", { class: "pal-field pal-wide" },
    h("span", { class: "pal-legend", id: `${id}-legend`, text: label }), help, boxes,
    h("label", { class: "pal-other", htmlFor: `${id}-other`, text: "Other plugins" }), other) };
}

// ``root``: the palette's element; ``editor``: {text() -> string, write(text, line), notice(text)}.
/** @param {HTMLElement} root @param {Writer} editor */
export function createPalette(root, editor) {
  const featured = words(root.dataset.palette ?? "");
  const podList = `pal-pods-${++uid}`;
  /** @type {Context} */
  const ctx = { podList, catalogue: null, onCatalogue: [] };
  const datalist = h("datalist", { id: podList });
  const buttons = h("div", { class: "pal-ops", role: "group", ariaLabel: "Operations" });
  const more = h("div", { class: "pal-ops" });
  const moreBox = h("details", { class: "pal-more" }, h("summary", { text: "More operations" }), more);
  const form = h("form", { class: "pal-form", dataTestid: "palette-form", noValidate: true });
  const status = h("p", { class: "pal-status", role: "status", dataTestid: "palette-status" });
  /** @type {Map<string, Form>} an operation's name -> its form */
  const forms = new Map();
  /** @type {Operation | null} */
  let chosen = null;

  const refreshPods = () => {
    datalist.replaceChildren(...declaredPods(editor.text()).map((name) => h("option", { value: name })));
  };

  /** @param {Operation} op */
  function choose(op) {
    chosen = op;
    const ops = /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".pal-op"));
    for (const b of ops) b.setAttribute("aria-pressed", String(b.dataset.op === op.name));
    if (!forms.has(op.name)) forms.set(op.name, buildForm(op));
    const built = /** @type {Form} */ (forms.get(op.name));
    form.replaceChildren(built.body);
    form.dataset.op = op.name;
    status.textContent = "";
  }

  /** @param {Operation} op @returns {Form} */
  function buildForm(op) {
    const fields = op.params.map((p) => field(p, ctx));
    // required parameters and the first optional one in view; the other optional ones one click away
    const firstOptional = fields.findIndex((f) => !f.param.required);
    const shown = firstOptional < 0 ? fields : fields.slice(0, firstOptional + 1);
    const hidden = firstOptional < 0 ? [] : fields.slice(firstOptional + 1);
    const noteId = `pal-note-${++uid}`;
    const note = h("input", { type: "text", id: noteId, placeholder: "what this step shows", dataParam: "note" });
    const body = h("div", { class: "pal-body" },
      h("p", { class: "pal-summary" }, h("strong", { text: op.name }), ` — ${op.summary}`),
      shown.map((f) => f.el),
      hidden.length ? h("details", { class: "pal-options" }, h("summary", { text: `More options (${hidden.length})` }),
        hidden.map((f) => f.el)) : null,
      h("div", { class: "pal-field" }, h("label", { htmlFor: noteId, text: "note (optional)" }), note),
      h("button", { class: "btn primary", type: "submit", text: `Append ${op.name}` }));
    return { body, fields, note };
  }

  /** @param {Event} ev */
  function append(ev) {
    ev.preventDefault();
    if (!chosen) return;
    const { fields, note } = /** @type {Form} */ (forms.get(chosen.name)); // built when it was chosen
    /** @type {Step} */
    const step = { op: chosen.name };
    for (const f of fields) {
      const value = f.read();
      if (value === undefined || Number.isNaN(value)) {
        if (f.param.required) {
          status.textContent = `${f.param.name} is needed (${f.param.what}).`;
          status.dataset.state = "bad";
          return /** @type {HTMLElement | null} */ (f.el.querySelector("input, select"))?.focus();
        }
        continue;
      }
      step[f.param.name] = value;
    }
    if (note.value.trim()) step.note = note.value.trim();
    /** @param {Field} f */
    const podsOf = (f) => (f.param.type === "pod" ? [step[f.param.name]]
      : f.param.type === "pods" ? step[f.param.name] ?? [] : []);
    const named = /** @type {string[]} */ (fields.flatMap(podsOf).filter(Boolean)); // a pod field reads a string
    let text = editor.text();
    try {
      const known = new Set(declaredPods(text));
      const added = [...new Set(named)].filter((name) => !known.has(name));
      for (const name of added) text = appendItem(text, "pods", { name }, "steps").text;
      const { text: out, line } = appendItem(text, "steps", step);
      editor.write(out, line);
      status.dataset.state = "good";
      status.textContent = `Appended ${chosen.name}${line ? ` at line ${line}` : ""}` +
        (added.length ? `; declared ${added.join(", ")} under pods.` : ".");
      note.value = "";
    } catch (err) {
      status.dataset.state = "bad";
      status.textContent = `Not appended: ${messageOf(err)}.`;
    }
    refreshPods();
  }

  form.addEventListener("submit", append);
  root.replaceChildren(
    h("p", { class: "pal-intro muted",
      text: "Pick an operation, fill it in, append it: the step is written at the end of the text." }),
    buttons, moreBox, form, status, datalist);

  const ready = Promise.all([
    fetch("/api/operations").then((r) => (r.ok ? /** @type {Promise<{operations: Operation[]}>} */ (r.json())
      : Promise.reject(new Error(`HTTP ${r.status}`)))),
  ]).then(([{ operations }]) => {
    const byName = new Map(operations.map((op) => [op.name, op]));
    /** @param {Operation} op */
    const button = (op) => h("button", { type: "button", class: "btn pal-op", dataOp: op.name, dataKind: op.kind,
      title: op.summary, ariaPressed: "false", text: op.name.replaceAll("_", " "), onclick: () => choose(op) });
    buttons.replaceChildren(...featured.filter((n) => byName.has(n))
      .map((n) => button(/** @type {Operation} */ (byName.get(n)))));
    more.replaceChildren(...operations.filter((op) => !featured.includes(op.name)).map(button));
    refreshPods();
  }).catch((err) => {
    status.dataset.state = "bad";
    status.textContent = `The palette could not load the operations: ${messageOf(err)}.`;
  });

  return {
    ready,
    /** @param {Catalogue} data */
    catalogue(data) {
      ctx.catalogue = data;
      for (const fn of ctx.onCatalogue) fn();
    },
    textChanged: refreshPods,
  };
}
