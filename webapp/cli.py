"""The ``inflight-scope`` command: ``replay`` scenario files into traces, or ``serve`` the visualizer."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys

from .engine.trace import check_runs
from .model.operations import arguments
from .model.variant import VARIANTS
from .scenario import builtin
from .scenario.errors import ScenarioError
from .scenario.load import load_file, load_scenario, parse_text
from .scenario.validate import Limits

STDIN = "-"
MAX_CONNECTIONS = 10_000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="inflight-scope", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay scenario files on the queue variants")
    replay.add_argument("files", nargs="+", metavar="FILE", help="scenario file (JSON or YAML), built-in scenario id, or - for stdin")
    replay.add_argument("--variant", choices=(*VARIANTS, "both"), default="both")
    replay.add_argument("--format", choices=("json", "text"), default="json")
    replay.add_argument("--records", action="store_true", help="include each step's record (JSON output)")
    replay.set_defaults(run=run_replay)
    serve = commands.add_parser("serve", help="serve the visualizer (built-in demo) on localhost")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--async-mode", choices=("eventlet", "threading"), default=None,
                       help="Socket.IO async mode (default: eventlet, or $INFLIGHT_SCOPE_ASYNC_MODE)")
    serve.add_argument("--message-queue", metavar="URL", default=None,
                       help="share rooms between processes through this Redis (e.g. redis://127.0.0.1:6379/0)")
    serve.set_defaults(run=run_serve)
    args = parser.parse_args(argv)
    if args.command == "replay" and args.records and args.format != "json":
        parser.error("--records needs --format json")
    try:
        return args.run(args)
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly, as other Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def run_serve(args) -> int:
    mode = args.async_mode or os.environ.get("INFLIGHT_SCOPE_ASYNC_MODE", "eventlet")
    if mode == "eventlet":
        import eventlet

        eventlet.monkey_patch()
    from . import create_app

    config = {"ASYNC_MODE": mode}
    if args.message_queue:
        config["MESSAGE_QUEUE"] = args.message_queue
    app = create_app(config)
    queue = f", rooms shared through {args.message_queue}" if args.message_queue else ""
    print(f"Inflight Scope serving http://{args.host}:{args.port}/ (async mode {mode}{queue}); Ctrl-C stops it",
          flush=True)
    # eventlet's server accepts 1,024 connections by default: too few for a large audience on one process.
    server_options = {"max_size": MAX_CONNECTIONS} if mode == "eventlet" else {"allow_unsafe_werkzeug": True}
    gc.freeze()  # start-up objects never become garbage: keep them out of every later collection
    app.extensions["socketio"].run(app, host=args.host, port=args.port, log_output=False, **server_options)
    return 0


def run_replay(args) -> int:
    variants = VARIANTS if args.variant == "both" else (args.variant,)
    status = 0
    for name in args.files:
        try:
            scenario = _load(name)
            traces = check_runs(scenario, variants, records=args.records)
        except ScenarioError as err:
            for line in err.describe().splitlines():
                print(f"error: {_label(name)}: {line}", file=sys.stderr)
            status = 2
            continue
        except OSError as err:
            print(f"error: {_label(name)}: {err.strerror or err}", file=sys.stderr)
            status = 2
            continue
        for trace in traces:
            if args.format == "json":
                print(json.dumps(trace, separators=(",", ":")))
            else:
                print(render_text(_label(name), scenario, trace))
    return status


def _label(name: str) -> str:
    return "<stdin>" if name == STDIN else name


def _load(name: str):
    limits = Limits()
    if name == STDIN:
        return load_scenario(parse_text(sys.stdin.buffer.read(limits.max_bytes + 1), None, limits), limits)
    if name in builtin.ids() and not os.path.exists(name):  # an existing file of that name wins
        return load_scenario(builtin.get(name), limits)
    return load_file(name, limits)


# --- text output ---------------------------------------------------------------------------------
COLUMNS = ("step", "operation", "result", "activeQ", "backoffQ", "unschedulablePods", "in flight")


def render_text(label: str, scenario, trace: dict) -> str:
    rows = [COLUMNS]
    for entry, step in zip(trace["steps"], scenario.steps):
        state = entry["state"]
        rows.append((
            str(entry["step"]),
            " ".join([step["op"], *(f"{k}={_value(v)}" for k, v in arguments(step))]),
            _summary(entry["result"]),
            _value(state["activeQ"]),
            _value(state["backoffQ"]),
            _value(state["unschedulablePods"]),
            in_flight(state),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([f"== {label}: {trace['scenario']} ({trace['variant']}) ==", *lines, ""])


def in_flight(state: dict) -> str:
    """The in-flight list in ASCII: v1.28.2 ``[A] -> NodeAdd#e1 -> [B]``;
    v1.28.1 ``NodeAdd#e1(1) -> PvAdd#e2(2)   markers: B->e1 (detached!)`` (count = inFlightPodsNum)."""
    if "inFlightEvents" in state:
        items = [f"[{e['pod']}]" if "pod" in e else f"{e['event']}#{e['id']}" for e in state["inFlightEvents"]]
        return " -> ".join(items) or "-"
    events = " -> ".join(f"{e['event']}#{e['id']}({e['inFlightPodsNum']})" for e in state["receivedEvents"])
    markers = [
        f"{pod}->{m['previousEvent'] or 'nil'}" + (" (detached!)" if m["previousEventInList"] is False else "")
        for pod, m in state["inFlightPods"].items()
    ]
    if not markers:
        return events or "-"
    return f"{events or '(empty)'}   markers: {', '.join(markers)}"


def _summary(result: dict) -> str:
    if "popped" in result:
        return f"popped {result['popped']}"
    if "error" in result:
        return f"error: {result['error']}"
    if "event_id" in result:
        recorded = "recorded" if result["recorded_in_flight"] else "not recorded"
        return f"{result['event']}#{result['event_id']} {recorded}, moved {_value(result['moved'])}"
    if "queue" in result:
        return f"{result.get('hint') or result.get('rule')} -> {result['queue']}"
    return " ".join(f"{k}={_value(v)}" for k, v in result.items())


def _value(v) -> str:
    if isinstance(v, list):
        return ",".join(map(str, v)) or "-"
    if isinstance(v, dict):
        return ",".join(f"{k}->{x}" for k, x in v.items()) or "-"
    return str(v)


if __name__ == "__main__":
    sys.exit(main())
