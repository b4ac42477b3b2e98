// Who may drive what, and what to send. A presenter drives its room (with the room's token); an audience
// member watches the room until it detaches, then drives a session of its own; everyone else drives the
// session of their own connection. On every (re)connection the server holds a new, empty session for it:
// the view is loaded again where it was, a room is rejoined or reclaimed.
import { messageOf } from "./dom.js";
import { KINDS } from "./kinds.js";
import { readOptions, resolveSource } from "./options.js";
import { voter } from "./voter.js";

// The kinds of a refused load that say the scenario itself cannot be opened, as opposed to a server that is busy
// or a rate limit: only these open the default instead.
const UNOPENABLE = new Set(KINDS.UNOPENABLE);

const DRIVE = new Set(["load", "step", "back", "seek", "reset", "play", "pause"]);

/**
 * What the driver tells the page, and what it reads of it.
 * @typedef {{latest: Model | null, connected(): void, showError(message: string): void,
 *   linkProblem(text: string): void, showRoom(room: string | null): void, showDetached(detached: boolean): void,
 *   showAudienceLink(room: string | null, token?: string | null): void}} DriverPage
 * The connection's model (model.js openModel).
 * @typedef {{send(event: string, payload?: object): void, request(event: string, payload?: object): Promise<any>,
 *   follow(room: string | null): void}} Conn
 */
/** @param {ReturnType<typeof readOptions>} opts @param {Conn} conn @param {DriverPage} page */
export function createDriver(opts, conn, page) {
  // A follower joins its room as its tab's voter: a poll open there comes with its own answer, after a reload too.
  const join = () => conn.send("join_room", { room: opts.room, voter: voter() });
  const driver = {
    /** @type {Source | string | undefined | null} what to load: a built-in id or a scenario object */
    source: null,
    // what `load` asks for (null: what the scenario opens on); a scenario message says what is shown
    versions: opts.versions,
    /** @type {string[] | null} the versions the scenario on screen opens on */
    opensOn: null,
    detached: false,

    following: () => opts.mode === "audience" && !driver.detached,

    /** @param {string} event @param {object} payload */
    drive(event, payload = {}) {
      if (opts.mode === "present") return conn.send(event, { ...payload, room: opts.room, token: opts.token });
      if (driver.following()) {
        if (DRIVE.has(event)) page.showError(`Following room ${opts.room}: press “Detach” to step on your own.`);
        return;
      }
      conn.send(event, payload);
    },

    // A presenter's change of its room that must arrive in the order made: answered once the server has taken it
    // (the server runs each event's handler apart, so two sent within a round trip may be taken in either order).
    /** @param {string} event @param {object} payload */
    ask(event, payload = {}) {
      return conn.request(event, { ...payload, room: opts.room, token: opts.token });
    },

    // `position` (optional) is where the new simulation starts; the server checks it against the scenario.
    /** @param {Source | string | undefined | null} source @param {number} [position] */
    load(source, position) {
      const variants = driver.versions ? { variants: driver.versions } : {};
      driver.drive("load", { scenario: source, ...variants, position, ...(opts.range ? { range: opts.range } : {}) });
    },

    resume,

    // A scenario message says what a follower would load on its own if it detached, and which versions are
    // shown (a room's are the presenter's choice).
    /** @param {ScenarioMessage} msg */
    heard(msg) {
      if (msg.id || typeof driver.source !== "object" || !driver.source) driver.source = msg.id ?? msg.source;
      driver.versions = msg.variants;
      driver.opensOn = msg.opensOn;
    },

    // The versions for the address bar: none when they are those the scenario opens on.
    linkVersions() {
      const shown = driver.versions;
      return shown && shown.join() !== (driver.opensOn ?? []).join() ? shown : null;
    },

    /** @param {{message: string, event?: string, kind: string}} msg */
    error(msg) {
      // The server evicted this idle session (or restarted without this page noticing): load it again.
      if (msg.kind === KINDS.NOT_LOADED && page.latest && opts.mode !== "present" && !driver.following()) {
        return driver.load(driver.source, page.latest.position);
      }
      // The link's own scenario was refused before anything was shown: the default opens instead. Not when the
      // server is only busy or the connection sends too fast: the link stays as it is, to be tried again.
      if (msg.event === "load" && UNOPENABLE.has(msg.kind) && !page.latest && opts.defaultScenario
          && driver.source !== opts.defaultScenario) {
        return driver.load(instead(`This link's scenario cannot be opened: ${msg.message.replace(/\.?$/, ".")}`));
      }
      // A follower whose room is not there (yet): the presenter may be reconnecting; try again, and say so.
      if (msg.event === "join_room" && driver.following()) {
        page.showError(`No room ${opts.room} is open here (yet): check the code on the presenter's screen. This page ` +
          "joins it as soon as it opens; Detach explores on your own meanwhile.");
        return setTimeout(join, 1500);
      }
      page.showError(msg.message);
    },

    // A follower leaves the room's channel to step through the same scenario on its own, from the same step;
    // snapping back pauses its own session and rejoins the room (which answers with its whole state).
    toggleDetach() {
      const here = page.latest;
      if (!here) return location.assign("/"); // no room was ever shown: on your own is the viewer itself
      driver.detached = !driver.detached;
      page.showDetached(driver.detached);
      if (driver.detached) {
        conn.send("leave_room", { room: opts.room });
        conn.follow(null);
        conn.send("load", { scenario: driver.source, variants: Object.keys(here.variants), position: here.position });
      } else {
        if (here?.playing) conn.send("pause");
        conn.follow(opts.room);
        join();
      }
    },
  };

  async function resume() {
    const resuming = Boolean(page.latest);
    page.connected();
    if (opts.mode === "audience") {
      page.showRoom(opts.room);
      if (driver.detached) return driver.load(driver.source, page.latest?.position);
      conn.follow(opts.room);
      return join();
    }
    if (opts.mode === "present") {
      if (opts.room) conn.follow(opts.room); // a claimed room sends its state before the acknowledgement
      const ack = opts.room && opts.token
        ? await conn.request("claim_room", { room: opts.room, token: opts.token })
        : await conn.request("create_room", {});
      if (ack.error) return page.showError(ack.error);
      if (!opts.token) {
        Object.assign(opts, ack);
        history.replaceState(null, "", `${location.pathname}${location.search}#room=${ack.room}&token=${ack.token}`);
      }
      conn.follow(opts.room);
      page.showAudienceLink(opts.room, opts.token);
      if (ack.loaded) return; // the room still has its scenario: claim_room sent its state
    }
    if (resuming) return driver.load(driver.source, page.latest?.position);
    try {
      driver.source = await resolveSource(opts);
      driver.load(driver.source, opts.position || undefined);
    } catch (err) {
      driver.load(instead(messageOf(err))); // from its start
    }
  }

  // The link's scenario cannot be opened (`why`): the notice says so, and the default built-in is the source.
  /** @param {string} why */
  function instead(why) {
    page.linkProblem(`${why} ${opts.insteadOfLink}`);
    driver.source = opts.defaultScenario;
    return driver.source;
  }

  return driver;
}
