"""A throwaway PostgreSQL server for the PostgreSQL test tier and the store benchmark.

``initdb`` into a new temporary folder, ``pg_ctl start`` on 127.0.0.1 at a free port (its Unix socket in that
folder too, never the system's), password authentication with a random password; stopped and removed afterwards.
The binaries are Debian's (/usr/lib/postgresql/<version>/bin, installed by ``make pg-deps``) or those on PATH.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user that Debian's package
creates (through runuser), and the folder is handed to it.

PostgresUnavailable says why a server cannot be started here; the tests skip with that reason.
"""
from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg

from bench.bench_web import free_port

USER = "chiqa"
# Test runs trade durability for speed (a crash loses a throwaway database); the benchmark keeps the defaults.
FAST = ("-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started on this machine; the message says why."""


def find_bindir() -> Path | None:
    """The newest Debian server installation, else the folder of an ``initdb`` on PATH."""
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
                    if p.parent.parent.name.isdigit() else 0)
    if debian:
        return debian[-1].parent
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found else None


def _server_account() -> pwd.struct_passwd | None:
    """The account the server runs as: None = this one; ``postgres`` when this one is root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable("running as root and there is no 'postgres' user to run the server as "
                                  "(PostgreSQL refuses root); install Debian's postgresql package") from None


@dataclass
class PostgresServer:
    bindir: Path
    root: Path
    port: int
    password: str
    account: pwd.struct_passwd | None = None

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}:{self.password}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if self.account is not None:
            runuser = shutil.which("runuser")
            command = ([runuser, "-u", "postgres", "--", *command] if runuser
                       else ["su", "-s", "/bin/sh", "postgres", "-c", shlex.join(command)])
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=self.root, check=False)
        if done.returncode != 0:
            raise PostgresUnavailable(f"{argv[0]} failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")
        return done

    def init(self) -> None:
        pwfile = self.root / "pwfile"
        pwfile.write_text(self.password + "\n")
        if self.account is not None:
            for path in (self.root, pwfile):
                os.chown(path, self.account.pw_uid, self.account.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", USER, f"--pwfile={pwfile}", "--auth=scram-sha-256",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        pwfile.unlink()

    def start(self, fast: bool = True) -> None:
        options = [f"-p {self.port}", "-c listen_addresses=127.0.0.1", f"-k {self.root}", *(FAST if fast else ())]
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t", "60",
                  "-o", " ".join(options), "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def log_tail(self, lines: int = 20) -> str:
        path = self.root / "server.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


@contextlib.contextmanager
def postgres_server(fast: bool = True):
    """A running server (see the module's docstring); PostgresUnavailable when there can be none here."""
    bindir = find_bindir()
    if bindir is None:
        raise PostgresUnavailable("no PostgreSQL server binaries (initdb): `make pg-deps` installs Debian's "
                                  "postgresql package (as root)")
    account = _server_account()
    # Run as postgres, the server must reach its folder: /tmp, not a private TMPDIR of root's.
    parent = "/tmp" if account is not None and os.path.isdir("/tmp") else None
    server = PostgresServer(bindir, Path(tempfile.mkdtemp(prefix="chiqa-pg-", dir=parent)), free_port(),
                            secrets.token_hex(16), account)
    try:
        server.init()
        server.start(fast)
        try:
            yield server
        finally:
            with contextlib.suppress(PostgresUnavailable, subprocess.TimeoutExpired):
                server.stop()
    finally:
        shutil.rmtree(server.root, ignore_errors=True)
