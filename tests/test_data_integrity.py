"""A truncated, empty or swapped data file is refused with an error naming it; never answered from."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_api import build_app
from tools.data.datasets import DATASETS
from tools.data.integrity import SNAPSHOT, DataIntegrityError, check_files, describe
from tools.data.loader import load_data

ROOT = Path(__file__).resolve().parent.parent
FILES = [ds.file for ds in DATASETS.values()]


@pytest.fixture
def copy(data_dir, tmp_path):
    """A copy of the real data folder that a test may damage."""
    target = tmp_path / "data"
    target.mkdir()
    for name in FILES:
        shutil.copy(data_dir / name, target / name)
    return target


def test_the_repo_checksums_are_the_shipped_snapshot(data_dir):
    recorded = json.loads(SNAPSHOT.read_text())
    assert set(recorded) == set(FILES)
    for name in FILES:
        assert describe(data_dir / name) == recorded[name], name
    check_files(data_dir, FILES)  # passes as shipped


def halve(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 2]))


@pytest.mark.parametrize("damage, words", [
    (halve, "not the shipped snapshot"),
    (lambda p: p.write_text(""), "no data rows"),
    (lambda p: p.write_text(p.read_text().splitlines(keepends=True)[0]), "no data rows"),
])
def test_a_damaged_homicides_file_is_refused(copy, tmp_path, damage, words):
    damage(copy / "homicides.csv")
    with pytest.raises(DataIntegrityError, match=words) as err:
        load_data(data_dir=copy, use_cache=False)
    assert "homicides.csv" in str(err.value) and "data refresh" in str(err.value)


def test_a_refreshed_folder_is_checked_against_its_manifest(copy):
    manifest = {"datasets": {"homicides": {"file": "homicides.csv", "row_count": 12657}}}
    (copy / "refresh_manifest.json").write_text(json.dumps(manifest))
    check_files(copy, FILES)  # a refreshed folder need not match the shipped checksums
    halve(copy / "homicides.csv")
    with pytest.raises(DataIntegrityError, match="refresh manifest recorded 12,657"):
        check_files(copy, FILES)


def test_the_cli_names_the_file_and_exits_2(copy, tmp_path):
    halve(copy / "homicides.csv")
    env = {"PATH": "/usr/bin:/bin", "CHIQA_DATA_DIR": str(copy), "CHIQA_VAR_DIR": str(tmp_path / "var")}
    proc = subprocess.run([sys.executable, "app.py", "tool", "get_iucr_info", "{}"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "homicides.csv" in proc.stderr and "shipped snapshot" in proc.stderr


def test_the_api_names_the_file_and_health_shows_the_failure(copy, tmp_path, monkeypatch):
    halve(copy / "homicides.csv")
    monkeypatch.setenv("CHIQA_DATA_DIR", str(copy))
    client = build_app(tmp_path, extra={"data.cache_dir": str(tmp_path / "cache")}).test_client()
    resp = client.post("/api/ask", json={"question": "How many homicides were there in 2022?"})
    assert resp.status_code == 503
    body = resp.get_json()
    assert body["error"]["code"] == "data_not_found" and "homicides.csv" in body["error"]["message"]
    health = client.get("/api/health").get_json()
    assert health["data"]["state"] == "error" and "homicides.csv" in health["data"]["error"]
