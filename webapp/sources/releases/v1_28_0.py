"""v1.28.0: made by tests/sources/build.py from the real files (do not edit): the kubernetes/autoscaler
commit that vendors it; per file the licence header's lines, the sha256 of the whole file, each function's
first and last line and the hash of every line named (webapp/sources/types.py's line_hash); each anchor's
line by function."""

VENDORED = 'cb95d464a5e35ed3edeb71982cf567809a64c150'
FILES = {  # path -> (licence header's first and last line, sha256 of the file)
    'pkg/scheduler/internal/queue/scheduling_queue.go':
        ((1, 15), '4e1a5a38d3726417d374f8167b585c508abf28db3e0e70b7b6671755059ad1c6'),
}
FUNCTIONS = {  # path -> {function: (first, last)}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    'Add': (513, 536), 'Activate': (539, 553),
    'activate': (555, 588), 'determineSchedulingHintForInFlightPod': (609, 658),
    'addUnschedulableWithoutQueueingHint': (666, 690), 'AddUnschedulableIfNotPresent': (696, 742),
    'flushBackoffQCompleted': (745, 774), 'flushUnschedulablePodsLeftover': (778, 794),
    'Pop': (799, 831), 'Done': (835, 840),
    'done': (842, 885), 'Update': (910, 967),
    'Delete': (971, 984), 'AssignedPodAdded': (988, 992),
    'moveAllToActiveOrBackoffQueue': (1025, 1033), 'MoveAllToActiveOrBackoffQueue': (1039, 1043),
    'requeuePodViaQueueingHint': (1049, 1086), 'movePodsToActiveOrBackoffQueue': (1089, 1125),
    'isPodWorthRequeuing': (399, 446),
    },
}
ANCHORS = {  # function -> {anchor: line}
    'Pop': {
    'pop.take': 812, 'pop.attempts': 817, 'pop.cycle': 818, 'pop.gate': 820,
    'pop.marker': 822, 'pop.return': 830,
    },
    'AddUnschedulableIfNotPresent': {
    'aup.defer_done': 701, 'aup.present': 704, 'aup.gate': 715, 'aup.gate_off': 717,
    'aup.timestamp': 721, 'aup.hint': 730, 'aup.requeue': 733,
    },
    'addUnschedulableWithoutQueueingHint': {
    'woh.cycle': 676, 'woh.backoff': 677, 'woh.unschedulable': 683,
    },
    'determineSchedulingHintForInFlightPod': {
    'dh.no_plugins': 610, 'dh.lookup': 619, 'dh.not_in_flight': 620, 'dh.front': 632,
    'dh.marker_check': 633, 'dh.marker_next': 635, 'dh.init': 637, 'dh.loop': 638,
    'dh.worth': 641, 'dh.immediately': 648, 'dh.backoff': 654, 'dh.return': 657,
    },
    'requeuePodViaQueueingHint': {
    'rq.skip': 1050, 'rq.unschedulable': 1053, 'rq.backoff_check': 1057, 'rq.backoff': 1065,
    'rq.active': 1070, 'rq.active_return': 1076,
    },
    'Done': {
    'Done.call': 839,
    },
    'done': {
    'done.gate': 843, 'done.lookup': 848, 'done.delete': 853, 'done.front': 864,
    'done.marker': 865, 'done.marker_next': 868, 'done.loop': 871, 'done.decrement': 874,
    'done.remove_event': 880,
    },
    'MoveAllToActiveOrBackoffQueue': {
    'mall.call': 1042,
    },
    'moveAllToActiveOrBackoffQueue': {
    'mall.collect': 1027, 'mall.move': 1032,
    },
    'AssignedPodAdded': {
    'ap.move': 990,
    },
    'movePodsToActiveOrBackoffQueue': {
    'mp.loop': 1091, 'mp.worth': 1092, 'mp.skip': 1093, 'mp.requeue': 1100,
    'mp.cycle': 1107, 'mp.in_flight': 1110, 'mp.record': 1114,
    },
    'flushBackoffQCompleted': {
    'fb.backingoff': 756, 'fb.add': 764,
    },
    'flushUnschedulablePodsLeftover': {
    'fu.check': 786, 'fu.move': 792,
    },
    'Update': {
    'up.unschedulable': 932, 'up.updated': 935, 'up.new': 959,
    },
    'Delete': {
    'del.active': 976, 'del.unschedulable': 980,
    },
    'Activate': {
    'act.loop': 544,
    },
    'activate': {
    'act.add': 580,
    },
    'Add': {
    'add.add': 519,
    },
}
HASHES = {  # path -> {line: hash}
    'pkg/scheduler/internal/queue/scheduling_queue.go': {
    1: '766e0153d3f7', 2: '0250b75ab064', 3: 'e3b0c44298fc', 4: '55f12528ddd4', 5: '55009b27a964',
    6: 'cdcf972e6b6e', 7: 'e3b0c44298fc', 8: '4884e96253a2', 9: 'e3b0c44298fc', 10: 'e8ad546e71bd',
    11: 'e8457c2dc957', 12: '320f128177cc', 13: '439fd9d4275a', 14: 'a2151ec43905', 15: 'ed9623369ff0',
    399: 'e5de5c369334', 446: 'd10b36aa74a5', 513: '6e5f31ab62c2', 519: '3cf7f373908c', 536: 'd10b36aa74a5',
    539: '37aa484231cb', 544: '361b952dfbec', 553: 'd10b36aa74a5', 555: '07b990dc4965', 580: 'e6bbbb2ed035',
    588: 'd10b36aa74a5', 609: 'ab747e0b8687', 610: 'c59671a89ccd', 619: '7d302bed8ba7', 620: '474dca10644e',
    632: '1e9f0a6e2949', 633: 'ee1191c06740', 635: '4a1086967261', 637: '79b02195e614', 638: '97178d65eb6c',
    641: '4b1cdf58ca39', 648: '798053d9346c', 654: '506e3346070a', 657: '2cb67bbb4a32', 658: 'd10b36aa74a5',
    666: 'dd93b8c39a99', 676: '0fd5d0cc63f1', 677: 'f1871fb9a625', 683: '8bd197845623', 690: 'd10b36aa74a5',
    696: 'c6b164ff7857', 701: '8316be73268c', 704: 'c4b10d2ea218', 715: 'b069de78000d', 717: '1c14422e66c5',
    721: '0ec6b79e0ddd', 730: 'e74c2f2606df', 733: '6b83e59d6206', 742: 'd10b36aa74a5', 745: 'caa00a2ffd31',
    756: '5b481bbb357b', 764: '4c8b9f806c47', 774: 'd10b36aa74a5', 778: 'db851abf68c2', 786: '2bd23650b892',
    792: '9927d8b92133', 794: 'd10b36aa74a5', 799: 'c1b3e57277cb', 812: 'ac06e5fdd908', 817: 'c378e59a0c79',
    818: '1fa64c1e2ce6', 820: 'ee8cca2d05ce', 822: '392c6466864a', 830: '82cd02e7625d', 831: 'd10b36aa74a5',
    835: '8d2f335acb4b', 839: '1e56ef73c329', 840: 'd10b36aa74a5', 842: 'fe31ff8feb87', 843: 'b069de78000d',
    848: '4de8d1f8946e', 853: '2f82879bb3f9', 864: '1e9f0a6e2949', 865: 'b13eb53f8158', 868: '4a1086967261',
    871: '9251529e9f00', 874: '0a53ca34f723', 880: '7f490c009f1d', 885: 'd10b36aa74a5', 910: 'e287e15a1d5e',
    932: '0cbeb6a60ac0', 935: 'e594aec5345c', 959: 'dcca36ddbe80', 967: 'd10b36aa74a5', 971: '5cbb3d039251',
    976: '8e5ee1ef7c62', 980: '07ee7257cb51', 984: 'd10b36aa74a5', 988: '639bb8cdd317', 990: 'eba0f71b2b0f',
    992: 'd10b36aa74a5', 1025: 'bff5d9784793', 1027: '83cf33e1ea18', 1032: 'c7ea757dcdf8', 1033: 'd10b36aa74a5',
    1039: '72800289aef2', 1042: 'f03cf8b09751', 1043: 'd10b36aa74a5', 1049: '356ebe6ca27a', 1050: '8c8acf648ba6',
    1053: '0dc657ba918c', 1057: '4d882f5cef35', 1065: '665523d483fe', 1070: '772055ce5eb0', 1076: '30e1b986a506',
    1086: 'd10b36aa74a5', 1089: '60559a901e96', 1091: '0ae5f63e5dea', 1092: 'a599432cccd8', 1093: 'a42801f169a1',
    1100: '2d92dc896a39', 1107: '2eab4f188cd8', 1110: '20a19ed76669', 1114: 'ce37b4798531', 1125: 'd10b36aa74a5',
    },
}
