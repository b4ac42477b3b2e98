// static/js/driver.js in node: who may drive what, and what is sent, over a fake connection and page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDriver } from "../../static/js/driver.js";
import { KINDS } from "../../static/js/kinds.js";

// A connection that records what is sent, followed and requested (answered from `answers`), and a page that
// records what it is told; `latest` is the model on screen (null: nothing shown yet).
function fakes({ answers = {}, latest = null } = {}) {
  const sent = [];
  const told = [];
  const conn = {
    send: (event, payload) => sent.push([event, payload]),
    follow: (room) => sent.push(["follow", room]),
    request: async (event, payload) => {
      sent.push([event, payload]);
      return answers[event];
    },
  };
  const page = { latest };
  for (const name of ["showError", "connected", "showRoom", "showAudienceLink", "showDetached", "linkProblem"]) {
    page[name] = (...args) => told.push([name, ...args]);
  }
  return { sent, told, conn, page };
}

const options = (more = {}) => ({ mode: "main", scenario: "lost-marker", defaultScenario: "lost-marker",
  insteadOfLink: "Showing The lost marker instead.", position: 0, versions: null, room: null, token: null,
  range: null, inline: null, ...more });
const shown = { position: 4, playing: false, variants: { "v1.28.1": {}, "v1.28.2": {} } };

test("a viewer loads its link's scenario at its position, with its versions and range", async () => {
  const { sent, told, conn, page } = fakes();
  const driver = createDriver(options({ position: 3, versions: ["v1.28.2"], range: [1, 5] }), conn, page);
  await driver.resume();
  assert.deepEqual(told, [["connected"]]);
  assert.deepEqual(sent, [["load", { scenario: "lost-marker", variants: ["v1.28.2"], position: 3, range: [1, 5] }]]);
});

test("a viewer back from a reconnection loads what it showed where it was", async () => {
  const { sent, conn, page } = fakes();
  const driver = createDriver(options(), conn, page);
  driver.heard({ id: "three-pod-cascade", variants: ["v1.28.1"], opensOn: ["v1.28.1", "v1.28.2"] });
  page.latest = shown;
  await driver.resume();
  assert.deepEqual(sent, [["load", { scenario: "three-pod-cascade", variants: ["v1.28.1"], position: 4 }]]);
});

test("a link whose inline scenario cannot be decoded opens the default and says why", async () => {
  const { sent, told, conn, page } = fakes();
  const driver = createDriver(options({ inline: "not base64 at all!", damagedLink: "The link is damaged." }),
    conn, page);
  await driver.resume();
  assert.deepEqual(told, [["connected"], ["linkProblem", "The link is damaged. Showing The lost marker instead."]]);
  assert.deepEqual(sent, [["load", { scenario: "lost-marker", position: undefined }]]);
});

test("a presenter sends every move with its room and token", () => {
  const { sent, conn, page } = fakes();
  const driver = createDriver(options({ mode: "present", room: "ABCD", token: "t" }), conn, page);
  driver.drive("step");
  driver.load("gate-off", 2);
  assert.deepEqual(sent, [["step", { room: "ABCD", token: "t" }],
    ["load", { scenario: "gate-off", position: 2, room: "ABCD", token: "t" }]]);
});

test("a new presenter creates its room, writes it into the address, shows its link and loads", async () => {
  const replaced = [];
  globalThis.location = { pathname: "/present", search: "?scenario=lost-marker" };
  globalThis.history = { replaceState: (...args) => replaced.push(args) };
  const { sent, told, conn, page } = fakes({ answers: { create_room: { room: "WXYZ", token: "secret" } } });
  const opts = options({ mode: "present" });
  const driver = createDriver(opts, conn, page);
  await driver.resume();
  assert.deepEqual(replaced, [[null, "", "/present?scenario=lost-marker#room=WXYZ&token=secret"]]);
  assert.deepEqual([opts.room, opts.token], ["WXYZ", "secret"]);
  assert.deepEqual(told, [["connected"], ["showAudienceLink", "WXYZ", "secret"]]);
  assert.deepEqual(sent, [["create_room", {}], ["follow", "WXYZ"],
    ["load", { scenario: "lost-marker", position: undefined, room: "WXYZ", token: "secret" }]]);
});

