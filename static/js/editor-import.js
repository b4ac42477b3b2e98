// "Import log…": a kube-scheduler log (a file, or pasted text) is sent as the body of POST /api/import, which answers
// {scenario, text, assumptions, disagreements, counts} or 400 {message, kind}; a file's name goes along (?name=), for
// the scenario's name and the server's messages. The YAML goes into the editor; the counts, the disagreements (queue
// moves the log states that the model's replay does not make) and the assumptions (what the log could not tell) are
// listed beside it, to be read before running. A log over the server's MAX_UPLOAD_BYTES (the page's
// data-max-bytes) is not sent: the dialog says so and how to import it.
// The answer's report (the incident report's verdict, where the versions part, each pod's time lost) is shown
// first; "Open the incident report" posts the same log to /report (a form, so the page opens in this tab), and
// "Open the viewer at the incident" hands the scenario to the viewer at that position, as Run does; Run opens the
// viewer there too while the editor holds the imported text as it came (``landing``), at 0 once it is edited.
import { h, messageOf, within } from "./dom.js";
import { HANDOFF_ID, HANDOFF_KEY } from "./links.js";

/**
 * POST /api/import's answer (webapp/web/editor.py import_log); a refusal is {message, kind}.
 * @typedef {{report: {verdict: string, incident: number | null, lost: string[]} | null,
 *   scenario: Source & {pods: object[]}, text: string, assumptions: string[], disagreements: string[],
 *   said: {key: string, count: number, words: string}[], lists: Record<ListKey, {title: string, what: string}>}
 * } ImportAnswer
 * @typedef {"assumptions" | "disagreements"} ListKey
 * The log sent, again for the report's form.
 * @typedef {{body: Blob | string, fileName: string}} SentLog
 * What the import asks of the editor.
 * @typedef {{replaceText(text: string, format: string): void, validate(): Promise<unknown>,
 *   notice(text: string): void}} ImportingEditor
 */

// A noun that agrees with its count, and both: "1 step", "2 steps" (counted is editor.js's too).
/** @param {number} n @param {string} noun */
const plural = (n, noun) => (n === 1 ? noun : `${noun}s`);
/** @param {number} n @param {string} noun */
export const counted = (n, noun) => `${n.toLocaleString("en")} ${plural(n, noun)}`;

