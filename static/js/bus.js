// The viewer's one event bus: the model (model.js) publishes what the server says, the parts subscribe to the
// topics they need, in the order they subscribed (viewer.js makes the parts in the order they draw). A part
// publishes what it asks of the others (`pick`: load a built-in), so no part holds another it is not made from.
//   connect, disconnect            the transport's
//   scenario(msg), model(model)    what is loaded, each model to draw (model.js)
//   error(msg)                     a refusal; msg.event === "load": a load was refused
//   room(event, msg)               a room's own messages: poll, poll_tally, blank, vote_offer, vote, vote_tally
//   pick(id)                       load a built-in (the course's buttons, a challenge's Start)

/** @typedef {(...args: any[]) => void} Handler */

/**
 * @returns {{on: (topic: string, fn: Handler) => void, emit: (topic: string, ...args: any[]) => void,
 *   publisher: (topics: string[]) => Record<string, Handler>}}
 */
export function createBus() {
  /** @type {Map<string, Handler[]>} */
  const topics = new Map();
  const bus = {
    /** @param {string} topic @param {Handler} fn */
    on(topic, fn) {
      topics.set(topic, [...(topics.get(topic) ?? []), fn]);
    },
    /** @param {string} topic @param {...any} args */
    emit(topic, ...args) {
      for (const fn of topics.get(topic) ?? []) fn(...args);
    },
    // An object with one function per topic that publishes it: what model.js calls.
    /** @param {string[]} names */
    publisher(names) {
      const publish = (/** @type {string} */ topic) => (/** @type {any[]} */ ...args) => bus.emit(topic, ...args);
      return Object.fromEntries(names.map((topic) => [topic, publish(topic)]));
    },
  };
  return bus;
}
