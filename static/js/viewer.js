// The viewer: wires a connection, the controls and the renderer. Holds only what the server sent.
// `open(handlers)` returns {send(event, payload)}: a Socket.IO connection, or a local one offline.
import { h, fmtSeconds } from "./dom.js";
import { renderPane } from "./renderer.js";
import { capture, playHintWalk, playTransition } from "./animate.js";
import { renderTicks, markPosition } from "./timeline.js";
import { bindKeys } from "./keys.js";
import { renderMarkdown } from "./markdown.js";

export function startViewer(open) {
  const app = document.getElementById("app");
  const $ = (id) => document.getElementById(id);
  const SPEEDS = [0.5, 1, 2, 4, 8];
  const view = { scenario: null, state: null, layout: app.dataset.layout, pendingSeek: Number(app.dataset.position) || 0 };
  let renderQueue = Promise.resolve();

  const conn = open({
    connect: () => load(app.dataset.scenario),
    scenario: (msg) => {
      view.scenario = msg;
      $("scenario-name").textContent = msg.name;
      $("scenario-description").replaceChildren(...renderMarkdown(msg.description));
      $("scrubber").max = msg.total;
      renderTicks($("ticks"), msg);
      renderReturns(msg);
      $("btn-divergence").disabled = msg.divergence === null;
    },
    state: (msg) => {
      renderQueue = renderQueue.then(() => show(msg));
      if (view.pendingSeek) {
        const position = Math.min(view.pendingSeek, msg.total);
        view.pendingSeek = 0;
        conn.send("seek", { position });
      }
    },
    error: (msg) => showError(msg.message),
  });

  function load(id) {
    const variants = view.layout === "both" ? ["v1.28.1", "v1.28.2"] : [view.layout];
    conn.send("load", { scenario: id, variants });
  }

  async function show(msg) {
    const previous = view.state;
    view.state = msg;
    app.classList.toggle("at-start", msg.position === 0);
    if (msg.position > 0 && !view.introClosed) {
      view.introClosed = true; // the intro folds away once the story starts; the summary reopens it
      $("intro").open = false;
    }
    hideError();
    const panes = $("panes");
    const forward = previous && msg.position === previous.position + 1;
    const interval = 1000 / (msg.speed || 1);
    if (forward) await playHintWalk(panes, msg.variants, msg.playing ? interval * 0.45 : 1400);
    const before = capture(panes);
    panes.replaceChildren(...Object.entries(msg.variants).map(([variant, payload]) => renderPane(variant, payload, view.scenario)));
    panes.dataset.layout = Object.keys(msg.variants).length > 1 ? "both" : "single";
    if (previous) playTransition(panes, before);
    $("position").textContent = `${msg.position} / ${msg.total}${msg.divergence === msg.position ? " · variants differ here" : ""}`;
    $("scrubber").value = msg.position;
    $("step-note").textContent = msg.step ? `${msg.step.index + 1}. ${msg.step.label} — ${msg.step.note || ""}` : (view.scenario?.steps[0] ? "Press → to apply the first step." : "");
    markPosition($("ticks"), msg.position);
    const play = $("btn-play");
    play.textContent = msg.playing ? "⏸ Pause" : "▶ Play";
    play.setAttribute("aria-label", msg.playing ? "Pause" : "Play");
    $("speed").value = String(msg.speed);
  }

  function renderReturns(msg) {
    const byPod = new Map();
    for (const [variant, summary] of Object.entries(msg.returns)) {
      const add = (pod, text) => byPod.set(pod, [...(byPod.get(pod) || []), `${variant}: ${text}`]);
      for (const r of summary.returned) add(r.pod, `${fmtSeconds(r.seconds)} via ${r.via}`);
      for (const r of summary.still_waiting) add(r.pod, `still in ${r.via}`);
    }
    $("returns").replaceChildren(
      byPod.size ? h("span", { class: "label", text: "Back in activeQ after failing (whole scenario)" }) : "",
      ...[...byPod].map(([pod, parts]) => h("span", { class: "return", dataReturnPod: pod }, h("strong", { text: pod }), ` ${parts.join(" · ")}`)),
    );
  }

  function showError(message) {
    const el = $("error");
    el.textContent = message;
    el.hidden = false;
  }
  function hideError() {
    $("error").hidden = true;
  }

  const speedIndex = () => Math.max(0, SPEEDS.indexOf(Number($("speed").value)));
  const actions = {
    step: () => conn.send("step"),
    back: () => conn.send("back"),
    start: () => conn.send("seek", { position: 0 }),
    end: () => conn.send("seek", { position: view.scenario?.total ?? 0 }),
    divergence: () => view.scenario?.divergence != null && conn.send("seek", { position: view.scenario.divergence }),
    togglePlay: () => (view.state?.playing ? conn.send("pause") : conn.send("play", { speed: Number($("speed").value) })),
    faster: () => setSpeed(Math.min(SPEEDS.length - 1, speedIndex() + 1)),
    slower: () => setSpeed(Math.max(0, speedIndex() - 1)),
    toggleTheme: () => {
      const root = document.documentElement;
      const dark = root.dataset.theme === "dark" || (root.dataset.theme === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
      root.dataset.theme = dark ? "light" : "dark";
    },
    toggleHelp: () => ($("help").hidden ? openHelp() : closeHelp()),
    closeHelp: () => closeHelp(),
  };

  function setSpeed(i) {
    $("speed").value = String(SPEEDS[i]);
    if (view.state?.playing) conn.send("play", { speed: SPEEDS[i] });
  }
  function openHelp() {
    $("help").hidden = false;
    $("help-close").focus();
  }
  function closeHelp() {
    $("help").hidden = true;
  }

  $("btn-step").addEventListener("click", actions.step);
  $("btn-back").addEventListener("click", actions.back);
  $("btn-start").addEventListener("click", actions.start);
  $("btn-end").addEventListener("click", actions.end);
  $("btn-divergence").addEventListener("click", actions.divergence);
  $("btn-play").addEventListener("click", actions.togglePlay);
  $("btn-reset").addEventListener("click", () => conn.send("reset"));
  $("speed").addEventListener("change", () => setSpeed(speedIndex()));
  $("scrubber").addEventListener("input", (ev) => conn.send("seek", { position: Number(ev.target.value) }));
  $("theme-toggle").addEventListener("click", actions.toggleTheme);
  $("help-toggle").addEventListener("click", actions.toggleHelp);
  $("help-close").addEventListener("click", closeHelp);
  $("scenario-picker").addEventListener("change", (ev) => {
    app.dataset.scenario = ev.target.value;
    load(ev.target.value);
  });
  $("layout-picker").value = view.layout;
  $("layout-picker").addEventListener("change", (ev) => {
    view.layout = ev.target.value;
    view.pendingSeek = view.state?.position || 0;
    load(app.dataset.scenario);
  });
  bindKeys(actions);
}
