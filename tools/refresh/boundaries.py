"""The community_areas.csv lookup, rebuilt from the portal's boundary polygons (igwz-8jzy).

The portal publishes only polygons, so the area in square miles and a label point are computed
here; the names the other files spell differently (``name_socioeconomic``) are carried over from
the files already in the destination folder.
"""
from __future__ import annotations

import contextlib
import csv
import math
from pathlib import Path

from tools.data.datasets import DATASETS
from tools.data.loader import canonical_area_name
from tools.errors import RefreshError
from tools.refresh.layouts import as_code, as_text, is_blank

COMMUNITY_AREA_HEADERS = ["area_number", "community", "name_socioeconomic", "area_sq_mi", "label_lat", "label_lon"]
EARTH_RADIUS_MI = 3958.8
REFERENCE_LAT = 41.84  # local equirectangular projection, as used for the shipped lookup
SQ_FT_PER_SQ_MI = 27878400.0


def _polygons(geom) -> list:
    """A GeoJSON (Multi)Polygon as a list of polygons, each a list of rings of (lon, lat)."""
    if not isinstance(geom, dict):
        return []
    coords = geom.get("coordinates") or []
    if geom.get("type") == "Polygon":
        coords = [coords]
    elif geom.get("type") != "MultiPolygon":
        return []
    return [[[(float(p[0]), float(p[1])) for p in ring] for ring in poly if ring] for poly in coords if poly]


def _edges(ring):
    """Consecutive vertex pairs, closing the ring whether or not its last point repeats the first."""
    return zip(ring, ring[1:] + ring[:1])


def _ring_area_xy(ring) -> float:
    """Signed planar area of a (lon, lat) ring in square miles (equirectangular projection)."""
    kx = EARTH_RADIUS_MI * math.radians(1) * math.cos(math.radians(REFERENCE_LAT))
    ky = EARTH_RADIUS_MI * math.radians(1)
    total = 0.0
    for (x1, y1), (x2, y2) in _edges(ring):
        total += (x1 * kx) * (y2 * ky) - (x2 * kx) * (y1 * ky)
    return total / 2.0


def _polygon_area(poly) -> float:
    return abs(_ring_area_xy(poly[0])) - sum(abs(_ring_area_xy(r)) for r in poly[1:])


def _crossings(y: float, poly):
    """x of every edge crossing the horizontal line at ``y`` (holes included)."""
    for ring in poly:
        for (x1, y1), (x2, y2) in _edges(ring):
            if (y1 > y) != (y2 > y):
                yield x1 + (y - y1) * (x2 - x1) / (y2 - y1)


def _inside(x: float, y: float, poly) -> bool:
    return sum(1 for cx in _crossings(y, poly) if x < cx) % 2 == 1


def _label_point(poly) -> tuple | None:
    """A point inside the polygon: the ring centroid if inside, else the middle of the widest
    horizontal run across the polygon at the centroid's latitude."""
    cx = cy = twice_area = 0.0
    for (x1, y1), (x2, y2) in _edges(poly[0]):
        cross = x1 * y2 - x2 * y1
        twice_area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if not twice_area:
        return None
    cx, cy = cx / (3 * twice_area), cy / (3 * twice_area)
    if _inside(cx, cy, poly):
        return cy, cx
    xs = sorted(_crossings(cy, poly))
    runs = [(xs[i + 1] - xs[i], (xs[i] + xs[i + 1]) / 2) for i in range(0, len(xs) - 1, 2)]
    return (cy, max(runs)[1]) if runs else None


def community_area_rows(raw: list[dict], known_names: dict[int, str]) -> list[dict]:
    """igwz-8jzy JSON rows -> the community_areas.csv lookup rows."""
    out = {}
    for row in raw:
        number = as_code(row.get("area_numbe") or row.get("area_number") or row.get("area_num_1"))
        community = as_text(row.get("community")).strip().upper()
        if not number.isdigit() or not community:
            raise RefreshError(f"community area row without a number or name: {sorted(row)[:6]}")
        number_i = int(number)
        polys = _polygons(row.get("the_geom") or row.get("geometry") or row.get("multipolygon"))
        area_sq_mi, label = "", ("", "")
        if polys:
            area_sq_mi = f"{sum(_polygon_area(p) for p in polys):.3f}"
            point = _label_point(max(polys, key=_polygon_area))
            if point:
                label = (f"{point[0]:.6f}", f"{point[1]:.6f}")
        elif not is_blank(row.get("shape_area")):
            area_sq_mi = f"{float(row['shape_area']) / SQ_FT_PER_SQ_MI:.3f}"  # State Plane square feet
        out[number_i] = {
            "area_number": str(number_i), "community": community,
            "name_socioeconomic": known_names.get(number_i) or canonical_area_name(community),
            "area_sq_mi": area_sq_mi, "label_lat": label[0], "label_lon": label[1],
        }
    return [out[k] for k in sorted(out)]


def _known_socioeconomic_names(dest: Path) -> dict[int, str]:
    """Names as spelled in socioeconomic.csv, from the lookup or the socioeconomic file already there."""
    names: dict[int, str] = {}
    with contextlib.suppress(OSError, ValueError, KeyError, csv.Error):
        with open(dest / DATASETS["socioeconomic"].file, encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                number = as_code(row.get("Community Area Number"))
                if number.isdigit():
                    names[int(number)] = (row.get("COMMUNITY AREA NAME") or "").strip()
    with contextlib.suppress(OSError, ValueError, KeyError, csv.Error):
        with open(dest / DATASETS["community_areas"].file, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                if row.get("name_socioeconomic"):
                    names[int(row["area_number"])] = row["name_socioeconomic"]
    return {k: v for k, v in names.items() if v}


def community_area_table(raw: list[dict], dest: Path, label: str) -> tuple[list[str], list[list[str]]]:
    """(headers, rows) of the new lookup; area numbers must be Chicago's 1-77."""
    rows = community_area_rows(raw, _known_socioeconomic_names(dest))
    numbers = {int(r["area_number"]) for r in rows}
    if not numbers <= set(range(1, 78)):
        raise RefreshError(f"{label}: area numbers outside 1-77: {sorted(numbers - set(range(1, 78)))}")
    return COMMUNITY_AREA_HEADERS, [[r[h] for h in COMMUNITY_AREA_HEADERS] for r in rows]
