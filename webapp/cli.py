"""The ``inflight-scope`` command: ``replay`` scenario files into traces, ``export`` one as a picture or a file, or
``serve`` the visualizer."""

from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import socket
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, BinaryIO, TextIO, TypeVar

import yaml

from .engine.challenges import BY_ID
from .engine.challenges import check as check_challenge
from .engine.find import MAX_SEED, PODS_RANGE, STEPS, TARGETS, Search, check_query, size
from .engine.simulation import Simulation, versions_in
from .engine.trace import check_runs, dry_runs
from .errors import Invalid, TooLarge, UserError
from .export import command as export_command
from .export.text import render_text
from .model.variant import VARIANTS
from .model.versions import VERSIONS
from .phrases import counted
from .presenter.advice import advised
from .presenter.challenges import explain as explain_verdict
from .presenter.findings import explain
from .presenter.sourcelines import with_lines
from .scenario import builtin
from .scenario.errors import ScenarioError
from .scenario.load import load_file, load_scenario, parse_text
from .scenario.scenario import Scenario
from .scenario.schemas import defaults
from .scenario.validate import Limits
from .server import green
from .server.addresses import NO_NETWORK, SERVE_FOR_A_ROOM, WILDCARDS, Reach, reachable
from .server.settings import read_settings
from .sources.maps import MAPS, source_map

if TYPE_CHECKING:
    from .scenario.logs.importer import Imported

