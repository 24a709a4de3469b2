"""The quick tier's data slice (tests/fixtures/make_small_data.py, built into var/ by ``make test-fast``) against
the real exports.

The slice, built here from ../shared/data, must load through the app's own checks, every row in it must be a row
of the real file, and two builds must be byte for byte the same. Skipped when ../shared/data is absent.
"""
import json

import pytest

from settings.loader import FALLBACK_DATA_DIR, load_settings
from tests.fixtures import make_small_data as small
from tools.data.datasets import DATASETS
from tools.data.integrity import verify
from tools.data.loader import load_data

REAL = FALLBACK_DATA_DIR
pytestmark = pytest.mark.skipif(not (REAL / "homicides.csv").is_file(), reason=f"no real export in {REAL}")
FIXTURE_FILES = small.CSV_FILES + small.GEOJSON_FILES + ("refresh_manifest.json",)


@pytest.fixture(scope="module")
def fixture_dir(tmp_path_factory):
    return small.ensure(REAL, tmp_path_factory.mktemp("slice") / "small_data")


def test_fixture_passes_the_integrity_checks_and_loads(fixture_dir, tmp_path):
    checks = verify(fixture_dir)
    assert set(checks) == set(DATASETS) and all(c.ok for c in checks.values())
    assert all("refresh_manifest.json" in c.checked_against for c in checks.values())
    settings = load_settings(overrides={"server.var_dir": str(tmp_path / "var")})
    bundle = load_data(settings, data_dir=fixture_dir, use_cache=False)
    assert len(bundle.community_areas) == 77 and len(bundle.census_acs) == 77  # the per-area tables are whole
    assert set(bundle.homicides["community_area"].dropna().astype(int)) == set(small.AREAS)
    assert (bundle.homicides["id"] % small.HOMICIDE_ID_EVERY == 0).all()
    assert sorted(bundle.homicides["year"].unique().tolist()) == list(range(2001, 2024))  # every year
    assert sorted(bundle.zhvi["zip"].unique()) == sorted(small.ZIPS)
    assert bundle.coverage["homicides"]["first_year"] == 2001 and bundle.coverage["homicides"]["last_year"] == 2023


def test_fixture_is_small(fixture_dir):
    sizes = {p.name: p.stat().st_size for p in fixture_dir.iterdir()}
    assert set(sizes) == set(FIXTURE_FILES)
    assert sum(sizes.values()) < 250_000, sizes


def _records(path, header_rows=1):
    head, names, rows = small.read_table(path, header_rows)
    return head, names, [raw for raw, _ in rows]


@pytest.mark.parametrize("file", small.CSV_FILES)
def test_every_fixture_row_is_a_row_of_the_real_file(fixture_dir, file):
    header_rows = 2 if file == "property_ihs_price_index_quarterly.csv" else 1
    head, _, rows = _records(fixture_dir / file, header_rows)
    real_head, _, real_rows = _records(REAL / file, header_rows)
    assert head == real_head
    assert rows and set(rows) <= set(real_rows)
    assert len(set(rows)) == len(rows)
    order = {raw: i for i, raw in enumerate(real_rows)}
    assert [order[raw] for raw in rows] == sorted(order[raw] for raw in rows)  # in the real file's order


def _subsequence(small_ring, big_ring):
    it = iter(map(tuple, big_ring))
    return all(point in it for point in map(tuple, small_ring))


def _rings(geometry):
    polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
    return [ring for polygon in polygons for ring in polygon]


@pytest.mark.parametrize("file,key", [("community_areas.geojson", "area_numbe"), ("zip_codes.geojson", "objectid")])
def test_geojson_features_are_real_features_thinned(fixture_dir, file, key):
    fixture = json.loads((fixture_dir / file).read_text())
    real = {f["properties"][key]: f for f in json.loads((REAL / file).read_text())["features"]}
    assert fixture["features"]
    for feature in fixture["features"]:
        original = real[feature["properties"][key]]
        assert feature["properties"] == original["properties"]
        rings, real_rings = _rings(feature["geometry"]), _rings(original["geometry"])
        assert len(rings) == len(real_rings)
        for ring, real_ring in zip(rings, real_rings):
            assert len(ring) >= 4 and ring[0] == ring[-1] == real_ring[0]
            assert _subsequence(ring, real_ring)  # only the original vertices, in their order


def test_two_builds_of_the_slice_are_the_same(fixture_dir, tmp_path):
    small.build(REAL, tmp_path)
    for file in FIXTURE_FILES:
        assert (tmp_path / file).read_bytes() == (fixture_dir / file).read_bytes(), f"{file} differs between builds"
