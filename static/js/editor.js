// The scenario editor: a textarea with a line-number gutter, validated by POST /api/validate (on demand
// and, debounced, while typing); each problem is listed with its line and column and marks its gutter line.
//
// Run hands the scenario to the viewer through this contract:
//   sessionStorage["inflight-scope:inline-scenario"] = JSON of the validated scenario object
//   then the tab navigates to "/?scenario=__inline__"
// The viewer reads that key (sessionStorage belongs to the tab, so it survives the navigation) and loads
// the object as the scenario (Socket.IO `load` with `scenario: <object>`).
//
// Beside the text: the palette (editor-palette.js) appends steps by clicking, "Import log…" (editor-import.js)
// builds a scenario from a kube-scheduler log, and the plugin catalogue (catalogue.js) says which events wake
// which plugin. Their edits go through `write`, one undoable edit each (Ctrl+Z).
//
// Everything shown from the user or the server is set as text (dom.js `h`), never parsed as HTML.
import { $, focused, h, messageOf } from "./dom.js";
import { createPalette } from "./editor-palette.js";
import { bindImport, counted } from "./editor-import.js";
import { drawCatalogue, loadCatalogue } from "./catalogue.js";
import { isJson, yamlDocument } from "./editor-yaml.js";
import { saveFile, slug } from "./exporting.js";
import { DRAFT_KEY, HANDOFF_ID, HANDOFF_KEY, VIEWER_KEY } from "./links.js";

// The local drafts (see "the local drafts" below): each page of the editor keeps its own, shown again when that
// page is reached by Back or Forward or reloaded; the viewer's "Editor" opens the newest (?draft); choosing
// "Start from" starts afresh.
//
// Format says what the text is written in ("Auto": as it looks: JSON when it starts with { or [). Choosing YAML or
// JSON converts a valid scenario to it (one edit, which Ctrl+Z takes back); a text with problems is not converted
// and the notice says so. A Format the text cannot be written in follows the text when it is next validated
// (YAML pasted under JSON, a conversion undone), so the text is never read in the wrong language, and Download
// saves it under the Format's name.
/**
 * The answers of POST /api/validate (webapp/web/editor.py _checked_text), and what `post` makes of a request that
 * fails: the one answer a caller gets (`failed` and `ok` tell which, the other fields absent).
 * @typedef {{ok: true, failed?: undefined, scenario: Source, total: number, variants_ok: string[], advice: string[],
 *   problems?: undefined}} Valid
 * @typedef {{ok: false, failed?: undefined, problems: Located[], variants_ok: string[]}} Invalid
 * @typedef {{ok?: undefined, failed: true, message: string, problems?: undefined}} Failed
 * @typedef {Valid | Invalid | Failed} Validation
 * A problem of the text, where it is (webapp/scenario/locate.py Located).
 * @typedef {{step: number | null, field: string, message: string, at?: "key", line: number, column: number}} Located
 * POST /api/trace/check's answer: per version, whether its replay matches, else the first difference
 * (webapp/engine/tracefile.py check).
 * @typedef {{failed?: undefined, match: boolean, scenario_object: object,
 *   variants: Record<string, {match: true, first_mismatch: null} | {match: false, first_mismatch: Difference}>}} Check
 * @typedef {{step: number | null, path: string, recorded?: unknown, replayed?: unknown, error?: string}} Difference
 */
const DEBOUNCE_MS = 400;
/** @type {Record<string, string>} */
const FORMAT_NAMES = { yaml: "YAML", json: "JSON" };

/** @type {HTMLTextAreaElement} */
const source = $("source");
const gutter = $("gutter");
/** @type {HTMLSelectElement} */
const format = $("format");
const MAX_BYTES = Number($("editor").dataset.maxBytes);
let validations = 0; // only the answer to the newest request is shown

// "Viewer" goes back to the view this tab's "Editor" was pressed in (its scenario, position, versions and theme).
const viewerPlace = sessionStorage.getItem(VIEWER_KEY);
const viewedFrom = viewerPlace !== null && URL.canParse(viewerPlace) ? new URL(viewerPlace) : null;
if (viewedFrom?.origin === location.origin && viewedFrom.pathname === "/") $("viewer-link").href = viewedFrom.href;
let timer = 0;
let shownFormat = format.value; // the Format as the text was last validated (a change event comes after the choice)
/** @type {Promise<unknown>} */
let formatChange = Promise.resolve(); // a conversion under way (Download waits for it)

