"""GET /api/geo/community_areas and /api/geo/zips: the map layers, projected and simplified once per process.

The body is the same bytes for every request until a geojson file changes, so it carries an ETag
(a repeat visit gets 304 Not Modified) and is sent gzip-compressed to clients that accept it.
"""
from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from maps.layers import LEVELS, get_layer
from settings.loader import DataNotFoundError, resolve_data_dir
from tools.data.integrity import DataIntegrityError
from web.errors import ApiError

bp = Blueprint("geo", __name__, url_prefix="/api/geo")
MAX_AGE_SECONDS = 3600


@bp.get("/<level>")
def layer(level: str):
    if level not in LEVELS:
        raise ApiError(404, "unknown_layer", f"no map layer {level!r}; layers: {', '.join(LEVELS)}")
    try:
        data_dir = resolve_data_dir(current_app.config["CHIQA_SETTINGS"])
        built = get_layer(level, data_dir)
    except DataIntegrityError as exc:  # a truncated or emptied geojson: named, like the CSVs' checks
        raise ApiError(503, "data_invalid", str(exc)) from None
    except (DataNotFoundError, FileNotFoundError) as exc:
        raise ApiError(503, "data_not_found", str(exc)) from None
    gzipped = "gzip" in request.accept_encodings
    response = Response(built.gzipped if gzipped else built.body, mimetype="application/json")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.set_etag(built.etag + ("-gz" if gzipped else ""))  # one tag per representation
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE_SECONDS}"
    response.headers["Vary"] = "Accept-Encoding"
    return response.make_conditional(request)
