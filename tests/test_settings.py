"""Settings resolution, the data-folder fallback, and the no-data message."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import app
from settings import loader as settings_mod
from settings.schema import default_of, leaf_settings
from tools.data.loader import load_data

ROOT = Path(__file__).resolve().parent.parent


def _documented_settings_table() -> dict:
    """key -> default cell of the settings table in docs/settings.md."""
    rows = {}
    for line in (ROOT / "docs" / "settings.md").read_text().splitlines():
        match = re.match(r"^\| `([a-z_.]+)` \| (.*?) \| .* \|$", line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def _as_cell(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_documented_settings_table_matches_the_defaults():
    table = _documented_settings_table()
    defaults = {key: _as_cell(default_of(f)) for key, f in leaf_settings()}
    assert table == defaults


def test_every_setting_has_help_text():
    assert all(f.metadata.get("help") for _, f in leaf_settings())


def test_a_misspelled_key_names_the_nearest_valid_one(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("model:\n  n_cxt: 2048\n")
    with pytest.raises(settings_mod.SettingsError, match="'model.n_cxt'.*did you mean 'model.n_ctx'"):
        settings_mod.load_settings(cfg)
    with pytest.raises(settings_mod.SettingsError, match="orchestrator.max_tool_calls"):
        settings_mod.load_settings(overrides={"orchestrator.max_tool_call": 3})


def test_a_wrong_type_is_a_clear_error(tmp_path, monkeypatch):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("orchestrator:\n  timeout_seconds: soon\n")
    with pytest.raises(settings_mod.SettingsError, match="timeout_seconds.*'soon'"):
        settings_mod.load_settings(cfg)
    monkeypatch.setenv("CHIQA_SCRIPTED_DELAY", "nan")
    with pytest.raises(settings_mod.SettingsError, match="scripted_delay_seconds"):
        settings_mod.load_settings()


def test_a_text_setting_outside_its_choices_names_them(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("orchestrator:\n  model_calls: sometimes\n")
    with pytest.raises(settings_mod.SettingsError,
                       match="orchestrator.model_calls.*one of gaps, own, got 'sometimes'"):
        settings_mod.load_settings(cfg)
    assert settings_mod.load_settings(overrides={"orchestrator.model_calls": "own"}).orchestrator.model_calls == "own"


def test_overrides_never_change_the_original():
    base = settings_mod.load_settings()
    changed = settings_mod.with_overrides(base, {"model.n_ctx": 2048, "model.path": None})
    assert changed.model.n_ctx == 2048 and base.model.n_ctx == 4096
    assert changed.model.path == base.model.path


def test_app_refuses_to_start_on_an_unknown_key(tmp_path, capsys):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("servr:\n  port: 1\n")
    assert app.main(["--config", str(cfg), "tool", "get_iucr_info", "{}"]) == 2
    assert "unknown setting 'servr.port'" in capsys.readouterr().err


def test_env_overrides_the_config(monkeypatch, data_dir):
    monkeypatch.setenv("CHIQA_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CHIQA_BACKEND", "rules")
    loaded = settings_mod.load_settings()
    assert loaded.model.backend == "rules"
    assert settings_mod.resolve_data_dir(loaded) == data_dir


def test_shared_data_is_the_offline_fallback(monkeypatch):
    monkeypatch.delenv("CHIQA_DATA_DIR", raising=False)
    loaded = settings_mod.load_settings(overrides={"data.dir": None})
    assert settings_mod.resolve_data_dir(loaded) == settings_mod.FALLBACK_DATA_DIR.resolve()


def test_no_data_anywhere_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setattr(settings_mod, "FALLBACK_DATA_DIR", tmp_path / "nothing")
    loaded = settings_mod.load_settings(overrides={"data.dir": str(tmp_path / "empty"),
                                                   "server.var_dir": str(tmp_path / "var")})
    with pytest.raises(settings_mod.DataNotFoundError) as err:
        settings_mod.resolve_data_dir(loaded)
    message = str(err.value)
    assert "CHIQA_DATA_DIR" in message and "data refresh" in message


def test_cli_without_data_prints_a_message_not_a_traceback(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml.safe_dump({"data": {"dir": str(tmp_path / "empty")},
                                   "server": {"var_dir": str(tmp_path / "var")}}))
    # A copy of the checkout's code without ../shared beside it: no fallback data exists.
    env = {"PATH": "/usr/bin:/bin", "CHIQA_CONFIG": str(cfg)}
    code = ("import sys; from settings import loader; loader.FALLBACK_DATA_DIR = loader.Path('/nonexistent'); "
            "import app; sys.exit(app.main(['tool', 'get_iucr_info', '{}']))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "CHIQA_DATA_DIR" in proc.stderr


def test_tool_command_rejects_malformed_json(capsys):
    assert app.main(["tool", "query_homicides_advanced", "{not json", "--json"]) == 2
    out = capsys.readouterr().out
    assert '"ok": false' in out and "not valid JSON" in out


def test_a_configured_data_folder_is_used_alone(tmp_path, monkeypatch):
    """No silent fallback: a named folder without homicides.csv is an error naming it and the file, even
    though ../shared/data exists."""
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "socioeconomic.csv").write_text("x\n1\n")
    monkeypatch.setenv("CHIQA_DATA_DIR", str(tmp_path / "mine"))
    loaded = settings_mod.load_settings()
    assert settings_mod.FALLBACK_DATA_DIR.is_dir()
    assert settings_mod.resolve_data_dir(loaded) == (tmp_path / "mine").resolve()
    with pytest.raises(settings_mod.DataNotFoundError) as err:
        load_data(loaded, use_cache=False)
    assert str((tmp_path / "mine").resolve()) in str(err.value) and "homicides.csv" in str(err.value)
