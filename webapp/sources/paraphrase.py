"""The project's own short Go-like paraphrase of each upstream function, shown when the real text is not cached.
Each line is (anchor, text): the anchor (webapp/sources/maps.py) lights it when the step runs that line, None for
a line no step lights. Three families: v1.28.1's receivedEvents with markers, v1.28.2 on's inFlightEvents, and the
same list in pkg/scheduler/backend/queue from 1.32 on."""

from __future__ import annotations

from .types import BACKEND_FILES

Line = tuple[str | None, str]

_SHARED: dict[str, tuple[Line, ...]] = {
    "AddUnschedulableIfNotPresent": (
        ("aup.defer_done", "defer done(pod)  // runs on every return"),
        ("aup.present", "if pod already in a queue { return error }"),
        ("aup.gate", "if !queueingHintsEnabled {"),
        ("aup.gate_off", "    return addUnschedulableWithoutQueueingHint(pod, cycle)"),
        (None, "}"),
        ("aup.errors", "if no rejector plugins { pod.ConsecutiveErrorsCount++ }  // 1.34+"),
        ("aup.unschedulable_count", "else { pod.UnschedulableCount++; pod.ConsecutiveErrorsCount = 0 }"),
        ("aup.timestamp", "pod.Timestamp = now"),
        ("aup.hint", "hint := determineSchedulingHintForInFlightPod(pod)"),
        ("aup.requeue", "queue := requeuePodViaQueueingHint(pod, hint)"),
    ),
    "addUnschedulableWithoutQueueingHint": (
        ("woh.cycle", "if moveRequestCycle >= podSchedulingCycle {"),
        ("woh.backoff", "    backoffQ.Add(pod)"),
        (None, "} else {"),
        ("woh.unschedulable", "    unschedulablePods.add(pod)"),
        (None, "}"),
    ),
    "requeuePodViaQueueingHint": (
        ("rq.skip", "if hint == QueueSkip {"),
        ("rq.unschedulable", "    unschedulablePods.add(pod); return unschedulablePods"),
        (None, "}"),
        ("rq.backoff_check", "if hint == QueueAfterBackoff && isPodBackingoff(pod) {"),
        ("rq.backoff", "    backoffQ.Add(pod); return backoffQ"),
        (None, "}"),
        ("rq.active", "addToActiveQ(pod)"),
        ("rq.active_return", "return activeQ"),
    ),
    "Done": (("Done.call", "lock; done(pod); unlock"),),
    "MoveAllToActiveOrBackoffQueue": (("mall.call", "lock; moveAllToActiveOrBackoffQueue(event); unlock"),),
    "moveAllToActiveOrBackoffQueue": (
        ("mall.collect", "pods := every pod in unschedulablePods the pre-check lets through"),
        ("mall.move", "movePodsToActiveOrBackoffQueue(pods, event)"),
    ),
    "AssignedPodAdded": (("ap.move", "movePodsToActiveOrBackoffQueue(podsWithMatchingAffinity, AssignedPodAdd)"),),
    "isPodWorthRequeuing": (
        (None, "if no unschedulable plugins { return QueueAfterBackoff }"),
        (None, "for each hint fn registered for event, of a plugin that rejected pod {"),
        (None, "    strongest of fn(pod, event)"),
        (None, "}"),
    ),
    "flushBackoffQCompleted": (
        (None, "for pod := backoffQ.Peek(); pod != nil; pod = backoffQ.Peek() {"),
        ("fb.backingoff", "    if isPodBackingoff(pod) { break }"),
        ("fb.add", "    backoffQ.Pop(); addToActiveQ(pod)"),
        (None, "}"),
    ),
    "flushUnschedulablePodsLeftover": (
        ("fu.check", "pods := unschedulablePods parked longer than podMaxInUnschedulablePodsDuration"),
        ("fu.move", "movePodsToActiveOrBackoffQueue(pods, UnschedulableTimeout)"),
    ),
    "Update": (
        (None, "if pod in activeQ or backoffQ { update it there; return }"),
        ("up.in_flight", "if pod in flight { inFlightEvents.PushBack(UnschedulablePodUpdate) }  // 1.31"),
        ("up.unschedulable", "if pod in unschedulablePods {"),
        ("up.updated", "    if updated in a way that matters { move to backoffQ or activeQ } else { keep }"),
        (None, "    return"),
        (None, "}"),
        ("up.new", "addToActiveQ(newQueuedPodInfo(pod))"),
    ),
    "Delete": (
        ("del.active", "if !activeQ.Delete(pod) {"),
        ("del.unschedulable", "    backoffQ.Delete(pod); unschedulablePods.delete(pod)"),
        (None, "}"),
    ),
    "Activate": (("act.loop", "for each pod { activate(pod) }"),),
    "activate": (
        (None, "if pod in activeQ { return false }"),
        (None, "pInfo := from unschedulablePods or backoffQ, else return false"),
        ("act.add", "addToActiveQ(pInfo); remove it from unschedulablePods and backoffQ"),
    ),
    "Add": (("add.add", "addToActiveQ(newQueuedPodInfo(pod)); drop it from backoffQ, unschedulablePods"),),
}

