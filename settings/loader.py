"""Load config.yaml, apply environment and explicit overrides, check every key and type, and find folders.

The result is a frozen, typed ``Settings`` (settings/schema.py). A key that is not a setting is an error
at start-up naming the nearest valid key, so a misspelling is never silently ignored.
"""
from __future__ import annotations

import dataclasses
import difflib
import math
import os
from pathlib import Path
from typing import Any

import yaml

from settings.schema import Settings, default_of, env_overrides, leaf_settings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = PROJECT_ROOT / "config.yaml"
# The documented offline fallback: the shared exports sit beside the checkout.
FALLBACK_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
# Top-level blocks of config.yaml that are not settings: the model catalogue is read by models/.
NON_SETTING_BLOCKS = ("models",)


class SettingsError(ValueError):
    """A key in config.yaml, the environment or an override is not a setting, or has the wrong type."""


class DataNotFoundError(RuntimeError):
    """No folder with the exported CSVs could be found."""


_FIELDS = dict(leaf_settings())


def _flatten(tree: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in (tree or {}).items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and not (prefix == "" and key in NON_SETTING_BLOCKS):
            out.update(_flatten(value, dotted + "."))
        elif not (prefix == "" and key in NON_SETTING_BLOCKS):
            out[dotted] = value
    return out


def _unknown(key: str, where: str) -> SettingsError:
    near = difflib.get_close_matches(key, list(_FIELDS), n=1, cutoff=0.5)
    hint = f"; did you mean '{near[0]}'?" if near else "; see the README's settings table"
    return SettingsError(f"unknown setting '{key}' in {where}{hint}")


def _coerce(key: str, value: Any, where: str) -> Any:
    """The value as the setting's type; strings from the environment are parsed."""
    kind = str(_FIELDS[key].type)
    nullable = "None" in kind
    if value is None or (isinstance(value, str) and value.strip().lower() in ("null", "none", "") and nullable):
        if nullable:
            return None
        raise SettingsError(f"setting '{key}' in {where} cannot be null")
    try:
        if kind.startswith("bool"):
            if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
                return value.strip().lower() in ("true", "1", "yes")
            if isinstance(value, bool):
                return value
            raise ValueError
        if kind.startswith("int"):
            if isinstance(value, bool):
                raise ValueError
            number = float(value)
            if not number.is_integer():
                raise ValueError
            return int(number)
        if kind.startswith("float"):
            if isinstance(value, bool):
                raise ValueError
            number = float(value)
            if not math.isfinite(number):
                raise ValueError
            return number
        if isinstance(value, (dict, list)):
            raise ValueError
        return str(value)
    except (TypeError, ValueError):
        raise SettingsError(f"setting '{key}' in {where} must be {kind}, got {value!r}") from None


def load_settings(path: str | os.PathLike | None = None, overrides: dict | None = None) -> Settings:
    """Defaults, then config.yaml, then environment variables, then explicit dotted overrides (None = keep)."""
    config_path = Path(path or os.environ.get("CHIQA_CONFIG") or DEFAULT_CONFIG)
    with open(config_path, encoding="utf-8") as fh:
        tree = yaml.safe_load(fh) or {}
    if not isinstance(tree, dict):
        raise SettingsError(f"{config_path} must hold a mapping of settings")
    values = {key: default_of(f) for key, f in _FIELDS.items()}
    layers = [(_flatten(tree), str(config_path)),
              ({key: os.environ[env] for env, key in env_overrides().items() if os.environ.get(env)}, "the environment"),
              ({k: v for k, v in (overrides or {}).items() if v is not None}, "overrides")]
    for layer, where in layers:
        for key, value in layer.items():
            if key not in _FIELDS:
                raise _unknown(key, where)
            values[key] = _coerce(key, value, where)
    return _build(Settings, values, config_path=str(config_path))


def with_overrides(settings: Settings, overrides: dict) -> Settings:
    """A copy with dotted overrides applied (None = keep); the original is never changed."""
    values = {key: _get(settings, key) for key in _FIELDS}
    for key, value in overrides.items():
        if value is None:
            continue
        if key not in _FIELDS:
            raise _unknown(key, "overrides")
        values[key] = _coerce(key, value, "overrides")
    return _build(Settings, values, config_path=settings.config_path)


def _get(settings: Settings, dotted: str) -> Any:
    node = settings
    for part in dotted.split("."):
        node = getattr(node, part)
    return node


def _build(cls, values: dict, prefix: str = "", **extra):
    kwargs = dict(extra)
    for f in dataclasses.fields(cls):
        if f.name == "config_path":
            continue
        key = prefix + f.name
        if dataclasses.is_dataclass(f.default_factory):
            kwargs[f.name] = _build(f.default_factory, values, key + ".")
        else:
            kwargs[f.name] = values[key]
    return cls(**kwargs)


def var_dir(settings: Settings) -> Path:
    path = Path(settings.server.var_dir)
    if not path.is_absolute():
        path = PROJECT_ROOT / path
    path.mkdir(parents=True, exist_ok=True)
    return path


def resolve_data_dir(settings: Settings) -> Path:
    """The first of data.dir / CHIQA_DATA_DIR, <var_dir>/data (where ``data refresh`` writes by
    default) and ../shared/data that holds homicides.csv."""
    candidates = []
    configured = settings.data.dir
    if configured:
        # A folder you name is used alone: falling back to another copy would answer from data you did not pick.
        path = Path(configured).expanduser()
        path = path if path.is_absolute() else PROJECT_ROOT / path
        if (path / "homicides.csv").is_file():
            return path.resolve()
        raise DataNotFoundError(
            f"The data folder set by CHIQA_DATA_DIR or data.dir ({path}) has no homicides.csv; it is used alone, "
            "with no fallback. Point it at a folder holding the exported CSVs, unset it to use var/data or "
            "../shared/data, or fill it with: python app.py data refresh (needs network).")
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
