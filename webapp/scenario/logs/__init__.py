"""kube-scheduler logs -> a scenario: ``inflight-scope import LOGFILE...`` (docs/import.md).

The importer reads klog text lines (``I1130 12:00:01.123456    1 schedule_one.go:80] "About to try and schedule
pod" pod="default/a"``) and the JSON log format (``{"ts":1701345601123.456,"caller":"scheduler/schedule_one.go:80",
"msg":"About to try and schedule pod","v":4,"pod":{"name":"a","namespace":"default"}}``), one line at a time, and
turns the scheduler's own messages into scenario steps. The messages, their keys and the verbosity each needs are
those of kube-scheduler v1.28 (vendored in kubernetes/autoscaler at cb95d464,
``cluster-autoscaler/vendor/k8s.io/kubernetes/pkg/scheduler/``): the table is in messages.py, with each message's
line in 1.28.4 to 1.31, which log the same texts and keys.

What a log cannot tell is filled with assumptions, each listed in the result (``Imported.assumptions``, the
scenario's ``assumptions`` and description, and comments in the YAML): which events arrived that moved no parked
pod, which events wake which plugin (1.28's EventsToRegister, the catalogue of webapp/model/plugins.py, with
defaultQueueingHintFn's QueueAfterBackoff, scheduler.go l. 366, as none of the 1.28 in-tree plugins has a
QueueingHintFn), priorities
(0, but those that pop pods in the log's order: mend.py), the backoff settings (the defaults) and the phase of
the periodic flushes (phase.py); a gap of over a day between lines is said (``Imported.warnings`` too); the
SchedulerQueueingHints gate is read from the log where it shows it (importer.py), and the
plugin catalogue's hints are never written out (messages.explicit_hints). The scenario is then replayed on the
versions the import targets (``Builder.variants``: VARIANTS, and v1.28.5 with the gate off): what stops it is
mended (mend.Mender) or is the log's, named by its line; what the log says of a queue move that the replay does not
do is a disagreement (``Imported.disagreements``, in the description and the YAML's comments, and counted), never an
assumption.

Lines are read one at a time (never the whole input), at most MAX_LINE bytes each; the steps are bounded by the scenario
limits. This package is in the scenario layer: it may use the model (to check that the scenario runs) but no engine.

Its modules, each using only those above it:

* lines.py: reading one line (klog text or JSON) into a ``Line``; what a pod's name may be (``pod_name``: a line
  with another is refused, naming it);
* reading.py: the input's bytes into lines of text (what is no log text refused, naming its line), and the counts;
* messages.py: the scheduler messages the importer uses; a failure's plugins, and the hints they give;
* replicas.py: which replica's lines to use: the leader's (a standby's are left out);
* builder.py: the used lines, in the log's order, into steps (``Builder``);
* phase.py: the periodic flushes' phase: a logged flush move's, else the one that puts a 30 s tick just before the
  attempts of pods parked 300 to 330 s;
* mend.py: replaying the steps on each version, and mending what stops them (``Mender``);
* compare.py: the queue moves the log states that the model's replay does not make (the disagreements);
* words.py: the assumptions and the description;
* yamltext.py: the scenario as YAML;
* importer.py: ``import_logs``, which reads the input with all of the above.
"""

from .importer import import_logs
from .lines import MOVE_CALLERS, LogError, parse_line
from .messages import EVENT_LABELS, MESSAGES, UNKNOWN_PLUGIN, plugins_of, woken_by
from .reading import Recoded
from .words import LISTS

__all__ = ["EVENT_LABELS", "LISTS", "MESSAGES", "MOVE_CALLERS", "UNKNOWN_PLUGIN", "LogError", "Recoded",
           "import_logs", "parse_line", "plugins_of", "woken_by"]
