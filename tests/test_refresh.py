"""`python app.py data refresh`: paging, filters, retries, atomic replacement, layouts, metadata.

All HTTP is mocked with `responses`; an unregistered URL raises ConnectionError, so nothing here
can reach the network. Every destination is a tmp_path folder.
"""
import hashlib
import io
import json
import re
from argparse import Namespace
from pathlib import Path

import pandas as pd
import pytest
import requests
import responses
from responses import matchers

import app
from settings import loader as settings_mod
from tools.data import loader as data_loader
from tools.data.datasets import DATASETS
from tools.refresh import boundaries as community_area_boundaries
from tools.refresh import command as refresh
from tools.refresh import layouts as refresh_layouts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "socrata"
BASE = "https://data.cityofchicago.org/resource"
HOMICIDES_URL = f"{BASE}/ijzp-q8t2.json"
IUCR_URL = f"{BASE}/c7ck-438e.json"
HOMICIDE_HEADER = ("ID,Case Number,Date,Block,IUCR,Primary Type,Description,Location Description,Arrest,Domestic,"
                   "Beat,District,Ward,Community Area,FBI Code,X Coordinate,Y Coordinate,Year,Updated On,Latitude,"
                   "Longitude,Location")
OLD_HOMICIDES = (HOMICIDE_HEADER + "\n"
                 "1,A1,01/02/2020 10:00:00 AM,001XX W MADISON ST,0110,HOMICIDE,FIRST DEGREE MURDER,STREET,False,"
                 "False,111,1.0,42.0,32.0,01A,,,2020,01/03/2020 10:00:00 AM,41.88,-87.63,\"(41.88, -87.63)\"\n")


def fixture_json(name):
    return json.loads((FIXTURES / name).read_text())


@pytest.fixture
def cfg():
    return settings_mod.load_settings(overrides={"socrata.page_size": 2, "socrata.retries": 3,
                                                 "socrata.backoff_seconds": 0.5})


@pytest.fixture
def big_pages():
    return settings_mod.load_settings(overrides={"socrata.page_size": 1000})


@pytest.fixture
def sleeps(monkeypatch):
    calls = []
    monkeypatch.setattr(refresh, "SLEEP", calls.append)
    return calls


@pytest.fixture(autouse=True)
def no_token(monkeypatch):
    monkeypatch.delenv("SODA_APP_TOKEN", raising=False)


@pytest.fixture
def old_dest(tmp_path):
    dest = tmp_path / "data"
    dest.mkdir()
    (dest / "homicides.csv").write_text(OLD_HOMICIDES)
    return dest


def run(keys, dest, cfg):
    out = io.StringIO()
    outcomes = refresh.refresh(keys, dest, cfg, out=out)
    return {o.key: o for o in outcomes}, out.getvalue()


def page_params(offset, limit=2, where="primary_type = 'HOMICIDE'"):
    params = {"$limit": str(limit), "$offset": str(offset), "$order": ":id"}
    if where:
        params["$where"] = where
    return params


def add_homicide_pages(rows, page_size=2):
    for start in range(0, len(rows) + 1, page_size):
        responses.add(responses.GET, HOMICIDES_URL, json=rows[start:start + page_size],
                      match=[matchers.query_param_matcher(page_params(start, page_size))])


def assert_untouched(dest):
    assert (dest / "homicides.csv").read_text() == OLD_HOMICIDES
    assert not (dest / "homicides.csv.meta.json").exists()
    assert list(dest.glob(".*.tmp")) == []


# ------------------------------------------------------------------ Socrata paging and filters

@responses.activate
def test_pages_until_a_short_page_with_the_homicide_filter_sent_server_side(tmp_path, cfg, sleeps):
    rows = fixture_json("homicides.json")
    add_homicide_pages(rows)
    outcomes, _ = run(["homicides"], tmp_path, cfg)
    assert outcomes["homicides"].status == "ok"
    assert len(responses.calls) == 3  # 2 + 2 + 1 rows: stop at the short page
    sent = [req.request.params for req in responses.calls]
    assert [p["$offset"] for p in sent] == ["0", "2", "4"]
    assert all(p["$limit"] == "2" and p["$order"] == ":id" for p in sent)
    assert all("primary_type = 'HOMICIDE'" in p["$where"] for p in sent)
    assert outcomes["homicides"].rows == 5
    assert sleeps == []


