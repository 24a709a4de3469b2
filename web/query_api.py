"""The semantic layer over HTTP: a typed query in, a typed result out, with no model in between.

POST /api/query          {"measures": [...], "group_by": [...], ...} -> {"ok": true, "result": {...}}
GET  /api/query/catalog  the declared measures, dimensions and join paths
GET  /api/query/schema   the query's JSON schema (generated from the declarations)

A bad query is 400 with the layer's named error: {"ok": false, "error": {"code", "message", "at", "suggestions"}}.
"""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from semantic.catalog import describe
from semantic.errors import QueryError
from semantic.executor import run_query
from semantic.schema import query_schema
from tools.query_data.tool import full_sources
from web.api import read_json_body
from web.errors import ApiError
from web.runtime import get_runtime

bp = Blueprint("query", __name__, url_prefix="/api/query")


@bp.post("")
def query():
    body = read_json_body()
    try:
        data = get_runtime(current_app).data()
    except Exception as exc:  # noqa: BLE001 - the data folder's own problem, named by /api/health too
        raise ApiError(503, "data_unavailable", f"the data could not be loaded: {type(exc).__name__}: "
                                                f"{str(exc)[:300]}") from None
    try:
        result = run_query(data, body)
    except QueryError as exc:
        response = jsonify({"ok": False, "error": exc.to_dict()})
        response.status_code = 400
        return response
    result.sources = full_sources(result.sources)
    return jsonify({"ok": True, "result": result.to_dict()})


@bp.get("/catalog")
def catalog():
    return jsonify({"ok": True, **describe()})


@bp.get("/schema")
def schema():
    return jsonify({"ok": True, "schema": query_schema()})
