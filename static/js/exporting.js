// Downloads: the offline HTML file of the scenario, and the current view as SVG.
// Built-in scenarios are fetched by id; an inline one is posted to the same exporter.
function save(blob, filename) {
  const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: filename });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// versions: the panes on screen when they are not the scenario's own (null: its own).
export async function downloadExport(kind, source, position, versions) {
  const inline = typeof source !== "string";
  const params = new URLSearchParams(kind === "svg" ? { position } : {});
  if (versions) params.set("versions", versions.join());
  const query = params.toString() ? `?${params}` : "";
  const url = inline ? `/export/${kind}${query}` : `/export/${encodeURIComponent(source)}.${kind}${query}`;
  const response = await fetch(url, inline
    ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(source) }
    : {});
  if (!response.ok) throw new Error((await response.json()).message);
  const name = inline ? (source.name || "scenario").replace(/[^A-Za-z0-9]+/g, "-").toLowerCase() : source;
  save(await response.blob(), kind === "svg" ? `${name}-${position}.svg` : `${name}.html`);
}
