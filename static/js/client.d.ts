// The client's own shapes, for the checker only (tsc over static/js: `make jscheck`); the browser never loads this
// file. What the server sends is static/js/types.d.ts (namespace Wire), made from the presenter's TypedDicts.

/** One step of a scenario (docs/scenario-format.md): `op` and its parameters. */
interface Step {
  op: string;
  note?: string;
  label?: string;
  event?: string;
  pod?: string;
  unschedulable_plugins?: string[];
  [param: string]: unknown;
}

/** A scenario object, as the editor writes it and a fork makes it (a built-in travels as its id). */
interface Source {
  name: string;
  steps: Step[];
  hints?: { plugin: string; event: string }[];
  branch?: { at: number; name?: string; steps: Step[] };
  [field: string]: unknown;
}

/** A `scenario` message as a channel sends it: the presenter's, with the `key` of its load (webapp/web/hub.py);
 * its `source` is the scenario object (docs/protocol.md). */
interface ScenarioMessage extends Wire.ScenarioMessage {
  key?: string;
  source: Source;
}

/** A whole model (model.js): the last `state` with every `delta` since applied; a channel's `state` is the
 * presenter's with its `seq`, the `key` of its load and the session's settings (webapp/web/hub.py). */
interface Model extends Wire.StateMessage {
  seq: number;
  key?: string;
  playing: boolean;
  speed: number;
  range?: number[] | null;
  room?: string | null;
}

/** An entry of explore's history (explore-history.js): a scenario, where it was left. */
interface HistoryEntry {
  source: Source | string;
  position: number;
}

/** Explore's history: its entries, `at` the one on screen (-1: none yet). */
interface ExploreHistory {
  entries: HistoryEntry[];
  at: number;
}

/** The plugins' catalogue (`/api/plugins`, webapp/web/plugins.py): each plugin with the events that wake it, and
 * per event label the plugins it wakes. */
interface Catalogue {
  plugins: CataloguePlugin[];
  events: Record<string, string[]>;
  source: { root: string; repo: string; commit: string };
  version: string;
  default_hint_fn: { name: string; returns: string; source: string };
}

/** A plugin of the catalogue: where it registers its events, and each registration. */
interface CataloguePlugin {
  name: string;
  source: string;
  note: string | null;
  later: string | null;
  registrations: {
    resource: string;
    action_name: string;
    events: string[];
    hint: string;
    hint_fn: string;
    assumption: string;
    source: string;
  }[];
}

/** A point of a diagram's drawing, in px (pointers.js, route.js). */
interface Point {
  x: number;
  y: number;
}

/** A box of a diagram's drawing, in px: a DOMRect, or one made relative to the diagram (pointers.js, route.js). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** What dom.js `h` (and renderer.js `svg`) append to an element: nodes, text, and lists of them; null, undefined
 * and false are left out. */
type Child = Node | string | number | boolean | null | undefined | Child[];
