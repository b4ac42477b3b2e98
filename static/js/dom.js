// The page's DOM helpers, the only ones: every module finds and builds its elements through these.

// The element with id `id` (any: each caller knows which kind of element its id names).
/** @param {string} id @returns {any} */
export const $ = (id) => document.getElementById(id);

// The element that has the focus (an HTMLElement, or null: none, or the page's body).
/** @returns {HTMLElement | null} */
export const focused = () => /** @type {HTMLElement | null} */ (document.activeElement);

// The element an event happened on (any, as `$`: an element, whose kind each listener knows).
/** @param {Event} ev @returns {any} */
export const targetOf = (ev) => ev.target;

// The first element under `root` that `selector` matches (any, as `$`).
/** @param {ParentNode} root @param {string} selector @returns {any} */
export const within = (root, selector) => root.querySelector(selector);

// What a thrown value says: an Error's message, anything else as text.
/** @param {unknown} err @returns {string} */
export const messageOf = (err) => (err instanceof Error ? err.message : String(err));

const ATTRIBUTES = new Set(["role", "title", "tabindex"]); // set as attributes, as data-* and aria-* are

// Element builder: text is always set as text (never parsed as HTML).
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Record<string, any>} attrs @param {...Child} children @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("data") || key.startsWith("aria") || ATTRIBUTES.has(key))
      el.setAttribute(key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), value === true ? "true" : String(value));
    else Object.assign(el, { [key]: value });
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Whether the page is drawn dark: chosen (data-theme on <html>), or "auto" and the system's preference.
export function drawnDark() {
  const theme = document.documentElement.dataset.theme;
  return theme === "dark" || (theme === "auto" && window.matchMedia("(prefers-color-scheme: dark)").matches);
}