@responses.activate
def test_written_homicides_csv_has_the_export_layout_and_loads(tmp_path, cfg):
    add_homicide_pages(fixture_json("homicides.json"))
    run(["homicides"], tmp_path, cfg)
    text = (tmp_path / "homicides.csv").read_text()
    assert text.splitlines()[0] == HOMICIDE_HEADER
    shared = settings_mod.FALLBACK_DATA_DIR / "homicides.csv"
    if shared.is_file():  # the same header as the shipped export
        with open(shared, encoding="utf-8") as fh:
            assert fh.readline().strip() == HOMICIDE_HEADER
    assert "27595,JG320179,06/28/2023 11:04:00 PM,036XX N KEDZIE AVE,0110,HOMICIDE" in text
    assert '"(41.947607802, -87.707846683)"' in text

    df = data_loader._read_homicides(tmp_path / "homicides.csv")
    assert len(df) == 5
    assert df["date"].min() == pd.Timestamp("2001-01-06 05:00:00")
    first = df.set_index("id").loc[27595]
    assert first["date"] == pd.Timestamp("2023-06-28 23:04:00")
    assert (first["district"], first["ward"], first["community_area"], first["beat"]) == (17, 33, 16, 1733)
    assert bool(first["arrest"]) and not bool(first["domestic"])
    assert first["iucr"] == "0110"
    second = df.set_index("id").loc[27600]
    assert second["beat"] == 722 and second["district"] == 7 and not bool(second["arrest"])
    old = df.set_index("id").loc[1310]  # 2001 row without ward / community area / coordinates
    assert pd.isna(old["ward"]) and pd.isna(old["community_area"]) and pd.isna(old["latitude"])
    assert df.set_index("id").loc[26311, "location_description"] == "APARTMENT"
    assert bool(df.set_index("id").loc[26311, "domestic"])


@responses.activate
def test_app_token_header_is_sent_when_the_env_var_is_set(tmp_path, cfg, monkeypatch):
    monkeypatch.setenv("SODA_APP_TOKEN", "tok-123")
    responses.add(responses.GET, IUCR_URL, json=fixture_json("iucr.json")[:1])
    outcomes, out = run(["iucr"], tmp_path, cfg)
    assert outcomes["iucr"].status == "ok"
    assert responses.calls[0].request.headers["X-App-Token"] == "tok-123"
    assert "SODA_APP_TOKEN" in out and "no app token" not in out


@responses.activate
def test_without_a_token_requests_are_unauthenticated_with_a_note(tmp_path, cfg):
    responses.add(responses.GET, IUCR_URL, json=fixture_json("iucr.json")[:1])
    _, out = run(["iucr"], tmp_path, cfg)
    assert "X-App-Token" not in responses.calls[0].request.headers
    assert "no app token" in out


# ------------------------------------------------------------------ retries and failures

@responses.activate
def test_server_error_and_timeout_are_retried_with_backoff(tmp_path, cfg, sleeps):
    rows = fixture_json("homicides.json")[:1]
    responses.add(responses.GET, HOMICIDES_URL, status=500, json={"message": "boom"})
    responses.add(responses.GET, HOMICIDES_URL, body=requests.Timeout("read timed out"))
    responses.add(responses.GET, HOMICIDES_URL, json=rows)
    outcomes, _ = run(["homicides"], tmp_path, cfg)
    assert outcomes["homicides"].status == "ok" and outcomes["homicides"].rows == 1
    assert len(responses.calls) == 3
    assert sleeps == [0.5, 1.0]  # exponential backoff, injected sleep


@responses.activate
def test_repeated_server_errors_give_up_and_leave_the_old_file_byte_identical(old_dest, cfg, sleeps):
    before = (old_dest / "homicides.csv").read_bytes()
    responses.add(responses.GET, HOMICIDES_URL, status=500, json={"message": "internal"})
    outcomes, out = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed"
    assert len(responses.calls) == 4  # first try + socrata.retries
    assert len(sleeps) == 3
    assert (old_dest / "homicides.csv").read_bytes() == before
    assert_untouched(old_dest)
    line = [ln for ln in out.splitlines() if "homicides" in ln and "FAILED" in ln][0]
    assert "HTTP 500" in line and "after 4 attempts" in line and "existing file left unchanged" in line


