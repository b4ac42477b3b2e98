// A small, safe subset of Markdown (paragraphs, "- " lists, **bold**, *em*, `code`) built as DOM nodes.
import { h } from "./dom.js";

const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/g;

function inline(text) {
  return text.split(INLINE).filter(Boolean).map((part) => {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) return h("strong", { text: part.slice(2, -2) });
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return h("code", { text: part.slice(1, -1) });
    if (part.startsWith("*") && part.endsWith("*") && part.length > 2) return h("em", { text: part.slice(1, -1) });
    return document.createTextNode(part);
  });
}

export function renderMarkdown(text) {
  const out = [];
  for (const block of String(text || "").split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (!lines.length) continue;
    if (lines.every((l) => /^\s*[-*] /.test(l))) {
      out.push(h("ul", {}, lines.map((l) => h("li", {}, inline(l.replace(/^\s*[-*] /, ""))))));
    } else {
      out.push(h("p", {}, inline(lines.join(" "))));
    }
  }
  return out;
}
