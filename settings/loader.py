"""Load config.yaml, apply environment overrides, and resolve the data and var folders."""
from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import yaml

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = PROJECT_ROOT / "config.yaml"
# The documented offline fallback: the shared exports sit beside the checkout.
FALLBACK_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"

# Environment variable -> dotted settings key.
ENV_OVERRIDES = {
    "CHIQA_DATA_DIR": "data.dir",
    "CHIQA_MODEL_PATH": "model.path",
    "CHIQA_BACKEND": "model.backend",
    "CHIQA_VAR_DIR": "server.var_dir",
}


class DataNotFoundError(RuntimeError):
    """No folder with the exported CSVs could be found."""


def _set_dotted(tree: dict, dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    node = tree
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value


def get_dotted(tree: dict, dotted: str, default: Any = None) -> Any:
    node: Any = tree
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    return node


def load_settings(path: str | os.PathLike | None = None, overrides: dict | None = None) -> dict:
    """Settings as a nested dict: file, then environment, then explicit dotted overrides."""
    config_path = Path(path or os.environ.get("CHIQA_CONFIG") or DEFAULT_CONFIG)
    with open(config_path, encoding="utf-8") as fh:
        settings = yaml.safe_load(fh) or {}
    settings = copy.deepcopy(settings)
    for env, dotted in ENV_OVERRIDES.items():
        if os.environ.get(env):
            _set_dotted(settings, dotted, os.environ[env])
    for dotted, value in (overrides or {}).items():
        if value is not None:
            _set_dotted(settings, dotted, value)
    settings["_config_path"] = str(config_path)
    return settings


def var_dir(settings: dict) -> Path:
    path = Path(get_dotted(settings, "server.var_dir", "var"))
    if not path.is_absolute():
        path = PROJECT_ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


def resolve_data_dir(settings: dict | None = None) -> Path:
    """The first of data.dir / CHIQA_DATA_DIR, <var_dir>/data (where ``data refresh`` writes by
    default) and ../shared/data that holds homicides.csv."""
    settings = settings if settings is not None else load_settings()
    candidates = []
    configured = get_dotted(settings, "data.dir")
    if configured:
        path = Path(configured).expanduser()
        candidates.append(path if path.is_absolute() else PROJECT_ROOT / path)
    candidates.append(var_dir(settings) / "data")
    candidates.append(FALLBACK_DATA_DIR)
    for path in candidates:
        if (path / "homicides.csv").is_file():
            return path.resolve()
    tried = ", ".join(str(p) for p in candidates)
    raise DataNotFoundError(
        "No ChiQA data found (looked in: " + tried + "). Either set CHIQA_DATA_DIR to a folder "
        "holding the exported CSVs (homicides.csv, socioeconomic.csv, census_acs.csv, ...), set "
        "data.dir in config.yaml, or download them with: python app.py data refresh "
        "(needs network; set SODA_APP_TOKEN for higher Socrata rate limits)."
    )