STDIN = "-"
N = TypeVar("N", int, float)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="inflight-scope", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay scenario files on the queue variants")
    replay.add_argument("files", nargs="+", metavar="FILE",
                        help="scenario file (JSON or YAML), built-in scenario id, or - for stdin")
    replay.add_argument("--variant", type=variant_list, default=None, metavar="VERSION[,VERSION...]",
                        help=f"the versions to replay on, any of {', '.join(VERSIONS)},"
                             f" or both ({' and '.join(VARIANTS)}); "
                             f"the default: the scenario's own versions (its 'versions', else both)")
    replay.add_argument("--format", choices=("json", "text"), default="json")
    replay.add_argument("--records", action="store_true", help="include each step's record (JSON output)")
    replay.set_defaults(run=run_replay)
    find = commands.add_parser("find", help="search generated scenarios for a divergence, a broken invariant or a "
                                            "long wait, shrink the first found and print it as YAML")
    find.add_argument("--seed", type=within(int, 0, MAX_SEED), default=1, help="where the search starts (default 1)")
    find.add_argument("--budget-seconds", type=within(float, 0.001, 3600), default=10.0,
                      help="give up after this long (default 10)")
    find.add_argument("--max-steps", type=within(int, *STEPS), default=12,
                      help=f"steps of each generated scenario, {STEPS[0]}..{STEPS[1]} (default 12)")
    find.add_argument("--pods", type=within(int, *PODS_RANGE), default=2,
                      help=f"pods of each generated scenario, {PODS_RANGE[0]}..{PODS_RANGE[1]} (default 2)")
    find.add_argument("--target", choices=TARGETS, default="divergence")
    find.add_argument("--variant", type=variant_list, default=VARIANTS, metavar="VERSION[,VERSION...]",
                      help="the versions to compare (default: both, v1.28.1 and v1.28.2; a divergence needs two "
                           "at least)")
    find.set_defaults(run=run_find)
    imp = commands.add_parser("import", help="build a scenario from kube-scheduler logs (docs/import.md)")
    imp.add_argument("files", nargs="+", metavar="LOGFILE",
                     help="kube-scheduler log, klog text or JSON lines (read in the order given), or - for stdin")
    imp.add_argument("-o", "--output", metavar="FILE", help="write the scenario here (default: stdout)")
    imp.add_argument("--name", help="the scenario's name (default: Imported from LOGFILE)")
    imp.add_argument("--format", choices=("yaml", "json"), default="yaml")
    imp.add_argument("--report", metavar="FILE.md", help="also write the incident report as Markdown here, its "
                     "before/after frames as SVG files beside it (docs/import.md)")
    imp.set_defaults(run=run_import)
    check = commands.add_parser("check-challenge", help="check a scenario against one of the course's challenges "
                                "(solved: status 0; not yet: 1)")
    check.add_argument("challenge", metavar="ID", help=f"one of {', '.join(BY_ID)}")
    check.add_argument("file", metavar="FILE", help="a JSON or YAML scenario, a built-in id, or - for stdin")
    check.set_defaults(run=run_check_challenge)
    export_command.add_parser(commands, _load)
    serve = commands.add_parser("serve", help="serve the visualizer (built-in demo) on localhost, or with --host "
                                              "0.0.0.0 for a room's phones (it prints the URLs they can open)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every IPv4 "
                            "address, :: every address)")
    serve.add_argument("--port", type=within(int, 1, 65535), default=8000)
    serve.add_argument("--async-mode", choices=("eventlet", "threading"), default=None,
                       help="Socket.IO async mode (default: eventlet, or $INFLIGHT_SCOPE_ASYNC_MODE)")
    serve.add_argument("--message-queue", metavar="URL", default=None,
                       help="share rooms between processes through this Redis (e.g. redis://127.0.0.1:6379/0)")
    serve.set_defaults(run=run_serve)
    sources = commands.add_parser("sources", help="the upstream source maps; fetch the real text (docs/sources.md)")
    sources.add_argument("action", choices=("map", "fetch"), help="map: print VERSION's map as JSON; fetch: the "
                         "text of each VERSION (default: every one) from upstream into the user cache directory")
    sources.add_argument("versions", nargs="*", metavar="VERSION", help=f"any of {', '.join(MAPS)}")
    sources.set_defaults(run=run_sources)
    args = parser.parse_args(argv)
    if args.command == "replay" and args.records and args.format != "json":
        parser.error("--records needs --format json")
    if args.command == "find":
        try:
            check_query(args.target, args.variant)
        except Invalid as err:
            find.error(f"argument --variant: {err}")  # status 2, as for every other nonsense argument
    try:
        status: int = args.run(args)
        return status
    except BrokenPipeError:
        # The reader went away (e.g. piped into head): stop quietly, as other Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def variant_list(text: str) -> tuple[str, ...]:
    """``--variant``: "both" (the default pair), one version, or a comma-separated list of them (any number:
    a replay has no panes to fit)."""
    try:
        return versions_in(text, most=len(VERSIONS))
    except Invalid as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def within(kind: type[N], least: N, most: N) -> Callable[[str], N]:
    """An argparse type: a ``kind`` number from ``least`` to ``most`` (its text checked for length before it is
    converted); otherwise argparse's own error, naming the option, and status 2."""
    def number(text: str) -> N:
        value = kind(text) if len(text) <= 32 else None
        if value is None or not least <= value <= most:  # (nan fails both comparisons)
            raise argparse.ArgumentTypeError(f"expected {'an integer' if kind is int else 'a number'} from {least} "
                                             f"to {most}, got {text[:40]!r}")
        return value
    number.__name__ = kind.__name__  # argparse says "invalid int value" when the text is not a number at all
    return number


def run_find(args: argparse.Namespace) -> int:
    """Prints the shrunk scenario as YAML, its explanation as the description; status 1 if none was found."""
    search = Search(args.target, args.variant, args.max_steps, args.pods)
    found = search.search(args.seed, args.budget_seconds)
    if found is None:
        print(f"nothing found: no {args.target} in {args.budget_seconds:g} s from seed {args.seed}", file=sys.stderr)
        return 1
    raw, _, tries = found
    small = search.shrink(raw)
    finding = search.first_finding(small)
    assert finding is not None  # shrink keeps only scenarios that still go wrong
    paragraph = explain(asdict(finding), small, search.versions)
    small = {"schema": 1, "name": f"Found: {args.target} (seed {args.seed})", "description": paragraph,
             **{k: v for k, v in small.items() if k not in ("schema", "name", "description")},
             "versions": list(search.versions)}
    print(f"# {tries} generated scenarios tried; shrunk from {size(raw)} to {size(small)}", file=sys.stderr)
    sys.stdout.write(yaml.safe_dump(small, sort_keys=False, allow_unicode=True, width=100))
    return 0