@responses.activate
def test_a_portal_that_ignores_paging_cannot_loop_forever(old_dest, cfg):
    rows = fixture_json("homicides.json")
    responses.add(responses.GET, HOMICIDES_URL, json=rows[:2])  # same page for every offset
    outcomes, _ = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed" and "paging is not working" in outcomes["homicides"].message
    assert len(responses.calls) == 2
    responses.replace(responses.GET, HOMICIDES_URL, json=rows)  # more rows than $limit
    outcomes, _ = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed" and "paging is not working" in outcomes["homicides"].message
    assert_untouched(old_dest)


@responses.activate
def test_client_errors_are_not_retried(tmp_path, cfg, sleeps):
    responses.add(responses.GET, IUCR_URL, status=400, json={"message": "bad query"})
    outcomes, _ = run(["iucr"], tmp_path, cfg)
    assert outcomes["iucr"].status == "failed" and "HTTP 400" in outcomes["iucr"].message
    assert len(responses.calls) == 1 and sleeps == []
    assert not (tmp_path / "iucr_codes.csv").exists()


@responses.activate
def test_malformed_json_fails_and_keeps_old_data(old_dest, cfg, sleeps):
    responses.add(responses.GET, HOMICIDES_URL, body='[{"id": "1", "date": ', content_type="application/json")
    outcomes, _ = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed"
    assert "malformed JSON" in outcomes["homicides"].message
    assert_untouched(old_dest)


@responses.activate
def test_json_that_is_not_a_list_of_records_is_malformed(old_dest, cfg):
    responses.add(responses.GET, HOMICIDES_URL, json={"error": True, "message": "query timeout"})
    outcomes, _ = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed" and "malformed JSON" in outcomes["homicides"].message
    assert_untouched(old_dest)


@responses.activate
def test_empty_homicide_result_is_a_failure_that_keeps_old_data(old_dest, cfg):
    responses.add(responses.GET, HOMICIDES_URL, json=[])
    outcomes, out = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed"
    message = outcomes["homicides"].message
    assert "0 rows" in message and "primary_type = 'HOMICIDE'" in message and "ijzp-q8t2" in message
    assert_untouched(old_dest)


@responses.activate
def test_rows_the_loader_cannot_read_are_rejected(old_dest, cfg):
    bad = dict(fixture_json("homicides.json")[0], date="2023-13-45T00:00:00.000")
    responses.add(responses.GET, HOMICIDES_URL, json=[bad])
    outcomes, _ = run(["homicides"], old_dest, cfg)
    assert outcomes["homicides"].status == "failed" and "unexpected date value" in outcomes["homicides"].message
    assert_untouched(old_dest)


@responses.activate
def test_no_network_gives_a_clear_message_and_skips_the_dead_host(tmp_path, cfg, sleeps, capsys):
    # Nothing registered: `responses` raises ConnectionError, like an offline machine.
    args = Namespace(dataset=["homicides", "iucr"], dest=str(tmp_path))
    code = refresh.run_refresh_command(args, cfg)
    out = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in out.out + out.err
    assert "could not connect (no network?)" in out.out
    assert "skipped: data.cityofchicago.org was unreachable" in out.out
    assert len(responses.calls) == 4  # the homicides attempts only; iucr was skipped


# ------------------------------------------------------------------ metadata and manifest

