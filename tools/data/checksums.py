"""The data-file check as commands.

``python -m tools.data.checksums DIR [--write]`` prints (or, with --write, stores in
tools/data/checksums.json) the checksum list of a snapshot folder; run it when the shipped
snapshot changes. ``python app.py data verify`` checks the configured data folder file by file.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from settings.loader import DataNotFoundError, resolve_data_dir
from settings.schema import Settings
from tools.data.integrity import CHECKSUMS_FILE, check_files, snapshot_record


def run_verify_command(args, settings: Settings, out=None) -> int:
    """``python app.py data verify``: one line per file; exit 0 when all pass, 2 otherwise."""
    out = out or sys.stdout
    try:
        data_dir = resolve_data_dir(settings)
        checks = check_files(data_dir)
    except DataNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps({"data_dir": str(data_dir), "files": {k: c.to_dict() for k, c in checks.items()}},
                         indent=2), file=out)
    else:
        print(f"Data folder {data_dir}", file=out)
        for check in checks.values():
            status = "ok" if check.ok else "FAILED"
            detail = f"checked against {check.checked_against}" if check.ok else check.problem
            print(f"  {status:<7} {check.file:<45} {detail}", file=out)
    return 0 if all(c.ok for c in checks.values()) else 2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.data.checksums", description=__doc__.split("\n\n")[0])
    parser.add_argument("data_dir", help="the snapshot folder, e.g. ../shared/data")
    parser.add_argument("--write", action="store_true", help=f"store the list in {CHECKSUMS_FILE}")
    args = parser.parse_args(argv)
    text = json.dumps(snapshot_record(Path(args.data_dir)), indent=2) + "\n"
    if args.write:
        CHECKSUMS_FILE.write_text(text, encoding="utf-8")
        print(f"wrote {CHECKSUMS_FILE}")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