test("a presenter back from a reconnection claims its room; a room that kept its scenario is not loaded again",
  async () => {
    const { sent, conn, page } = fakes({ answers: { claim_room: { loaded: true } } });
    const driver = createDriver(options({ mode: "present", room: "ABCD", token: "t" }), conn, page);
    await driver.resume();
    assert.deepEqual(sent, [["follow", "ABCD"], ["claim_room", { room: "ABCD", token: "t" }], ["follow", "ABCD"]]);
  });

test("a presenter whose claim is refused is told why, and nothing is loaded", async () => {
  const { sent, told, conn, page } = fakes({ answers: { claim_room: { error: "That room is gone." } } });
  const driver = createDriver(options({ mode: "present", room: "ABCD", token: "t" }), conn, page);
  await driver.resume();
  assert.deepEqual(told, [["connected"], ["showError", "That room is gone."]]);
  assert.deepEqual(sent.map(([event]) => event), ["follow", "claim_room"]);
});

test("a follower joins its room as its tab's voter and sends nothing through drive; a move says why", async () => {
  const { sent, told, conn, page } = fakes();
  const driver = createDriver(options({ mode: "audience", room: "ABCD" }), conn, page);
  await driver.resume();
  assert.deepEqual(told, [["connected"], ["showRoom", "ABCD"]]);
  const [follow, [event, payload]] = sent;
  assert.deepEqual(follow, ["follow", "ABCD"]);
  assert.equal(event, "join_room");
  assert.equal(payload.room, "ABCD");
  assert.match(payload.voter, /^[0-9a-f]{32}$/);
  assert.equal(driver.following(), true);
  for (const move of ["load", "step", "back", "seek", "reset", "play", "pause"]) driver.drive(move);
  assert.equal(sent.length, 2, "a follower's moves are not sent");
  assert.deepEqual(told.at(-1), ["showError", "Following room ABCD: press “Detach” to step on your own."]);
  const said = told.length;
  driver.drive("sync");
  assert.equal(sent.length, 2);
  assert.equal(told.length, said, "only a move is refused in words");
});

test("a follower detaches to its own session at the room's step, and snaps back to the room", () => {
  const { sent, told, conn, page } = fakes({ latest: { ...shown, playing: true } });
  const driver = createDriver(options({ mode: "audience", room: "ABCD" }), conn, page);
  driver.heard({ id: "lost-marker", variants: ["v1.28.1", "v1.28.2"] });
  driver.toggleDetach();
  assert.equal(driver.following(), false);
  assert.deepEqual(sent, [["leave_room", { room: "ABCD" }], ["follow", null],
    ["load", { scenario: "lost-marker", variants: ["v1.28.1", "v1.28.2"], position: 4 }]]);
  driver.drive("step");
  assert.deepEqual(sent.at(-1), ["step", {}], "detached, it drives its own session");
  sent.length = 0;
  driver.toggleDetach();
  assert.equal(driver.following(), true);
  assert.deepEqual(sent.slice(0, 2), [["pause", undefined], ["follow", "ABCD"]], "its own play is paused");
  assert.equal(sent[2][0], "join_room");
  assert.deepEqual(told, [["showDetached", true], ["showDetached", false]]);
});

test("a detached follower back from a reconnection loads its own view where it was", async () => {
  const { sent, conn, page } = fakes({ latest: shown });
  const driver = createDriver(options({ mode: "audience", room: "ABCD" }), conn, page);
  driver.heard({ id: "lost-marker", variants: ["v1.28.1"] });
  driver.toggleDetach();
  sent.length = 0;
  await driver.resume();
  assert.deepEqual(sent, [["load", { scenario: "lost-marker", variants: ["v1.28.1"], position: 4 }]]);
});

