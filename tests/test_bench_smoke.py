"""The speed benches run end to end on the tiny random-weight GGUF (mechanics only: its figures mean nothing)."""
import pytest

from bench import bench_cli, bench_prompt_lookup

pytestmark = pytest.mark.slow


@pytest.fixture()
def tiny_config(monkeypatch, tmp_path):
    # The tiny model's vocabulary is bytes: the system prompt alone needs a wide context.
    config = tmp_path / "config.yaml"
    config.write_text("model:\n  n_ctx: 12288\n  max_tokens: 48\n", encoding="utf-8")
    monkeypatch.setenv("CHIQA_CONFIG", str(config))
    monkeypatch.setenv("CHIQA_VAR_DIR", str(tmp_path / "var"))


def test_cli_bench_runs_a_fresh_process_per_question(tiny_gguf_path, tiny_config):
    summary = bench_cli.main(["--model", str(tiny_gguf_path), "--questions", "1"])
    assert summary["questions"] == 1 and summary["ok"] == 1 and summary["wall_s_median"] > 0


def test_prompt_lookup_bench_compares_off_and_on(tiny_gguf_path, tiny_config):
    rows = bench_prompt_lookup.main(["--model", str(tiny_gguf_path), "--questions", "1", "--draft", "4"])
    assert [r["prompt_lookup"] for r in rows] == [0, 4]
    assert all(r["questions"] == 1 and r["resident_mb_after"] > 0 for r in rows)
