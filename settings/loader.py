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

from settings.files import UnsafeFile, read_bounded
from settings.schema import Settings, default_of, env_overrides, leaf_settings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = PROJECT_ROOT / "config.yaml"
# The documented offline fallback: the shared exports sit beside the checkout.
FALLBACK_DATA_DIR = PROJECT_ROOT.parent / "shared" / "data"
# Top-level blocks of config.yaml that are not settings: the model catalogue is read by models/.
NON_SETTING_BLOCKS = ("models",)
# A config file is a few kilobytes; the limits keep a wrong path (a log, a disk image, a pipe) from being read whole,
# and a YAML file of aliases to aliases (a "billion laughs") from being walked into billions of keys.
MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_KEYS = 10_000


class SettingsError(ValueError):
    """A key in config.yaml, the environment or an override is not a setting, or has the wrong type."""


class DataNotFoundError(RuntimeError):
    """No folder with the exported CSVs could be found."""


_FIELDS = dict(leaf_settings())


def _flatten(tree: dict, prefix: str = "", out: dict | None = None, where: str = "") -> dict:
    out = {} if out is None else out
    for key, value in (tree or {}).items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and not (prefix == "" and key in NON_SETTING_BLOCKS):
            _flatten(value, dotted + ".", out, where)
        elif not (prefix == "" and key in NON_SETTING_BLOCKS):
            out[dotted] = value
        if len(out) > MAX_CONFIG_KEYS:
            raise SettingsError(f"{where or 'the settings'} hold more than {MAX_CONFIG_KEYS:,} keys "
                                "(aliases repeating one block?)")
    return out


def _unknown(key: str, where: str) -> SettingsError:
    near = difflib.get_close_matches(key, list(_FIELDS), n=1, cutoff=0.5)
    hint = f"; did you mean '{near[0]}'?" if near else "; see the settings table in docs/settings.md"
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
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer too large for a float
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise SettingsError(f"setting '{key}' in {where} must be {kind}, got {shown}") from None


def _number(value) -> str:
    """A bound or value as people write it: 1048576, 0.01, -3 (never 1.04858e+06)."""
    if float(value).is_integer() and abs(value) < 10**15:
        return str(int(value))
    text = f"{value:g}"
    return text if len(text) <= 30 else f"{value:.3g}"


def _check_range(key: str, value: Any, where: str) -> Any:
    """A number outside the setting's documented range, or a text setting's value not among its choices, is refused,
    naming the setting and what it allows."""
    meta = _FIELDS[key].metadata
    low, high = meta.get("low"), meta.get("high")
    choices = meta.get("choices")
    if choices and value not in choices:
        raise SettingsError(f"setting '{key}' in {where} must be one of {', '.join(choices)}, got {value!r}")
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            allowed = f"from {_number(low)} to {_number(high)}"
        else:
            allowed = f"at least {_number(low)}" if low is not None else f"at most {_number(high)}"
        raise SettingsError(f"setting '{key}' in {where} must be {allowed}, got {_number(value)}")
    return value


def _read_config(config_path: Path) -> dict:
    """The config file as a mapping; a missing, unreadable or malformed file is a SettingsError naming it."""
    try:
        raw = read_bounded(config_path, MAX_CONFIG_BYTES)
        tree = yaml.safe_load(raw.decode("utf-8")) or {}
    except UnsafeFile as exc:  # a FIFO, a device, a huge file: named, never waited on or read whole
        raise SettingsError(f"the config file {exc}") from None
    except IsADirectoryError:
        raise SettingsError(f"the config file {config_path} is a folder, not a YAML file") from None
    except FileNotFoundError:
        raise SettingsError(f"the config file {config_path} does not exist") from None
    except UnicodeDecodeError:
        raise SettingsError(f"the config file {config_path} is not UTF-8 text (a binary file?)") from None
    except OSError as exc:
        raise SettingsError(f"the config file {config_path} cannot be read: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or " ".join(str(exc).split())
        raise SettingsError(f"the config file {config_path} is not valid YAML{where}: {problem}") from None
    except RecursionError:
        raise SettingsError(f"the config file {config_path} nests too deeply") from None
    if not isinstance(tree, dict):
        raise SettingsError(f"{config_path} must hold a mapping of settings")
    return tree


def load_settings(path: str | os.PathLike | None = None, overrides: dict | None = None) -> Settings:
    """Defaults, then config.yaml, then environment variables, then explicit dotted overrides (None = keep)."""
    config_path = Path(path or os.environ.get("CHIQA_CONFIG") or DEFAULT_CONFIG)
    tree = _read_config(config_path)
    values = {key: default_of(f) for key, f in _FIELDS.items()}
    layers = [(_flatten(tree, where=f"the config file {config_path}"), str(config_path)),
              ({key: os.environ[env] for env, key in env_overrides().items() if os.environ.get(env)}, "the environment"),
              ({k: v for k, v in (overrides or {}).items() if v is not None}, "overrides")]
    for layer, where in layers:
        for key, value in layer.items():
            if key not in _FIELDS:
                raise _unknown(key, where)
            values[key] = _check_range(key, _coerce(key, value, where), where)
    return _build(Settings, values, config_path=str(config_path))


def with_overrides(settings: Settings, overrides: dict) -> Settings:
    """A copy with dotted overrides applied (None = keep); the original is never changed."""
    values = {key: _get(settings, key) for key in _FIELDS}
    for key, value in overrides.items():
        if value is None:
            continue
        if key not in _FIELDS:
            raise _unknown(key, "overrides")
        values[key] = _check_range(key, _coerce(key, value, "overrides"), "overrides")
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


def configured_data_dir(settings: Settings) -> Path | None:
    """The folder named by data.dir / CHIQA_DATA_DIR, or None when neither is set."""
    configured = settings.data.dir
    if not configured:
        return None
    path = Path(configured).expanduser()
    return path if path.is_absolute() else PROJECT_ROOT / path


def default_data_dir(settings: Settings) -> Path | None:
    """Without a configured folder: <var_dir>/data (where ``data refresh`` writes by default), else
    ../shared/data, whichever first holds homicides.csv; None when neither does."""
    for path in (var_dir(settings) / "data", FALLBACK_DATA_DIR):
        if (path / "homicides.csv").is_file():
            return path.resolve()
    return None


def resolve_data_dir(settings: Settings) -> Path:
    """The data folder. A configured one (data.dir / CHIQA_DATA_DIR) is used alone, never mixed with or
    replaced by another folder, so what is read is what was configured; otherwise ``default_data_dir``."""
    configured = configured_data_dir(settings)
    if configured is not None:
        if not configured.is_dir():
            raise DataNotFoundError(
                f"The data folder {configured} (set by CHIQA_DATA_DIR or data.dir) does not exist. A configured "
                "folder is used alone: fix the path, unset it to use <var_dir>/data or ../shared/data, or download "
                "the files into it with: python app.py data refresh (needs network)."
            )
        return configured.resolve()
    found = default_data_dir(settings)
    if found is not None:
        return found
    tried = ", ".join(str(p) for p in (var_dir(settings) / "data", FALLBACK_DATA_DIR))
    raise DataNotFoundError(
        "No ChiQA data found (looked in: " + tried + "). Either set CHIQA_DATA_DIR to a folder "
        "holding the exported CSVs (homicides.csv, socioeconomic.csv, census_acs.csv, ...), set "
        "data.dir in config.yaml, or download them with: python app.py data refresh "
        "(needs network; set SODA_APP_TOKEN for higher Socrata rate limits)."
    )
