"""Reliability: broken data files and a broken parquet cache are refused or rebuilt, never used quietly.

Every fault is made in a tmp_path copy of the real data. Counts are compared with plain pandas on the
shared snapshot.
"""
import hashlib
import json
import os
import shutil

import pandas as pd
import pytest

import app
from settings.loader import DataNotFoundError, resolve_data_dir
from tests.faults import app_for, copy_data, keep_lines, settings_for, snapshot_dir
from tools.data import integrity
from tools.data.datasets import DATASETS
from tools.data.integrity import DataIntegrityError
from tools.data.loader import load_data

# Every test here checks the full export against the repository's checksum list or its counts.
pytestmark = pytest.mark.full_data

QUESTION = "How many homicides were there in 2022?"


@pytest.fixture(scope="module")
def raw_2022():
    """Homicides and arrests in 2022, straight from the CSV with pandas."""
    df = pd.read_csv(snapshot_dir() / "homicides.csv")
    year = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p").dt.year
    rows = df[year == 2022]
    return {"count": len(rows), "arrests": int(rows["Arrest"].astype(str).str.lower().eq("true").sum()),
            "total": len(df)}


@pytest.fixture
def data_copy(tmp_path):
    return copy_data(tmp_path)


def refused(tmp_path, data_dir) -> DataIntegrityError:
    with pytest.raises(DataIntegrityError) as err:
        load_data(settings_for(tmp_path, data_dir))
    return err.value


# ---------------------------------------------------------------- the shipped checksum list

def test_the_repo_checksum_list_matches_the_snapshot():
    assert integrity.snapshot_record(snapshot_dir())["files"] == integrity.shipped_checksums()


def test_the_intact_copy_loads_and_says_what_it_was_checked_against(tmp_path, data_copy, raw_2022):
    bundle = load_data(settings_for(tmp_path, data_copy))
    assert len(bundle.homicides) == raw_2022["total"]
    assert (bundle.homicides["year"] == 2022).sum() == raw_2022["count"]
    assert all(c.ok and "checksums.json" in c.checked_against for c in bundle.checks.values())


# ---------------------------------------------------------------- damaged files are refused, by name

