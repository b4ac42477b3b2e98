// A small, safe subset of Markdown (paragraphs, "- " lists, **bold**, *em*, `code`) built as DOM nodes: read into
// plain blocks first (`blocks`, no DOM), then built.
import { h } from "./dom.js";

const INLINE = /(\*\*[^*]+\*\*|\*[^*\s][^*]*\*|`[^`]+`)/g;

// A line's runs: [tag, text] each, tag "strong", "code", "em" or null (plain text).
/** @param {string} text @returns {["strong" | "code" | "em" | null, string][]} */
export function runs(text) {
  return text.split(INLINE).filter(Boolean).map((part) => {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) return ["strong", part.slice(2, -2)];
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return ["code", part.slice(1, -1)];
    if (part.startsWith("*") && part.endsWith("*") && part.length > 2) return ["em", part.slice(1, -1)];
    return [null, part];
  });
}

const BULLET = /^\s*[-*] /;

// The text's blocks: {list: [item's text, ...]} or {paragraph: text}. A block whose first line is a bullet is a
// list; a line that is not a bullet continues the item above it (an item wrapped over lines, as the built-ins'
// descriptions wrap them).
/** @param {unknown} text @returns {({list: string[]} | {paragraph: string})[]} */
export function blocks(text) {
  /** @type {({list: string[]} | {paragraph: string})[]} */
  const out = [];
  for (const block of String(text || "").split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim());
    if (!lines.length) continue;
    if (BULLET.test(lines[0])) {
      /** @type {string[]} */
      const items = [];
      for (const line of lines) {
        if (BULLET.test(line)) items.push(line.replace(BULLET, ""));
        else items[items.length - 1] += ` ${line.trim()}`;
      }
      out.push({ list: items });
    } else {
      out.push({ paragraph: lines.join(" ") });
    }
  }
  return out;
}

/** @param {string} text */
const inline = (text) => runs(text)
  .map(([tag, part]) => (tag ? h(tag, { text: part }) : document.createTextNode(part)));

/** @param {unknown} text */
export function renderMarkdown(text) {
  return blocks(text).map((block) => ("list" in block
    ? h("ul", {}, block.list.map((item) => h("li", {}, inline(item))))
    : h("p", {}, inline(block.paragraph))));
}