def unlistenable(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port``, or None. Asked with a socket of our own before the
    server starts: eventlet's listening socket sets SO_REUSEPORT, so it would share a port another server already
    listens on (each getting some of the connections), and a host that does not resolve ended in a traceback.
    The address tried is the one the server takes (the first getaddrinfo gives)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a closed server's connections may linger
            probe.bind(address)
    except OSError as err:  # socket.gaierror (a name that does not resolve) is one too
        if err.errno == errno.EADDRINUSE:
            return "the port is in use (another server there?): choose another --port"
        return err.strerror or str(err)
    return None


def run_serve(args: argparse.Namespace) -> int:
    refused = unlistenable(args.host, args.port)
    if refused:
        print(f"inflight-scope serve: cannot listen on {args.host}:{args.port}: {refused}", file=sys.stderr)
        return 2
    given = {"ASYNC_MODE": args.async_mode, "MESSAGE_QUEUE": args.message_queue}
    settings = read_settings({key: value for key, value in given.items() if value})
    mode = settings.async_mode
    if mode == "eventlet":
        green.patch(args.host, settings.message_queue)
    from . import create_app
    from . import server_options as webapp_server_options
    from .server import listeners

    host = f"[{args.host}]" if ":" in args.host else args.host
    config = {"ASYNC_MODE": mode, "LISTEN": f"{host}:{args.port}"}
    if args.message_queue:
        config["MESSAGE_QUEUE"] = args.message_queue
    app = create_app(config)
    queue = f", rooms shared through {args.message_queue}" if args.message_queue else ""
    local = "127.0.0.1" if args.host in WILDCARDS else host
    print(f"Inflight Scope serving http://{local}:{args.port}/ (async mode {mode}{queue}); Ctrl-C stops it")
    print("\n".join(room_lines(reachable(args.host, args.port), app.extensions.get("inflight_secret_file"))),
          flush=True)
    gc.freeze()  # start-up objects never become garbage: keep them out of every later collection
    # Connection bounds, idle timeouts and the HTTP rate limit (webapp/server/listeners.py); the server's own
    # error answers carry the security headers too.
    listeners.run(app, mode, args.host, args.port, webapp_server_options(mode))
    return 0


def room_lines(reach: Reach, secret_file: str | None) -> list[str]:
    """What ``serve`` says of the room: every URL a phone can open (and where the room secret is kept), or why
    none and how to serve for a room."""
    if reach.loopback_only:
        if reach.host in WILDCARDS:
            return [NO_NETWORK]
        return [f"Only this computer can open it (it listens on {reach.host}). {SERVE_FOR_A_ROOM}"]
    lines = ["Phones in the room can open it at (Present… shows the first as a QR code):"]
    lines += [f"  {url}/" for url in reach.urls]
    if secret_file:
        lines.append(f"Room tokens are signed with the secret kept in {secret_file} (reused at every start).")
    return lines


def run_import(args: argparse.Namespace) -> int:
    """The scenario on stdout (or -o), the counts on stderr with a progress bar when stderr is a terminal;
    status 2, with no traceback, for input that is not a scheduler log."""
    from .scenario.logs import LogError, import_logs, lines  # the importer loads only for an import
    bar = _Progress(sys.stderr) if sys.stderr.isatty() else None
    problem = args.report and _unwritable(args.report)
    if problem:
        print(f"error: --report {args.report}: {problem}", file=sys.stderr)
        return 2
    try:
        imported = import_logs(_log_streams(args.files, bar), progress=bar.update if bar else None, name=args.name)
    except (LogError, TooLarge) as err:
        if bar:
            bar.clear()
        print(f"error: {lines.printable(str(err))}", file=sys.stderr)  # one line, whatever the file's name holds
        return 2
    except OSError as err:
        if bar:
            bar.clear()
        print(f"error: {_label(getattr(err, 'filename', None) or '')}: {err.strerror or err}", file=sys.stderr)
        return 2
    if bar:
        bar.clear()
    if args.report:
        try:
            _write_report(imported, args.report)
        except OSError as err:
            print(f"error: --report {args.report}: {err.strerror or err}", file=sys.stderr)
            return 2
    text = imported.yaml if args.format == "yaml" else json.dumps(imported.scenario, indent=1) + "\n"
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for warning in imported.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    scenario, counts = imported.scenario, imported.counts
    made = [counted(len(scenario["pods"]), "pod"), counted(len(scenario["steps"]), "step"),
            counted(len(imported.assumptions), "assumption")]
    print(f"import: {', '.join(map(_label, args.files))}: {counts.summary()}; {', '.join(made)}", file=sys.stderr)
    return 0


def _unwritable(path: str) -> str | None:
    """Why the report cannot be written at ``path`` (checked before anything is read or written), or None."""
    if not path.endswith(".md"):
        return "the report is Markdown: name a FILE.md"
    return export_command.unwritable_file(path)


def _write_report(imported: Imported, path: str) -> None:
    """The Markdown report at ``path`` and its frames beside it (``FILE.position-N.svg``)."""
    from .export import incident, report_md
    scenario, facts = incident.imported_report(imported)
    stem = os.path.splitext(path)[0]
    names = [f"{stem}.position-{p}.svg" for p in facts["frames"]]
    for name, svg in zip(names, incident.frames_svg(scenario, facts)):
        with open(name, "w", encoding="utf-8") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n' + svg)
    with open(path, "w", encoding="utf-8") as f:
        f.write(report_md.markdown(facts, [os.path.basename(n) for n in names]))


def _log_streams(names: Iterable[str], bar: _Progress | None) -> Iterator[tuple[str, BinaryIO]]:
    for name in names:
        if name == STDIN:
            if bar:
                bar.start(_label(name), None)
            yield _label(name), sys.stdin.buffer
            continue
        with open(name, "rb") as f:
            if bar:
                bar.start(name, os.fstat(f.fileno()).st_size)
            yield name, f


class _Progress:
    """A one-line progress bar on a terminal (``out``): the file, its share read, the bytes read. ``update`` takes
    the bytes read of the file ``start`` named (import_logs' progress)."""

    WIDTH = 30
    NAME_MOST = 60  # characters of the file's name shown (its end: a long path's start went, not the bar)

    def __init__(self, out: TextIO) -> None:
        self.out, self.name, self.shown = out, "", -1
        self.total: int | None = None

    def start(self, name: str, total: int | None) -> None:
        self.name = name if len(name) <= self.NAME_MOST else "…" + name[1 - self.NAME_MOST:]
        self.total, self.shown = total or None, -1

    def update(self, name: str, done: int) -> None:
        step = done * 100 // self.total if self.total else done >> 20
        if step == self.shown:
            return
        self.shown = step
        if self.total:
            filled = self.WIDTH * min(done, self.total) // self.total
            text = f"importing {self.name} [{'#' * filled}{' ' * (self.WIDTH - filled)}] {step:3d}%"
        else:
            text = f"importing {self.name} {done >> 20} MiB"
        self.out.write("\r" + text)
        self.out.flush()

    def clear(self) -> None:
        if self.shown != -1:
            self.out.write("\r\033[K")
            self.out.flush()


def run_replay(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        try:
            scenario = _load(name)
            variants = args.variant or scenario.versions
            if args.format == "text":  # drawn from the scene, position by position
                sim = Simulation(scenario, variants)
            else:
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
        if args.format == "text":
            print(render_text(_label(name), sim))
        else:
            for trace in traces:
                print(json.dumps(with_lines(trace) if args.records else trace, separators=(",", ":")))
        for line in advice(scenario, variants):  # advice only: the status stays 0
            print(f"warning: {_label(name)}: {line}", file=sys.stderr)
    return status


def run_sources(args: argparse.Namespace) -> int:
    """`sources map VERSION` (status 2 for an unknown one) and `sources fetch [VERSION...]` (status 2 when a text
    cannot be fetched or is not the release's)."""
    from .upstream.cache import cache_path, fetch
    unknown = [v for v in args.versions if v not in MAPS]
    if unknown or (args.action == "map" and len(args.versions) != 1):
        print(f"error: {'unknown version ' + unknown[0] if unknown else 'sources map takes one VERSION'}: the "
              f"versions are {', '.join(MAPS)}", file=sys.stderr)
        return 2
    if args.action == "map":
        print(json.dumps(source_map(args.versions[0]).as_json(), indent=1))
        return 0
    status, settings = 0, read_settings()
    done: set[str] = set()
    for version in args.versions or list(MAPS):
        m = MAPS[version]
        if m.ref in done:
            print(f"{version}: {m.ref} already fetched: {cache_path(m, settings.sources_store, m.path).parent}")
            continue
        try:
            paths = fetch(version, settings.sources_store, settings.sources_url, settings.sources_timeout)
        except UserError as err:
            print(f"error: {version}: {err}", file=sys.stderr)
            status = 2
            continue
        done.add(m.ref)
        header = paths[0].read_text().split("\n")[m.licence[0] - 1:m.licence[1]]
        for path, kept in zip(m.files, paths, strict=True):
            print(f"{version}: {m.repository} {m.ref} {path}: verified whole (sha256), {kept}")
        print("\n".join("    " + line for line in header if line.strip() not in ("/*", "*/")))
    return status


def advice(scenario: Scenario, variants: Sequence[str]) -> list[str]:
    """What the editor advises of a scenario that runs (web/editor.py's dry run, the same functions): plugin names
    that look misspelt, and pods left where only a flush would move them (each version run through again, only
    when the clock runs no flushes: else none are)."""
    overdue = {} if scenario.config.periodic_flushes else dry_runs(scenario, variants)[2]
    return advised(scenario.raw, overdue, defaults(scenario.raw["schema"])["periodic_flushes"])


def run_check_challenge(args: argparse.Namespace) -> int:
    """Prints solved / not yet with the why; status 0 solved, 1 not yet, 2 for a bad id or scenario."""
    if args.challenge not in BY_ID:
        print(f"error: no challenge {args.challenge[:60]!r}; the challenges are {', '.join(BY_ID)}", file=sys.stderr)
        return 2
    try:
        scenario = _load(args.file)
        verdict = check_challenge(args.challenge, scenario)
    except ScenarioError as err:
        for line in err.describe().splitlines():
            print(f"error: {_label(args.file)}: {line}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: {_label(args.file)}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"{args.challenge}: {'solved' if verdict['solved'] else 'not yet'} (on {', '.join(verdict['versions'])})")
    print(explain_verdict(verdict, scenario.steps))
    return 0 if verdict["solved"] else 1


def _label(name: str) -> str:
    return "<stdin>" if name == STDIN else name


def _load(name: str) -> Scenario:
    limits = Limits()
    if name == STDIN:
        return load_scenario(parse_text(sys.stdin.buffer.read(limits.max_bytes + 1), None, limits), limits)
    if name in builtin.ids() and not os.path.exists(name):  # an existing file of that name wins
        return load_scenario(builtin.get(name), limits)
    return load_file(name, limits)


if __name__ == "__main__":
    sys.exit(main())
