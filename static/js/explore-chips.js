// The chips one acts on in the diagram (explore.js): a head of activeQ's pop (it forks; a pod behind the head
// cannot be popped), in flight's select; reachable by Tab, Enter or Space acts.
const ACTING = "[data-queue=activeQ] .chip[data-head], [data-queue=inFlight] .chip[data-pod]";

/**
 * Marks the chips under `panes` as buttons, the in-flight chip of `selected` pressed.
 * @param {HTMLElement} panes @param {string | null} selected
 */
export function markChips(panes, selected) {
  for (const chip of panes.querySelectorAll("[data-queue=activeQ] .chip:not([data-head])[role=button]")) {
    for (const name of ["role", "tabindex", "aria-label"]) chip.removeAttribute(name);
  }
  for (const chip of /** @type {NodeListOf<HTMLElement>} */ (panes.querySelectorAll(ACTING))) {
    const popping = chip.closest("[data-queue]")?.getAttribute("data-queue") === "activeQ";
    const pod = chip.dataset.pod;
    chip.setAttribute("role", "button");
    chip.tabIndex = 0;
    chip.setAttribute("aria-label", popping ? `Pop ${pod} (forks here)` : `Select ${pod} for Fail, Done or Update`);
    chip.classList.toggle("picked", !popping && pod === selected);
    if (!popping) chip.setAttribute("aria-pressed", String(pod === selected));
  }
}

/**
 * A click, Enter or Space on a chip under `panes` pops it (activeQ's head) or selects it (in flight).
 * @param {HTMLElement} panes @param {{pop: (pod: string) => void, select: (pod: string) => void}} act
 */
export function bindChips(panes, { pop, select }) {
  /** @param {HTMLElement} chip */
  function actOn(chip) {
    const queue = chip.closest("[data-queue]")?.getAttribute("data-queue");
    const pod = chip.dataset.pod ?? "";
    if (queue === "activeQ") pop(pod);
    else if (queue === "inFlight") select(pod);
  }
  const chipOf = (/** @type {EventTarget | null} */ target) =>
    /** @type {HTMLElement | null} */ (target instanceof Element ? target.closest(ACTING) : null);
  panes.addEventListener("click", (ev) => {
    const chip = chipOf(ev.target);
    if (chip) actOn(chip);
  });
  panes.addEventListener("keydown", (ev) => {
    const chip = chipOf(ev.target);
    if (!chip || (ev.key !== "Enter" && ev.key !== " ")) return;
    ev.preventDefault();
    ev.stopPropagation(); // Space here acts on the chip, it does not play
    actOn(chip);
  });
}
