"""v1.30.14: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = '8984706c2b7fac4f1436deee1b9c93b647167617'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/internal/queue/scheduling_queue.go':
        ((1, 15), 'c11ca8488f7b1897a6741c57ec830db571fd04f5d1817b2a662c4c5e4b6df87b'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    'Add': (580, 603), 'Activate': (606, 620),
    'activate': (622, 655), 'determineSchedulingHintForInFlightPod': (676, 732),
    'addUnschedulableWithoutQueueingHint': (740, 774), 'AddUnschedulableIfNotPresent': (780, 827),
    'flushBackoffQCompleted': (830, 859), 'flushUnschedulablePodsLeftover': (863, 879),
    'Pop': (884, 917), 'Done': (921, 926),
    'done': (928, 961), 'Update': (986, 1043),
    'Delete': (1047, 1060), 'AssignedPodAdded': (1064, 1068),
    'moveAllToActiveOrBackoffQueue': (1101, 1115), 'MoveAllToActiveOrBackoffQueue': (1121, 1125),
    'requeuePodViaQueueingHint': (1131, 1168), 'movePodsToActiveOrBackoffQueue': (1171, 1230),
    'isPodWorthRequeuing': (442, 513), 'isEventOfInterest': (415, 432),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.take': 897, 'pop.attempts': 902, 'pop.cycle': 903, 'pop.gate': 905,
    'pop.entry': 906, 'pop.reset_comment': 909, 'pop.clear': 913, 'pop.clear_pending': 914,
    'pop.return': 916,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 785, 'aup.present': 788, 'aup.gate': 799, 'aup.gate_off': 801,
    'aup.timestamp': 805, 'aup.hint': 815, 'aup.requeue': 818,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 754, 'woh.backoff': 761, 'woh.unschedulable': 767,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 697, 'dh.lookup': 682, 'dh.not_in_flight': 683, 'dh.init': 705,
    'dh.loop': 706, 'dh.pod_entry': 707, 'dh.worth': 714, 'dh.immediately': 720,
    'dh.backoff': 723, 'dh.return': 731,
    },
    'requeuePodViaQueueingHint': {
    'rq.skip': 1132, 'rq.unschedulable': 1135, 'rq.backoff_check': 1139, 'rq.backoff': 1147,
    'rq.active': 1152, 'rq.active_return': 1158,
    },
    'Done': {
    'Done.call': 925,
    },
    'done': {
    'done.gate': 929, 'done.lookup': 934, 'done.delete': 939, 'done.remove_own': 942,
    'done.prune_front': 950, 'done.prune_empty': 951, 'done.prune_pod': 955, 'done.prune_remove': 959,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1124,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1109, 'mall.move': 1114,
    },
    'AssignedPodAdded': {
    'ap.move': 1066,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.interest': 1172, 'mp.loop': 1178, 'mp.worth': 1198, 'mp.skip': 1199,
    'mp.requeue': 1206, 'mp.cycle': 1213, 'mp.in_flight': 1215, 'mp.record': 1220,
    },
    'flushBackoffQCompleted': {
    'fb.backingoff': 841, 'fb.add': 849,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 871, 'fu.move': 877,
    },
    'Update': {
    'up.unschedulable': 1008, 'up.updated': 1011, 'up.new': 1035,
    },
    'Delete': {
    'del.active': 1052, 'del.unschedulable': 1056,
    },
    'Activate': {
    'act.loop': 611,
    },
    'activate': {
    'act.add': 647,
    },
    'Add': {
    'add.add': 586,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    415: '4e71c1e925b4', 432: 'd10b36aa74a5', 442: 'c6e2f67c55cd', 513: 'd10b36aa74a5', 580: '6e5f31ab62c2',
    586: '3cf7f373908c', 603: 'd10b36aa74a5', 606: '37aa484231cb', 611: '361b952dfbec', 620: 'd10b36aa74a5',
    622: '07b990dc4965', 647: 'e6bbbb2ed035', 655: 'd10b36aa74a5', 676: 'b7f7d0dc78e9', 682: '7d302bed8ba7',
    683: '474dca10644e', 697: '4924b73d6d9e', 705: '8b480a2886aa', 706: '84faf40d62ad', 707: 'beb629d935ac',
    714: '2c040885bcd5', 720: '500830250073', 723: 'd733f1cd8036', 731: '05c05a391fcf', 732: 'd10b36aa74a5',
    740: 'dd93b8c39a99', 754: 'a9776b24fe28', 761: 'f1871fb9a625', 767: '8bd197845623', 774: 'd10b36aa74a5',
    780: 'c6b164ff7857', 785: '8316be73268c', 788: 'c4b10d2ea218', 799: 'b069de78000d', 801: '1c14422e66c5',
    805: '0ec6b79e0ddd', 815: '79bec6414551', 818: '6b83e59d6206', 827: 'd10b36aa74a5', 830: 'caa00a2ffd31',
    841: '5b481bbb357b', 849: '4c8b9f806c47', 859: 'd10b36aa74a5', 863: 'db851abf68c2', 871: '2bd23650b892',
    877: '9927d8b92133', 879: 'd10b36aa74a5', 884: 'a44d10c3c1e4', 897: 'ac06e5fdd908', 902: 'c378e59a0c79',
    903: '1fa64c1e2ce6', 905: 'ee8cca2d05ce', 906: '5388e5acd872', 909: 'b3dc888d55c7', 913: '59a9b0a24bb1',
    914: '0a799860020b', 916: '82cd02e7625d', 917: 'd10b36aa74a5', 921: '8d2f335acb4b', 925: '1e56ef73c329',
    926: 'd10b36aa74a5', 928: 'fe31ff8feb87', 929: 'b069de78000d', 934: '4de8d1f8946e', 939: '2f82879bb3f9',
    942: 'ea2d2715fb48', 950: '602336912b60', 951: '9c1d7d7373db', 955: '2f3857c28b0c', 959: '7ba368100dd6',
    961: 'd10b36aa74a5', 986: 'e287e15a1d5e', 1008: '0cbeb6a60ac0', 1011: 'e594aec5345c', 1035: 'dcca36ddbe80',
    1043: 'd10b36aa74a5', 1047: '5cbb3d039251', 1052: '8e5ee1ef7c62', 1056: '07ee7257cb51', 1060: 'd10b36aa74a5',
    1064: '639bb8cdd317', 1066: 'eba0f71b2b0f', 1068: 'd10b36aa74a5', 1101: 'bff5d9784793', 1109: '83cf33e1ea18',
    1114: 'c7ea757dcdf8', 1115: 'd10b36aa74a5', 1121: '72800289aef2', 1124: 'f03cf8b09751', 1125: 'd10b36aa74a5',
    1131: '589e1fdda249', 1132: '00736ec33983', 1135: '0dc657ba918c', 1139: '86d521251d17', 1147: '665523d483fe',
    1152: '772055ce5eb0', 1158: '30e1b986a506', 1168: 'd10b36aa74a5', 1171: '60559a901e96', 1172: 'e21aa5060ae4',
    1178: '0ae5f63e5dea', 1198: 'a599432cccd8', 1199: 'b6fbc44ba8a5', 1206: '2d92dc896a39', 1213: '2eab4f188cd8',
    1215: 'cc7150661df7', 1220: '0d6998299ffd', 1230: 'd10b36aa74a5',
    },
}
