"""``rig bench lan``: a neighbour on the LAN opens many connections; does the kiosk still answer?

Starts ``rig run --sim --listen 0.0.0.0`` (as a Pi starts it: 1,024 open files allowed, the rig
raises that itself), then from this machine's own non-loopback address (so the rig sees a LAN
client, not loopback) opens ``--connections`` TCP connections, some of them live streams
(``GET /api/events``), the rest idle. Meanwhile the kiosk (127.0.0.1) asks ``GET /api/state`` again
and again. Figures: the kiosk's slowest answer, connections the rig kept vs closed at once, live
streams accepted vs refused (429/503), tracebacks in the rig's log. And the PIN: guesses per day
at the lockout's rate and the days to try the whole PIN space.
"""

from __future__ import annotations

import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from rig import argtypes


def add_arguments(parser) -> None:
    parser.add_argument("--connections", type=argtypes.count, default=2000, help="LAN connections to open (default 2000)")
    parser.add_argument("--streams", type=argtypes.amount, default=200, help="of them, live streams (default 200)")


def lan_address() -> str | None:
    """This machine's non-loopback IPv4 address, or None (then no LAN test is possible here)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: the kernel picks the source address
        address = probe.getsockname()[0]
    except OSError:
        address = None
    finally:
        probe.close()
    if address and not address.startswith("127."):
        return address
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            if not info[4][0].startswith("127."):
                return info[4][0]
    except OSError:
        pass
    return None


def _pi_limits() -> None:  # the child starts like a service without LimitNOFILE: 1,024 files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def start_rig(data_dir: str, listen: str = "0.0.0.0") -> tuple[subprocess.Popen, int, str]:
    """``rig run --sim --listen LISTEN --port 0``; returns (process, port, PIN)."""
    proc = subprocess.Popen([sys.executable, "-m", "rig", "run", "--sim", "--listen", listen, "--port", "0",
                             "--data-dir", data_dir], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_pi_limits)
    port = pin = None
    deadline = time.monotonic() + 60
    while (port is None or pin is None) and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        found = re.search(r"scoreboard at http://(?:127\.0\.0\.1|\[::1\]):(\d+)/", line)
        port = int(found.group(1)) if found else port
        found = re.search(r"PIN for changes from other devices: (\d+)", line)
        pin = found.group(1) if found else pin
    if port is None:
        proc.kill()
        raise RuntimeError(f"the rig did not start: {proc.stderr.read()[-500:]}")
    return proc, port, pin


def kiosk_seconds(port: int) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as answer:
        answer.read()
    return time.perf_counter() - start


def flood(lan: str, port: int, connections: int, streams: int) -> dict:
    """Open the connections from ``lan``; returns what the rig did with them and the kiosk's answers."""
    socks, refused_streams, kept_streams = [], 0, 0
    kiosk = []
    for n in range(connections):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((lan, 0))
        sock.settimeout(5)
        try:
            sock.connect((lan, port))
        except OSError:
            sock.close()
            continue
        if n < streams:
            sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {lan}:{port}\r\n\r\n".encode())
        socks.append(sock)
        if n % 100 == 0:
            kiosk.append(kiosk_seconds(port))
    time.sleep(0.5)
    closed = 0
    for n, sock in enumerate(socks):
        sock.setblocking(False)
        try:
            data = sock.recv(256)
        except BlockingIOError:
            data = None
        except OSError:
            data = b""
        if data == b"":
            closed += 1
        elif n < streams and data:
            if b" 200 " in data.split(b"\r\n", 1)[0]:
                kept_streams += 1
            else:
                refused_streams += 1
    for _ in range(20):
        kiosk.append(kiosk_seconds(port))
    for sock in socks:
        sock.close()
    return {"opened": len(socks), "closed_at_once": closed, "streams_accepted": kept_streams,
            "streams_refused": refused_streams, "kiosk_max_s": max(kiosk), "kiosk_answers": len(kiosk)}


def pin_figures() -> dict:
    from rig.display.app import PIN_DIGITS, PinGuard, new_pin

    guard = PinGuard(new_pin())
    per_day = guard.guesses_per_day()
    space = 10**PIN_DIGITS
    return {"digits": PIN_DIGITS, "guesses_per_day": per_day, "days_to_search": space / per_day,
            "chance_in_a_day": per_day / space}


def run(args) -> int:
    pin = pin_figures()
    print(f"PIN: {pin['digits']} digits, at most {pin['guesses_per_day']} guesses a day for all devices together "
          f"(global lockout with back-off): the whole space takes {pin['days_to_search']:,.0f} days "
          f"({pin['days_to_search'] / 365:,.0f} years); chance of a hit in one day {pin['chance_in_a_day']:.1e}")
    lan = lan_address()
    if lan is None:
        print("lan: skipped: this machine has no non-loopback address to connect from")
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.connections + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.connections + 200), hard))
    with tempfile.TemporaryDirectory(prefix="rig-bench-lan-") as data_dir:
        proc, port, _ = start_rig(data_dir)
        try:
            baseline = max(kiosk_seconds(port) for _ in range(10))
            figures = flood(lan, port, args.connections, args.streams)
            alive = proc.poll() is None
        finally:
            proc.terminate()
            try:
                _, err = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
    tracebacks = err.count("Traceback")
    print(f"lan: a client at {lan} opened {figures['opened']} connections ({args.streams} of them live streams) "
          f"to the rig at 0.0.0.0:{port}")
    print(f"  the rig kept {figures['opened'] - figures['closed_at_once']}, closed {figures['closed_at_once']} at "
          f"once; live streams accepted {figures['streams_accepted']}, refused {figures['streams_refused']}")
    print(f"  kiosk (127.0.0.1) GET /api/state: slowest of {figures['kiosk_answers']} answers during the flood "
          f"{figures['kiosk_max_s'] * 1000:.0f} ms (before: {baseline * 1000:.0f} ms); the rig "
          f"{'kept running' if alive else 'DIED'}; tracebacks in its log: {tracebacks}; log {len(err)} bytes")
    return 0 if alive and figures["kiosk_max_s"] < 1.0 and tracebacks == 0 else 1