// --- gutter ------------------------------------------------------------------------------------------------
function renderGutter() {
  const text = source.value;
  let count = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  if (gutter.children.length !== count) {
    const lines = document.createDocumentFragment();
    for (let line = gutter.children.length + 1; line <= count; line++) {
      lines.append(h("div", { class: "ln", text: line }));
    }
    while (gutter.children.length > count) gutter.lastElementChild.remove();
    gutter.append(lines);
  }
  gutter.scrollTop = source.scrollTop;
}

/** @param {Located[]} problems */
function markLines(problems) {
  for (const el of gutter.querySelectorAll("[data-line-error]")) {
    el.removeAttribute("data-line-error");
    el.removeAttribute("title");
  }
  for (const p of problems) {
    const el = gutter.children[p.line - 1];
    if (!el) continue;
    el.dataset.lineError = String(p.line);
    el.title = el.title ? `${el.title}\n${p.message}` : p.message;
  }
}

// --- validation --------------------------------------------------------------------------------------------
// The answer's JSON, whose shape is the url's (each caller says which), or a Failed.
/** @param {string} url @param {BodyInit} body @returns {Promise<any>} */
async function post(url, body) {
  try {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    const answer = await res.json().catch(() => ({ message: `the server answered HTTP ${res.status}` }));
    return res.ok ? answer : { failed: true, message: answer.message ?? `HTTP ${res.status}` };
  } catch (err) {
    return { failed: true, message: `no answer from the server (${messageOf(err)})` };
  }
}

// The format ``text`` is written in, ``chosen`` being what the Format says: JSON is not chosen for a text that
// cannot be a JSON object, nor YAML for one that is JSON ("" stays Auto).
/** @param {string} text @param {string} chosen */
function writtenIn(text, chosen) {
  if (chosen === "json" && !isJson(text)) return "yaml";
  if (chosen === "yaml" && isJson(text)) {
    try {
      JSON.parse(text);
      return "json";
    } catch { /* YAML's own flow style, or not valid yet */ }
  }
  return chosen;
}

// Validate the text, read as ``as`` ("yaml", "json"; null: as the Format says, once it follows the text).
/** @param {string | null} [as] @returns {Promise<Validation>} */
async function validate(as = null) {
  clearTimeout(timer);
  const mine = ++validations;
  if (as === null) {
    format.value = writtenIn(source.value, format.value);
    shownFormat = format.value;
  }
  const body = JSON.stringify({ text: source.value, format: as ?? (format.value || null) });
  const answer = /** @type {Validation} */ (await post("/api/validate", body));
  if (mine === validations) showReport(answer);
  palette.textChanged();
  return answer;
}

// The Format was changed: convert the text to it when it is a valid scenario, else say why not.
async function changeFormat() {
  const wanted = format.value;
  const text = source.value;
  const was = shownFormat || (isJson(text) ? "json" : "yaml"); // how the text has been read
  if (!wanted || wanted === was) return validate();
  const answer = await validate(was);
  if (source.value !== text || format.value !== wanted) return answer; // changed meanwhile: the newer change decides
  if (answer.ok) {
    const text = wanted === "json" ? `${JSON.stringify(answer.scenario, null, 2)}\n` : yamlDocument(answer.scenario);
    replaceText(text, wanted);
    return notice(`Converted to ${FORMAT_NAMES[wanted]} ` +
      `(Ctrl+Z in the text brings the ${FORMAT_NAMES[was]} back as it was written).`);
  }
  if (answer.failed) {
    format.value = shownFormat;
    return notice(`Not converted to ${FORMAT_NAMES[wanted]}: could not validate the text (${answer.message}).`);
  }
  // Not valid: read as chosen where the text may be written so (YAML's flow style looks like JSON), else the
  // Format goes back to what the text is written in.
  const again = await validate();
  if (again.ok) return notice(`Read as ${FORMAT_NAMES[wanted]}.`);
  notice(format.value === wanted
    ? `Not converted to ${FORMAT_NAMES[wanted]}: the text is not a valid scenario; ` +
      `it is read as ${FORMAT_NAMES[wanted]} as it stands.`
    : `Not converted to ${FORMAT_NAMES[wanted]}: the text is not a valid scenario yet; fix its problems first.`);
}