@responses.activate
def test_meta_json_and_manifest(tmp_path, cfg):
    add_homicide_pages(fixture_json("homicides.json"))
    responses.add(responses.GET, IUCR_URL, status=503)
    args = Namespace(dataset=["homicides", "iucr", "zip_crosswalk"], dest=str(tmp_path))
    code = refresh.run_refresh_command(args, cfg, sleep=lambda s: None, out=io.StringIO())
    assert code == 2

    meta = json.loads((tmp_path / "homicides.csv.meta.json").read_text())
    assert meta["portal_id"] == "ijzp-q8t2" and meta["source"] == "Chicago Police Department"
    assert meta["soql_where"] == "primary_type = 'HOMICIDE'"
    assert meta["row_count"] == 5 and meta["data_rows"] == 5
    assert meta["sha256"] == hashlib.sha256((tmp_path / "homicides.csv").read_bytes()).hexdigest()
    assert meta["coverage"] == {"first": "2001-01-06", "last": "2023-07-19"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", meta["fetched_at"])

    manifest = json.loads((tmp_path / "refresh_manifest.json").read_text())
    entries = manifest["datasets"]
    assert entries["homicides"]["last_status"] == "ok" and entries["homicides"]["row_count"] == 5
    assert entries["homicides"]["sha256"] == meta["sha256"]  # what the loader checks the file against
    assert entries["iucr"]["last_status"] == "failed" and "HTTP 503" in entries["iucr"]["last_error"]
    assert entries["zip_crosswalk"]["last_status"] in ("kept", "missing")
    assert not (tmp_path / "iucr_codes.csv.meta.json").exists()

    # A later successful run clears the error and keeps the other entries.
    responses.replace(responses.GET, IUCR_URL, json=fixture_json("iucr.json")[:1])
    refresh.run_refresh_command(Namespace(dataset=["iucr"], dest=str(tmp_path)), cfg, out=io.StringIO())
    entries = json.loads((tmp_path / "refresh_manifest.json").read_text())["datasets"]
    assert entries["iucr"]["last_status"] == "ok" and "last_error" not in entries["iucr"]
    assert entries["homicides"]["row_count"] == 5


# ------------------------------------------------------------------ other layouts

@responses.activate
def test_iucr_layout(tmp_path, big_pages):
    responses.add(responses.GET, IUCR_URL, json=fixture_json("iucr.json"))
    run(["iucr"], tmp_path, big_pages)
    lines = (tmp_path / "iucr_codes.csv").read_text().splitlines()
    assert lines[0] == "IUCR,PRIMARY DESCRIPTION,SECONDARY DESCRIPTION,INDEX CODE,ACTIVE"
    assert lines[1] == "0110,HOMICIDE,FIRST DEGREE MURDER,I,true"
    df = data_loader._read_iucr(tmp_path / "iucr_codes.csv")
    assert df["active"].tolist() == [True, True, False]


@responses.activate
def test_socioeconomic_layout_keeps_the_portal_header_and_city_row(tmp_path, big_pages):
    responses.add(responses.GET, f"{BASE}/kn9c-c2s2.json", json=fixture_json("socioeconomic.json"))
    run(["socioeconomic"], tmp_path, big_pages)
    df = pd.read_csv(tmp_path / "socioeconomic.csv")
    assert "PER CAPITA INCOME " in df.columns  # trailing space, as in the portal export
    assert df["PER CAPITA INCOME "].tolist() == [23939, 23040, 28202]
    assert pd.isna(df["Community Area Number"].iloc[2]) and pd.isna(df["HARDSHIP INDEX"].iloc[2])


@responses.activate
def test_community_area_lookup_is_derived_from_the_boundaries(tmp_path, big_pages):
    (tmp_path / "socioeconomic.csv").write_text("Community Area Number,COMMUNITY AREA NAME\n1,Rogers Park\n")
    responses.add(responses.GET, f"{BASE}/igwz-8jzy.json", json=fixture_json("community_areas.json"))
    run(["community_areas"], tmp_path, big_pages)
    df = pd.read_csv(tmp_path / "community_areas.csv")
    assert df.columns.tolist() == ["area_number", "community", "name_socioeconomic", "area_sq_mi",
                                   "label_lat", "label_lon"]
    by = df.set_index("area_number")
    assert by.loc[1, "name_socioeconomic"] == "Rogers Park"
    assert by.loc[76, "name_socioeconomic"] == "O'Hare"  # unknown spelling: the canonical title case
    # 0.04 deg lon x 0.02 deg lat near 42N is about 2.06 x 1.38 miles
    assert by.loc[1, "area_sq_mi"] == pytest.approx(2.85, abs=0.05)
    assert 42.00 < by.loc[1, "label_lat"] < 42.02 and -87.70 < by.loc[1, "label_lon"] < -87.66
    assert 41.96 < by.loc[76, "label_lat"] < 42.00 and -87.90 < by.loc[76, "label_lon"] < -87.80
    # no geometry: area from shape_area (square feet), no label point
    assert by.loc[2, "area_sq_mi"] == pytest.approx(3.531, abs=0.001) and pd.isna(by.loc[2, "label_lat"])
    assert len(data_loader._read_community_areas(tmp_path / "community_areas.csv")) == 3


def test_label_point_falls_inside_a_concave_polygon():
    # A U shape whose ring centroid lies in the notch.
    ring = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3), (0, 0)]
    lat, lon = community_area_boundaries._label_point([ring])
    assert community_area_boundaries._inside(lon, lat, [ring])


