// A room's live poll (webapp/web/sockets.py on_poll_*): where the scene asks to predict, the presenter's prompt
// opens a poll instead of a dialog; followers answer on their phones ({variant: choice}, anonymous, one answer
// each, never driving); the presenter watches a histogram per variant fill (poll_tally) and reveals by stepping:
// the server ends a poll as the room moves off it (webapp/engine/polls.py ended_by_move), revealed by the step it
// asks about, withdrawn by any other move. Followers then see the room's answers and, once the step is drawn, the
// verdict against their own answer. A presenter coming back (a reload) is given the open poll and reveals it the
// same way. Every queue, pod and variant name is the server's; only the page's own words are spelled here.
import { $, h } from "./dom.js";
import { askWith, question, verdict } from "./predict.js";
import { CLOSED_BY_ESCAPE, TYPING } from "./keys.js";
import { voter } from "./voter.js";

export function createPoll(opts, conn, page, bus) {
  let poll = null; // {position, pod, choices, variants, open}
  let tally = { answered: 0, counts: {} };
  let mine = {}; // a follower's answers
  let pending = null; // the presenter's step, waiting for the reveal: pending({}) takes it, pending(null) does not
  let box = null;

  const titleOf = (variant) => page.latest?.scene.panes[variant]?.title ?? variant;

  if (opts.mode === "present") {
    askWith((dialog, scene) => open(scene));
    document.addEventListener("keydown", withdrawOnEscape);
  }

  // Escape withdraws the open poll, as it closes the Predict prompt (the step is not taken); not while it closes
  // something else (the help, a tip, a menu, the legend, the link box, a notice, the blank screen) or leaves a field.
  function withdrawOnEscape(ev) {
    if (ev.key !== "Escape" || !pending || ev.defaultPrevented) return;
    if (document.querySelector(CLOSED_BY_ESCAPE)) return;
    if (ev.target.closest?.(TYPING)) return;
    withdraw();
  }

  // The presenter's prompt: open the room's poll; the step waits for Reveal (Reveal, or → again).
  function open(scene) {
    if (pending) {
      reveal();
      return Promise.resolve(null); // this press revealed; the waiting prompt steps
    }
    poll = { position: scene.position, pod: scene.predict.pod, choices: scene.predict.choices, variants: Object.keys(scene.panes), open: true };
    tally = { answered: 0, counts: {} };
    conn.send("poll_open", { room: opts.room, token: opts.token });
    drawPresenter();
    return new Promise((resolve) => (pending = resolve));
  }

  // The waiting step is taken, and taking it reveals the poll (the server closes it as the room moves onto the step
  // it asks about, and tells the room before the step). Closed here at once: a second press steps no further.
  function reveal() {
    if (!pending) return;
    poll.open = false;
    drawPresenter();
    settle({});
  }

  function settle(answer) {
    const step = pending;
    pending = null;
    step?.(answer);
  }

  // The presenter cancels the open poll: withdrawn for the whole room too; nothing is stepped.
  function withdraw() {
    if (poll?.open) conn.send("poll_cancel", { room: opts.room, token: opts.token });
    putAway();
  }

  // The poll leaves this page (withdrawn, left behind, or closed by its reader); a step waiting for it is not taken.
  // Put away with the focus in it (its Close), the focus goes to Step, or on the audience's page to the first pane
  // (it fell to the page's body).
  function putAway() {
    const hadFocus = box?.contains(document.activeElement);
    settle(null);
    poll = null;
    box?.remove();
    box = null;
    if (!hadFocus) return;
    const step = $("btn-step");
    (step?.offsetParent ? step : document.querySelector("#panes > [data-variant]"))?.focus();
  }

  // The room's poll as the server tells the presenter: its own (drawn already), or, on a page without one, the open
  // poll given back after a reload, which waits for its step as the prompt did (Predict ticked again, as it was);
  // revealed, the room has taken its step, so no step waiting for it is taken.
  function heardByPresenter() {
    if (poll.open && !box) {
      pending = (answer) => answer && conn.send("step", { room: opts.room, token: opts.token });
      $("predict").checked = true;
    } else if (!poll.open) {
      settle(null);
    }
    if (box || poll.open) drawPresenter();
  }

  // Fills the panel with `parts` (nested lists and nulls allowed, as h() takes them).
  function fill(el, ...parts) {
    el.replaceChildren(...parts.flat(2).filter((p) => p !== null && p !== undefined && p !== false));
  }

  function panel(cls, label) {
    if (!box || !box.isConnected || !box.classList.contains(cls)) {
      box?.remove();
      box = h("section", { class: `poll ${cls}`, role: "region", ariaLabel: label, dataTestid: cls });
      $("app").append(box);
    }
    return box;
  }

  function histogram(variant, outcome) {
    const counts = tally.counts[variant] ?? {};
    const most = Math.max(1, ...Object.values(counts));
    return h("figure", { class: "histogram", dataVariant: variant },
      h("figcaption", { text: `${titleOf(variant)}` }),
      poll.choices.map((choice) => {
        const n = counts[choice] ?? 0;
        const bar = h("span", { class: "bar" });
        bar.style.inlineSize = `${(100 * n) / most}%`;
        return h("div", { class: `bin${outcome === choice ? " truth" : ""}`, dataChoice: choice, dataCount: n },
          h("span", { class: "choice name", text: choice }), h("span", { class: "track" }, bar), h("span", { class: "n", text: String(n) }));
      }));
  }

  function outcomeLines(scene, variants) {
    return variants.map((variant) => {
      const pane = scene.panes[variant];
      return pane?.outcome ? h("p", { class: "truth-line", dataVariant: variant },
        h("strong", { text: `${pane.title}: ${poll.pod} → ${pane.outcome}` }), pane.caption ? ` — ${pane.caption}` : "") : null;
    });
  }

  // --- the presenter ---------------------------------------------------------------------------------------
  // Drawn from the scene on screen, whatever message asked for it: a tally or the reveal's poll message that came
  // after the step's state (the room's messages can cross) drew the histograms without the truth again.
  function drawPresenter(scene = page.latest?.scene ?? null) {
    const el = panel("poll-presenter", "Live poll");
    const stepped = scene && scene.position === poll.position + 1;
    const actions = poll.open
      ? [h("button", { class: "btn primary", type: "button", text: "Reveal and step", dataTestid: "poll-reveal", onclick: reveal }),
        h("button", { class: "btn", type: "button", text: "Cancel", onclick: withdraw })]
      : [h("button", { class: "btn", type: "button", text: "Close", onclick: putAway })];
    fill(el,
      h("h2", { text: `Live poll: where will ${poll.pod} go?` }),
      h("p", { class: "answered", dataTestid: "poll-answered", text: `${tally.answered} answered${poll.open ? " so far" : ""}` }),
      h("div", { class: "histograms" }, poll.variants.map((v) => histogram(v, stepped ? scene.panes[v]?.outcome : null))),
      stepped ? outcomeLines(scene, poll.variants) : null,
      h("div", { class: "poll-actions" }, actions),
    );
  }

  // --- a follower ------------------------------------------------------------------------------------------
  function drawFollower(scene = page.latest?.scene ?? null) {
    const el = panel("poll-follower", "Live poll");
    const stepped = scene && scene.position === poll.position + 1;
    const rows = poll.variants.map((variant) => h("fieldset", { class: "poll-row", dataVariant: variant },
      h("legend", { text: question(poll.pod, titleOf(variant)) }),
      h("div", { class: "poll-choices" }, poll.choices.map((choice) => h("button", {
        class: "btn choice name", type: "button", text: choice, dataChoice: choice, disabled: !poll.open,
        ariaPressed: String(mine[variant] === choice), onclick: () => answer(variant, choice),
      })))));
    const answered = Object.keys(mine).length;
    fill(el,
      h("h2", { text: poll.open ? "Predict with the room" : "The room's answers" }),
      poll.open ? rows : h("div", { class: "histograms" }, poll.variants.map((v) => histogram(v, stepped ? scene.panes[v]?.outcome : null))),
      h("p", { class: "poll-status", role: "status", dataTestid: "poll-status",
        text: poll.open ? (answered ? "Answer sent — you may change it until the presenter reveals." : "Tap where you think it goes.")
          : stepped ? "" : `${tally.answered} answered · the presenter is stepping…` }),
      stepped && answered ? h("p", { class: "prediction poll-verdict", dataTestid: "poll-verdict", text: verdict(mine, scene) }) : null,
      stepped ? outcomeLines(scene, poll.variants.filter((v) => !(v in mine))) : null, // the verdict says the rest
      poll.open ? null : h("div", { class: "poll-actions" }, h("button", { class: "btn", type: "button", text: "Close", onclick: putAway })),
    );
  }

  function answer(variant, choice) {
    if (!poll?.open) return;
    mine = { ...mine, [variant]: choice };
    conn.send("poll_answer", { room: opts.room, voter: voter(), answers: mine });
    drawFollower();
  }

  const follower = () => opts.mode === "audience";

  bus.on("room", heard);
  bus.on("model", drawn);

  // poll / poll_tally messages of the room this page follows
  function heard(event, msg) {
    if (event === "poll_tally") {
      if (!poll || msg.position !== poll.position) return;
      tally = { answered: msg.answered, counts: msg.counts };
      drawPresenter();
    } else if (event === "poll") {
      if (msg.cancelled) { // withdrawn before the reveal: by the presenter, or by the room moving elsewhere
        if (poll?.position === msg.position) putAway();
        return;
      }
      // a new poll starts unanswered (even where a revealed one asked); the open one given again (a reconnection)
      // keeps this phone's answer, as the server does, and after a reload the server gives it back (yours)
      if (follower() && msg.open && !(poll?.open && poll.position === msg.position)) mine = msg.yours ?? {};
      poll = { position: msg.position, pod: msg.pod, choices: msg.choices, variants: msg.variants, open: msg.open };
      tally = { answered: msg.answered, counts: msg.counts };
      if (follower()) drawFollower();
      else if (opts.mode === "present") heardByPresenter();
    }
  }

  // Each model drawn: the verdict once the poll's step is applied (and revealed); a poll left behind goes (a
  // revealed one too when the view steps back to where it asked: its verdict is about the step after), and so
  // does an open one a follower's own view has left (detached, it could step to the answer and then answer):
  // the reveal, or rejoining while it is open, gives it back.
  function drawn(model) {
    if (!poll || !box) return;
    const at = model.position;
    const asking = at === poll.position && poll.open;
    // the presenter's poll the room stepped past: its reveal may come after the step (the server ends it then)
    const revealing = at === poll.position + 1 && poll.open && !follower();
    if (at === poll.position + 1 && !poll.open) {
      if (follower()) drawFollower(model.scene);
      else drawPresenter(model.scene);
    } else if (!asking && !revealing) {
      putAway();
    }
  }
}