function scheduleValidation() {
  clearTimeout(timer);
  timer = setTimeout(validate, DEBOUNCE_MS);
}

/** @param {Validation} answer */
function showReport(answer) {
  const problems = answer.problems ?? [];
  const summary = $("summary");
  summary.dataset.state = answer.ok ? "valid" : "invalid";
  if (answer.failed) summary.textContent = `Could not validate: ${answer.message}`;
  else if (answer.ok) {
    summary.textContent = `Valid: “${answer.scenario.name}”, ${counted(answer.total, "step")}; ` +
      `runs on ${answer.variants_ok.join(" and ")}.`;
  } else {
    const ran = answer.variants_ok.length ? ` Runs on ${answer.variants_ok.join(" and ")} only.` : "";
    summary.textContent = `${counted(problems.length, "problem")}.${ran}`;
  }
  const advice = answer.ok ? answer.advice ?? [] : [];
  $("advice").replaceChildren(...advice.map((text) => h("li", { text })));
  $("advice").hidden = !advice.length;
  $("problems").replaceChildren(...problems.map((p) => h("li", {},
    h("button", { type: "button", class: "problem", dataLine: p.line, dataColumn: p.column,
      onclick: () => goTo(p.line, p.column, p.at === "key") },
      h("span", { class: "where", text: `line ${p.line}, col ${p.column}` }), " — ", h("code", { text: p.field }),
      `: ${p.message}`))));
  markLines(problems);
}

// Put the cursor at (line, column) — columns count code points, as the server does — and select to the end
// of that line (for a problem about a key, to the key's colon), scrolled into view.
/** @param {number} line @param {number} column @param {boolean} [key] */
function goTo(line, column, key = false) {
  const text = source.value;
  let start = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", start);
    if (next < 0) break;
    start = next + 1;
  }
  const lineEnd = text.indexOf("\n", start) < 0 ? text.length : text.indexOf("\n", start);
  let at = start;
  for (let c = 1; c < column && at < lineEnd; c++) at += /** @type {number} */ (text.codePointAt(at)) > 0xffff ? 2 : 1;
  const colon = key ? text.indexOf(":", at) : -1;
  const end = colon > at && colon < lineEnd ? colon : lineEnd;
  source.focus();
  source.setSelectionRange(at < end ? at : start, end);
  const lineHeight = parseFloat(getComputedStyle(source).lineHeight);
  source.scrollTop = Math.max(0, (line - 1) * lineHeight - source.clientHeight / 3);
  gutter.scrollTop = source.scrollTop;
}

function focusProblems() {
  const first = $("problems").querySelector("button");
  if (first) first.focus();
  else notice($("summary").textContent);
}

// --- files -------------------------------------------------------------------------------------------------
/** @param {string} text */
function notice(text) {
  $("notice").textContent = text;
}

/** @param {string} text */
function setText(text) {
  source.value = text;
  source.scrollTop = 0;
  renderGutter();
}

