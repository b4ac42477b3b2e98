// The wire shapes: what the server sends the page, made from the TypedDicts of webapp (each interface
// names its own) by `python -m tools.clientgen`: edit them there. For the checker only (`make jscheck`);
// the browser never loads this file. The client's own shapes are static/js/client.d.ts.

declare namespace Wire {
  /** webapp.presenter.messages.ScenarioMessage */
  interface ScenarioMessage {
    name: string;
    description: string;
    variants: string[];
    total: number;
    divergence: number | null;
    gate: boolean;
    pods: string[];
    id: string | null;
    steps: StepEntry[];
    keyPositions: number[];
    glossary: { [key: string]: string };
    versions: VersionEntry[];
    opensOn: string[];
    source: { [key: string]: any };
    room: string | null;
  }

  /** webapp.presenter.messages.StateMessage */
  interface StateMessage {
    position: number;
    total: number;
    variants: { [key: string]: Traced };
    scene: Scene;
  }

  /** webapp.presenter.messages.DeltaMessage */
  interface DeltaMessage {
    seq: number;
    position: number;
    ops: any[][];
  }

  /** webapp.engine.polls.Poll */
  interface Poll {
    position: number;
    key?: string | null;
    pod: string;
    choices: string[];
    variants: string[];
    open: boolean;
  }

  /** webapp.engine.polls.Tally */
  interface Tally {
    answered: number;
    counts: { [key: string]: { [key: string]: number } };
  }

  /** webapp.engine.votes.Vote */
  interface Vote {
    position: number;
    key: string | null;
    actions: Action[];
    open: boolean;
  }

  /** webapp.engine.votes.VoteTally: A vote's ballots so far (to the presenter and the speaker view): how
   * many, and per offered action. */
  interface VoteTally {
    answered: number;
    counts: number[];
  }

  /** webapp.errors.Reply: What a refused request is answered with (a socket's ``error`` message adds the
   * event it answers). */
  interface Reply {
    message: string;
    kind: string;
  }

  /** webapp.presenter.messages.StepEntry */
  interface StepEntry {
    kind: string;
    label: string;
    note?: string;
  }

  /** webapp.presenter.messages.VersionEntry */
  interface VersionEntry {
    name: string;
    releases: string;
    summary: string;
  }

  /** webapp.presenter.messages.Traced */
  interface Traced {
    state: State;
    result: Result | null;
    record: Record | null;
    source: ((string | null)[])[];
  }

  /** webapp.presenter.shapes.Scene */
  interface Scene {
    position: number;
    total: number;
    divergence: number | null;
    positionText: string;
    counter: string;
    caption: string;
    step: StepLine | null;
    next: StepLine | null;
    predict: Predict | null;
    upcoming: { [key: string]: Narration } | null;
    notes: Notes | null;
    playing: boolean;
    speed: number;
    range: number[];
    room: string | null;
    panes: { [key: string]: Pane };
    legend: LegendItem[];
    outcomes: Outcomes;
  }

  /** webapp.engine.votes.Action */
  interface Action {
    step: { [key: string]: any };
    label: string;
  }

  /** webapp.model.views.State */
  interface State {
    inFlightPods: { [key: string]: InFlightMarker } | string[];
    receivedEvents?: ({ [key: string]: string | number })[];
    inFlightEvents?: ({ [key: string]: string })[];
    activeQ: string[];
    backoffQ: string[];
    unschedulablePods: string[];
    schedulingCycle: number;
    moveRequestCycle: number;
    backoffQ_error?: string[];
  }

  /** webapp.model.record.Result */
  interface Result {
    popped?: string | null;
    discarded?: string[];
    from?: string;
    queue?: string;
    rule?: string;
    hint?: string;
    error?: string;
    event_id?: string;
    event_ids?: string[];
    event?: string;
    recorded_in_flight?: boolean;
    moved?: { [key: string]: string };
    moved_to_activeQ?: string[];
    now?: number;
    flushes?: Flush[];
  }

