"""v1.28.4: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = 'a91025aa1f408b57f14e8352b7089fd5987ad424'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/internal/queue/scheduling_queue.go':
        ((1, 15), 'fd10dde2246fc70669b645c6c53b931899db50daa9b248bf88f727fbddd12f66'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    'Add': (520, 543), 'Activate': (546, 560),
    'activate': (562, 595), 'determineSchedulingHintForInFlightPod': (616, 677),
    'addUnschedulableWithoutQueueingHint': (685, 709), 'AddUnschedulableIfNotPresent': (715, 761),
    'flushBackoffQCompleted': (764, 793), 'flushUnschedulablePodsLeftover': (797, 813),
    'Pop': (818, 850), 'Done': (854, 859),
    'done': (861, 894), 'Update': (919, 976),
    'Delete': (980, 993), 'AssignedPodAdded': (997, 1001),
    'moveAllToActiveOrBackoffQueue': (1034, 1042), 'MoveAllToActiveOrBackoffQueue': (1048, 1052),
    'requeuePodViaQueueingHint': (1058, 1095), 'movePodsToActiveOrBackoffQueue': (1098, 1134),
    'isPodWorthRequeuing': (406, 453),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.take': 831, 'pop.attempts': 836, 'pop.cycle': 837, 'pop.gate': 839,
    'pop.entry': 840, 'pop.reset_comment': 843, 'pop.clear': 847, 'pop.return': 849,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 720, 'aup.present': 723, 'aup.gate': 734, 'aup.gate_off': 736,
    'aup.timestamp': 740, 'aup.hint': 749, 'aup.requeue': 752,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 695, 'woh.backoff': 696, 'woh.unschedulable': 702,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 636, 'dh.lookup': 622, 'dh.not_in_flight': 623, 'dh.init': 651,
    'dh.loop': 652, 'dh.pod_entry': 653, 'dh.worth': 660, 'dh.immediately': 667,
    'dh.backoff': 673, 'dh.return': 676,
    },
    'requeuePodViaQueueingHint': {
    'rq.skip': 1059, 'rq.unschedulable': 1062, 'rq.backoff_check': 1066, 'rq.backoff': 1074,
    'rq.active': 1079, 'rq.active_return': 1085,
    },
    'Done': {
    'Done.call': 858,
    },
    'done': {
    'done.gate': 862, 'done.lookup': 867, 'done.delete': 872, 'done.remove_own': 875,
    'done.prune_front': 883, 'done.prune_empty': 884, 'done.prune_pod': 888, 'done.prune_remove': 892,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1051,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1036, 'mall.move': 1041,
    },
    'AssignedPodAdded': {
    'ap.move': 999,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.loop': 1100, 'mp.worth': 1101, 'mp.skip': 1102, 'mp.requeue': 1109,
    'mp.cycle': 1116, 'mp.in_flight': 1119, 'mp.record': 1124,
    },
    'flushBackoffQCompleted': {
    'fb.backingoff': 775, 'fb.add': 783,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 805, 'fu.move': 811,
    },
    'Update': {
    'up.unschedulable': 941, 'up.updated': 944, 'up.new': 968,
    },
    'Delete': {
    'del.active': 985, 'del.unschedulable': 989,
    },
    'Activate': {
    'act.loop': 551,
    },
    'activate': {
    'act.add': 587,
    },
    'Add': {
    'add.add': 526,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    406: 'e5de5c369334', 453: 'd10b36aa74a5', 520: '6e5f31ab62c2', 526: '3cf7f373908c', 543: 'd10b36aa74a5',
    546: '37aa484231cb', 551: '361b952dfbec', 560: 'd10b36aa74a5', 562: '07b990dc4965', 587: 'e6bbbb2ed035',
    595: 'd10b36aa74a5', 616: 'ab747e0b8687', 622: '7d302bed8ba7', 623: '474dca10644e', 636: 'c59671a89ccd',
    651: '79b02195e614', 652: '84faf40d62ad', 653: 'beb629d935ac', 660: '4b1cdf58ca39', 667: '798053d9346c',
    673: '506e3346070a', 676: '2cb67bbb4a32', 677: 'd10b36aa74a5', 685: 'dd93b8c39a99', 695: '0fd5d0cc63f1',
    696: 'f1871fb9a625', 702: '8bd197845623', 709: 'd10b36aa74a5', 715: 'c6b164ff7857', 720: '8316be73268c',
    723: 'c4b10d2ea218', 734: 'b069de78000d', 736: '1c14422e66c5', 740: '0ec6b79e0ddd', 749: 'e74c2f2606df',
    752: '6b83e59d6206', 761: 'd10b36aa74a5', 764: 'caa00a2ffd31', 775: '5b481bbb357b', 783: '4c8b9f806c47',
    793: 'd10b36aa74a5', 797: 'db851abf68c2', 805: '2bd23650b892', 811: '9927d8b92133', 813: 'd10b36aa74a5',
    818: 'c1b3e57277cb', 831: 'ac06e5fdd908', 836: 'c378e59a0c79', 837: '1fa64c1e2ce6', 839: 'ee8cca2d05ce',
    840: '5388e5acd872', 843: 'b3dc888d55c7', 847: '59a9b0a24bb1', 849: '82cd02e7625d', 850: 'd10b36aa74a5',
    854: '8d2f335acb4b', 858: '1e56ef73c329', 859: 'd10b36aa74a5', 861: 'fe31ff8feb87', 862: 'b069de78000d',
    867: '4de8d1f8946e', 872: '2f82879bb3f9', 875: 'ea2d2715fb48', 883: '602336912b60', 884: '9c1d7d7373db',
    888: '2f3857c28b0c', 892: '7ba368100dd6', 894: 'd10b36aa74a5', 919: 'e287e15a1d5e', 941: '0cbeb6a60ac0',
    944: 'e594aec5345c', 968: 'dcca36ddbe80', 976: 'd10b36aa74a5', 980: '5cbb3d039251', 985: '8e5ee1ef7c62',
    989: '07ee7257cb51', 993: 'd10b36aa74a5', 997: '639bb8cdd317', 999: 'eba0f71b2b0f', 1001: 'd10b36aa74a5',
    1034: 'bff5d9784793', 1036: '83cf33e1ea18', 1041: 'c7ea757dcdf8', 1042: 'd10b36aa74a5', 1048: '72800289aef2',
    1051: 'f03cf8b09751', 1052: 'd10b36aa74a5', 1058: '356ebe6ca27a', 1059: '8c8acf648ba6', 1062: '0dc657ba918c',
    1066: '4d882f5cef35', 1074: '665523d483fe', 1079: '772055ce5eb0', 1085: '30e1b986a506', 1095: 'd10b36aa74a5',
    1098: '60559a901e96', 1100: '0ae5f63e5dea', 1101: 'a599432cccd8', 1102: 'a42801f169a1', 1109: '2d92dc896a39',
    1116: '2eab4f188cd8', 1119: '20a19ed76669', 1124: '0d6998299ffd', 1134: 'd10b36aa74a5',
    },
}
