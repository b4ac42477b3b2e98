// The viewer: wires a connection, the controls and the renderer. Holds only what the server sent.
// `open(handlers)` returns {send(event, payload), request?(event, payload)}: Socket.IO, or local offline.
import { h, fmtSeconds } from "./dom.js";
import { renderPane } from "./renderer.js";
import { capture, playHintWalk, playTransition } from "./animate.js";
import { renderTicks, markPosition } from "./timeline.js";
import { bindKeys } from "./keys.js";
import { renderMarkdown } from "./markdown.js";
import { readOptions, resolveSource } from "./options.js";
import { permalink } from "./links.js";
import { renderTables } from "./tableview.js";
import { askPrediction, verdict, wantsPrediction } from "./predict.js";
import { renderPresenterNotes } from "./presenter.js";
import { downloadExport } from "./exporting.js";
import { throttle } from "./throttle.js";

const SPEEDS = [0.5, 1, 2, 4, 8];
const DRIVE = new Set(["load", "step", "back", "seek", "reset", "play", "pause"]);

export function startViewer(open) {
  const app = document.getElementById("app");
  const $ = (id) => document.getElementById(id);
  const opts = readOptions(app);
  const view = {
    scenario: null, state: null, source: null, layout: opts.layout,
    detached: false, guesses: null, tables: false,
  };
  let renderQueue = Promise.resolve();

  const conn = open({
    connect: () => start(),
    scenario: (msg) => {
      if (!forThisView(msg)) return;
      showScenario(msg);
    },
    state: (msg) => {
      if (!forThisView(msg)) return;
      renderQueue = renderQueue.then(() => show(msg));
    },
    error: (msg) => {
      // The server evicted this idle session (or restarted without this page noticing): load it again.
      if (msg.kind === "NotLoaded" && view.state && opts.mode !== "present"
          && (opts.mode !== "audience" || view.detached)) {
        return load(view.source, view.state.position);
      }
      showError(msg.message);
      // A follower whose room is not there (yet): the presenter may be reconnecting; try again.
      if (msg.event === "join_room" && opts.mode === "audience" && !view.detached) {
        setTimeout(() => conn.send("join_room", { room: opts.room }), 1500);
      }
    },
    disconnect: () => {
      $("conn-status").hidden = false;
    },
  });

  // --- who may drive what ---------------------------------------------------------------------
  // An audience member sees the room's messages while following, its own session's while detached.
  function forThisView(msg) {
    return opts.mode !== "audience" || Boolean(msg.room) !== view.detached;
  }

  function drive(event, payload = {}) {
    if (opts.mode === "present") return conn.send(event, { ...payload, room: opts.room, token: opts.token });
    if (opts.mode === "audience" && !view.detached) {
      if (DRIVE.has(event)) showError(`Following room ${opts.room}: press “Detach” to step on your own.`);
      return;
    }
    conn.send(event, payload);
  }

  // Runs on every (re)connection: a new connection has a new, empty server session, so a viewer that
  // already shows something loads it again at the same position; rooms are rejoined or reclaimed.
  async function start() {
    const resuming = Boolean(view.state);
    $("conn-status").hidden = true;
    if (opts.mode === "audience") {
      $("room-banner").hidden = false;
      $("room-code").textContent = opts.room;
      return view.detached ? load(view.source, view.state.position) : conn.send("join_room", { room: opts.room });
    }
    if (opts.mode === "present") {
      const ack = opts.room && opts.token
        ? await conn.request("claim_room", { room: opts.room, token: opts.token })
        : await conn.request("create_room", {});
      if (ack.error) return showError(ack.error);
      if (!opts.token) {
        Object.assign(opts, ack);
        history.replaceState(null, "", `${location.pathname}${location.search}#room=${ack.room}&token=${ack.token}`);
      }
      showAudienceLink();
      if (ack.loaded) return; // the room still has its scenario: claim_room sent its state
    }
    if (!resuming) view.source = await resolveSource(opts);
    load(view.source, resuming ? view.state.position : opts.position || undefined);
  }

  // `position` (optional) is where the new simulation starts; the server checks it against the scenario.
  function load(source, position) {
    const variants = view.layout === "both" ? ["v1.28.1", "v1.28.2"] : [view.layout];
    drive("load", { scenario: source, variants, position, ...(opts.range ? { range: opts.range } : {}) });
  }

  // --- rendering ------------------------------------------------------------------------------
  function showScenario(msg) {
    view.scenario = msg;
    if (msg.id || typeof view.source !== "object" || !view.source) view.source = msg.id ?? msg.source;
    $("scenario-name").textContent = msg.name;
    $("scenario-description").replaceChildren(...renderMarkdown(msg.description));
    $("scrubber").max = msg.total;
    showInPicker(msg);
    renderTicks($("ticks"), msg);
    renderReturns(msg);
    renderCourse(msg);
    $("btn-divergence").disabled = msg.divergence === null;
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
    if (view.tables) $("tables").replaceChildren(...renderTables(msg.variants));
    $("position").textContent = `${msg.position} / ${msg.total}${msg.divergence === msg.position ? " · variants differ here" : ""}`;
    $("scrubber").value = msg.position;
    $("step-note").textContent = msg.step ? `${msg.step.index + 1}. ${msg.step.label} — ${msg.step.note || ""}` : (view.scenario?.steps[0] ? "Press → to apply the first step." : "");
    markPosition($("ticks"), msg.position);
    const play = $("btn-play");
    play.textContent = msg.playing ? "⏸ Pause" : "▶ Play";
    play.setAttribute("aria-label", msg.playing ? "Pause" : "Play");
    $("speed").value = String(msg.speed);
    if (view.guesses) {
      $("prediction").textContent = verdict(view.guesses, msg);
      $("prediction").hidden = false;
      view.guesses = null;
    } else $("prediction").hidden = true;
    if ($("presenter-notes")) renderPresenterNotes($("presenter-notes"), msg);
    if (opts.mode === "embed") parent.postMessage({ type: "inflight-scope", event: "position", position: msg.position, total: msg.total }, "*");
  }

  // A scenario that is not a built-in (the editor's, a link's) gets its own entry, chosen and not choosable.
  function showInPicker(msg) {
    const picker = $("scenario-picker");
    picker.querySelector("option.own")?.remove();
    const listed = picker.querySelector('option[value=""]');  // an offline file lists its own scenario
    if (!msg.id && !listed) picker.prepend(h("option", { class: "own", value: "", disabled: true, text: `${msg.name} (not a built-in)` }));
    picker.value = msg.id ?? "";
  }

  function renderReturns(msg) {
    const byPod = new Map();
    for (const [variant, summary] of Object.entries(msg.returns)) {
      const returned = new Map();
      for (const r of summary.returned) returned.set(r.pod, [...(returned.get(r.pod) || []), r]);
      const waiting = new Map(summary.still_waiting.map((r) => [r.pod, r.via]));  // a pod waits once at most
      for (const pod of new Set([...returned.keys(), ...waiting.keys()])) {
        const texts = returnTexts(returned.get(pod) || []);
        if (waiting.has(pod)) texts.push(`still in ${waiting.get(pod)}`);
        byPod.set(pod, [...(byPod.get(pod) || []), `${variant}: ${texts.join(", ")}`]);
      }
    }
    $("returns").replaceChildren(
      byPod.size ? h("span", { class: "label", text: "Back in activeQ after failing (whole scenario)" }) : "",
      ...[...byPod].map(([pod, parts]) => h("span", { class: "return", dataReturnPod: pod }, h("strong", { text: pod }), ` ${parts.join(" · ")}`)),
    );
  }

  // Up to two returns of a pod are listed; more (a generated scenario) are summed up, so the line stays short.
  function returnTexts(returns) {
    if (returns.length <= 2) return returns.map((r) => `${fmtSeconds(r.seconds)} via ${r.via}`);
    const longest = returns.reduce((a, b) => (b.seconds > a.seconds ? b : a));
    return [`${returns.length} returns, longest ${fmtSeconds(longest.seconds)} via ${longest.via}`];
  }

  // The built-in scenarios, in the picker's order, are a short course.
  function renderCourse(msg) {
    const ids = [...$("scenario-picker").options].filter((o) => o.value).map((o) => o.value);
    const i = ids.indexOf(msg.id);
    const course = $("course");
    if (i < 0 || opts.mode === "audience") return course.replaceChildren();
    const go = (id) => h("button", { class: "btn", type: "button", text: id === ids[i - 1] ? "‹ Previous lesson" : "Next lesson ›",
      onclick: () => pick(id) });
    course.replaceChildren(h("span", { class: "label", text: `Lesson ${i + 1} of ${ids.length}` }),
      i > 0 ? go(ids[i - 1]) : "", i < ids.length - 1 ? go(ids[i + 1]) : "");
  }

  function pick(id) {
    $("scenario-picker").value = id;
    view.introClosed = false;
    $("intro").open = true;
    load(id);
  }

  function showError(message) {
    const el = $("error");
    el.textContent = message;
    el.hidden = false;
  }
  function hideError() {
    $("error").hidden = true;
  }

  function showAudienceLink() {
    const link = new URL(`/r/${opts.room}`, location.href).href;
    $("audience-link").replaceChildren("Audience: ", h("a", { href: link, text: link }), h("span", { class: "code", text: ` code ${opts.room}` }));
    $("audience-link").hidden = false;
  }

  // --- actions --------------------------------------------------------------------------------
  const speedIndex = () => Math.max(0, SPEEDS.indexOf(Number($("speed").value)));
  const actions = {
    step: async () => {
      if ($("predict").checked && wantsPrediction(view.state, view.scenario) && !(opts.mode === "audience" && !view.detached)) {
        view.guesses = await askPrediction($("predict-dialog"), view.state);
      }
      drive("step");
    },
    back: () => drive("back"),
    start: () => drive("seek", { position: opts.range ? opts.range[0] : 0 }),
    end: () => drive("seek", { position: opts.range ? opts.range[1] : view.scenario?.total ?? 0 }),
    divergence: () => view.scenario?.divergence != null && drive("seek", { position: view.scenario.divergence }),
    togglePlay: () => (view.state?.playing ? drive("pause") : drive("play", { speed: Number($("speed").value) })),
    faster: () => setSpeed(Math.min(SPEEDS.length - 1, speedIndex() + 1)),
    slower: () => setSpeed(Math.max(0, speedIndex() - 1)),
    toggleTheme: () => {
      const root = document.documentElement;
      const dark = root.dataset.theme === "dark" || (root.dataset.theme === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
      root.dataset.theme = dark ? "light" : "dark";
    },
    toggleHelp: () => ($("help").hidden ? openHelp() : closeHelp()),
    closeHelp: () => {
      closeHelp();
      $("blank").hidden = true;
    },
    togglePresenting: () => app.classList.toggle("presenting"),
    toggleBlank: () => ($("blank").hidden = !$("blank").hidden),
    toggleTables: () => {
      view.tables = !view.tables;
      $("tables").hidden = !view.tables;
      $("btn-tables").setAttribute("aria-pressed", String(view.tables));
      if (view.tables && view.state) $("tables").replaceChildren(...renderTables(view.state.variants));
    },
    copyLink: async () => {
      const theme = document.documentElement.dataset.theme;
      const link = await permalink(view.source, { position: view.state?.position, layout: view.layout, theme });
      $("link-output").value = link;
      $("link-box").hidden = false;
      $("link-output").select();
      try {
        await navigator.clipboard.writeText(link);
        $("link-status").textContent = "Link copied.";
      } catch {
        $("link-status").textContent = "Copy the selected link.";
      }
    },
    toggleDetach: () => {
      view.detached = !view.detached;
      $("btn-detach").textContent = view.detached ? "⟲ Snap back to presenter" : "Detach";
      $("room-status").textContent = view.detached ? "exploring on your own" : "following";
      if (view.detached) {
        conn.send("load", { scenario: view.source, variants: Object.keys(view.state.variants), position: view.state.position });
      } else conn.send("join_room", { room: opts.room });
    },
  };

  function setSpeed(i) {
    $("speed").value = String(SPEEDS[i]);
    if (view.state?.playing) drive("play", { speed: SPEEDS[i] });
  }
  function openHelp() {
    $("help").hidden = false;
    $("help-close").focus();
  }
  function closeHelp() {
    $("help").hidden = true;
  }

  const on = (id, event, fn) => $(id)?.addEventListener(event, fn);
  on("btn-step", "click", actions.step);
  on("btn-back", "click", actions.back);
  on("btn-start", "click", actions.start);
  on("btn-end", "click", actions.end);
  on("btn-divergence", "click", actions.divergence);
  on("btn-play", "click", actions.togglePlay);
  on("btn-reset", "click", () => drive("reset"));
  on("speed", "change", () => setSpeed(speedIndex()));
  on("scrubber", "input", throttle((position) => drive("seek", { position }), 50, (ev) => [Number(ev.target.value)]));
  on("theme-toggle", "click", actions.toggleTheme);
  on("help-toggle", "click", actions.toggleHelp);
  on("help-close", "click", closeHelp);
  on("btn-copy-link", "click", actions.copyLink);
  on("btn-presenting", "click", actions.togglePresenting);
  on("btn-tables", "click", actions.toggleTables);
  on("btn-detach", "click", actions.toggleDetach);
  const exportAs = (kind) => downloadExport(kind, view.source, view.state?.position || 0).catch((e) => showError(e.message));
  on("btn-export-html", "click", () => exportAs("html"));
  on("btn-export-svg", "click", () => exportAs("svg"));
  on("btn-present", "click", () => {
    const url = new URL("/present", location.href);
    if (typeof view.source === "string") url.searchParams.set("scenario", view.source);
    url.searchParams.set("position", String(view.state?.position || 0));
    location.href = url.href;
  });
  on("scenario-picker", "change", (ev) => pick(ev.target.value));
  $("layout-picker").value = view.layout;
  on("layout-picker", "change", (ev) => {
    view.layout = ev.target.value;
    load(view.source, view.state?.position);
  });
  if (opts.mode === "embed") {
    app.tabIndex = -1;
    app.addEventListener("pointerdown", () => app.focus());
    window.addEventListener("message", (ev) => {
      const m = ev.data;
      if (!m || m.type !== "inflight-scope") return;
      if (m.action === "step") actions.step();
      else if (m.action === "back") actions.back();
      else if (m.action === "seek" && Number.isInteger(m.position)) drive("seek", { position: m.position });
    });
  }
  bindKeys(actions);
}