test("an evicted session is loaded again where it was, but not a presenter's nor a follower's", () => {
  const notLoaded = { kind: KINDS.NOT_LOADED, event: "step", message: "no scenario loaded" };
  for (const [mode, room, reloads] of [["main", null, true], ["present", "ABCD", false], ["audience", "ABCD", false]]) {
    const { sent, told, conn, page } = fakes({ latest: shown });
    const driver = createDriver(options({ mode, room, token: room && "t" }), conn, page);
    driver.heard({ id: "lost-marker", variants: ["v1.28.1"] });
    driver.error(notLoaded);
    if (reloads) {
      assert.deepEqual(sent, [["load", { scenario: "lost-marker", variants: ["v1.28.1"], position: 4 }]]);
      assert.deepEqual(told, []);
    } else {
      assert.deepEqual(sent, [], mode);
      assert.deepEqual(told, [["showError", "no scenario loaded"]], mode);
    }
  }
});

test("a link's scenario refused as unopenable opens the default; a busy server's refusal leaves the link be", () => {
  for (const kind of KINDS.UNOPENABLE) {
    const { sent, told, conn, page } = fakes();
    const driver = createDriver(options({ scenario: "mine" }), conn, page);
    driver.source = "mine";
    driver.error({ kind, event: "load", message: "Step 2: no such op" });
    assert.deepEqual(told, [["linkProblem",
      "This link's scenario cannot be opened: Step 2: no such op. Showing The lost marker instead."]]);
    assert.deepEqual(sent, [["load", { scenario: "lost-marker", position: undefined }]]);
  }
  const refusedFor = (msg, latest = null, source = "mine") => {
    const { sent, told, conn, page } = fakes({ latest });
    const driver = createDriver(options(), conn, page);
    driver.source = source;
    driver.error(msg);
    return [sent, told];
  };
  const busy = { kind: "Busy", event: "load", message: "The server is busy." };
  assert.deepEqual(refusedFor(busy), [[], [["showError", "The server is busy."]]]);
  const invalid = { kind: "Invalid", event: "load", message: "Bad." };
  assert.deepEqual(refusedFor(invalid, shown), [[], [["showError", "Bad."]]], "something is shown already");
  assert.deepEqual(refusedFor(invalid, null, "lost-marker"), [[], [["showError", "Bad."]]], "the default itself");
});

test("a follower whose room is not open says so and joins again", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const { sent, told, conn, page } = fakes();
  const driver = createDriver(options({ mode: "audience", room: "ZZZZZZ" }), conn, page);
  driver.error({ kind: "NoRoom", event: "join_room", message: "no such room" });
  assert.match(told[0][1], /^No room ZZZZZZ is open here \(yet\)/);
  assert.deepEqual(sent, []);
  t.mock.timers.tick(1500);
  assert.deepEqual(sent.map(([event]) => event), ["join_room"]);
});

test("the address names the versions only when they are not those the scenario opens on", () => {
  const driver = createDriver(options(), fakes().conn, fakes().page);
  driver.heard({ id: "lost-marker", variants: ["v1.28.1", "v1.28.2"], opensOn: ["v1.28.1", "v1.28.2"] });
  assert.equal(driver.linkVersions(), null);
  driver.heard({ id: "lost-marker", variants: ["v1.28.2"], opensOn: ["v1.28.1", "v1.28.2"] });
  assert.deepEqual(driver.linkVersions(), ["v1.28.2"]);
});

test("a scenario message keeps an inline source and takes a built-in's id", () => {
  const driver = createDriver(options(), fakes().conn, fakes().page);
  const mine = { name: "Mine", steps: [] };
  driver.source = mine;
  driver.heard({ source: { name: "echoed" }, variants: [] });
  assert.equal(driver.source, mine, "the inline scenario given is what a reload sends again");
  driver.heard({ id: "gate-off", variants: [] });
  assert.equal(driver.source, "gate-off");
});