_RECEIVED: dict[str, tuple[Line, ...]] = {
    "Pop": (
        ("pop.take", "pInfo := activeQ.Pop()"),
        ("pop.attempts", "pInfo.Attempts++"),
        ("pop.cycle", "schedulingCycle++"),
        ("pop.gate", "if queueingHintsEnabled {"),
        ("pop.marker", "    inFlightPods[pod] = {previousEvent: receivedEvents.Back()}"),
        (None, "}"),
        ("pop.return", "return pInfo"),
    ),
    "determineSchedulingHintForInFlightPod": (
        ("dh.no_plugins", "if len(pInfo.UnschedulablePlugins) == 0 { any event? QueueAfterBackoff : QueueSkip }"),
        ("dh.lookup", "inFlightPod, ok := inFlightPods[pod]"),
        ("dh.not_in_flight", "if !ok { return QueueAfterBackoff }"),
        ("dh.front", "event := receivedEvents.Front()"),
        ("dh.marker_check", "if inFlightPod.previousEvent != nil {"),
        ("dh.marker_next", "    event = inFlightPod.previousEvent.Next()  // nil if it was removed"),
        (None, "}"),
        ("dh.init", "hint := QueueSkip"),
        ("dh.loop", "for ; event != nil; event = event.Next() {"),
        ("dh.worth", "    h := isPodWorthRequeuing(pInfo, event)"),
        ("dh.immediately", "    if h == QueueImmediately { hint = h; break }"),
        ("dh.backoff", "    if h == QueueAfterBackoff { hint = h }"),
        (None, "}"),
        ("dh.return", "return hint"),
    ),
    "done": (
        ("done.gate", "if !queueingHintsEnabled { return }"),
        ("done.lookup", "inFlightPod, ok := inFlightPods[pod]; if !ok { return }"),
        ("done.delete", "delete(inFlightPods, pod)"),
        ("done.front", "event := receivedEvents.Front()"),
        ("done.marker", "if previousEvent != nil && previousEvent.inFlightPodsNum != 0 {"),
        ("done.marker_next", "    event = previousEvent.Next()"),
        (None, "}"),
        ("done.loop", "for event != nil {"),
        ("done.decrement", "    event.inFlightPodsNum--"),
        ("done.remove_event", "    if event.inFlightPodsNum <= 0 { receivedEvents.Remove(event) }"),
        (None, "    event = next"),
        (None, "}"),
    ),
    "movePodsToActiveOrBackoffQueue": (
        ("mp.loop", "for _, pInfo := range pods {"),
        ("mp.worth", "    hint := isPodWorthRequeuing(pInfo, event)"),
        ("mp.skip", "    if hint == QueueSkip { continue }"),
        ("mp.requeue", "    unschedulablePods.delete(pInfo); requeuePodViaQueueingHint(pInfo, hint)"),
        (None, "}"),
        ("mp.cycle", "moveRequestCycle = schedulingCycle"),
        ("mp.in_flight", "if len(inFlightPods) != 0 {"),
        ("mp.record", "    receivedEvents.PushBack({event, inFlightPodsNum: len(inFlightPods)})"),
        (None, "}"),
    ),
}

