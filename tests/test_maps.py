"""The map's geometry (projection, Douglas–Peucker, path text, the cached layers and their route) and the tools'
map hints, checked against the raw geojson and CSVs read independently."""
import gzip
import json
import math
import re

import pandas as pd
import pytest

from app import create_app
from loop import grounding
from maps import geometry
from maps.layers import HEIGHT, PAD, TOLERANCE, get_layer
from settings.loader import load_settings, resolve_data_dir


@pytest.fixture(scope="module")
def folder():
    return resolve_data_dir(load_settings())


def parse_path(d: str) -> list:
    """'M1 2l3-4 5 6z...' -> absolute integer rings (the inverse of geometry.path_data)."""
    rings = []
    for sub in re.findall(r"M[^M]*", d):
        head, _, rest = sub[1:].rstrip("z").partition("l")
        x, y = (int(v) for v in head.split())
        ring = [(x, y)]
        numbers = [int(v) for v in re.findall(r"-?\d+", rest)]
        for dx, dy in zip(numbers[::2], numbers[1::2]):
            x, y = x + dx, y + dy
            ring.append((x, y))
        rings.append(ring)
    return rings


def test_douglas_peucker_keeps_corners_within_the_tolerance():
    line = [(float(i), 0.2 * math.sin(i)) for i in range(50)] + [(50.0, 0.0), (50.0, 40.0)]
    kept = geometry.simplify(line, 0.5)
    assert kept[0] == line[0] and kept[-1] == line[-1] and (50.0, 0.0) in kept and len(kept) <= 4
    for p in line:  # every dropped point lies within the tolerance of the simplified line
        assert min(_segment_distance(p, a, b) for a, b in zip(kept, kept[1:])) <= 0.5 + 1e-9
    square = [(0, 0), (5, 0.1), (10, 0), (10, 10), (0, 10), (0, 0)]
    assert geometry.simplify(square, 0.5) == [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
    assert geometry.ring_area([(0, 0), (10, 0), (10, 10), (0, 10)]) == 100


def _segment_distance(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ((dx * dx + dy * dy) or 1)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def test_path_text_round_trips_and_projection_keeps_ground_distances():
    rings = [[(10, 20), (13, 18), (18, 19), (12, 25)], [(100, 100), (90, 100), (95, 94)]]
    d = geometry.path_data(rings)
    assert d == "M10 20l3-2 5 1-6 6zM100 100l-10 0 5-6z" and parse_path(d) == rings
    # One kilometre north and one east of the city's middle project to the same length (within 1%).
    km_lat = 1 / 111.0
    km_lon = 1 / (111.0 * math.cos(math.radians(41.84)))
    (origin, north, east), = geometry.project([[(-87.7, 41.84), (-87.7, 41.84 + km_lat), (-87.7 + km_lon, 41.84)]],
                                            1000.0, (-87.9, 42.0))
    assert math.dist(origin, north) == pytest.approx(math.dist(origin, east), rel=0.01)
    assert north[1] < origin[1]  # north is up


@pytest.mark.full_data
def test_layers_match_the_geojson_and_are_small(folder):
    areas = json.loads(get_layer("community_areas", folder).body)
    zips = json.loads(get_layer("zips", folder).body)
    assert areas["viewBox"] == zips["viewBox"] and areas["viewBox"][:2] == [-PAD, -PAD]
    raw = json.loads((folder / "community_areas.geojson").read_text())
    names = pd.read_csv(folder / "community_areas.csv").set_index("area_number")["community"]
    assert [f["id"] for f in areas["features"]] == [str(n) for n in range(1, 78)]
    assert {f["id"]: f["name"].upper() for f in areas["features"]}["68"] == names[68] == "ENGLEWOOD"
    raw_zips = json.loads((folder / "zip_codes.geojson").read_text())
    assert sorted(f["id"] for f in zips["features"]) == sorted({f["properties"]["zip"] for f in raw_zips["features"]})
    # Simplification keeps each area's outline: its bounding box moves by at most the tolerance plus rounding.
    _, width, height = geometry.viewbox(*_frame(folder), HEIGHT)
    assert areas["viewBox"][2:] == [width + 2 * PAD, height + 2 * PAD]
    scale, west, north = HEIGHT / (_frame(folder)[3] - _frame(folder)[1]), _frame(folder)[0], _frame(folder)[3]
    by_id = {f["id"]: f for f in areas["features"]}
    for feature in raw["features"]:
        fid = str(int(float(feature["properties"]["area_numbe"])))
        points = [p for poly in feature["geometry"]["coordinates"] for ring in poly for p in ring]
        projected = geometry.project([points], scale, (west, north))[0]
        drawn = [p for ring in parse_path(by_id[fid]["d"]) for p in ring]
        for axis in (0, 1):
            assert min(p[axis] for p in drawn) == pytest.approx(min(p[axis] for p in projected), abs=TOLERANCE + 1)
            assert max(p[axis] for p in drawn) == pytest.approx(max(p[axis] for p in projected), abs=TOLERANCE + 1)
    # The page weight: a few kilobytes instead of megabytes.
    for level, limit in (("community_areas", 16_000), ("zips", 12_000)):
        layer = get_layer(level, folder)
        assert len(layer.body) < limit and len(layer.gzipped) < limit / 2
        assert layer.points_out < layer.points_in / 10
        assert (folder / f"{'zip_codes' if level == 'zips' else level}.geojson").stat().st_size > 100 * len(layer.body)


def _frame(folder):
    boxes = []
    for name in ("community_areas.geojson", "zip_codes.geojson"):
        features = json.loads((folder / name).read_text())["features"]
        boxes.append(geometry.bounds([[ring for poly in f["geometry"]["coordinates"] for ring in poly]
                                      for f in features]))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@pytest.mark.full_data
def test_geo_route_serves_gzip_etags_and_json_errors(tmp_path):
    client = create_app({"TESTING": True, "SETTINGS_OVERRIDES": {"server.var_dir": str(tmp_path)}}).test_client()
    plain = client.get("/api/geo/community_areas")
    assert plain.status_code == 200 and plain.mimetype == "application/json" and "Content-Encoding" not in plain.headers
    assert "default-src 'self'" in plain.headers["Content-Security-Policy"]
    packed = client.get("/api/geo/community_areas", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2 and packed.headers["ETag"] != plain.headers["ETag"]
    again = client.get("/api/geo/community_areas", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    assert len(client.get("/api/geo/zips").get_json()["features"]) == 59
    missing = client.get("/api/geo/wards")
    assert missing.status_code == 404 and missing.get_json()["error"]["code"] == "unknown_layer"


def test_a_truncated_boundary_file_is_a_503_naming_it(tmp_path, folder):
    """Like the CSVs' integrity checks: a broken geojson is refused with its name, never a 500 or a wrong map."""
    for name in ("homicides.csv", "community_areas.geojson"):
        (tmp_path / name).symlink_to(folder / name)
    raw = (folder / "zip_codes.geojson").read_bytes()
    (tmp_path / "zip_codes.geojson").write_bytes(raw[: len(raw) // 2])
    client = create_app({"TESTING": True, "SETTINGS_OVERRIDES": {
        "server.var_dir": str(tmp_path / "var"), "data.dir": str(tmp_path)}}).test_client()
    for level in ("zips", "community_areas"):  # both layers share one frame, so both need the file
        resp = client.get(f"/api/geo/{level}")
        assert resp.status_code == 503 and resp.get_json()["error"]["code"] == "data_invalid"
        assert "zip_codes.geojson" in resp.get_json()["error"]["message"]
    (tmp_path / "zip_codes.geojson").write_text('{"type": "FeatureCollection", "features": []}')
    message = client.get("/api/geo/zips").get_json()["error"]["message"]
    assert "zip_codes.geojson" in message and "no boundaries" in message


# ---------------------------------------------------------------- the tools' map hints

def test_homicide_count_and_rate_hints_cover_every_area(registry, folder):
    h = pd.read_csv(folder / "homicides.csv")
    counts = h[h["Year"] == 2022].groupby("Community Area").size()
    result = registry.run("query_homicides_advanced", {"year": 2022, "group_by": "community_area", "top_n": 5})
    hint = result.map
    assert {k: hint[k] for k in ("level", "key", "value", "unit", "period")} == {
        "level": "community_area", "key": "community_area", "value": "homicides", "unit": "homicides", "period": "2022"}
    assert len(result.table["rows"]) == 5  # the table keeps its top rows; the hint has every area
    assert dict(map(tuple, hint["data"])) == {n: int(counts.get(n, 0)) for n in range(1, 78)}
    assert registry.run("query_homicides_advanced", {"year": 2022, "group_by": "ward"}).map is None
    assert registry.run("query_homicides_advanced", {"year": 2022, "community_area": 68}).map is None

    acs = pd.read_csv(folder / "census_acs.csv")
    areas = pd.read_csv(folder / "community_areas.csv")
    population = dict(zip(areas["area_number"], areas["community"].map(dict(zip(acs["community_area"],
                                                                                 acs["total_population"])))))
    rates = registry.run("analyze_homicide_rates_by_community_area", {"year": 2022, "community_area": 68}).map
    data = dict(map(tuple, rates["data"]))
    assert rates["unit"] == "per 100,000 residents" and len(data) == 77
    for n in (68, 25, 8):
        assert data[n] == pytest.approx(round(counts.get(n, 0) / population[n] * 100_000, 1), abs=0.051)


@pytest.mark.full_data
def test_indicator_and_home_value_hints_match_the_csvs(registry, folder):
    socio = pd.read_csv(folder / "socioeconomic.csv").dropna(subset=["Community Area Number"])
    income = dict(zip(socio["Community Area Number"].astype(int), socio["PER CAPITA INCOME "]))
    hint = registry.run("query_socioeconomic", {"metric": "income", "top_n": 3}).map
    assert hint["unit"] == "dollars" and hint["period"] == "2008-2012"
    assert dict(map(tuple, hint["data"])) == {n: v for n, v in income.items() if 1 <= n <= 77}
    single = registry.run("query_socioeconomic", {"community_area": "Englewood"}).map
    assert single["value"] == "hardship_index" and len(single["data"]) == 77

    zhvi = pd.read_csv(folder / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    latest = zhvi[(zhvi["Year"] == 2024) & (zhvi["Month"] == 9)]
    for args in ({"metric": "home_value"}, {"zip": "60647", "metric": "home_value"}):
        hint = registry.run("query_property_values", args).map
        assert hint["level"] == "zip" and hint["unit"] == "dollars"
        assert dict(map(tuple, hint["data"])) == {z: round(p) for z, p in zip(latest["RegionName"], latest["price"])}
    ranked = registry.run("query_property_values", {"metric": "home_value", "top_n": 5})
    data = dict(map(tuple, ranked.map["data"]))
    assert {r["community_area"]: r["home_value"] for r in ranked.values["rows"]}.items() <= data.items()
    names = pd.read_csv(folder / "community_areas.csv")
    left_out = set(names[names["community"].str.title().isin(ranked.values["left_out"])]["area_number"])
    assert len(left_out) == len(ranked.values["left_out"]) == 3
    assert set(range(1, 78)) - set(data) == left_out  # the areas the ranking leaves out have no value
    assert registry.run("query_property_values", {"metric": "price_trend"}).map is None


def test_hint_values_are_for_the_page_not_for_grounding(registry):
    result = registry.run("query_socioeconomic", {"metric": "poverty", "community_area": "Englewood",
                                                  "compare_areas": ["Austin"]})
    rogers_park = dict(map(tuple, result.map["data"]))[1]
    assert str(rogers_park) not in result.text
    report = grounding.check_grounding(f"Rogers Park is at {rogers_park}%.", [result], "poverty in Englewood")
    assert report.unmatched == [f"{rogers_park}%"]
