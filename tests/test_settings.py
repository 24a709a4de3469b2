"""Settings resolution, the data-folder fallback, and the no-data message."""
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import app
from settings import loader as settings_mod

ROOT = Path(__file__).resolve().parent.parent


def _dotted_keys(tree, prefix=""):
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _dotted_keys(value, dotted + ".")
        else:
            yield dotted


def test_readme_documents_every_setting():
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    readme = (ROOT / "README.md").read_text()
    missing = [key for key in _dotted_keys(config) if f"`{key}`" not in readme]
    assert missing == []


def test_env_overrides_the_config(monkeypatch, data_dir):
    monkeypatch.setenv("CHIQA_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CHIQA_BACKEND", "rules")
    loaded = settings_mod.load_settings()
    assert loaded["model"]["backend"] == "rules"
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
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    config["data"]["dir"] = str(tmp_path / "empty")
    config["server"]["var_dir"] = str(tmp_path / "var")
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml.safe_dump(config))
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
