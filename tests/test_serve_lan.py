"""The rig as the LAN sees it: a real `rig run --sim --listen ::` and a client on this machine's own
non-loopback address (so the rig sees a LAN device, not loopback). Skipped where there is none."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

from pathlib import Path

import pytest

from rig.bench.lan import flood, kiosk_seconds, lan_address, start_rig
from rig.app.serve import limited_protocol, raise_fd_limit
from tests.waiting import WAIT_S

LAN = lan_address()
needs_lan = pytest.mark.skipif(LAN is None, reason="this machine has no non-loopback address to connect from")


@pytest.fixture(scope="module")
def rig_on_lan(tmp_path_factory):
    proc, port, pin = start_rig(str(tmp_path_factory.mktemp("lan")), listen="::")
    yield port, pin
    proc.terminate()
    _, err = proc.communicate(timeout=WAIT_S)
    assert "Traceback" not in err


def fetch(address, port, path, *, data=None, headers=None, source=None):
    """An HTTP request from ``source`` (a local address to connect from) to ``address``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(10)
    if source:
        sock.bind((source, 0))
    sock.connect((address, port))
    lines = [f"{'POST' if data is not None else 'GET'} {path} HTTP/1.1", f"Host: {address}:{port}", "Connection: close"]
    body = json.dumps(data).encode() if data is not None else b""
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if data is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    raw = b""
    while chunk := sock.recv(65536):
        raw += chunk
    sock.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    return int(head.split()[1]), payload


@needs_lan
def test_a_lan_device_needs_the_pin_and_the_kiosk_on_ipv4_mapped_loopback_does_not(rig_on_lan):
    port, pin = rig_on_lan
    assert len(pin) == 8
    status, body = fetch(LAN, port, "/api/display", source=LAN)
    assert status == 200 and json.loads(body)["local"] is False and "pin" not in json.loads(body)
    assert fetch(LAN, port, "/api/history", source=LAN)[0] == 403
    assert fetch(LAN, port, "/api/calibration/preview.jpg", source=LAN)[0] == 403
    assert fetch(LAN, port, "/api/games", data={"players": ["A", "B", "C"]}, source=LAN)[0] == 403
    assert fetch(LAN, port, "/api/history", headers={"X-Rig-Pin": pin}, source=LAN)[0] == 200
    # the kiosk: 127.0.0.1 arrives as ::ffff:127.0.0.1 on a dual-stack socket, and is the rig itself
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/display", timeout=WAIT_S) as answer:
        shown = json.loads(answer.read())
    assert shown["local"] is True and shown["pin"] == pin


@needs_lan
def test_a_dns_rebinding_host_name_is_refused(rig_on_lan):
    port, _ = rig_on_lan
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/display", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=WAIT_S)
    assert refused.value.code == 421


@needs_lan
def test_a_flood_of_lan_connections_is_capped_and_the_kiosk_answers(rig_on_lan):
    port, _ = rig_on_lan
    figures = flood(LAN, port, 300, 20)
    assert figures["opened"] == 300
    assert figures["closed_at_once"] >= 300 - 64  # one device holds at most 64 connections
    assert figures["streams_accepted"] <= 8 and figures["streams_refused"] >= 1
    assert kiosk_seconds(port) < 10  # answered (speed is the benchmark's business)


def test_the_fd_limit_is_raised_and_the_protocol_builds():
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
        assert raise_fd_limit(4096) == min(4096, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert limited_protocol(per_client=2, total=3).__name__ == "LimitedH11Protocol"
    unit = Path(__file__).parent.parent / "systemd" / "rig.service"
    assert "\nLimitNOFILE=8192\n" in unit.read_text()