def test_truncated_homicides_is_refused_with_row_counts(tmp_path, data_copy, raw_2022):
    keep_lines(data_copy / "homicides.csv", raw_2022["total"] // 2)
    err = refused(tmp_path, data_copy)
    assert set(err.problems) == {"homicides"}
    message = err.problems["homicides"]
    assert message.startswith("homicides.csv has 6,328 data rows where")
    assert f"{raw_2022['total']:,}" in message and "truncated" in message
    assert "homicides.csv" in str(err) and "data refresh" in str(err)


@pytest.mark.parametrize("key,damage,expected", [
    ("homicides", lambda p: p.write_bytes(b""), "homicides.csv is empty (0 bytes)"),
    ("homicides", lambda p: keep_lines(p, 0), "homicides.csv has a header but no data rows"),
    ("iucr", lambda p: p.write_bytes(b"\xff\xfe\x00garbage\x9c" * 50), "iucr_codes.csv is not UTF-8 text"),
    ("iucr", lambda p: shutil.copyfile(p.parent / "community_areas.csv", p), "iucr_codes.csv lacks the column(s) IUCR"),
    ("zhvi", lambda p: p.write_text("RegionName,Year\n60601,2020\n"), "lacks the column(s) Month, price"),
    ("socioeconomic", lambda p: p.write_text(p.read_text().replace("HARDSHIP INDEX", "HARDSHIP")),
     "socioeconomic.csv lacks the column(s) HARDSHIP INDEX"),
    ("ihs_index", lambda p: p.write_text("\n".join(p.read_text().splitlines()[1:])), "lacks the column(s)"),
    ("ward_offices", lambda p: keep_lines(p, 10), "ward_offices.csv has 10 data rows where"),
    ("census_acs", lambda p: p.write_text(p.read_text() + p.read_text().splitlines()[1] + "\n"),
     "census_acs.csv has 78 data rows where"),
])
def test_damaged_files_are_refused_by_name(tmp_path, data_copy, key, damage, expected):
    damage(data_copy / DATASETS[key].file)
    err = refused(tmp_path, data_copy)
    assert set(err.problems) == {key}
    assert expected in err.problems[key]


def test_one_changed_value_with_the_same_rows_is_refused(tmp_path, data_copy):
    path = data_copy / "homicides.csv"
    text = path.read_text()
    path.write_text(text.replace(",False,False,", ",True,False,", 1))  # one arrest flag flipped
    message = refused(tmp_path, data_copy).problems["homicides"]
    assert "has the recorded 12,657 rows but its sha256" in message and "changed or damaged" in message


def test_every_damaged_file_is_named_at_once(tmp_path, data_copy):
    (data_copy / "homicides.csv").write_bytes(b"")
    keep_lines(data_copy / "police_stations.csv", 3)
    assert set(refused(tmp_path, data_copy).problems) == {"homicides", "police_stations"}


# ---------------------------------------------------------------- the refresh manifest is the record when present

def _record(data_dir, key):
    """What ``data refresh`` writes into refresh_manifest.json for a file it installed."""
    path = data_dir / DATASETS[key].file
    entry = {"file": path.name, "last_status": "ok", "fetched_at": "2026-01-01T00:00:00Z",
             "sha256": integrity.sha256_of(path), "data_rows": integrity.count_rows(key, path)}
    manifest_path = data_dir / "refresh_manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"datasets": {}}
    manifest["datasets"][key] = entry
    manifest_path.write_text(json.dumps(manifest))


def test_a_refreshed_file_is_checked_against_the_manifest(tmp_path, data_copy):
    keep_lines(data_copy / "homicides.csv", 500)  # a (small) refreshed export, recorded as such
    _record(data_copy, "homicides")
    bundle = load_data(settings_for(tmp_path, data_copy))
    assert len(bundle.homicides) == 500 and bundle.coverage["homicides"]["rows"] == 500
    assert "refresh_manifest.json" in bundle.checks["homicides"].checked_against
    keep_lines(data_copy / "homicides.csv", 250)  # then damaged after the refresh
    message = refused(tmp_path, data_copy).problems["homicides"]
    assert "250 data rows where the refresh manifest" in message and "records 500" in message


def test_an_unreadable_manifest_is_named(tmp_path, data_copy):
    (data_copy / "refresh_manifest.json").write_text("{not json")
    assert "refresh_manifest.json is unreadable" in refused(tmp_path, data_copy).problems["manifest"]


def test_a_file_that_passes_its_check_but_will_not_type_is_named(tmp_path, data_copy):
    path = data_copy / "homicides.csv"
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace("06/28/2023 11:04:00 PM", "not a date at all")
    path.write_text("".join(lines))
    _record(data_copy, "homicides")
    message = refused(tmp_path, data_copy).problems["homicides"]
    assert message.startswith("homicides.csv does not load: ValueError")


# ---------------------------------------------------------------- a configured folder is used alone

def test_a_configured_folder_lacking_a_file_is_not_filled_from_elsewhere(tmp_path, data_copy):
    (data_copy / "homicides.csv").unlink()
    settings = settings_for(tmp_path, data_copy)
    assert resolve_data_dir(settings) == data_copy.resolve()  # no fallback to var/data or ../shared/data
    with pytest.raises(DataNotFoundError) as err:
        load_data(settings)
    assert f"{data_copy.resolve()} lacks homicides.csv" in str(err.value)
    assert "no other folder is used" in str(err.value)


def test_chiqa_data_dir_is_used_alone(tmp_path, data_copy, monkeypatch):
    (data_copy / "iucr_codes.csv").unlink()
    monkeypatch.setenv("CHIQA_DATA_DIR", str(data_copy))
    with pytest.raises(DataNotFoundError, match="lacks iucr_codes.csv"):
        load_data(settings_for(tmp_path))


def test_a_configured_folder_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(DataNotFoundError, match="does not exist"):
        resolve_data_dir(settings_for(tmp_path, tmp_path / "nowhere"))


# ---------------------------------------------------------------- what the CLI and the API show

def _cli_config(tmp_path, data_dir):
    config = tmp_path / "config.yaml"
    config.write_text(f"data:\n  dir: {data_dir}\nserver:\n  var_dir: {tmp_path / 'var'}\n")
    return str(config)


@pytest.mark.parametrize("damage", [lambda p: p.write_bytes(b""), lambda p: keep_lines(p, 0),
                                    lambda p: keep_lines(p, 100)])
def test_cli_tool_exits_2_with_one_line_naming_the_file(tmp_path, data_copy, capsys, damage):
    damage(data_copy / "homicides.csv")
    code = app.main(["--config", _cli_config(tmp_path, data_copy), "tool", "query_homicides_advanced",
                     '{"start_year": 2022, "end_year": 2022}'])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ") and "homicides.csv" in err


def test_cli_data_verify_lists_each_file(tmp_path, data_copy, capsys):
    config = _cli_config(tmp_path, data_copy)
    assert app.main(["--config", config, "data", "verify"]) == 0
    assert capsys.readouterr().out.count("  ok ") == len(DATASETS)
    keep_lines(data_copy / "community_areas.csv", 5)
    assert app.main(["--config", config, "data", "verify", "--json"]) == 2
    files = json.loads(capsys.readouterr().out)["files"]
    assert files["community_areas"]["status"] == "failed" and "5 data rows" in files["community_areas"]["error"]
    assert files["homicides"]["status"] == "ok"


def test_api_answers_503_naming_the_file_and_health_shows_it_failed(tmp_path, data_copy):
    keep_lines(data_copy / "homicides.csv", 6328)
    client = app_for(tmp_path, data_copy).test_client()
    resp = client.post("/api/ask", json={"question": QUESTION})
    body = resp.get_json()
    assert resp.status_code == 503 and body["ok"] is False and body["error"]["code"] == "data_invalid"
    assert "homicides.csv has 6,328 data rows" in body["error"]["message"]
    health = client.get("/api/health").get_json()
    assert health["status"] == "degraded" and "data" in health["degraded"]
    datasets = health["data"]["datasets"]
    assert datasets["homicides"]["status"] == "failed" and "6,328" in datasets["homicides"]["error"]
    assert datasets["iucr"]["status"] == "ok"
    # Repairing the file is picked up by the next question; nothing stays stuck.
    shutil.copyfile(snapshot_dir() / "homicides.csv", data_copy / "homicides.csv")
    assert client.post("/api/ask", json={"question": QUESTION}).status_code == 200
    assert client.get("/api/health").get_json()["data"]["datasets"]["homicides"]["status"] == "ok"


def test_api_answer_from_an_intact_copy_matches_pandas(tmp_path, data_copy, raw_2022):
    body = app_for(tmp_path, data_copy).test_client().post("/api/ask", json={"question": QUESTION}).get_json()
    assert f"{raw_2022['count']:,} homicides" in body["answer"] and body["error"] is None


# ---------------------------------------------------------------- the parquet cache

def _cache(tmp_path):
    return tmp_path / "var" / "cache"


def _warm(tmp_path, data_copy):
    settings = settings_for(tmp_path, data_copy)
    load_data(settings)
    bundle = load_data(settings)
    assert bundle.from_cache
    return settings


def _arrests_2022(bundle) -> int:
    h = bundle.homicides
    return int(h.loc[h["year"] == 2022, "arrest"].sum())


def _flip_a_bit(path):
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize("damage,reason", [
    (lambda c: _flip_a_bit(c / "homicides.parquet"), "homicides.parquet differs"),
    (lambda c: shutil.copyfile(c / "iucr.parquet", c / "homicides.parquet"), "homicides.parquet differs"),
    (lambda c: (c / "homicides.parquet").unlink(), "homicides.parquet is unreadable"),
    (lambda c: (c / "manifest.json").write_text("{"), "manifest is unreadable"),
    (lambda c: (c / "census_acs.parquet").write_bytes(b""), "census_acs.parquet differs"),
])
def test_a_damaged_cache_is_detected_and_rebuilt(tmp_path, data_copy, raw_2022, damage, reason):
    settings = _warm(tmp_path, data_copy)
    damage(_cache(tmp_path))
    rebuilt = load_data(settings)
    assert not rebuilt.from_cache and reason in rebuilt.cache_note
    assert _arrests_2022(rebuilt) == raw_2022["arrests"] and len(rebuilt.homicides) == raw_2022["total"]
    assert load_data(settings).from_cache  # and the rebuilt cache is good again


def test_a_valid_parquet_of_the_wrong_table_is_caught_by_its_columns(tmp_path, data_copy, raw_2022):
    settings = _warm(tmp_path, data_copy)
    cache = _cache(tmp_path)
    shutil.copyfile(cache / "iucr.parquet", cache / "homicides.parquet")
    manifest = json.loads((cache / "manifest.json").read_text())  # even with its checksum "fixed" to match
    manifest["tables"]["homicides"]["sha256"] = hashlib.sha256((cache / "homicides.parquet").read_bytes()).hexdigest()
    (cache / "manifest.json").write_text(json.dumps(manifest))
    rebuilt = load_data(settings)
    assert not rebuilt.from_cache and "holds a different table" in rebuilt.cache_note
    assert (rebuilt.homicides["year"] == 2022).sum() == raw_2022["count"]


def test_the_cache_is_keyed_by_content_not_size_and_mtime(tmp_path, data_copy):
    settings = _warm(tmp_path, data_copy)
    path = data_copy / "homicides.csv"
    stat = path.stat()
    text = path.read_text()
    changed = text.replace("ALLEY,True,False,1733,", "ALLEY,True,False,1734,", 1)  # case 27595's beat, same size
    assert changed != text and len(changed) == len(text)
    path.write_text(changed)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # and the same mtime
    _record(data_copy, "homicides")  # recorded as a deliberate refresh, so the file check passes
    bundle = load_data(settings)
    assert not bundle.from_cache and bundle.cache_note == "the source files changed"
    assert bundle.homicides.loc[bundle.homicides["id"] == 27595, "beat"].item() == 1734


def test_health_is_degraded_naming_a_missing_boundary_file(tmp_path, data_copy):
    """The answers still work without the geojson files, the maps do not: health says so and names the file."""
    shutil.copyfile(snapshot_dir() / "community_areas.geojson", data_copy / "community_areas.geojson")
    client = app_for(tmp_path, data_copy).test_client()
    health = client.get("/api/health").get_json()
    assert health["status"] == "degraded" and health["degraded"] == ["data"]
    assert health["data"]["status"] == "degraded" and "zip_codes.geojson" in health["data"]["degraded_because"]
    assert health["data"]["boundaries"] == {"community_areas.geojson": "present", "zip_codes.geojson": "missing"}
    assert client.get("/api/geo/zips").status_code == 503  # what the page's ZIP map meets
    assert client.post("/api/ask", json={"question": QUESTION}).status_code == 200
    # put back: ok again, with nothing to restart
    shutil.copyfile(snapshot_dir() / "zip_codes.geojson", data_copy / "zip_codes.geojson")
    health = client.get("/api/health").get_json()
    assert health["status"] == "ok" and health["degraded"] == [] and health["data"]["status"] == "ok"
