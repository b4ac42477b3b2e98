# Two commands do all the set-up on a fresh machine:
#   make run    -> installs into .venv and serves the app with the built-in demo
#   make test   -> installs into .venv (with test tools) and runs the whole suite
#   make check  -> lint, types and the fast unit tests (no browser, no server, no Redis): a minute or so
#   make fuzz   -> the property and fuzz tests with ten times the examples (docs/testing.md)
#   make bundle -> static/js's generated files and static/bundle (esbuild) made again after a change to static/js,
#                  static/css or a shape the server sends
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
APP_STAMP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

# Debian packages the tests drive for real (the browser tests' headless Chromium, the full one the benchmarks use,
# scale-out tests, the page's modules in node, npm for the client's checker, zbarimg to read the Present dialog's QR
# code, the fonts the animated exports draw with), each as
# package:command or package:/a/file it installs; a package is installed only when that is missing.
SYSTEM_PACKAGES := chromium:chromium chromium-headless-shell:/usr/lib/chromium/chromium-headless-shell \
	redis-server:redis-server nodejs:node npm:npm zbar-tools:zbarimg \
	fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf

.PHONY: run present test check fuzz jscheck bench bundle clean system-deps

# `make run` installs what the app needs; `make test` adds the test tools on top.
$(APP_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(APP_STAMP)

$(STAMP): $(APP_STAMP)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

run: $(APP_STAMP)
	$(BIN)/inflight-scope serve

# For a room: every IPv4 address of this machine; it prints the URLs the audience's phones can open.
present: $(APP_STAMP)
	$(BIN)/inflight-scope serve --host 0.0.0.0

system-deps:
	@missing=""; for pair in $(SYSTEM_PACKAGES); do \
		what=$${pair#*:}; { [ -e "$$what" ] || command -v "$$what" >/dev/null; } || missing="$$missing $${pair%%:*}"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

test: $(STAMP) system-deps node_modules/.stamp
	$(BIN)/python -m pytest

# The property and fuzz tests (hypothesis) with the deep profile's examples, ten times make test's (tests/profiles.py).
FUZZ_TESTS := tests/model/test_properties.py tests/scenario/test_fuzz_parser.py tests/scenario/test_document.py \
	tests/presenter/test_delta.py tests/presenter/test_scene.py tests/web/test_fuzz_sockets.py

fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=deep $(BIN)/python -m pytest $(FUZZ_TESTS)

# What `make check` lints (the whole tree) and type-checks (mypy's files are in pyproject.toml), and its tests:
# the layers below the web, in process.
LINTED := .
UNIT_TESTS := tests/model tests/scenario tests/engine tests/presenter tests/delivery tests/test_layers.py \
	tests/test_rules.py tests/test_error_kinds.py tests/test_wiretypes.py

check: $(STAMP) jscheck
	$(BIN)/ruff check $(LINTED)
	$(BIN)/mypy
	$(BIN)/python -m pytest -q $(UNIT_TESTS)

# The client's tools, pinned by package-lock.json: the checker (TypeScript over static/js's JSDoc types, jsconfig.json)
# and the bundler (esbuild, `make bundle`).
node_modules/.stamp: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

jscheck: node_modules/.stamp
	npx --no-install tsc -p jsconfig.json

# static/js's generated files made again from their Python owners (tools/clientgen.py: rules.js, kinds.js, the
# wire shapes' types.d.ts), then static/bundle with esbuild (package.json, tools/bundle.py), after a change to
# static/js or static/css: the pages load one module file and one stylesheet from it while it is fresh
# (webapp/web/bundles.py). Committed, so `make run` needs no node; tests/web/test_bundle.py fails while it is stale.
# The build tools (tools/) import webapp; nothing in webapp imports them (tests/test_layers.py).
bundle: $(APP_STAMP) node_modules/.stamp
	$(BIN)/python -m tools.clientgen
	$(BIN)/python -m tools.bundle

bench: $(BENCH_STAMP)
	$(BIN)/python bench/model_throughput.py
	$(BIN)/python bench/seek.py
	$(BIN)/python bench/round_trip.py

clean:
	rm -rf $(VENV) test-artifacts node_modules
