// Keyboard: → ← Space Home End + - d t ?  (ignored while typing in a form field)
export function bindKeys(actions) {
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input[type=text], textarea, select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const map = {
      ArrowRight: actions.step, ArrowLeft: actions.back, " ": actions.togglePlay, Home: actions.start, End: actions.end,
      "+": actions.faster, "=": actions.faster, "-": actions.slower, d: actions.divergence, t: actions.toggleTheme,
      "?": actions.toggleHelp, Escape: actions.closeHelp,
    };
    const fn = map[ev.key];
    if (!fn) return;
    if (ev.key === " " && ev.target.closest("button")) return; // Space on a focused button clicks it
    ev.preventDefault();
    fn();
  });
}