_IN_FLIGHT: dict[str, tuple[Line, ...]] = {
    "Pop": (
        ("pop.take", "pInfo := activeQ.Pop()"),
        ("pop.attempts", "pInfo.Attempts++"),
        ("pop.cycle", "schedulingCycle++"),
        ("pop.gate", "if queueingHintsEnabled {"),
        ("pop.entry", "    inFlightPods[pod] = inFlightEvents.PushBack(pod)  // the pod's own entry"),
        (None, "}"),
        ("pop.clear", "pInfo.UnschedulablePlugins.Clear()  // 1.28.3+"),
        ("pop.clear_pending", "pInfo.PendingPlugins.Clear()  // 1.29+"),
        ("pop.return", "return pInfo"),
    ),
    "determineSchedulingHintForInFlightPod": (
        ("dh.lookup", "inFlightPod, ok := inFlightPods[pod]"),
        ("dh.not_in_flight", "if !ok { QueueAfterBackoff if plugins or events remain, else QueueSkip }"),
        ("dh.no_plugins", "if no rejector plugins { any event after inFlightPod? QueueAfterBackoff : QueueSkip }"),
        ("dh.pod_group", "if GenericWorkload && pod is in a pod group { return QueueAfterBackoff }  // 1.36"),
        ("dh.init", "hint := QueueSkip"),
        ("dh.loop", "for event := inFlightPod.Next(); event != nil; event = event.Next() {"),
        ("dh.pod_entry", "    if event is another pod's entry { continue }"),
        ("dh.worth", "    h := isPodWorthRequeuing(pInfo, event)"),
        ("dh.immediately", "    if h == QueueImmediately { hint = h; break }"),
        ("dh.backoff", "    if h == QueueAfterBackoff { hint = h }"),
        (None, "}"),
        ("dh.return", "return hint"),
    ),
    "done": (
        ("done.gate", "if !queueingHintsEnabled { return }"),
        ("done.lookup", "inFlightPod, ok := inFlightPods[pod]; if !ok { return }"),
        ("done.delete", "delete(inFlightPods, pod)"),
        ("done.remove_own", "inFlightEvents.Remove(inFlightPod)  // the pod's own entry"),
        (None, "for {"),
        ("done.prune_front", "    e := inFlightEvents.Front()"),
        ("done.prune_empty", "    if e == nil { break }  // the list is empty"),
        ("done.prune_pod", "    if e is a pod's entry { break }"),
        ("done.prune_remove", "    inFlightEvents.Remove(e)  // an event no attempt in flight needs"),
        (None, "}"),
    ),
    "movePodsToActiveOrBackoffQueue": (
        ("mp.interest", "if !isEventOfInterest(event) { return }  // 1.30+"),
        ("mp.loop", "for _, pInfo := range pods {"),
        ("mp.worth", "    hint := isPodWorthRequeuing(pInfo, event)"),
        ("mp.skip", "    if hint == QueueSkip { continue }"),
        ("mp.requeue", "    unschedulablePods.delete(pInfo); requeuePodViaQueueingHint(pInfo, hint)"),
        (None, "}"),
        ("mp.cycle", "moveRequestCycle = schedulingCycle"),
        ("mp.in_flight", "if len(inFlightPods) != 0 {"),
        ("mp.record", "    inFlightEvents.PushBack(event)"),
        (None, "}"),
    ),
}

