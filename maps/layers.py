"""The two map layers (community areas, ZIP codes) as compact JSON, built once per process from the data folder.

A layer is {"level", "key", "viewBox", "features": [{"id", "name", "d"}], "source", "points"}: ids are
strings (area number "1"-"77", ZIP "60601") so the page can join tool results to shapes with one
lookup. Both layers share one projection and one frame (the community areas' bounding box plus the
ZIPs'), so they line up and can be swapped in the same SVG.

The JSON text, its gzip and an ETag are cached together, keyed by the geojson files' size and
modification time: a refreshed data folder rebuilds the layer, anything else reuses it.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path

from maps.geometry import bounds, path_data, project, simplify_rings, viewbox
from settings.files import UnsafeFile, read_json
from tools.data.integrity import DataIntegrityError
from tools.data.loader import canonical_area_name

MAX_BOUNDARY_BYTES = 64 << 20  # the boundary files are 2 MB and 0.1 MB

HEIGHT = 1000  # viewBox height; one unit is about 42 m on the ground
PAD = 4  # viewBox margin, so outlines along the frame's edge are not cut in half
TOLERANCE = 1.2  # Douglas–Peucker tolerance in viewBox units: about 1 px on a 1000 px tall map

LEVELS = {
    "community_areas": {"file": "community_areas.geojson", "level": "community_area", "key": "community_area",
                        "source": "Boundaries - Community Areas (City of Chicago, portal igwz-8jzy)"},
    "zips": {"file": "zip_codes.geojson", "level": "zip", "key": "zip",
             "source": "Boundaries - ZIP Codes (City of Chicago, portal gdcf-axmw)"},
}


@dataclass(frozen=True)
class Layer:
    body: bytes  # the JSON text, UTF-8
    gzipped: bytes
    etag: str  # unquoted; the route adds a suffix per encoding
    points_in: int
    points_out: int


_cache: dict = {}
_lock = threading.Lock()


def _rings(geometry: dict) -> list:
    """Every ring of a Polygon or MultiPolygon as [(lon, lat), ...] (holes included)."""
    if geometry["type"] == "Polygon":
        polygons = [geometry["coordinates"]]
    elif geometry["type"] == "MultiPolygon":
        polygons = geometry["coordinates"]
    else:
        return []
    return [[(float(p[0]), float(p[1])) for p in ring] for polygon in polygons for ring in polygon]


def _features(level: str, path: Path) -> dict:
    """id -> (name, rings), or DataIntegrityError naming a file that is not a readable boundary file."""
    try:
        out = _read_features(level, path)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:  # truncated, not geojson
        out, why = {}, exc.reason if isinstance(exc, UnsafeFile) else f"{type(exc).__name__}: {str(exc)[:120]}"
    else:
        why = "it holds no boundaries"
    if not out:
        raise DataIntegrityError(path.parent, {level: f"{path.name} is not a readable boundary file ({why})"})
    return out


def _read_features(level: str, path: Path) -> dict:
    """id -> (name, rings); ZIPs split over several features (60643, 60707) are merged."""
    out: dict = {}
    # Bounded like every data file (settings/files.py): a 10 GB or deeply nested file is named, never read whole.
    for feature in read_json(path, MAX_BOUNDARY_BYTES)["features"]:
        props = feature.get("properties") or {}
        if level == "community_areas":
            fid = str(int(float(props["area_numbe"])))
            name = canonical_area_name(str(props["community"]).strip())
        else:
            fid = str(props["zip"]).strip()
            name = f"ZIP {fid}"
        entry = out.setdefault(fid, (name, []))
        entry[1].extend(_rings(feature.get("geometry") or {}))
    return out


def _frame(data_dir: Path) -> tuple:
    """The shared (west, south, east, north) of both layers, so they project onto the same frame."""
    boxes = []
    for spec in LEVELS.values():
        path = data_dir / spec["file"]
        if path.is_file():
            boxes.append(bounds([rings for _, rings in _features_cached(spec, path).values()]))
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


_parsed: dict = {}  # (path, size, mtime) -> features: each file is parsed once even though both layers need both


def _features_cached(spec: dict, path: Path) -> dict:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _parsed:
        if len(_parsed) >= 4:  # a refreshed data folder: forget the old files
            _parsed.clear()
        level = next(name for name, s in LEVELS.items() if s is spec)
        _parsed[key] = _features(level, path)
    return _parsed[key]


def build_layer(level: str, data_dir: Path) -> Layer:
    spec = LEVELS[level]
    path = data_dir / spec["file"]
    features = _features_cached(spec, path)
    west, south, east, north = _frame(data_dir)
    scale, width, height = viewbox(west, south, east, north, HEIGHT)
    shapes, points_in, points_out = [], 0, 0
    for fid in sorted(features, key=lambda f: (len(f), f)):
        name, rings = features[fid]
        points_in += sum(len(r) for r in rings)
        simple = simplify_rings(project(rings, scale, (west, north)), TOLERANCE)
        points_out += sum(len(r) for r in simple)
        shapes.append({"id": fid, "name": name, "d": path_data(simple)})
    doc = {"level": spec["level"], "key": spec["key"], "viewBox": [-PAD, -PAD, width + 2 * PAD, height + 2 * PAD],
           "projection": "equirectangular at 41.84°N (longitude scaled by its cosine)",
           "simplification": f"Douglas-Peucker, tolerance {TOLERANCE} of {HEIGHT} units",
           "source": spec["source"], "points": {"input": points_in, "output": points_out}, "features": shapes}
    body = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Layer(body=body, gzipped=gzip.compress(body, 9, mtime=0),
                 etag=hashlib.sha1(body).hexdigest()[:16], points_in=points_in, points_out=points_out)


def get_layer(level: str, data_dir: Path) -> Layer:
    """The cached layer, rebuilt when either geojson file changed. Raises KeyError for an unknown level,
    FileNotFoundError when the file is missing and DataIntegrityError when it cannot be read as boundaries."""
    spec = LEVELS[level]
    stamps = []
    for other in LEVELS.values():  # the frame depends on both files
        p = Path(data_dir) / other["file"]
        stamps.append((p.stat().st_size, p.stat().st_mtime_ns) if p.is_file() else None)
    if not (Path(data_dir) / spec["file"]).is_file():
        raise FileNotFoundError(f"{spec['file']} is not in the data folder {data_dir}")
    key = (level, str(data_dir), tuple(stamps))
    with _lock:
        if key not in _cache:
            _cache[key] = build_layer(level, Path(data_dir))
        return _cache[key]
