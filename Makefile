# Two commands do all the set-up on a fresh machine:
#   make run    -> installs into .venv and serves the app with the built-in demo
#   make test   -> installs into .venv (with test tools) and runs the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/inflight-scope serve

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/model_throughput.py
	$(BIN)/python bench/seek.py

clean:
	rm -rf $(VENV) test-artifacts
