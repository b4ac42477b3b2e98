// A small, safe subset of Markdown (paragraphs, "- " lists, **bold**, *em*, `code`) built as DOM nodes.
import { h } from "./dom.js";

const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/g;

function inline(text) {
  return text.split(INLINE).filter(Boolean).map((part) => {
    const bold = part.startsWith("**") && part.endsWith("**") && part.length > 4;
    if (bold) return h("strong", { text: part.slice(2, -2) });
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return h("code", { text: part.slice(1, -1) });
    if (part.startsWith("*") && part.endsWith("*") && part.length > 2) return h("em", { text: part.slice(1, -1) });
    return document.createTextNode(part);
  });
}

const BULLET = /^\s*[-*] /;

// A block whose first line is a bullet is a list; a line that is not a bullet continues the item above it (an
// item wrapped over lines, as the built-ins' descriptions wrap them).
export function renderMarkdown(text) {
  const out = [];
  for (const block of String(text || "").split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (!lines.length) continue;
    if (BULLET.test(lines[0])) {
      const items = [];
      for (const line of lines) {
        if (BULLET.test(line)) items.push(line.replace(BULLET, ""));
        else items[items.length - 1] += ` ${line.trim()}`;
      }
      out.push(h("ul", {}, items.map((item) => h("li", {}, inline(item)))));
    } else {
      out.push(h("p", {}, inline(lines.join(" "))));
    }
  }
  return out;
}
