// Timeline: one tick per step coloured by kind, the divergence flag, and a scrubber.
import { h } from "./dom.js";

export function renderTicks(container, scenario) {
  container.replaceChildren(
    ...scenario.steps.map((s) =>
      h("span", {
        class: `tick kind-${s.kind}${scenario.divergence === s.index + 1 ? " divergence" : ""}`,
        dataKind: s.kind, dataStep: s.index + 1, title: `${s.index + 1}: ${s.label}`,
      }),
    ),
  );
}

export function markPosition(container, position) {
  container.querySelector(".tick.current")?.classList.remove("current");
  if (position > 0) container.children[position - 1]?.classList.add("current");
}
