# ChiQA: `make run` sets everything up and starts the app; `make test` runs the tests.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test setup browser-deps bench eval clean

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

# The real-model tier (tests/test_real_model.py) runs on SmolLM2-135M, pulled here through `model pull`.
test: $(TEST_STAMP) browser-deps
	@$(BIN)/python app.py model pull smollm2-135m || echo "model pull failed: the real-model tier will be skipped"
	$(BIN)/python -m pytest -q

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

eval: $(STAMP)
	$(BIN)/python app.py eval

clean:
	rm -rf $(VENV) var .pytest_cache