  /** webapp.model.record.Record */
  interface Record {
    step: number;
    op: string;
    calls: string[];
    moves: Move[];
    appended: ListEntry[];
    removed: ListEntry[];
    counters: Counter[];
    detached: Detached[];
    evaluations: Evaluation[];
    skipped: Skip[];
    invariants?: Violated[];
    cleared?: string[];
    hint?: Hint;
    failed?: Failed;
    gate_off_rule?: { [key: string]: number };
    ignored?: { [key: string]: string };
    marker?: MarkerAt;
    done_start?: DoneStart;
    orphaned?: { [key: string]: string };
  }

  /** webapp.presenter.shapes.StepLine */
  interface StepLine {
    index: number;
    op: string;
    label: string;
    note: string;
  }

  /** webapp.presenter.shapes.Predict */
  interface Predict {
    pod: string;
    choices: string[];
  }

  /** webapp.presenter.shapes.Narration */
  interface Narration {
    title: string;
    lines: string[];
    functions: string[];
    where: string;
    note: string;
  }

  /** webapp.presenter.shapes.Notes */
  interface Notes {
    now: string;
    next: string;
  }

  /** webapp.presenter.shapes.Pane */
  interface Pane {
    variant: string;
    title: string;
    tag: string;
    tone: string;
    time: string;
    clock: string;
    caption: string;
    list: ListPane;
    pointers: Pointer[];
    hint: HintLine | null;
    walk: Walk | null;
    lanes: Lane[];
    invariants: Invariants;
    narration: Narration;
    outcome: string | null;
    unflushed: string[];
    unflushedWhy?: string;
    badge?: Badge | null;
  }

  /** webapp.presenter.shapes.LegendItem */
  interface LegendItem {
    key: string;
    label: string;
    text: string;
  }

  /** webapp.presenter.shapes.Outcomes */
  interface Outcomes {
    label: string;
    pods: PodOutcome[];
  }

  /** webapp.model.views.InFlightMarker: v1.28.1's state of an in-flight pod: its previousEvent marker and
   * whether that is still in the list. */
  interface InFlightMarker {
    previousEvent: string | null;
    previousEventInList: boolean | null;
  }

  /** webapp.model.record.Flush */
  interface Flush {
    at: number;
    op: string;
    result: Result;
  }

  /** webapp.model.record.Move */
  interface Move {
    pod: string;
    from: string | null;
    to: string | null;
  }

  /** webapp.model.record.ListEntry: An entry of the in-flight list: an event (v1.28.1: with the pods it still
   * counts) or a pod's own entry. */
  interface ListEntry {
    kind: string;
    id: string;
    event?: string;
    pod?: string;
    inFlightPodsNum?: number;
    orphaned?: boolean;
    reason?: string;
  }

  /** webapp.model.record.Counter */
  interface Counter {
    id: string;
    inFlightPodsNum: number;
  }

  /** webapp.model.record.Detached */
  interface Detached {
    pod: string;
    marker: string;
    unseen: string[];
  }

  /** webapp.model.record.Evaluation */
  interface Evaluation {
    pod: string;
    hint: string;
    why: string;
    plugin: string | null;
  }

  /** webapp.model.record.Skip */
  interface Skip {
    pod: string;
    why: string;
  }

  /** webapp.model.record.Violated */
  interface Violated {
    name: string;
    violations: ({ [key: string]: any })[];
  }

  /** webapp.model.record.Hint */
  interface Hint {
    pod: string;
    walk: WalkStep[];
    start?: HintStart;
    decision?: string;
    reason?: string;
  }

  /** webapp.model.record.Failed */
  interface Failed {
    pod: string;
    plugins: string[];
    attempts: number;
    pending?: string[];
  }

  /** webapp.model.record.MarkerAt: v1.28.1: the marker a pop gives the pod (the newest retained event, or
   * None). */
  interface MarkerAt {
    pod: string;
    previousEvent: string | null;
  }

