"""v1.33.0-alpha.0: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = 'ee4fafa60fb043ae031b39a12ef3b9309299e5ca'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/backend/queue/scheduling_queue.go':
        ((1, 15), 'd864aa846bcb86a4760c716688f99827f08ea874a962b2e9ac157a5a2659fcb5'),
    'pkg/scheduler/backend/queue/active_queue.go':
        ((1, 15), '4a1e245b9a79e7c5c7e05694192c6856795c335ca8a1a07dfc594956723c13d4'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/backend/queue/scheduling_queue.go': {
    'Add': (598, 606), 'Activate': (613, 635),
    'activate': (637, 657), 'determineSchedulingHintForInFlightPod': (673, 710),
    'addUnschedulableWithoutQueueingHint': (718, 749), 'AddUnschedulableIfNotPresent': (755, 801),
    'flushBackoffQCompleted': (804, 830), 'flushUnschedulablePodsLeftover': (834, 850),
    'Pop': (857, 859), 'Done': (863, 870),
    'Update': (904, 986), 'Delete': (990, 1002),
    'AssignedPodAdded': (1006, 1013), 'moveAllToActiveOrBackoffQueue': (1036, 1050),
    'MoveAllToActiveOrBackoffQueue': (1056, 1060), 'requeuePodViaQueueingHint': (1066, 1091),
    'movePodsToActiveOrBackoffQueue': (1094, 1150), 'isPodWorthRequeuing': (408, 495),
    'isEventOfInterest': (380, 398),
    },
    'pkg/scheduler/backend/queue/active_queue.go': {
    'activeQueue.pop': (186, 191), 'activeQueue.unlockedPop': (193, 234),
    'activeQueue.clusterEventsForPod': (282, 305), 'activeQueue.addEventIfAnyInFlight': (329, 343),
    'activeQueue.done': (353, 397),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.call': 858,
    },
    'activeQueue.unlockedPop': {
    'pop.take': 204, 'pop.attempts': 208, 'pop.cycle': 224, 'pop.gate': 210,
    'pop.in_flight': 213, 'pop.discard': 218, 'pop.entry': 222, 'pop.reset_comment': 226,
    'pop.clear': 230, 'pop.clear_pending': 231, 'pop.return': 233,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 760, 'aup.present': 763, 'aup.gate': 774, 'aup.gate_off': 776,
    'aup.timestamp': 780, 'aup.hint': 790, 'aup.requeue': 793,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 732, 'woh.backoff': 739, 'woh.unschedulable': 743,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 674, 'dh.lookup': 681, 'dh.not_in_flight': 682, 'dh.init': 688,
    'dh.loop': 689, 'dh.worth': 692, 'dh.immediately': 698, 'dh.backoff': 701,
    'dh.return': 709,
    },
    'requeuePodViaQueueingHint': {
    'rq.skip': 1067, 'rq.unschedulable': 1070, 'rq.backoff_check': 1073, 'rq.backoff': 1076,
    'rq.active': 1080, 'rq.active_return': 1081,
    },
    'Done': {
    'Done.call': 869, 'done.gate': 864,
    },
    'activeQueue.done': {
    'done.lookup': 357, 'done.delete': 362, 'done.remove_own': 365, 'done.prune_front': 374,
    'done.prune_empty': 375, 'done.prune_pod': 379, 'done.prune_remove': 384,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1059,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1044, 'mall.move': 1049,
    },
    'AssignedPodAdded': {
    'ap.move': 1011,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.interest': 1095, 'mp.loop': 1101, 'mp.worth': 1121, 'mp.skip': 1122,
    'mp.requeue': 1129, 'mp.cycle': 1136,
    },
    'activeQueue.addEventIfAnyInFlight': {
    'mp.in_flight': 333, 'mp.record': 335,
    },
    'flushBackoffQCompleted': {
    'fb.backingoff': 814, 'fb.add': 822,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 842, 'fu.move': 848,
    },
    'Update': {
    'up.unschedulable': 940, 'up.updated': 963, 'up.in_flight': 916, 'up.new': 982,
    },
    'Delete': {
    'del.active': 995, 'del.unschedulable': 999,
    },
    'Activate': {
    'act.loop': 618, 'act.force': 628, 'act.cycle': 629,
    },
    'activate': {
    'act.add': 656,
    },
    'Add': {
    'add.add': 603,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/backend/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    380: '4e71c1e925b4', 398: 'd10b36aa74a5', 408: 'c6e2f67c55cd', 495: 'd10b36aa74a5', 598: '5673bd623449',
    603: 'c967248fc14f', 606: 'd10b36aa74a5', 613: '37aa484231cb', 618: '361b952dfbec', 628: 'c02c03592ab8',
    629: 'f55ee9f0bc29', 635: 'd10b36aa74a5', 637: '07b990dc4965', 656: 'd984f157e8e2', 657: 'd10b36aa74a5',
    673: 'b7f7d0dc78e9', 674: '5dbe9f4d880f', 681: '9ef3a035cf06', 682: 'c7f20c48746f', 688: '8b480a2886aa',
    689: 'da2a868f9ae0', 692: '2c040885bcd5', 698: '500830250073', 701: 'd733f1cd8036', 709: '05c05a391fcf',
    710: 'd10b36aa74a5', 718: 'dd93b8c39a99', 732: 'a9776b24fe28', 739: '17791ab3fddc', 743: '8bd197845623',
    749: 'd10b36aa74a5', 755: 'c6b164ff7857', 760: 'd16dfe25ae4d', 763: 'c4b10d2ea218', 774: 'b069de78000d',
    776: '1c14422e66c5', 780: '0ec6b79e0ddd', 790: '79bec6414551', 793: 'df694597abe9', 801: 'd10b36aa74a5',
    804: 'caa00a2ffd31', 814: '5b481bbb357b', 822: 'e5ff040e4a02', 830: 'd10b36aa74a5', 834: 'db851abf68c2',
    842: '2bd23650b892', 848: '46d8e45dc5eb', 850: 'd10b36aa74a5', 857: 'a44d10c3c1e4', 858: 'e304a83fedf2',
    859: 'd10b36aa74a5', 863: '8d2f335acb4b', 864: 'b069de78000d', 869: '8365634474ef', 870: 'd10b36aa74a5',
    904: '03b016df8f5b', 916: '8842900914c5', 940: '7fc140e57939', 963: 'e594aec5345c', 982: 'dcca36ddbe80',
    986: 'd10b36aa74a5', 990: '6b7ae43c797b', 995: '6e84ffe881a7', 999: '07ee7257cb51', 1002: 'd10b36aa74a5',
    1006: '639bb8cdd317', 1011: '9a96f6699d94', 1013: 'd10b36aa74a5', 1036: 'bff5d9784793', 1044: '83cf33e1ea18',
    1049: 'c7ea757dcdf8', 1050: 'd10b36aa74a5', 1056: '72800289aef2', 1059: 'f03cf8b09751', 1060: 'd10b36aa74a5',
    1066: '589e1fdda249', 1067: '00736ec33983', 1070: '0dc657ba918c', 1073: '86d521251d17', 1076: '665523d483fe',
    1080: 'a5a21cee1c81', 1081: '30e1b986a506', 1091: 'd10b36aa74a5', 1094: '60559a901e96', 1095: 'e21aa5060ae4',
    1101: '0ae5f63e5dea', 1121: 'a599432cccd8', 1122: 'b6fbc44ba8a5', 1129: '2ae950a3fe73', 1136: 'e67925c78ed6',
    1150: 'd10b36aa74a5',
    },
    'pkg/scheduler/backend/queue/active_queue.go': {
    1: '766e0153d3f7', 2: 'fac65bf86b8b', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    186: '2c3dafc3a8ff', 191: 'd10b36aa74a5', 193: '3f6cdf5c32f2', 204: '7db17b45e40d', 208: 'c378e59a0c79',
    210: '4541e15cbad5', 213: 'd6cbad537458', 218: '6d04aad173ed', 222: 'a83d69eac720', 224: '508663bfdbe3',
    226: 'b3dc888d55c7', 230: '59a9b0a24bb1', 231: '0a799860020b', 233: '82cd02e7625d', 234: 'd10b36aa74a5',
    282: 'caf365070107', 305: 'd10b36aa74a5', 329: 'a043ec677267', 333: '1f7732a4ee66', 335: 'cdc5f26950fe',
    343: 'd10b36aa74a5', 353: '112163409411', 357: 'f3d12c52f232', 362: 'c619ef6c839b', 365: 'fa6fe1f2cc8f',
    374: 'a3969d9eccbe', 375: '9c1d7d7373db', 379: 'ad4df65d59c2', 384: 'f31e9c69db18', 397: 'd10b36aa74a5',
    },
}