/** @param {number} bytes */
const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
  : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`);

// ``dialog``: the <dialog> of editor.html; ``result``: where the counts, disagreements and assumptions are shown;
// ``editor``: {replaceText(text, format), validate(), notice(text)}.
/** @param {HTMLDialogElement} dialog @param {HTMLElement} result @param {ImportingEditor} editor
 * @param {number} maxBytes */
export function bindImport(dialog, result, editor, maxBytes) {
  const status = within(dialog, "[data-testid=import-status]");
  const paste = within(dialog, "textarea");
  /** @type {{text: string, position: number} | null} */
  let landing = null; // {text, position}: the imported text, and where its versions part for the pod that lost time

  /** @param {string} text */
  const refuse = (text) => {
    status.dataset.state = "bad";
    status.textContent = text;
  };

  // ``name``: what the page calls the log; ``fileName``: its file's name, if it is a file.
  /** @param {Blob | string} body @param {string} name @param {string} [fileName] */
  async function send(body, name, fileName) {
    status.dataset.state = "busy";
    status.textContent = `Importing ${name}…`;
    const url = fileName ? `/api/import?${new URLSearchParams({ name: fileName })}` : "/api/import";
    /** @type {ImportAnswer & {message?: string}} a refusal's message, read when it is one */
    let answer;
    try {
      const res = await fetch(url, { method: "POST", headers: { "Content-Type": "text/plain" }, body });
      answer = await res.json().catch(() => ({ message: `the server answered HTTP ${res.status}` }));
      if (!res.ok) return refuse(`Not imported: ${answer.message ?? `HTTP ${res.status}`}`);
    } catch (err) {
      return refuse(`Not imported: no answer from the server (${messageOf(err)}).`);
    }
    status.textContent = "";
    delete status.dataset.state;
    dialog.close();
    show(answer, name, { body, fileName: fileName ?? "pasted.log" });
    editor.replaceText(answer.text, "yaml");
    const incident = answer.report?.incident;
    landing = incident === null || incident === undefined ? null : { text: answer.text, position: incident };
    const odds = answer.disagreements.length;
    editor.notice(`Imported ${name}: read its ${counted(answer.assumptions.length, "assumption")}` +
      `${odds ? ` and ${counted(odds, "disagreement")} with the model` : ""} beside the text before running.`);
    await editor.validate();
    result.scrollIntoView({ block: "nearest" });
  }

  /** @param {number} bytes @param {string} name */
  function tooLarge(bytes, name) {
    refuse(`${name} is ${size(bytes)}; the server takes at most ${size(maxBytes)}. Import it on the command line ` +
      "(inflight-scope import LOGFILE -o scenario.yaml, which streams any size) or cut the log to the " +
      "incident's minutes.");
  }

  /** @param {ImportAnswer} answer @param {ListKey} key */
  function listed(answer, key) {
    const { title, what } = answer.lists[key]; // the answer's lists, each under its title and what it holds
    return [
      h("h3", { id: `imp-${key}-title`, text: `${title} (${answer[key].length}): ${what}` }),
      h("ol", { class: "imp-assumptions", dataTestid: `import-${key}`, ariaLabelledby: `imp-${key}-title` },
        answer[key].map((text) => h("li", { text })))];
  }

  // The report's part of the panel: the verdict, the time lost, and the ways to the report and the incident.
  /** @param {ImportAnswer} answer @param {SentLog} log */
  function verdict(answer, log) {
    const report = answer.report;
    if (!report) return [];
    const file = new File([log.body], log.fileName, { type: "text/plain" });
    const input = h("input", { type: "file", name: "log", hidden: true });
    const form = h("form", { class: "imp-report", method: "post", enctype: "multipart/form-data",
      action: `/report?${new URLSearchParams({ name: log.fileName })}` }, input,
    h("button", { class: "btn primary", type: "submit", dataTestid: "report-link", text: "Open the incident report" }));
    form.addEventListener("submit", () => {
      const files = new DataTransfer();
      files.items.add(file);
      input.files = files.files;
      handOver(answer.scenario); // the report's viewer link names the hand-off when the scenario is too long for it
    });
    const incident = report.incident;
    return [
      h("p", { class: "imp-verdict", dataTestid: "verdict", text: report.verdict }),
      ...(report.lost.length ? [h("ul", { class: "imp-lost", dataTestid: "import-lost" },
        report.lost.map((text) => h("li", { text })))] : []),
      h("div", { class: "imp-report-actions" }, form, incident === null ? null : h("button", {
        class: "btn", type: "button", dataTestid: "incident-link",
        text: `Open the viewer at the incident (position ${incident})`,
        onclick: () => {
          handOver(answer.scenario);
          location.assign(`/?scenario=${HANDOFF_ID}&position=${incident}`);
        },
      })),
    ];
  }

  /** @param {Source} scenario */
  function handOver(scenario) {
    try {
      sessionStorage.setItem(HANDOFF_KEY, JSON.stringify(scenario));
    } catch { /* storage refused: the report's own link carries the scenario when it fits an address */ }
  }

  /** @param {ImportAnswer} answer @param {string} name @param {SentLog} log */
  function show(answer, name, log) {
    const scenario = answer.scenario;
    result.hidden = false;
    result.replaceChildren(
      h("h2", { text: `Imported from ${name}` }),
      ...verdict(answer, log),
      h("p", { class: "imp-what" }, h("strong", { text: name }),
        ` → ${counted(scenario.pods.length, "pod")}, ${counted(scenario.steps.length, "step")}.`),
      h("ul", { class: "imp-counts", dataTestid: "import-counts" },
        answer.said.map(({ key, count, words }) => // the importer's counts, in its words (logs/reading.py COUNT_WORDS)
          h("li", { dataCount: key, dataZero: String(count === 0) },
            h("strong", { text: count.toLocaleString("en") }), ` ${words}`))),
      ...(answer.disagreements.length ? listed(answer, "disagreements") : []),
      ...listed(answer, "assumptions"),
      h("p", { class: "muted imp-foot", text: "They are in the text too (comments and description; the assumptions " +
        "also under assumptions:). Change the text where you know better, then Run." }));
  }

  within(dialog, "input[type=file]").addEventListener("change", (/** @type {Event} */ ev) => {
    const input = /** @type {HTMLInputElement} */ (ev.target);
    const [file] = /** @type {FileList} */ (input.files);
    input.value = ""; // the same file again is a change too
    if (!file) return;
    if (file.size > maxBytes) return tooLarge(file.size, file.name);
    send(file, file.name, file.name);
  });
  within(dialog, "[data-action=import-paste]").addEventListener("click", () => {
    const text = paste.value;
    if (!text.trim()) {
      paste.focus();
      return refuse("Paste a log first, or choose a file.");
    }
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > maxBytes) return tooLarge(bytes, "the pasted log");
    send(text, "the pasted log");
  });
  within(dialog, "[data-action=import-cancel]").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (status.dataset.state !== "busy") status.textContent = "";
  });
  return {
    // The position Run opens the viewer at for the editor's ``text``: the incident while it is the imported text.
    /** @param {string} text */
    landingOf(text) {
      return landing && landing.text === text ? landing.position : 0;
    },
    open() {
      status.textContent = "";
      delete status.dataset.state;
      dialog.showModal();
    },
  };
}
