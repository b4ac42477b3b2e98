// The shapes the client's modules pass each other, for the checker only (tsc over static/js: `make jscheck`);
// the browser never loads this file. Each names the fields the client reads; the server sends more
// (webapp/presenter/scene.py and docs/protocol.md say all of it).

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

/** The `scenario` message: what is loaded. */
interface ScenarioMessage {
  id?: string | null;
  key?: string;
  name: string;
  total: number;
  source?: Source;
  steps: { label?: string; note?: string }[];
  variants: string[];
  [field: string]: any;
}

interface Chip {
  pod: string;
  [field: string]: any;
}

/** One version's pane of a scene. */
interface Pane {
  variant: string;
  title: string;
  lanes: { queue: string; label?: string; chips: Chip[] }[];
  outcome?: string | null;
  caption?: string;
  [field: string]: any;
}

/** What to show at one position (webapp/presenter/scene.py). */
interface Scene {
  position: number;
  total: number;
  panes: Record<string, Pane>;
  [field: string]: any;
}

/** A whole model (model.js): the state with every delta since applied. */
interface Model {
  seq: number;
  position: number;
  total: number;
  playing: boolean;
  speed: number;
  variants: Record<string, unknown>;
  scene: Scene;
  [field: string]: any;
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

/** A room's live poll (poll-state.js): where it asks, about which pod, and whether it is still open. */
interface Poll {
  position: number;
  pod: string;
  choices: string[];
  variants: string[];
  open: boolean;
}

/** A poll's answers so far: how many, and per version per choice. */
interface Tally {
  answered: number;
  counts: Record<string, Record<string, number>>;
}

/** One action a room's vote offers (vote-state.js): the step as a scenario writes it, and its label. */
interface VoteAction {
  step: Record<string, any>;
  label: string;
}

/** A room's vote on what happens next: where it was opened, on which load, what it offers, whether it is open. */
interface Vote {
  position: number;
  key: string | null;
  actions: VoteAction[];
  open: boolean;
}

/** A vote's ballots so far: how many, and per offered action. */
interface VoteTally {
  answered: number;
  counts: number[];
}
