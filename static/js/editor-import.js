// "Import log…": a kube-scheduler log (a file, or pasted text) is sent as the body of POST /api/import, which answers
// {scenario, text, assumptions, counts} or 400 {message, kind}. The YAML goes into the editor; the counts and the
// assumptions (what the log could not tell) are listed beside it, to be read before running. A log over the
// server's MAX_UPLOAD_BYTES (the page's data-max-bytes) is not sent: the dialog says so and how to import it.
import { h } from "./dom.js";

const COUNTS = [ // the importer's counts (webapp/scenario/logs.py), in the words shown
  ["lines", "lines read"], ["used", "used"], ["ignored", "scheduler lines ignored"], ["other", "other log lines"],
  ["unknown", "unknown"], ["truncated", "truncated"],
];

const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
  : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`);

// ``dialog``: the <dialog> of editor.html; ``result``: where the counts and assumptions are shown;
// ``editor``: {write(text), validate(), notice(text)}.
export function bindImport(dialog, result, editor, maxBytes) {
  const $ = (sel) => dialog.querySelector(sel);
  const status = $("[data-testid=import-status]");
  const paste = $("textarea");

  const refuse = (text) => {
    status.dataset.state = "bad";
    status.textContent = text;
  };

  async function send(body, name) {
    status.dataset.state = "busy";
    status.textContent = `Importing ${name}…`;
    let answer;
    try {
      const res = await fetch("/api/import", { method: "POST", headers: { "Content-Type": "text/plain" }, body });
      answer = await res.json().catch(() => ({ message: `the server answered HTTP ${res.status}` }));
      if (!res.ok) return refuse(`Not imported: ${answer.message ?? `HTTP ${res.status}`}`);
    } catch (err) {
      return refuse(`Not imported: no answer from the server (${err.message}).`);
    }
    status.textContent = "";
    delete status.dataset.state;
    dialog.close();
    show(answer, name);
    editor.write(answer.text, null, true);
    editor.notice(`Imported ${name}: read its ${answer.assumptions.length} assumptions beside the text before running.`);
    await editor.validate();
    result.scrollIntoView({ block: "nearest" });
  }

  function tooLarge(bytes, name) {
    refuse(`${name} is ${size(bytes)}; the server takes at most ${size(maxBytes)}. Import it on the command line ` +
      "(inflight-scope import LOGFILE -o scenario.yaml, which streams any size) or cut the log to the incident's minutes.");
  }

  function show(answer, name) {
    const c = answer.counts;
    const scenario = answer.scenario;
    result.hidden = false;
    result.replaceChildren(
      h("h2", { text: "Imported from the log" }),
      h("p", { class: "imp-what" }, h("strong", { text: name }), ` → ${scenario.pods.length} pods, ${scenario.steps.length} steps.`),
      h("ul", { class: "imp-counts", dataTestid: "import-counts" },
        COUNTS.filter(([key]) => key in c).map(([key, words]) =>
          h("li", { dataCount: key, dataZero: String(c[key] === 0) }, h("strong", { text: c[key].toLocaleString("en") }), ` ${words}`))),
      h("h3", { id: "imp-assumptions-title", text: `Assumptions (${answer.assumptions.length}): what the log could not tell` }),
      h("ol", { class: "imp-assumptions", dataTestid: "import-assumptions", ariaLabelledby: "imp-assumptions-title" },
        answer.assumptions.map((a) => h("li", { text: a }))),
      h("p", { class: "muted imp-foot", text: "They are in the text too (comments, description, assumptions:). Change the text where you know better, then Run." }));
  }

  $("input[type=file]").addEventListener("change", (ev) => {
    const [file] = ev.target.files;
    ev.target.value = ""; // the same file again is a change too
    if (!file) return;
    if (file.size > maxBytes) return tooLarge(file.size, file.name);
    send(file, file.name);
  });
  $("[data-action=import-paste]").addEventListener("click", () => {
    const text = paste.value;
    if (!text.trim()) {
      paste.focus();
      return refuse("Paste a log first, or choose a file.");
    }
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > maxBytes) return tooLarge(bytes, "the pasted log");
    send(text, "the pasted log");
  });
  $("[data-action=import-cancel]").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (status.dataset.state !== "busy") status.textContent = "";
  });
  return {
    open() {
      status.textContent = "";
      delete status.dataset.state;
      dialog.showModal();
    },
  };
}
