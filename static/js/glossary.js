// Jargon explained where it appears: the scenario message's `glossary` {term: definition} (words.GLOSSARY)
// marks the terms on the stage — lane names, "cycle" and "moveRequestCycle" in the clock, n= (inFlightPodsNum),
// the hint values in the hint line and captions, backoff timers — as focusable `.term`s whose definition shows in
// one tooltip on hover and on focus; the help dialog and the course list them all. The words are the server's.
import { $, h, targetOf } from "./dom.js";

/** @type {Record<string, string>} term -> definition */
let glossary = {};

// What to mark, per place: [selector, terms] (a term's text found there), or [selector, term] for the
// element as a whole.
/** @param {Element} el a lane's name @returns {string} the queue its lane (`.lane[data-queue]`) shows */
const queueOf = (el) => /** @type {string} */ (/** @type {HTMLElement} */ (el.closest(".lane")).dataset.queue);
/** @type {[string, (el: HTMLElement) => string][]} */
const WHOLE = [
  [".lane[data-queue] > .lane-name", (el) => (queueOf(el) === "inFlight" ? "in flight" : queueOf(el))],
  [".entry .count", () => "inFlightPodsNum"],
  [".hint-summary .decision", (el) => el.textContent.trim()],
  [".timer-backoff", () => "backoff"],
];
/** @type {[string, string[]][]} */
const IN_TEXT = [
  [".clock", ["moveRequestCycle", "cycle"]],
  [".hint-summary > span:not(.decision), .pane-caption", ["QueueImmediately", "QueueAfterBackoff", "QueueSkip"]],
];
/** @type {Record<string, string>} */
const TERM_OF = { cycle: "scheduling cycle" };

/** @param {Record<string, string> | null | undefined} words @param {Element | null | undefined} helpCard */
export function useGlossary(words, helpCard) {
  glossary = words || {};
  if (helpCard) listInHelp(helpCard);
}

/** @param {string} term @returns {string | undefined} */
function definition(term) {
  return glossary[TERM_OF[term] ?? term];
}

/** @param {HTMLElement} el @param {string} term */
function mark(el, term) {
  el.classList.add("term");
  el.tabIndex = 0;
  el.dataset.term = TERM_OF[term] ?? term;
  el.setAttribute("aria-describedby", "term-tip");
}

// Marks the terms under `root` (idempotent: marked places are skipped).
/** @param {ParentNode} root */
export function decorate(root) {
  for (const [selector, termOf] of WHOLE) {
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector))) {
      if (el.dataset.term) continue;
      const term = termOf(el);
      if (definition(term)) mark(el, term);
    }
  }
  for (const [selector, terms] of IN_TEXT) {
    const known = terms.filter(definition);
    if (!known.length) continue;
    const pattern = new RegExp(`\\b(${known.join("|")})\\b`);
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector))) {
      if (el.dataset.terms) continue;
      el.dataset.terms = "marked";
      const texts = /** @type {Text[]} */ ([...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE));
      for (const node of texts) {
        const parts = node.data.split(pattern);
        if (parts.length < 2) continue;
        node.replaceWith(...parts.map((part, i) => {
          if (i % 2 === 0) return part;
          const span = h("span", { text: part });
          mark(span, part);
          return span;
        }));
      }
    }
  }
}

// Marks the stage's terms whenever it is drawn; one tooltip for all.
/** @param {Element} stage */
export function watchTerms(stage) {
  new MutationObserver(() => decorate(stage)).observe(stage, { childList: true, subtree: true });
  const tip = h("div", { id: "term-tip", class: "term-tip", role: "tooltip", hidden: true });
  $("app").append(tip);
  /** @param {Event} ev */
  const show = (ev) => {
    const term = targetOf(ev).closest?.(".term");
    if (term) place(tip, term);
  };
  document.addEventListener("focusin", show);
  document.addEventListener("mouseover", show);
  document.addEventListener("focusout", () => (tip.hidden = true));
  document.addEventListener("mouseout", (ev) => {
    const term = targetOf(ev).closest?.(".term");
    if (term && document.activeElement !== term) tip.hidden = true;
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") tip.hidden = true;
  });
}

/** @param {HTMLElement} tip the one tooltip @param {HTMLElement} term a marked term */
function place(tip, term) {
  const text = definition(/** @type {string} */ (term.dataset.term)); // mark() gives every .term its data-term
  if (!text) return;
  tip.replaceChildren(h("strong", { text: term.dataset.term }), ` ${text}`);
  tip.hidden = false;
  const r = term.getBoundingClientRect();
  const width = Math.min(340, innerWidth - 16);
  tip.style.inlineSize = `${width}px`;
  tip.style.left = `${Math.max(8, Math.min(r.left, innerWidth - width - 8))}px`;
  const below = r.bottom + 6;
  const height = tip.getBoundingClientRect().height;
  tip.style.top = `${below + height < innerHeight ? below : Math.max(8, r.top - height - 6)}px`;
}

/** @param {Element} card */
function listInHelp(card) {
  let list = card.querySelector("#help-glossary");
  if (!list) {
    list = h("dl", { id: "help-glossary", class: "glossary" });
    card.append(h("h2", { id: "help-glossary-title", text: "Words" }), list);
  }
  list.replaceChildren(...definitions(glossary));
}

// The words {term: definition} as a definition list's terms and definitions (the help dialog, the course).
/** @param {Record<string, string> | null | undefined} words @returns {HTMLElement[]} */
export function definitions(words) {
  return Object.entries(words || {}).flatMap(([term, text]) => [h("dt", { text: term }), h("dd", { text })]);
}
