"""Reliability: the CLI as a user runs it (a subprocess), where exit 2 and one `error:` line are promised.

A config file that is missing, a folder, malformed YAML or binary (by --config or CHIQA_CONFIG); a report path
that cannot be written; stdout on a full device (`> /dev/full`). Never a traceback, never exit 1.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from app import create_app
from settings.loader import SettingsError

ROOT = Path(__file__).resolve().parent.parent
# Each case starts the real process (~2 s of interpreter start and imports): the full tier's, not the quick one's.
pytestmark = pytest.mark.process
QUESTION = "How many homicides were there in 2022?"


@pytest.fixture(scope="module")
def env(tmp_path_factory, data_dir):
    tmp = tmp_path_factory.mktemp("cli_faults")
    config = tmp / "config.yaml"
    config.write_text(yaml.safe_dump({"data": {"cache_dir": str(ROOT / "var" / "test" / "cache")}}))
    return {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(config), "CHIQA_VAR_DIR": str(tmp / "var"),
            "CHIQA_DATA_DIR": str(data_dir), "CHIQA_BACKEND": "rules"}


def run(args, env, stdout=subprocess.PIPE, timeout=180):
    return subprocess.run([sys.executable, str(ROOT / "app.py"), *args], cwd=ROOT, env=env, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=timeout)


def assert_one_error_line(proc, needle: str) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err and err.startswith("error: ") and len(err.strip().splitlines()) == 1, err
    assert needle in err, err
    if proc.stdout is not None:
        assert proc.stdout == b""
    return err


# ---------------------------------------------------------------- the config file

def bad_configs(tmp: Path) -> dict:
    (tmp / "folder.yaml").mkdir(exist_ok=True)
    (tmp / "malformed.yaml").write_text("model:\n  backend: rules\n   n_ctx: [1, 2\n")
    (tmp / "tabs.yaml").write_text("model:\n\tbackend: rules\n")
    (tmp / "binary.yaml").write_bytes(bytes(range(256)) * 4)
    (tmp / "list.yaml").write_text("- 1\n- 2\n")
    return {"missing": (tmp / "nope.yaml", "does not exist"), "folder": (tmp / "folder.yaml", "is a folder"),
            "malformed": (tmp / "malformed.yaml", "not valid YAML at line"),
            "tabs": (tmp / "tabs.yaml", "not valid YAML"), "binary": (tmp / "binary.yaml", "not UTF-8 text"),
            "a list": (tmp / "list.yaml", "must hold a mapping")}


@pytest.mark.parametrize("case", ["missing", "folder", "malformed", "tabs", "binary", "a list"])
@pytest.mark.parametrize("how", ["--config", "CHIQA_CONFIG"])
def test_a_bad_config_file_is_exit_2_with_one_line(env, tmp_path, case, how):
    path, needle = bad_configs(tmp_path)[case]
    args = ["tool", "get_iucr_info", '{"code": "0110"}']
    if how == "--config":
        proc = run(["--config", str(path), *args], env)
    else:
        proc = run(args, {**env, "CHIQA_CONFIG": str(path)})
    assert str(path) in assert_one_error_line(proc, needle)


# ---------------------------------------------------------------- eval --output

def test_eval_output_into_a_folder_is_exit_2_before_any_question(env, tmp_path):
    proc = run(["eval", "--backend", "rules", "--limit", "1", "--output", str(tmp_path)], env)
    assert_one_error_line(proc, "is a folder")


def test_eval_output_where_no_file_can_be_written_is_exit_2(env, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    proc = run(["eval", "--backend", "rules", "--limit", "1", "--output", str(blocker / "report.json")], env)
    assert_one_error_line(proc, "cannot write the report")


@pytest.mark.parametrize("limit", ["0", "-1", "-173"])
def test_eval_limit_that_is_not_positive_is_exit_2(env, tmp_path, limit):
    proc = run(["eval", "--backend", "rules", "--limit", limit, "--output", str(tmp_path / "r.json")], env)
    assert_one_error_line(proc, f"--limit must be a positive number of questions, got {limit}")
    assert not (tmp_path / "r.json").exists()  # refused before anything ran or was written


# ---------------------------------------------------------------- a full device

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["ask", QUESTION], ["ask", QUESTION, "--json"],
                                  ["tool", "query_homicides_advanced", '{"group_by": "year"}'],
                                  ["tool", "get_iucr_info", '{"code": "0110"}', "--json"]])
def test_output_to_a_full_device_is_exit_2_with_one_line(env, args):
    with open("/dev/full", "wb") as full:
        proc = run(args, env, stdout=full)
    assert_one_error_line(proc, "No space left on device")


# ---------------------------------------------------------------- numeric settings out of range

OUT_OF_RANGE = {
    "orchestrator.max_tool_calls": (-3, "from 1 to 100"),
    "orchestrator.timeout_seconds": (0, "from 0.01 to 86400"),
    "model.n_ctx": (0, "from 128 to 1048576"),
    "model.temperature": (-0.5, "from 0 to 5"),
    "server.port": (70000, "from 1 to 65535"),
    "server.max_body_bytes": (10, "from 1024 to"),
    "socrata.retries": (-1, "from 0 to 20"),
}


def config_with(tmp_path: Path, dotted: str, value) -> Path:
    section, key = dotted.split(".", 1)
    path = tmp_path / "config.yaml"
    cache = str(ROOT / "var" / "test" / "cache")
    path.write_text(yaml.safe_dump({section: {key: value}, "data": {"cache_dir": cache}}))
    return path


@pytest.mark.parametrize("dotted", list(OUT_OF_RANGE))
def test_a_numeric_setting_out_of_range_is_exit_2_naming_it(env, tmp_path, dotted):
    value, allowed = OUT_OF_RANGE[dotted]
    proc = run(["--config", str(config_with(tmp_path, dotted, value)), "ask", QUESTION], env)
    err = assert_one_error_line(proc, f"setting '{dotted}'")
    assert allowed in err and f"got {value:g}" in err


def test_an_environment_value_out_of_range_is_exit_2(env):
    proc = run(["ask", QUESTION, "--backend", "scripted"], {**env, "CHIQA_SCRIPTED_DELAY": "-1"})
    assert_one_error_line(proc, "'model.scripted_delay_seconds' in the environment must be from 0 to 3600")


def test_the_web_app_refuses_to_start_on_a_setting_out_of_range(env, tmp_path):
    with pytest.raises(SettingsError, match=r"orchestrator.max_tool_calls.*from 1 to 100, got -3"):
        create_app({"SETTINGS_OVERRIDES": {"orchestrator.max_tool_calls": -3}})
    # gunicorn as `make run` starts it: one line and exit 2, not a traceback and a worker boot loop
    config = config_with(tmp_path, "orchestrator.max_tool_calls", -3)
    proc = subprocess.run([str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py", "app:create_app()"],
                          cwd=ROOT, env={**env, "CHIQA_CONFIG": str(config), "CHIQA_BIND": "127.0.0.1:0"},
                          capture_output=True, timeout=60)
    assert_one_error_line(proc, "setting 'orchestrator.max_tool_calls'")


# ---------------------------------------------------------------- data refresh

def test_data_refresh_from_an_unreachable_source_is_exit_2_with_one_line(env, tmp_path, data_dir):
    """Nothing listens on 127.0.0.1:9 (the discard port): every download fails at once, no network needed."""
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"socrata": {"domain": "127.0.0.1:9", "retries": 0, "timeout_seconds": 5}}))
    dest = tmp_path / "dest"
    proc = run(["--config", str(config), "data", "refresh", "--dataset", "iucr", "--dataset", "homicides",
                "--dest", str(dest)], env)
    err = assert_one_error_line_allowing_stdout(proc, "2 of 2 dataset(s) could not be refreshed (homicides, iucr")
    assert "previous files are kept" in err
    assert "FAILED  homicides" in proc.stdout.decode()  # the per-dataset report stays on stdout
    # the destination was seeded from the current data and nothing half-downloaded replaced it
    assert (dest / "iucr_codes.csv").read_bytes() == (data_dir / "iucr_codes.csv").read_bytes()


def test_data_refresh_into_a_folder_that_cannot_be_made_is_exit_2(env, tmp_path):
    (tmp_path / "a-file").write_text("")
    proc = run(["data", "refresh", "--dataset", "iucr", "--dest", str(tmp_path / "a-file" / "data")], env)
    assert_one_error_line(proc, "cannot create the destination folder")


def assert_one_error_line_allowing_stdout(proc, needle: str) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err)
    assert "Traceback" not in err and err.startswith("error: ") and len(err.strip().splitlines()) == 1, err
    assert needle in err, err
    return err
