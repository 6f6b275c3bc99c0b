"""The event log's write-ahead file checked before SQLite opens it: a damaged ``-wal`` (a frame whose
checksum fails) is refused, never replayed (issue 29: split from :mod:`rig.engine.log`, which
re-exports every name).
"""

from __future__ import annotations

import struct
from pathlib import Path

from rig.engine.errors import LogError

#: what a refusal of a damaged database tells the user to do
RESCUE = ("stop the rig, move {name} together with {name}-wal, {name}-shm and {name}-acked (if present) into a rescue "
          "folder (never delete them), then start the rig again for a new log; see docs/engine.md 'Durability'")


def _rescue(path: str | Path) -> str:
    return RESCUE.format(name=Path(path).name)


def _wal_checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), continuing from ``(s0, s1)``."""
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: Path) -> str | None:
    """Why ``wal`` would make SQLite silently drop committed transactions, or None.

    SQLite replays a WAL up to its first frame whose checksum fails and ignores the rest. At the
    end of the file that is a write cut short by a crash (never acknowledged); a bad frame with
    committed frames of the same WAL generation after it means acknowledged events would vanish.
    """
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < 32:
        return None
    magic, _version, page_size, _ckpt, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    if magic not in (0x377F0682, 0x377F0683) or not 512 <= page_size <= 65536:
        return "its header is not a WAL header" if any(data[:32]) else None
    big = magic & 1 == 1
    frame_size = 24 + page_size
    frames = [data[32 + k * frame_size: 32 + (k + 1) * frame_size] for k in range((len(data) - 32) // frame_size)]
    ours = [k for k, f in enumerate(frames) if struct.unpack(">II", f[8:16]) == (salt1, salt2)]
    s0, s1 = _wal_checksum(data[:24], big, 0, 0)
    if (s0, s1) != (c0, c1):
        commits = [k for k in ours if struct.unpack(">I", frames[k][4:8])[0]]
        return f"its header fails its checksum and {len(commits)} committed frame(s) follow" if commits else None
    for k, frame in enumerate(frames):
        if struct.unpack(">II", frame[8:16]) != (salt1, salt2):
            return None  # frames of an older generation: SQLite stops here, nothing committed is lost
        s0, s1 = _wal_checksum(frame[:8] + frame[24:], big, s0, s1)
        if (s0, s1) != struct.unpack(">II", frame[16:24]):
            later = [j for j in ours if j > k and struct.unpack(">I", frames[j][4:8])[0]]
            if later:
                return f"frame {k + 1} of {len(frames)} fails its checksum with {len(later)} committed frame(s) after it"
            return None  # the last write, cut short by a crash: it was never acknowledged
    return None


def _check_wal(path: Path) -> None:
    wal = path.with_name(path.name + "-wal")
    damage = wal_damage(wal) if wal.is_file() else None
    if damage:
        raise LogError(f"{wal} is damaged ({damage}): opening it would silently drop logged events, so "
                       f"{path.name} was left untouched: " + _rescue(path))
