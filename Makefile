# ChiQA: `make run` sets everything up and starts the app; `make test` runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-fast setup browser-deps pg-deps bench eval clean

# Pulls the default model (verified) unless CHIQA_BACKEND=rules; if the pull cannot happen the app serves
# with the rule planner and /api/health and the page say why.
run: $(STAMP)
	@if [ "$${CHIQA_BACKEND:-auto}" != "rules" ]; then \
	  $(BIN)/python app.py model pull $${CHIQA_MODEL_PATH:-qwen2.5-coder-0.5b} || \
	  echo "model pull failed: serving with the rule planner (see /api/health)"; fi
	$(BIN)/gunicorn -c gunicorn.conf.py "app:create_app()"

setup: $(STAMP)

# llama-cpp-python compiles from source here: about 4 minutes on 2 cores, once.
$(STAMP): requirements.txt pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	CMAKE_BUILD_PARALLEL_LEVEL=$$(nproc) $(BIN)/pip install -q -e .
	touch $(STAMP)

# Test-only packages (pytest, playwright, hypothesis, gguf, responses, openai, llm, jsonschema) on top of the runtime.
$(TEST_STAMP): $(STAMP) requirements-test.txt
	$(BIN)/pip install -q -e '.[test]'
	touch $(TEST_STAMP)

# Headless Chromium for the real-browser test, from Debian's packages.
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else echo "chromium missing and not root: the browser test will be skipped"; fi; }

# The PostgreSQL tier (tests/test_postgres*.py) starts its own throwaway server from Debian's postgresql package
# (initdb into a temporary folder, on 127.0.0.1): installed here when missing, as for Chromium.
pg-deps:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else echo "postgresql missing and not root: the PostgreSQL tier will be skipped"; fi; }

# The real-model tier (tests/test_real_model.py) runs on SmolLM2-135M, pulled here through `model pull`.
test: $(TEST_STAMP) browser-deps pg-deps
	@$(BIN)/python app.py model pull smollm2-135m || echo "model pull failed: the real-model tier will be skipped"
	$(BIN)/python -m pytest -q

# The quick tier, under a minute: no model pull, no browser. The data is the small slice in
# var/test-fast*/small_data (built from ../shared/data by tests/fixtures/make_small_data.py); tests marked slow,
# full_data or postgres are not run (tests/conftest.py, --fast). Two shards of the test modules run side by side (many
# tests wait on deadlines, servers or subprocesses rather than the CPU); each one's output is printed when
# both are done. Bytecode is cached under var/pycache even where PYTHONDONTWRITEBYTECODE is set:
# compiling and assert-rewriting every module again costs ~6 s a run. `pytest --fast` alone also works.
FAST_PYTEST := PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(CURDIR)/var/pycache $(BIN)/python -m pytest -q --fast
test-fast: $(TEST_STAMP)
	@mkdir -p var; \
	$(FAST_PYTEST) --shard 1/2 > var/test-fast-1.log 2>&1 & one=$$!; \
	$(FAST_PYTEST) --shard 2/2 > var/test-fast-2.log 2>&1 & two=$$!; \
	wait $$one; a=$$?; wait $$two; b=$$?; \
	echo "== shard 1/2"; cat var/test-fast-1.log; echo "== shard 2/2"; cat var/test-fast-2.log; \
	[ $$a -eq 0 ] && [ $$b -eq 0 ]

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

eval: $(STAMP)
	$(BIN)/python app.py eval

clean:
	rm -rf $(VENV) var .pytest_cache
