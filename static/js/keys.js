// Keyboard (and presentation clickers, which send PageDown/PageUp, "." or "b"); ignored while typing.
export function bindKeys(actions) {
  const map = {
    ArrowRight: actions.step, PageDown: actions.step, ArrowLeft: actions.back, PageUp: actions.back,
    " ": actions.togglePlay, Home: actions.start, End: actions.end,
    "+": actions.faster, "=": actions.faster, "-": actions.slower, d: actions.divergence, t: actions.toggleTheme,
    p: actions.togglePresenting, b: actions.toggleBlank, ".": actions.toggleBlank, v: actions.toggleTables,
    n: actions.toggleNarration, l: actions.toggleLegend,
    "?": actions.toggleHelp, Escape: actions.closeHelp,
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input[type=text], input[type=url], textarea, select, [contenteditable]") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    // A modal (help, the Predict prompt) owns the keys: only Escape and ? (help) reach the page meanwhile.
    if (document.querySelector(".help:not([hidden])") && ev.key !== "Escape" && ev.key !== "?") return;
    const fn = map[ev.key];
    if (!fn) return;
    // Space on a focused button or disclosure clicks it, on a checkbox ticks it
    if (ev.key === " " && ev.target.closest("button, summary, input[type=checkbox]")) return;
    ev.preventDefault();
    fn();
  });
}
