"""v1.31.13: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = '2b0c0761f57d0c0938a36daa0224236953b952ba'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/internal/queue/scheduling_queue.go':
        ((1, 15), '580a390906ee9060776e413d8f763db553d4e7a4128168938e302e66dec1ef21'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    'Add': (646, 657), 'Activate': (660, 674),
    'activate': (683, 704), 'determineSchedulingHintForInFlightPod': (756, 794),
    'clusterEventsForPod': (738, 752), 'addUnschedulableWithoutQueueingHint': (802, 835),
    'AddUnschedulableIfNotPresent': (841, 887), 'flushBackoffQCompleted': (890, 917),
    'flushUnschedulablePodsLeftover': (921, 937), 'Pop': (944, 977),
    'Done': (981, 986), 'done': (988, 1021),
    'Update': (1057, 1154), 'Delete': (1158, 1173),
    'AssignedPodAdded': (1177, 1184), 'moveAllToActiveOrBackoffQueue': (1207, 1221),
    'MoveAllToActiveOrBackoffQueue': (1227, 1231), 'requeuePodViaQueueingHint': (1237, 1273),
    'movePodsToActiveOrBackoffQueue': (1276, 1337), 'isPodWorthRequeuing': (467, 541),
    'isEventOfInterest': (439, 457),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.take': 957, 'pop.attempts': 962, 'pop.cycle': 963, 'pop.gate': 965,
    'pop.entry': 966, 'pop.reset_comment': 969, 'pop.clear': 973, 'pop.clear_pending': 974,
    'pop.return': 976,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 846, 'aup.present': 849, 'aup.gate': 860, 'aup.gate_off': 862,
    'aup.timestamp': 866, 'aup.hint': 876, 'aup.requeue': 879,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 816, 'woh.backoff': 823, 'woh.unschedulable': 829,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 764, 'dh.lookup': 757, 'dh.not_in_flight': 758, 'dh.init': 772,
    'dh.loop': 773, 'dh.worth': 776, 'dh.immediately': 782, 'dh.backoff': 785,
    'dh.return': 793,
    },
    'requeuePodViaQueueingHint': {
    'rq.skip': 1238, 'rq.unschedulable': 1241, 'rq.backoff_check': 1245, 'rq.backoff': 1253,
    'rq.active': 1258, 'rq.active_return': 1263,
    },
    'Done': {
    'Done.call': 985,
    },
    'done': {
    'done.gate': 989, 'done.lookup': 994, 'done.delete': 999, 'done.remove_own': 1002,
    'done.prune_front': 1010, 'done.prune_empty': 1011, 'done.prune_pod': 1015, 'done.prune_remove': 1019,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1230,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1215, 'mall.move': 1220,
    },
    'AssignedPodAdded': {
    'ap.move': 1182,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.interest': 1277, 'mp.loop': 1283, 'mp.worth': 1303, 'mp.skip': 1304,
    'mp.requeue': 1311, 'mp.cycle': 1320, 'mp.in_flight': 1322, 'mp.record': 1327,
    },
    'flushBackoffQCompleted': {
    'fb.backingoff': 901, 'fb.add': 909,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 929, 'fu.move': 935,
    },
    'Update': {
    'up.unschedulable': 1099, 'up.updated': 1125, 'up.in_flight': 1071, 'up.new': 1148,
    },
    'Delete': {
    'del.active': 1165, 'del.unschedulable': 1169,
    },
    'Activate': {
    'act.loop': 665,
    },
    'activate': {
    'act.add': 702,
    },
    'Add': {
    'add.add': 651,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    439: '4e71c1e925b4', 457: 'd10b36aa74a5', 467: 'c6e2f67c55cd', 541: 'd10b36aa74a5', 646: '6e5f31ab62c2',
    651: '38ca05581bbd', 657: 'd10b36aa74a5', 660: '37aa484231cb', 665: '361b952dfbec', 674: 'd10b36aa74a5',
    683: '07b990dc4965', 702: '4bd1a295f453', 704: 'd10b36aa74a5', 738: 'a02f0b064d0d', 752: 'd10b36aa74a5',
    756: 'b7f7d0dc78e9', 757: '0758cfd4368c', 758: 'c7f20c48746f', 764: '4924b73d6d9e', 772: '8b480a2886aa',
    773: 'da2a868f9ae0', 776: '2c040885bcd5', 782: '500830250073', 785: 'd733f1cd8036', 793: '05c05a391fcf',
    794: 'd10b36aa74a5', 802: 'dd93b8c39a99', 816: 'a9776b24fe28', 823: 'f1871fb9a625', 829: '8bd197845623',
    835: 'd10b36aa74a5', 841: 'c6b164ff7857', 846: 'd16dfe25ae4d', 849: 'c4b10d2ea218', 860: 'b069de78000d',
    862: '1c14422e66c5', 866: '0ec6b79e0ddd', 876: '79bec6414551', 879: 'df694597abe9', 887: 'd10b36aa74a5',
    890: 'caa00a2ffd31', 901: '5b481bbb357b', 909: '0166fe7626c5', 917: 'd10b36aa74a5', 921: 'db851abf68c2',
    929: '2bd23650b892', 935: '50c5d4b5ebc7', 937: 'd10b36aa74a5', 944: 'a44d10c3c1e4', 957: 'ac06e5fdd908',
    962: 'c378e59a0c79', 963: '1fa64c1e2ce6', 965: 'ee8cca2d05ce', 966: '5388e5acd872', 969: 'b3dc888d55c7',
    973: '59a9b0a24bb1', 974: '0a799860020b', 976: '82cd02e7625d', 977: 'd10b36aa74a5', 981: '8d2f335acb4b',
    985: '1e56ef73c329', 986: 'd10b36aa74a5', 988: 'fe31ff8feb87', 989: 'b069de78000d', 994: '4de8d1f8946e',
    999: '2f82879bb3f9', 1002: 'ea2d2715fb48', 1010: '602336912b60', 1011: '9c1d7d7373db', 1015: '2f3857c28b0c',
    1019: '7ba368100dd6', 1021: 'd10b36aa74a5', 1057: 'e287e15a1d5e', 1071: '0f1a28b5170a', 1099: '0cbeb6a60ac0',
    1125: 'e594aec5345c', 1148: 'dcca36ddbe80', 1154: 'd10b36aa74a5', 1158: '5cbb3d039251', 1165: '8e5ee1ef7c62',
    1169: '07ee7257cb51', 1173: 'd10b36aa74a5', 1177: '639bb8cdd317', 1182: '4b992c61e10a', 1184: 'd10b36aa74a5',
    1207: 'bff5d9784793', 1215: '83cf33e1ea18', 1220: 'c7ea757dcdf8', 1221: 'd10b36aa74a5', 1227: '72800289aef2',
    1230: 'f03cf8b09751', 1231: 'd10b36aa74a5', 1237: '589e1fdda249', 1238: '00736ec33983', 1241: '0dc657ba918c',
    1245: '86d521251d17', 1253: '665523d483fe', 1258: '0b577a4764f6', 1263: '30e1b986a506', 1273: 'd10b36aa74a5',
    1276: '60559a901e96', 1277: 'e21aa5060ae4', 1283: '0ae5f63e5dea', 1303: 'a599432cccd8', 1304: 'b6fbc44ba8a5',
    1311: '2d92dc896a39', 1320: '2eab4f188cd8', 1322: 'cc7150661df7', 1327: '0d6998299ffd', 1337: 'd10b36aa74a5',
    },
}
