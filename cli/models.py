"""The ``model`` command: list the catalogue, pull a model (verified), remove one."""
from __future__ import annotations

import sys

from cli.ask import report_error
from models.catalog import CatalogError, load_catalog, model_file, models_dir, sidecar_facts
from models.pull import PullError, is_pulled, pull, remove
from settings.loader import var_dir
from settings.schema import Settings

# Exit codes: 0 done, 2 bad input (unknown name), 4 the pull failed (the message says which way).
PULL_FAILED = 4


def run_model_command(args, settings: Settings) -> int:
    try:
        catalog = load_catalog(settings.config_path)
    except CatalogError as exc:
        return report_error(args, "invalid_catalog", str(exc))
    folder = models_dir(var_dir(settings))
    if args.model_command == "list":
        return _list(catalog, folder)
    entry = catalog.get(args.name)
    if entry is None:
        return report_error(args, "unknown_model", f"no model named '{args.name}' in the catalogue; choose one of: "
                                                   + ", ".join(catalog))
    if args.model_command == "rm":
        print(("removed " if remove(entry, folder) else "not pulled: ") + str(model_file(entry, folder)))
        return 0
    try:
        path, pulled = pull(entry, folder)
    except PullError as exc:
        print(f"error: pull of {entry.name} failed ({exc.kind}): {exc}; nothing was written", file=sys.stderr)
        return PULL_FAILED
    facts = sidecar_facts(path)
    print(("pulled " if pulled else "already pulled (verified): ") + f"{entry.name} -> {path}")
    print(f"  sha256 {facts.get('sha256')}, {facts.get('size', 0):,} bytes, architecture "
          f"{facts.get('architecture')}, context {facts.get('context_length')}, chat template "
          f"{'yes' if facts.get('chat_template') else 'no'}")
    return 0


def _list(catalog: dict, folder) -> int:
    print(f"{'name':<22} {'size':>10} {'licence':<11} {'pulled':<7} path / note")
    for name, entry in catalog.items():
        pulled = is_pulled(entry, folder)
        where = str(model_file(entry, folder)) if pulled else entry.note
        print(f"{name:<22} {entry.size / 1e6:>8.0f}MB {entry.licence:<11} {'yes' if pulled else 'no':<7} {where}")
    return 0