// Replace the text with ``text`` as one edit the textarea's Undo takes back: only the part that changed is
// replaced (so the caret and the scroll land where the text changed); ``line`` (1-based) is marked in the gutter.
/** @param {string} text @param {number | null} [line] @param {boolean} [whole] */
function write(text, line = null, whole = false) {
  const old = source.value;
  let start = 0;
  let end = 0;
  if (!whole) {
    const max = Math.min(old.length, text.length);
    while (start < max && old[start] === text[start]) start++;
    while (end < max - start && old[old.length - 1 - end] === text[text.length - 1 - end]) end++;
  }
  const keep = focused();
  source.focus({ preventScroll: true });
  source.setSelectionRange(start, old.length - end);
  // execCommand keeps the edit on the undo stack; where it is missing, the value is set (no undo)
  const done = document.queryCommandSupported?.("insertText") &&
    document.execCommand("insertText", false, text.slice(start, text.length - end));
  if (!done || source.value !== text) {
    source.value = text;
    source.dispatchEvent(new Event("input"));
  }
  if (whole) source.setSelectionRange(0, 0);
  if (keep && keep !== source && keep !== document.body) keep.focus({ preventScroll: true });
  renderGutter();
  for (const el of gutter.querySelectorAll("[data-line-added]")) el.removeAttribute("data-line-added");
  if (line) {
    gutter.children[line - 1]?.setAttribute("data-line-added", "true");
    const lineHeight = parseFloat(getComputedStyle(source).lineHeight);
    const top = (line - 1) * lineHeight;
    if (top < source.scrollTop || top > source.scrollTop + source.clientHeight - 2 * lineHeight) {
      source.scrollTop = Math.max(0, top - source.clientHeight / 2);
    }
  } else if (whole) source.scrollTop = 0;
  gutter.scrollTop = source.scrollTop;
  saveDraft();
  validate();
}

// Replace the whole text with `text`, written in `fmt` ("yaml" or "json"): the Format follows what was written.
/** @param {string} text @param {string} fmt */
function replaceText(text, fmt) {
  format.value = fmt;
  write(text, null, true);
}

/** @param {string} filename @param {Blob} blob */
function save(filename, blob) {
  saveFile(blob, filename);
  notice(`Saved ${filename}.`);
}

// The text as written, named after the scenario (when valid) and the Format: by then the Format says what the
// text is written in (a conversion chosen is finished first, and validate() makes the Format follow the text).
async function downloadScenario() {
  await formatChange;
  const answer = await validate();
  const text = source.value;
  const fmt = format.value || (isJson(text) ? "json" : "yaml");
  save(`${slug(answer.ok ? answer.scenario.name : "")}.${fmt}`,
    new Blob([text], { type: fmt === "json" ? "application/json" : "application/yaml" }));
}

/** @param {File} file */
async function uploadScenario(file) {
  if (file.size > MAX_BYTES) return notice(`${file.name} is larger than ${MAX_BYTES} bytes; not loaded.`);
  setText(await file.text());
  format.value = /\.json$/i.test(file.name) ? "json" : /\.ya?ml$/i.test(file.name) ? "yaml" : "";
  notice(`Loaded ${file.name}.`);
  await validate();
}

async function downloadTrace() {
  const answer = await validate();
  if (!answer.ok) return focusProblems();
  const body = JSON.stringify(answer.scenario);
  const trace = /** @type {{failed?: undefined} | Failed} */ (await post("/api/trace", body)); // saved as it comes
  if (trace.failed) return notice(`No trace: ${trace.message}`);
  save(`${slug(answer.scenario.name)}.trace.json`, new Blob([JSON.stringify(trace)], { type: "application/json" }));
}

/** @param {unknown} value */
const show = (value) => {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
};

/** @param {Difference} m */
function mismatchText(m) {
  const where = m.step === null ? "after the steps" : `at step ${m.step}`;
  if ("error" in m) return `${where} (${m.path}) the replay now fails: ${m.error}`;
  const recorded = "recorded" in m ? show(m.recorded) : "(missing)";
  const replayed = "replayed" in m ? show(m.replayed) : "(missing)";
  return `first difference ${where}, ${m.path}: recorded ${recorded}, replayed ${replayed}`;
}

/** @param {File} file */
async function loadTrace(file) {
  const result = $("trace-result");
  const answer = /** @type {Check | Failed} */ (await post("/api/trace/check", file));
  if (answer.failed) {
    result.dataset.match = "error";
    result.replaceChildren(h("p", { class: "bad", text: `${file.name}: ${answer.message}` }));
    return;
  }
  result.dataset.match = String(answer.match);
  const verdict = answer.match
    ? `✓ ${file.name} matches: replaying its scenario gives the recorded traces.`
    : `✗ ${file.name} does not match what its scenario replays to now.`;
  result.replaceChildren(
    h("p", { class: answer.match ? "good" : "bad", text: verdict }),
    h("ul", {}, Object.entries(answer.variants).map(([variant, v]) =>
      h("li", { dataVariant: variant }, h("strong", { text: variant }),
        `: ${v.match ? "same trace" : mismatchText(v.first_mismatch)}`))));
  setText(JSON.stringify(answer.scenario_object, null, 2));
  format.value = "json";
  notice(`Loaded the scenario of ${file.name} into the editor.`);
  await validate();
}

