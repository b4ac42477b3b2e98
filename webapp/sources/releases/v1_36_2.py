"""v1.36.2: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = '74a7d3b15e2f5c9e42901dd59e0b52abe6f8f40e'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/backend/queue/scheduling_queue.go':
        ((1, 15), 'f235ed26527ae1ac818d94265a473354e174c74e2dac26c7ff3e493e76edd0f2'),
    'pkg/scheduler/backend/queue/active_queue.go':
        ((1, 15), '1208b8a4de4962e0556ae3a1ea6ece43e97e5adcd74962063e649376f7c53bb5'),
    'pkg/scheduler/backend/queue/backoff_queue.go':
        ((1, 15), 'b238af477075257a8a88f3e7b17d93129ae22c87a2a9c6e09db4696380a034f4'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/backend/queue/scheduling_queue.go': {
    'Add': (741, 750), 'Activate': (757, 779),
    'activate': (781, 809), 'determineSchedulingHintForInFlightPod': (818, 861),
    'addUnschedulableWithoutQueueingHint': (869, 899), 'AddUnschedulableIfNotPresent': (905, 965),
    'flushBackoffQCompleted': (968, 981), 'flushUnschedulablePodsLeftover': (985, 1003),
    'Pop': (1010, 1012), 'Done': (1051, 1058),
    'Update': (1094, 1197), 'Delete': (1201, 1219),
    'AssignedPodAdded': (1223, 1230), 'moveAllToActiveOrBackoffQueue': (1253, 1267),
    'MoveAllToActiveOrBackoffQueue': (1273, 1277), 'movePodsToActiveOrBackoffQueue': (1308, 1350),
    'isPodWorthRequeuing': (488, 575), 'isEventOfInterest': (460, 478),
    'requeuePodWithQueueingStrategy': (1283, 1305), 'moveToBackoffQ': (718, 737),
    'PopSpecificPod': (1017, 1047),
    },
    'pkg/scheduler/backend/queue/active_queue.go': {
    'activeQueue.pop': (306, 311), 'activeQueue.unlockedPop': (313, 352),
    'activeQueue.unlockedMovePodToInFlight': (281, 301), 'activeQueue.clusterEventsForPod': (400, 423),
    'activeQueue.addEventIfAnyInFlight': (436, 450), 'activeQueue.done': (460, 465),
    'activeQueue.unlockedDone': (469, 510),
    },
    'pkg/scheduler/backend/queue/backoff_queue.go': {
    'backoffQueue.add': (295, 322), 'backoffQueue.popBackoff': (360, 365),
    'backoffQueue.popAllBackoffCompleted': (284, 290),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.call': 1011,
    },
    'activeQueue.unlockedPop': {
    'pop.take': 330, 'pop.from_backoff': 336, 'pop.move': 342, 'pop.discard': 348,
    'pop.return': 351,
    },
    'backoffQueue.popBackoff': {
    'pop.backoff_head': 364,
    },
    'activeQueue.unlockedMovePodToInFlight': {
    'pop.attempts': 282, 'pop.cycle': 294, 'pop.gate': 284, 'pop.in_flight': 287,
    'pop.entry': 292,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 910, 'aup.present': 913, 'aup.gate': 941, 'aup.gate_off': 943,
    'aup.errors': 926, 'aup.unschedulable_count': 929, 'aup.timestamp': 934, 'aup.hint': 954,
    'aup.requeue': 957,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 881, 'woh.backoff': 888, 'woh.unschedulable': 894,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 819, 'dh.pod_group': 825, 'dh.lookup': 832, 'dh.not_in_flight': 833,
    'dh.init': 839, 'dh.loop': 840, 'dh.worth': 843, 'dh.immediately': 849,
    'dh.backoff': 852, 'dh.return': 860,
    },
    'requeuePodWithQueueingStrategy': {
    'rq.skip': 1284, 'rq.unschedulable': 1287, 'rq.backoff_check': 1292, 'rq.backoff': 1294,
    'rq.active': 1300, 'rq.active_return': 1301,
    },
    'Done': {
    'Done.call': 1057, 'done.gate': 1052,
    },
    'activeQueue.unlockedDone': {
    'done.lookup': 470, 'done.delete': 475, 'done.remove_own': 478, 'done.prune_front': 487,
    'done.prune_empty': 488, 'done.prune_pod': 492, 'done.prune_remove': 497,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1276,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1261, 'mall.move': 1266,
    },
    'AssignedPodAdded': {
    'ap.move': 1228,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.interest': 1309, 'mp.loop': 1315, 'mp.worth': 1322, 'mp.skip': 1323,
    'mp.requeue': 1330, 'mp.cycle': 1336,
    },
    'activeQueue.addEventIfAnyInFlight': {
    'mp.in_flight': 440, 'mp.record': 442,
    },
    'flushBackoffQCompleted': {
    'fb.pop_all': 972, 'fb.add': 974,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 993, 'fu.move': 1001,
    },
    'Update': {
    'up.unschedulable': 1146, 'up.updated': 1169, 'up.in_flight': 1116, 'up.new': 1193,
    },
    'Delete': {
    'del.active': 1206,
    },
    'Activate': {
    'act.loop': 762, 'act.force': 772, 'act.cycle': 773,
    },
    'activate': {
    'act.add': 808,
    },
    'Add': {
    'add.add': 747,
    },
    'moveToBackoffQ': {
    'rq.to_backoff': 735,
    },
    'backoffQueue.add': {
    'bq.error_heap': 302, 'bq.heap': 313,
    },
    'PopSpecificPod': {
    'ps.activate': 1026, 'ps.get': 1030, 'ps.none': 1032, 'ps.move': 1040,
    'ps.return': 1046,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/backend/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    460: 'f30b7fd3efbc', 478: 'd10b36aa74a5', 488: 'c69f61976391', 575: 'd10b36aa74a5', 718: '29e08142e539',
    735: '5e072b266a37', 737: 'd10b36aa74a5', 741: 'b9ee5e9d6ae9', 747: 'a9c9880ea821', 750: 'd10b36aa74a5',
    757: '37aa484231cb', 762: '361b952dfbec', 772: 'cc7f7cfa1623', 773: 'f55ee9f0bc29', 779: 'd10b36aa74a5',
    781: '07b990dc4965', 808: 'e257e8b1e393', 809: 'd10b36aa74a5', 818: 'b7f7d0dc78e9', 819: '5dbe9f4d880f',
    825: '9ba60dc95e3b', 832: '9ef3a035cf06', 833: 'c7f20c48746f', 839: '8b480a2886aa', 840: 'da2a868f9ae0',
    843: '2c040885bcd5', 849: '500830250073', 852: 'd733f1cd8036', 860: '05c05a391fcf', 861: 'd10b36aa74a5',
    869: 'dd93b8c39a99', 881: 'a9776b24fe28', 888: 'ffe3348b3835', 894: 'b37da7952f47', 899: 'd10b36aa74a5',
    905: 'c6b164ff7857', 910: 'd16dfe25ae4d', 913: 'c4b10d2ea218', 926: '93ef0a6dfb89', 929: '6d85405bc0ed',
    934: '0ec6b79e0ddd', 941: 'b069de78000d', 943: '1c14422e66c5', 954: '79bec6414551', 957: '38a6687126a2',
    965: 'd10b36aa74a5', 968: 'caa00a2ffd31', 972: 'bf22721498de', 974: '17686ab5c9a5', 981: 'd10b36aa74a5',
    985: 'db851abf68c2', 993: '2bd23650b892', 1001: '46d8e45dc5eb', 1003: 'd10b36aa74a5', 1010: 'a44d10c3c1e4',
    1011: 'e304a83fedf2', 1012: 'd10b36aa74a5', 1017: '2694f4edb0bc', 1026: 'd7adbbf752a9', 1030: 'a850ba5496cf',
    1032: '9921c4288c61', 1040: 'a5c626523898', 1046: '7bdd358e6d00', 1047: 'd10b36aa74a5', 1051: '8d2f335acb4b',
    1052: 'b069de78000d', 1057: '8365634474ef', 1058: 'd10b36aa74a5', 1094: '7915e67e48cd', 1116: 'bade020ff24d',
    1146: '7fc140e57939', 1169: 'e594aec5345c', 1193: 'bfd5182218e0', 1197: 'd10b36aa74a5', 1201: '6b7ae43c797b',
    1206: '82b0caa25571', 1219: 'd10b36aa74a5', 1223: '639bb8cdd317', 1228: '9a96f6699d94', 1230: 'd10b36aa74a5',
    1253: '610421289dce', 1261: '83cf33e1ea18', 1266: 'c7ea757dcdf8', 1267: 'd10b36aa74a5', 1273: 'bcc3dd6809c8',
    1276: 'f03cf8b09751', 1277: 'd10b36aa74a5', 1283: '9f7e35446e04', 1284: '00736ec33983', 1287: '823be7fb311d',
    1292: 'cc8ba5a4d2cd', 1294: '5c10e32bb5ed', 1300: '4da7d1640e34', 1301: '30e1b986a506', 1305: 'd10b36aa74a5',
    1308: '4d60595d6109', 1309: 'e21aa5060ae4', 1315: '0ae5f63e5dea', 1322: 'a599432cccd8', 1323: 'b6fbc44ba8a5',
    1330: 'eac2fae92198', 1336: 'e67925c78ed6', 1350: 'd10b36aa74a5',
    },
    'pkg/scheduler/backend/queue/active_queue.go': {
    1: '766e0153d3f7', 2: 'fac65bf86b8b', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    281: 'a70b0de9ca54', 282: 'c378e59a0c79', 284: '4541e15cbad5', 287: 'd6cbad537458', 292: 'a83d69eac720',
    294: '508663bfdbe3', 301: 'd10b36aa74a5', 306: '2c3dafc3a8ff', 311: 'd10b36aa74a5', 313: '3f6cdf5c32f2',
    330: '7db17b45e40d', 336: '5332b2f55172', 342: '872492dadf19', 348: '623b8532e86a', 351: '82cd02e7625d',
    352: 'd10b36aa74a5', 400: 'caf365070107', 423: 'd10b36aa74a5', 436: '1db32f087a72', 440: '1f7732a4ee66',
    442: 'cdc5f26950fe', 450: 'd10b36aa74a5', 460: '112163409411', 465: 'd10b36aa74a5', 469: '2a677aa164e5',
    470: 'f3d12c52f232', 475: 'c619ef6c839b', 478: 'fa6fe1f2cc8f', 487: 'a3969d9eccbe', 488: '9c1d7d7373db',
    492: 'ad4df65d59c2', 497: 'f31e9c69db18', 510: 'd10b36aa74a5',
    },
    'pkg/scheduler/backend/queue/backoff_queue.go': {
    1: '766e0153d3f7', 2: 'b73649e6b644', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    284: 'bc7217ca3b58', 290: 'd10b36aa74a5', 295: 'b94effd63705', 302: 'df0f0e2d0447', 313: 'cc28b409f33e',
    322: 'd10b36aa74a5', 360: 'a2a8a8dbfa7d', 364: '8cfaf4346a66', 365: 'd10b36aa74a5',
    },
}
