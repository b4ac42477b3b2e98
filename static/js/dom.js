// Element builder: text is always set as text (never parsed as HTML).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("data") || key.startsWith("aria") || key === "role" || key === "title" || key === "tabindex")
      el.setAttribute(key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), value === true ? "true" : String(value));
    else el[key] = value;
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