async function run() {
  const answer = await validate();
  if (!answer.ok) return focusProblems();
  // The viewer sends the scenario in one Socket.IO message; the server closes a connection whose message is
  // over its limit (MAX_MESSAGE_BYTES), so a scenario that would not fit is not handed over.
  const json = JSON.stringify(answer.scenario);
  const limit = Number($("editor").dataset.maxMessageBytes);
  const size = new TextEncoder().encode(json).length;
  if (limit && size + 1024 > limit) {
    return notice(`Too large to run in the viewer: ${size.toLocaleString("en")} bytes as JSON, and the server takes ` +
      `messages up to ${limit.toLocaleString("en")} bytes. Download it and use “inflight-scope replay”.`);
  }
  saveDraft({ ran: answer.scenario });
  try {
    sessionStorage.setItem(HANDOFF_KEY, json);
  } catch (err) {
    return notice(`Could not hand the scenario to the viewer: ${messageOf(err)}`);
  }
  const at = importer.landingOf(source.value); // an import opens at its incident
  location.assign(`/?scenario=${HANDOFF_ID}${at ? `&position=${at}` : ""}`);
}

// --- wiring ------------------------------------------------------------------------------------------------
/** @param {HTMLInputElement} input @param {(file: File) => unknown} handle */
function onFile(input, handle) {
  input.addEventListener("change", () => {
    const [file] = /** @type {FileList} */ (input.files);
    input.value = ""; // choosing the same file again is a change too
    if (file) handle(file);
  });
}

// --- the local drafts --------------------------------------------------------------------------------------
// Each page of the editor (an entry of the tab's history) keeps its own draft, so Back and Forward between
// editor pages, and a reload, show each page as it was left even when the browser did not keep the page itself
// (no back/forward cache: Chrome evicts pages, Playwright's Chromium keeps none). A page is named by an id in its
// history.state, which the browser keeps through Back, Forward, a reload and a restored tab; its draft is
// {id, from: the scenario it started from ("" for none), text, format, ran: the scenario object it last ran,
// saved: when}, shown only on the page of that id that started from the same scenario.
//
// They are in localStorage, as the single draft was: a draft outlives the tab (a closed tab brought back keeps
// it), and the viewer's "Editor" reads and writes the newest one there (DRAFT_KEY, links.js; flow.js). That
// storage is shared by every tab and kept for good, so the drafts are few: DRAFTS_KEY holds the newest MAX_DRAFTS,
// newest first, the oldest dropped (and more while storage is full); a page left as it opened keeps none.
// DRAFT_KEY holds the newest again ({from, text, format, ran}), the hand-over ?draft opens.
const DRAFTS_KEY = "inflight-scope:editor-drafts";
const MAX_DRAFTS = 6;
// What the page started from, as the server rendered it (the option it selected): a browser going Back may restore
// the select to the choice made after (the next page's), which Open would then load.
const startedFrom = $("start-from")?.querySelector("option[selected]")?.value ?? "";
if ($("start-from")) $("start-from").value = startedFrom;
const pageId = draftId();
/** @type {Source | undefined} */
let ran; // the scenario this page last ran (the viewer's "Editor" hands over the newest draft if it shows that)
let draftTimer = 0;

function draftId() {
  const state = history.state && typeof history.state === "object" ? history.state : {};
  if (typeof state.editorDraft === "string" && state.editorDraft) return state.editorDraft;
  const id = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  try {
    history.replaceState({ ...state, editorDraft: id }, "");
  } catch { /* no state kept: Back to this page will find no draft */ }
  return id;
}

// What is stored under `key`, as JSON (any: the storage is the user's, each reader checks what it uses).
/** @param {string} key @returns {any} */
function readStored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