  /** webapp.model.record.DoneStart: v1.28.1: where Done starts counting down (``rule``: marker-next, front,
   * front-marker-removed). */
  interface DoneStart {
    pod: string;
    rule: string;
    id: string | null;
  }

  /** webapp.presenter.shapes.ListPane */
  interface ListPane {
    name: string;
    count: string;
    note: string;
    items: Item[];
    markerNotes: string[];
    empty: string;
  }

  /** webapp.presenter.shapes.Pointer */
  interface Pointer {
    pod: string;
    target: string;
    key: string;
    detached: boolean;
    reach: string[];
    unseen: string[];
    decided: boolean;
    text: string;
    title: string;
  }

  /** webapp.presenter.shapes.HintLine */
  interface HintLine {
    pod: string;
    walked: string;
    decision: string;
  }

  /** webapp.presenter.shapes.Walk */
  interface Walk {
    ids: string[];
    nil: string | null;
  }

  /** webapp.presenter.shapes.Lane */
  interface Lane {
    queue: string;
    label: string;
    icon: string;
    help: string;
    chips: Chip[];
  }

  /** webapp.presenter.shapes.Invariants */
  interface Invariants {
    ok: boolean;
    summary: string;
    broken: Broken[];
  }

  /** webapp.presenter.shapes.Badge: A pane's outcome in a few words (``tone``: slow, quick or plain). */
  interface Badge {
    text: string;
    tone: string;
  }

  /** webapp.presenter.shapes.PodOutcome */
  interface PodOutcome {
    pod: string;
    parts: OutcomePart[];
  }

  /** webapp.model.record.WalkStep: An entry the walk visited: an event with its hint, or a pod entry it
   * skipped. */
  interface WalkStep {
    id: string;
    why: string;
    event?: string;
    hint?: string;
    plugin?: string | null;
    pod?: string;
  }

  /** webapp.model.record.HintStart: Where a failed pod's walk starts: ``rule`` names the case (front,
   * marker-next, marker-detached, after-own-entry, not-in-flight, no-plugins-global). */
  interface HintStart {
    rule: string;
    marker?: string;
    unseen?: string[];
    id?: string;
  }

  /** webapp.presenter.shapes.Item */
  interface Item {
    key: string;
    kind: string;
    label: string;
    id?: string;
    sub?: string;
    title?: string;
    count?: string;
    table?: [string, string];
    markers?: MarkerChip[];
    orphaned?: boolean;
    unseen?: string;
    unseenBy?: string[];
    walked?: boolean;
    walkHint?: string;
    ghost?: boolean;
    gone?: string;
    forPod?: string;
    forText?: string;
    forTitle?: string;
  }

  /** webapp.presenter.shapes.Chip */
  interface Chip {
    pod: string;
    detail: string;
    title: string;
    timer: Timer | null;
    head?: boolean;
    marks?: ChipMark[];
    ghost?: boolean;
    window?: ChipMark;
  }

  /** webapp.presenter.shapes.Broken */
  interface Broken {
    name: string;
    title: string;
    detail: string;
    description: string;
  }

  /** webapp.presenter.shapes.OutcomePart */
  interface OutcomePart {
    variant: string;
    text: string;
  }

  /** webapp.presenter.shapes.MarkerChip */
  interface MarkerChip {
    pod: string;
    detached: boolean;
    text: string;
    title: string;
  }

  /** webapp.presenter.shapes.Timer */
  interface Timer {
    kind: string;
    value: number;
    limit: number;
    fraction: number;
    text: string;
    next?: number;
    missed?: number;
    parts?: string[];
  }

  /** webapp.presenter.shapes.ChipMark: What 1.32+ adds to a pod's place, drawn as a small tag on its chip
   * (``kind``: early, error, window, gated, group or discarded; words.CHIP_MARKS). */
  interface ChipMark {
    kind: string;
    text: string;
    title: string;
  }
}