# pkg/scheduler/backend/queue (1.32 on): Pop's and done's steps are activeQueue's, backoffQ is a backoffQueue (1.33+).
_BACKEND: dict[str, tuple[Line, ...]] = {
    "Pop": (("pop.call", "return activeQ.pop()  // lock; unlockedPop"),),
    "activeQueue.unlockedPop": (  # 1.32
        (None, "for activeQ is empty { wait }"),
        ("pop.take", "pInfo, err := activeQ's heap.Pop()"),
        ("pop.attempts", "pInfo.Attempts++"),
        ("pop.gate", "if queueingHintsEnabled {"),
        ("pop.in_flight", "    if pod already in inFlightPods {"),
        ("pop.discard", "        return unlockedPop()  // discard the duplicate, pop the next"),
        (None, "    }"),
        ("pop.entry", "    inFlightPods[pod] = inFlightEvents.PushBack(pod)  // the pod's own entry"),
        (None, "}"),
        ("pop.cycle", "schedulingCycle++"),
        ("pop.clear", "pInfo.UnschedulablePlugins.Clear()"),
        ("pop.clear_pending", "pInfo.PendingPlugins.Clear()"),
        ("pop.return", "return pInfo"),
    ),
    "activeQueue.unlockedMovePodToInFlight": (
        ("pop.attempts", "pInfo.Attempts++"),
        ("pop.gate", "if queueingHintsEnabled {"),
        ("pop.in_flight", "    if pod already in inFlightPods { return error }  // the duplicate"),
        ("pop.entry", "    inFlightPods[pod] = inFlightEvents.PushBack(pod)  // the pod's own entry"),
        (None, "}"),
        ("pop.cycle", "schedulingCycle++"),
    ),
    "backoffQueue.popBackoff": (("pop.backoff_head", "return podBackoffQ.Pop()  // its head, backing off or not"),),
    "activeQueue.addEventIfAnyInFlight": (
        ("mp.in_flight", "if len(inFlightPods) != 0 {"),
        ("mp.record", "    inFlightEvents.PushBack(event)"),
        (None, "}"),
    ),
    "Done": (
        ("done.gate", "if !queueingHintsEnabled { return }"),
        ("Done.call", "activeQ.done(pod)"),
    ),
    "requeuePodWithQueueingStrategy": (  # 1.36's name of requeuePodViaQueueingHint
        ("rq.skip", "if strategy == queueSkip {"),
        ("rq.unschedulable", "    unschedulablePods.addOrUpdate(pod); return unschedulableQ"),
        (None, "}"),
        ("rq.backoff_check", "if strategy == queueAfterBackoff && backoffQ.isPodBackingoff(pod) {"),
        ("rq.backoff", "    if moveToBackoffQ(pod) { return backoffQ }"),
        (None, "}"),
        ("rq.active", "if moveToActiveQ(pod) {"),
        ("rq.active_return", "    return activeQ"),
        (None, "}"),
    ),
    "moveToBackoffQ": (
        (None, "run PreEnqueue plugins (1.33+); a gated pod goes to unschedulablePods"),
        ("rq.to_backoff", "backoffQ.add(pod)"),
    ),
    "backoffQueue.add": (
        (None, "if no rejector plugins {"),
        ("bq.error_heap", "    podErrorBackoffQ.AddOrUpdate(pod)  // Pop never takes from it"),
        (None, "    return"),
        (None, "}"),
        ("bq.heap", "podBackoffQ.AddOrUpdate(pod)  // ordered by 1 s window, then priority"),
    ),
    "flushBackoffQCompleted": (
        ("fb.pop_all", "pods := backoffQ.popAllBackoffCompleted()  // both heaps, whole windows passed"),
        ("fb.backingoff", "for pod := backoffQ.Peek(); pod != nil && !isPodBackingoff(pod); pod = backoffQ.Peek() {"),
        ("fb.add", "    moveToActiveQ(pod)"),
        (None, "}"),
    ),
    "Activate": (
        ("act.loop", "for each pod { if activate(pod) { continue }"),
        ("act.force", "    activeQ.addEventsIfPodInFlight(pod, ForceActivate)  // 1.32+"),
        ("act.cycle", "    moveRequestCycle = schedulingCycle"),
        (None, "}"),
    ),
    "PopSpecificPod": (
        ("ps.activate", "activate(pod)  // from unschedulablePods or backoffQ"),
        ("ps.get", "pInfo := activeQ.get(pod)"),
        ("ps.none", "if pInfo == nil { return nil }"),
        ("ps.move", "activeQ.delete(pInfo); activeQ.movePodToInFlight(pInfo)"),
        ("ps.return", "return pInfo"),
    ),
}
_BACKEND["activeQueue.done"] = _BACKEND["activeQueue.unlockedDone"] = _IN_FLIGHT["done"]
# backoff_queue.go's layout (1.33 on, read from v1.36.2): Pop may take backoffQ's head; the move to in flight is a
# function of its own.
_BACKOFF_QUEUE: dict[str, tuple[Line, ...]] = {
    "activeQueue.unlockedPop": (
        (None, "for activeQ is empty { if backoffQ has a poppable pod { break }; wait }"),
        ("pop.take", "pInfo, err := activeQ's heap.Pop()"),
        ("pop.from_backoff", "if err != nil { pInfo = backoffQ.popBackoff() }  // activeQ is empty"),
        ("pop.move", "if err := unlockedMovePodToInFlight(pInfo); err != nil {"),
        ("pop.discard", "    return unlockedPop()  // discard the duplicate, pop the next"),
        (None, "}"),
        ("pop.return", "return pInfo"),
    ),
}


def paraphrase(received_events: bool, files: tuple[str, ...]) -> dict[str, tuple[Line, ...]]:
    """Every function's paraphrase for one family: v1.28.1's (``received_events``), else the in-flight list's as
    the queue's ``files`` hold it: internal/queue (1.28.2 to 1.31), backend/queue (1.32), with backoff_queue.go
    (1.33 on)."""
    if received_events:
        return {**_SHARED, **_RECEIVED}
    backend = {**_BACKEND, **(_BACKOFF_QUEUE if BACKEND_FILES[2] in files else {})} if files[0] in BACKEND_FILES \
        else {}
    return {**_SHARED, **_IN_FLIGHT, **backend}
