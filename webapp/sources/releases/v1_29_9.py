"""v1.29.9: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = '4757ec679d486e3c1184264bd64782f0154aad8d'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/internal/queue/scheduling_queue.go':
        ((1, 15), '61c9bc5b74315dbde2f35f5984f4393d688c5b34b3b6cb3b169ef98e2a5579c9'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    'Add': (559, 582), 'Activate': (585, 599),
    'activate': (601, 634), 'determineSchedulingHintForInFlightPod': (655, 711),
    'addUnschedulableWithoutQueueingHint': (719, 753), 'AddUnschedulableIfNotPresent': (759, 806),
    'flushBackoffQCompleted': (809, 838), 'flushUnschedulablePodsLeftover': (842, 858),
    'Pop': (863, 896), 'Done': (900, 905),
    'done': (907, 940), 'Update': (965, 1022),
    'Delete': (1026, 1039), 'AssignedPodAdded': (1043, 1047),
    'moveAllToActiveOrBackoffQueue': (1080, 1088), 'MoveAllToActiveOrBackoffQueue': (1094, 1098),
    'requeuePodViaQueueingHint': (1104, 1141), 'movePodsToActiveOrBackoffQueue': (1144, 1198),
    'isPodWorthRequeuing': (421, 492),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.take': 876, 'pop.attempts': 881, 'pop.cycle': 882, 'pop.gate': 884,
    'pop.entry': 885, 'pop.reset_comment': 888, 'pop.clear': 892, 'pop.clear_pending': 893,
    'pop.return': 895,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 764, 'aup.present': 767, 'aup.gate': 778, 'aup.gate_off': 780,
    'aup.timestamp': 784, 'aup.hint': 794, 'aup.requeue': 797,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 733, 'woh.backoff': 740, 'woh.unschedulable': 746,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 676, 'dh.lookup': 661, 'dh.not_in_flight': 662, 'dh.init': 684,
    'dh.loop': 685, 'dh.pod_entry': 686, 'dh.worth': 693, 'dh.immediately': 699,
    'dh.backoff': 702, 'dh.return': 710,
    },
    'requeuePodViaQueueingHint': {
    'rq.skip': 1105, 'rq.unschedulable': 1108, 'rq.backoff_check': 1112, 'rq.backoff': 1120,
    'rq.active': 1125, 'rq.active_return': 1131,
    },
    'Done': {
    'Done.call': 904,
    },
    'done': {
    'done.gate': 908, 'done.lookup': 913, 'done.delete': 918, 'done.remove_own': 921,
    'done.prune_front': 929, 'done.prune_empty': 930, 'done.prune_pod': 934, 'done.prune_remove': 938,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1097,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1082, 'mall.move': 1087,
    },
    'AssignedPodAdded': {
    'ap.move': 1045,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.loop': 1146, 'mp.worth': 1166, 'mp.skip': 1167, 'mp.requeue': 1174,
    'mp.cycle': 1181, 'mp.in_flight': 1183, 'mp.record': 1188,
    },
    'flushBackoffQCompleted': {
    'fb.backingoff': 820, 'fb.add': 828,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 850, 'fu.move': 856,
    },
    'Update': {
    'up.unschedulable': 987, 'up.updated': 990, 'up.new': 1014,
    },
    'Delete': {
    'del.active': 1031, 'del.unschedulable': 1035,
    },
    'Activate': {
    'act.loop': 590,
    },
    'activate': {
    'act.add': 626,
    },
    'Add': {
    'add.add': 565,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    421: 'c6e2f67c55cd', 492: 'd10b36aa74a5', 559: '6e5f31ab62c2', 565: '3cf7f373908c', 582: 'd10b36aa74a5',
    585: '37aa484231cb', 590: '361b952dfbec', 599: 'd10b36aa74a5', 601: '07b990dc4965', 626: 'e6bbbb2ed035',
    634: 'd10b36aa74a5', 655: 'b7f7d0dc78e9', 661: '7d302bed8ba7', 662: '474dca10644e', 676: '4924b73d6d9e',
    684: '8b480a2886aa', 685: '84faf40d62ad', 686: 'beb629d935ac', 693: '2c040885bcd5', 699: '500830250073',
    702: 'd733f1cd8036', 710: '05c05a391fcf', 711: 'd10b36aa74a5', 719: 'dd93b8c39a99', 733: 'a9776b24fe28',
    740: 'f1871fb9a625', 746: '8bd197845623', 753: 'd10b36aa74a5', 759: 'c6b164ff7857', 764: '8316be73268c',
    767: 'c4b10d2ea218', 778: 'b069de78000d', 780: '1c14422e66c5', 784: '0ec6b79e0ddd', 794: '79bec6414551',
    797: '6b83e59d6206', 806: 'd10b36aa74a5', 809: 'caa00a2ffd31', 820: '5b481bbb357b', 828: '4c8b9f806c47',
    838: 'd10b36aa74a5', 842: 'db851abf68c2', 850: '2bd23650b892', 856: '9927d8b92133', 858: 'd10b36aa74a5',
    863: 'a44d10c3c1e4', 876: 'ac06e5fdd908', 881: 'c378e59a0c79', 882: '1fa64c1e2ce6', 884: 'ee8cca2d05ce',
    885: '5388e5acd872', 888: 'b3dc888d55c7', 892: '59a9b0a24bb1', 893: '0a799860020b', 895: '82cd02e7625d',
    896: 'd10b36aa74a5', 900: '8d2f335acb4b', 904: '1e56ef73c329', 905: 'd10b36aa74a5', 907: 'fe31ff8feb87',
    908: 'b069de78000d', 913: '4de8d1f8946e', 918: '2f82879bb3f9', 921: 'ea2d2715fb48', 929: '602336912b60',
    930: '9c1d7d7373db', 934: '2f3857c28b0c', 938: '7ba368100dd6', 940: 'd10b36aa74a5', 965: 'e287e15a1d5e',
    987: '0cbeb6a60ac0', 990: 'e594aec5345c', 1014: 'dcca36ddbe80', 1022: 'd10b36aa74a5', 1026: '5cbb3d039251',
    1031: '8e5ee1ef7c62', 1035: '07ee7257cb51', 1039: 'd10b36aa74a5', 1043: '639bb8cdd317', 1045: 'eba0f71b2b0f',
    1047: 'd10b36aa74a5', 1080: 'bff5d9784793', 1082: '83cf33e1ea18', 1087: 'c7ea757dcdf8', 1088: 'd10b36aa74a5',
    1094: '72800289aef2', 1097: 'f03cf8b09751', 1098: 'd10b36aa74a5', 1104: '589e1fdda249', 1105: '00736ec33983',
    1108: '0dc657ba918c', 1112: '86d521251d17', 1120: '665523d483fe', 1125: '772055ce5eb0', 1131: '30e1b986a506',
    1141: 'd10b36aa74a5', 1144: '60559a901e96', 1146: '0ae5f63e5dea', 1166: 'a599432cccd8', 1167: 'b6fbc44ba8a5',
    1174: '2d92dc896a39', 1181: '2eab4f188cd8', 1183: 'cc7150661df7', 1188: '0d6998299ffd', 1198: 'd10b36aa74a5',
    },
}