def test_zhvi_wide_to_long_keeps_chicago_il_only():
    out = io.StringIO()
    with open(FIXTURES / "zhvi_wide.csv", newline="") as src:
        rows, zips, coverage = refresh_layouts.zhvi_wide_to_long(src, out)
    assert (rows, zips) == (6, 2)
    assert coverage == {"first": "2000-01", "last": "2024-09"}
    df = pd.read_csv(io.StringIO(out.getvalue()), dtype={"RegionName": str})
    assert df.columns.tolist() == ["RegionName", "RegionID", "City", "CountyName", "Year", "Month", "price"]
    assert sorted(df["RegionName"].unique()) == ["60603", "60629"]
    first = df.iloc[0].tolist()
    assert first == ["60629", 84630, "Chicago", "Cook County", 2000, 1, 94257.29]
    assert df[df["RegionName"] == "60603"]["price"].isna().sum() == 2
    assert df[(df["RegionName"] == "60629") & (df["Year"] == 2024)]["Month"].tolist() == [9]


@responses.activate
def test_zhvi_refresh_downloads_reshapes_and_loads(tmp_path, cfg):
    responses.add(responses.GET, DATASETS["zhvi"].url, body=(FIXTURES / "zhvi_wide.csv").read_bytes(),
                  content_type="text/csv")
    outcomes, _ = run(["zhvi"], tmp_path, cfg)
    assert outcomes["zhvi"].status == "ok" and outcomes["zhvi"].rows == 6
    df = data_loader._read_zhvi(tmp_path / "property_zhvi_zip_monthly.csv")
    assert df.loc[(df["zip"] == "60629") & (df["year"] == 2024), "value"].tolist() == [260010.5]
    meta = json.loads((tmp_path / "property_zhvi_zip_monthly.csv.meta.json").read_text())
    assert meta["url"] == DATASETS["zhvi"].url and meta["zips"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "property_zhvi_zip_monthly.csv", "property_zhvi_zip_monthly.csv.meta.json"]


@responses.activate
def test_zhvi_without_chicago_rows_keeps_old_data(tmp_path, cfg):
    old = tmp_path / "property_zhvi_zip_monthly.csv"
    old.write_text("RegionName,RegionID,City,CountyName,Year,Month,price\n60629,84630,Chicago,Cook County,2000,1,1\n")
    before = old.read_bytes()
    wide = "\n".join((FIXTURES / "zhvi_wide.csv").read_text().splitlines()[:3:2]) + "\n"  # header + Katy, TX
    responses.add(responses.GET, DATASETS["zhvi"].url, body=wide, content_type="text/csv")
    outcomes, _ = run(["zhvi"], tmp_path, cfg)
    assert outcomes["zhvi"].status == "failed" and "no Chicago, IL ZIP rows" in outcomes["zhvi"].message
    assert old.read_bytes() == before and list(tmp_path.glob(".*.tmp")) == []


@responses.activate
def test_ihs_file_is_stored_as_published(tmp_path, cfg):
    body = (FIXTURES / "ihs_quarterly.csv").read_bytes()
    responses.add(responses.GET, DATASETS["ihs_index"].url, body=body, content_type="text/csv")
    outcomes, _ = run(["ihs_index"], tmp_path, cfg)
    assert outcomes["ihs_index"].status == "ok" and outcomes["ihs_index"].rows == 3
    assert outcomes["ihs_index"].coverage == {"first": "1997Q1", "last": "2025Q4"}
    assert (tmp_path / "property_ihs_price_index_quarterly.csv").read_bytes() == body


