// Downloads: the offline HTML file of the scenario, the current view as SVG and the steps up to it as an animated
// GIF or APNG (in the page's theme).
// Built-in scenarios are fetched by id; an inline one is posted to the same exporter.
import { drawnDark } from "./dom.js";

// The name of every file the pages save (the exports here; the editor's scenario and trace) made from a scenario's
// name: lower case, accents dropped, every run of other characters one dash, at most 60 characters, no dash at
// either end ("In flight: the basics (fork)" -> "in-flight-the-basics-fork"); "scenario" when nothing is left.
/** @param {unknown} name */
export function slug(name) {
  const s = String(name ?? "").normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+/, "").slice(0, 60).replace(/-+$/, "");
  return s || "scenario";
}

// A blob saved as a download named ``filename`` (the exports here, the editor's scenario and trace).
/** @param {Blob} blob @param {string} filename */
export function saveFile(blob, filename) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// An animation (GIF, APNG: webapp/web/animated.py) of the steps up to `position`, from the start of the page's
// `range` (an embed's; else as far back as the server allows); at the range's start, the whole range.
/** @param {number} position @param {[number, number] | null} range */
function animated(position, range) {
  const [from, to] = range ?? [null, null];
  const end = position > (from ?? 0) ? position : to;
  return { ...(from !== null ? { from } : {}), ...(end !== null ? { to: end } : {}) };
}

// versions: the panes on screen when they are not the scenario's own (null: its own). The offline file opens at
// `position`, locked to `range` [from, to] when the view is (an embed's); an animation spans the range up to it.
/**
 * @param {string} kind @param {Source | string} source @param {number} position @param {string[] | null} versions
 * @param {[number, number] | null} range
 */
export async function downloadExport(kind, source, position, versions, range = null) {
  const inline = typeof source !== "string";
  const theme = drawnDark() ? "dark" : "light";
  const moving = kind === "gif" || kind === "apng";
  const asked = kind === "svg" ? { position, theme }
    : moving ? { ...animated(position, range), theme }
    : { position, ...(range ? { from: range[0], to: range[1] } : {}) };
  const params = new URLSearchParams(Object.entries(asked).map(([name, value]) => [name, String(value)]));
  if (versions) params.set("versions", versions.join());
  const query = params.toString() ? `?${params}` : "";
  const url = inline ? `/export/${kind}${query}` : `/export/${encodeURIComponent(source)}.${kind}${query}`;
  const response = await fetch(url, inline
    ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(source) }
    : {});
  if (!response.ok) throw new Error((await response.json()).message);
  const name = inline ? slug(source.name) : source;
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
  const filename = moving && named ? named[1] : kind === "svg" ? `${name}-${position}.svg` : `${name}.html`;
  saveFile(await response.blob(), filename);
}
