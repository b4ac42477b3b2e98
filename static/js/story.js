// The story mode's article (templates/_story.html): the scenario's description, written in Markdown, drawn as the
// viewer draws it (once: a drawn element loses its data-markdown). The sections are followed by scrolly.js.
import { renderMarkdown } from "./markdown.js";

export function drawStory(root = document) {
  for (const el of root.querySelectorAll("[data-markdown]")) {
    el.replaceChildren(...renderMarkdown(el.textContent));
    el.removeAttribute("data-markdown");
  }
}

drawStory();