@responses.activate
def test_ihs_file_without_the_code_header_row_is_rejected(tmp_path, cfg):
    old = tmp_path / "property_ihs_price_index_quarterly.csv"
    old.write_bytes((FIXTURES / "ihs_quarterly.csv").read_bytes())
    body = "\n".join((FIXTURES / "ihs_quarterly.csv").read_text().splitlines()[1:]) + "\n"
    responses.add(responses.GET, DATASETS["ihs_index"].url, body=body, content_type="text/csv")
    outcomes, _ = run(["ihs_index"], tmp_path, cfg)
    assert outcomes["ihs_index"].status == "failed" and "header row" in outcomes["ihs_index"].message
    assert old.read_bytes() == (FIXTURES / "ihs_quarterly.csv").read_bytes()


@responses.activate
def test_publisher_server_errors_are_retried_then_reported(tmp_path, cfg, sleeps):
    responses.add(responses.GET, DATASETS["ihs_index"].url, status=502)
    outcomes, _ = run(["ihs_index"], tmp_path, cfg)
    assert outcomes["ihs_index"].status == "failed"
    assert "HTTP 502" in outcomes["ihs_index"].message and "price-index.housingstudies.org" in outcomes["ihs_index"].message
    assert len(responses.calls) == 4 and len(sleeps) == 3
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ derived files, seeding, CLI, settings

def test_derived_files_are_kept_and_said_so(tmp_path, cfg):
    (tmp_path / "community_area_zip_crosswalk.csv").write_text("area_number,zip\n1,60626\n")
    outcomes, out = run(["zip_crosswalk", "population_2010"], tmp_path, cfg)
    assert outcomes["zip_crosswalk"].status == "kept"
    assert outcomes["population_2010"].status == "missing"
    assert "not re-downloadable" in out and "kept as is" in out


def test_missing_files_are_seeded_from_the_current_data_folder(tmp_path):
    source, dest = tmp_path / "src", tmp_path / "dest"
    source.mkdir()
    dest.mkdir()
    (source / "census_population_2010.csv").write_text("NID,POP2010\n1,54991\n")
    (source / "homicides.csv").write_text("old")
    (dest / "homicides.csv").write_text("mine")
    assert refresh._seed_missing(dest, source) == ["census_population_2010.csv"]
    assert (dest / "homicides.csv").read_text() == "mine"
    assert refresh._seed_missing(dest, dest) == []


@responses.activate
def test_cli_refreshes_one_dataset_into_dest(tmp_path, monkeypatch, capsys):
    def no_data(settings=None):
        raise settings_mod.DataNotFoundError("none")

    monkeypatch.setattr(refresh, "resolve_data_dir", no_data)  # nothing to seed from: keep the test hermetic
    responses.add(responses.GET, IUCR_URL, json=fixture_json("iucr.json"),
                  match=[matchers.query_param_matcher({"$limit": "50000", "$offset": "0", "$order": ":id"})])
    code = app.main(["data", "refresh", "--dataset", "iucr", "--dest", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r"ok\s+iucr\s+3 rows", out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["iucr_codes.csv", "iucr_codes.csv.meta.json",
                                                          "refresh_manifest.json"]
    assert len(data_loader._read_iucr(tmp_path / "iucr_codes.csv")) == 3


def test_cli_rejects_an_unknown_dataset(tmp_path, capsys):
    assert app.main(["data", "refresh", "--dataset", "crimes", "--dest", str(tmp_path)]) == 2
    assert "unknown dataset crimes" in capsys.readouterr().err


def test_default_destination_is_var_data_and_the_app_finds_it(tmp_path, monkeypatch):
    monkeypatch.delenv("CHIQA_DATA_DIR", raising=False)
    loaded = settings_mod.load_settings(overrides={"data.dir": None, "server.var_dir": str(tmp_path / "var")})
    dest = refresh.default_destination(loaded)
    assert dest == tmp_path / "var" / "data"
    assert settings_mod.FALLBACK_DATA_DIR not in (dest, *dest.parents)
    dest.mkdir(parents=True)
    (dest / "homicides.csv").write_text(OLD_HOMICIDES)
    assert settings_mod.resolve_data_dir(loaded) == dest.resolve()
    configured = settings_mod.load_settings(overrides={"data.dir": str(tmp_path / "mine")})
    assert refresh.default_destination(configured) == tmp_path / "mine"