function readDrafts() {
  const drafts = readStored(DRAFTS_KEY);
  return Array.isArray(drafts) ? drafts.filter((d) => d && typeof d.id === "string" && typeof d.text === "string") : [];
}

/** @param {string} key @param {unknown} value */
function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage refused or full
  }
}

/** @param {{ran?: Source}} [extra] */
function saveDraft(extra = {}) {
  clearTimeout(draftTimer);
  if ("ran" in extra) ran = extra.ran;
  const draft = { id: pageId, from: startedFrom, text: source.value, format: format.value, ran, saved: Date.now() };
  const untouched = draft.text === source.defaultValue && !draft.format && ran === undefined;
  const drafts = [...(untouched ? [] : [draft]), ...readDrafts().filter((d) => d.id !== pageId)].slice(0, MAX_DRAFTS);
  while (!store(DRAFTS_KEY, drafts) && drafts.length) drafts.pop(); // full: the oldest go first
  if (untouched) return; // the newest draft stays the hand-over
  if (!store(DRAFT_KEY, { from: draft.from, text: draft.text, format: draft.format, ran })) {
    try {
      localStorage.removeItem(DRAFT_KEY); // not an older page's text as the newest
    } catch { /* storage refused */ }
  }
}

// This page's own draft when it is reached again (Back, Forward, a reload); the newest draft when the viewer's
// "Editor" opens it (?draft); else nothing: the page shows what it started from.
function restoreDraft() {
  const [navigation] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType("navigation"));
  const how = navigation?.type;
  let draft = null;
  if (how === "back_forward" || how === "reload") {
    draft = readDrafts().find((d) => d.id === pageId && d.from === startedFrom);
  } else if (new URLSearchParams(location.search).has("draft")) {
    const newest = readStored(DRAFT_KEY);
    if (newest?.from === startedFrom) draft = newest;
  }
  if (!draft || typeof draft.text !== "string") return;
  setText(draft.text);
  if ([...format.options].some((o) => o.value === draft.format)) format.value = draft.format;
  ran = draft.ran;
}

source.addEventListener("input", () => {
  renderGutter();
  scheduleValidation();
  clearTimeout(draftTimer);
  draftTimer = setTimeout(saveDraft, 250);
});
addEventListener("pagehide", () => saveDraft());
source.addEventListener("scroll", () => {
  gutter.scrollTop = source.scrollTop;
});
format.addEventListener("change", () => {
  formatChange = changeFormat();
});
$("btn-validate").addEventListener("click", () => validate());
$("btn-run").addEventListener("click", run);
$("btn-download").addEventListener("click", downloadScenario);
$("btn-trace").addEventListener("click", downloadTrace);
onFile($("upload"), uploadScenario);
onFile($("load-trace"), loadTrace);
// the notice of a link naming no built-in (the server writes it, as the viewer's)
$("link-notice-close").addEventListener("click", () => {
  $("link-notice").hidden = true;
  source.focus();
});

// --- the palette, the log import, the catalogue ---------------------------------------------------------------
const palette = createPalette($("palette"), { text: () => source.value, write, notice });
const importer = bindImport($("import-dialog"), $("import-result"), { replaceText, validate, notice }, MAX_BYTES);
$("btn-import").addEventListener("click", () => importer.open());
$("btn-empty").addEventListener("click", () => {
  replaceText($("btn-empty").dataset.empty, "yaml");
  notice("Started an empty scenario (Ctrl+Z in the text brings the old one back).");
});
const catalogue = $("catalogue");
const catalogueData = loadCatalogue();
catalogueData.then((/** @type {Catalogue} */ data) => palette.catalogue(data)).catch(() => {});
catalogue.addEventListener("toggle", () => {
  if (!catalogue.open || catalogue.dataset.drawn) return;
  catalogue.dataset.drawn = "true";
  catalogueData.then((/** @type {Catalogue} */ data) => drawCatalogue($("catalogue-body"), data, "catalogue-search"))
    .catch((/** @type {Error} */ err) => $("catalogue-body").replaceChildren(
      h("p", { class: "bad", text: `Could not load the catalogue: ${err.message}` })));
});

restoreDraft();
renderGutter();
validate();
