"""A local Mosquitto for the demo, the benchmark and the tests: Debian's ``mosquitto`` on 127.0.0.1,
a free port, a temporary folder with its config, accounts (one per table, one for the league)
and the ACL of ``examples/mosquitto/`` (a table may only publish under its own topics).

``with LocalBroker(["t1", "t2"]) as broker: broker.settings("t1")`` — :meth:`LocalBroker.stop`
(SIGTERM: Mosquitto saves its sessions) or :meth:`LocalBroker.kill` (SIGKILL) and
:meth:`LocalBroker.start` again on the same port and persistence file, to test outages.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from rig.errors import RigError
from rig.league.mqtt import BrokerSettings

#: the league service's account on the broker
LEAGUE_ACCOUNT = "league"

ACL = """\
# The league reads every table and may ask a table to send its events again.
user {league}
topic read rig/+/events
topic read rig/+/state
topic read rig/+/status
topic read rig/+/digest
topic write rig/+/resend

# Every other account is a table whose account name is its table name (%u): it may publish only
# under its own topics and read only its own resend requests.
pattern write rig/%u/events
pattern write rig/%u/state
pattern write rig/%u/status
pattern write rig/%u/digest
pattern read rig/%u/resend
"""

CONFIG = """\
# written by rig.league.broker for a local test broker
per_listener_settings false
# run as whoever started it (as root, mosquitto would switch to the user "mosquitto")
user {user}
listener {port} 127.0.0.1
allow_anonymous false
password_file {folder}/passwd
acl_file {folder}/acl
persistence true
persistence_location {folder}/
autosave_interval 5
# the league may be away for a while: keep its queued events (0 = no limit)
max_queued_messages 0
max_inflight_messages 100
log_dest file {folder}/mosquitto.log
log_type error
log_type warning
log_type notice
"""


class BrokerNotInstalled(RigError):
    """Debian's mosquitto is not installed (``sudo apt-get install mosquitto``, or ``make test`` does it)."""


def mosquitto_binary() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None


def make_test_certificates(folder: Path) -> Path:
    """A throw-away CA and a server certificate for 127.0.0.1 (``openssl``); returns the CA file."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RigError("openssl is not installed: it makes the test broker's TLS certificates")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for command in (
        [openssl, "req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=rig test CA"],
        [openssl, "req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
        [openssl, "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
         "-out", "server.crt", "-days", "2", "-extfile", "san.ext"],
    ):
        subprocess.run(command, cwd=folder, check=True, capture_output=True)
    return folder / "ca.crt"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalBroker:
    """A Mosquitto of its own, with an account per name in ``tables`` and one for the league."""

    def __init__(self, tables, *, folder: str | Path | None = None, port: int | None = None,
                 tls: bool = False) -> None:
        self.binary = mosquitto_binary()
        if self.binary is None:
            raise BrokerNotInstalled("mosquitto is not installed: run `sudo apt-get install mosquitto` "
                                     "(`make mosquitto`)")
        passwd = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
        self._tmp = None
        if folder is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="rig-mosquitto-")
            folder = self._tmp.name
        self.folder = Path(folder)
        self.port = port or free_port()
        self.passwords = {name: secrets.token_hex(8) for name in [*tables, LEAGUE_ACCOUNT]}
        lines = [f"{name}:{password}" for name, password in self.passwords.items()]
        (self.folder / "passwd").write_text("\n".join(lines) + "\n")
        os.chmod(self.folder / "passwd", 0o600)
        subprocess.run([passwd, "-U", str(self.folder / "passwd")], check=True, capture_output=True)
        (self.folder / "acl").write_text(ACL.format(league=LEAGUE_ACCOUNT))
        import pwd

        user = pwd.getpwuid(os.getuid()).pw_name
        config = CONFIG.format(port=self.port, folder=self.folder, user=user)
        self.ca_file = None
        if tls:
            self.ca_file = make_test_certificates(self.folder)
            config += (f"cafile {self.folder}/ca.crt\ncertfile {self.folder}/server.crt\n"
                       f"keyfile {self.folder}/server.key\n")
        (self.folder / "mosquitto.conf").write_text(config)
        self.process: subprocess.Popen | None = None

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<LocalBroker 127.0.0.1:{self.port} {state}>"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def settings(self, account: str) -> BrokerSettings:
        """How ``account`` (a table's name, or ``"league"``) connects."""
        return BrokerSettings("127.0.0.1", self.port, tls=self.ca_file is not None, ca_file=self.ca_file,
                              username=account, password=self.passwords.get(account, "?"))

    def start(self, timeout: float = 10.0) -> LocalBroker:
        if self.running:
            return self
        self.process = subprocess.Popen([self.binary, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode(errors="replace").strip().splitlines()
                raise RigError(f"mosquitto did not start: {error[-1] if error else 'no message'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.kill()
        raise RigError(f"mosquitto did not listen on 127.0.0.1:{self.port} within {timeout:g} s")

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves its sessions and queued messages, then exits."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """SIGKILL: a crash; what it held since its last autosave is gone."""
        self._end(signal.SIGKILL)

    def _end(self, sig: int) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None

    def close(self) -> None:
        self.kill()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> LocalBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
