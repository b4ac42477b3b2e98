"""The project's own short Go-like paraphrase of each upstream function, shown when the real text is not cached.
Each line is (anchor, text): the anchor (webapp/sources/maps.py) lights it when the step runs that line, None for
a line no step lights. Two families: v1.28.1's receivedEvents with markers, and v1.28.2 on's inFlightEvents."""

from __future__ import annotations

Line = tuple[str | None, str]

_SHARED: dict[str, tuple[Line, ...]] = {
    "AddUnschedulableIfNotPresent": (
        ("aup.defer_done", "defer done(pod)  // runs on every return"),
        ("aup.present", "if pod already in a queue { return error }"),
        ("aup.gate", "if !queueingHintsEnabled {"),
        ("aup.gate_off", "    return addUnschedulableWithoutQueueingHint(pod, cycle)"),
        (None, "}"),
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


def paraphrase(received_events: bool) -> dict[str, tuple[Line, ...]]:
    """Every function's paraphrase for one family: v1.28.1's (``received_events``) or v1.28.2 on's."""
    return {**_SHARED, **(_RECEIVED if received_events else _IN_FLIGHT)}
