"""The MQTT client both ends use: paho-mqtt 2.x speaking MQTT 5 (so a refused publish comes back as a
reason code instead of vanishing, and a session can outlive a disconnect).

>>> BrokerSettings.parse_address("broker.local:1884")
('broker.local', 1884)
>>> BrokerSettings("broker.local", 8883, tls=True, username="league")
BrokerSettings(mqtts://league@broker.local:8883)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rig.errors import RigError

#: reconnect back-off: first retry after 1 s, doubling up to this many seconds
MAX_RECONNECT_DELAY_S = 4


class BrokerError(RigError):
    """The broker settings cannot work (a bad address, a missing CA file)."""


@dataclass(frozen=True)
class BrokerSettings:
    """How to reach the broker: address, TLS (with an optional CA file), account."""

    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: Path | None = None
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        user = f"{self.username}@" if self.username else ""
        return f"BrokerSettings({'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port})"

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    @classmethod
    def from_league(cls, league) -> BrokerSettings:
        """From a rig's ``[league]`` config (:class:`rig.config.LeagueConfig`): the table's own account."""
        return cls(league.host, league.port, league.tls, league.ca_file, league.account, league.password)

    @staticmethod
    def parse_address(text: str, default_port: int = 1883) -> tuple[str, int]:
        host, sep, port = text.strip().rpartition(":")
        if not sep or "]" in port:
            return text.strip(), default_port
        if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
            raise BrokerError(f"{text!r}: the port must be a number from 1 to 65535")
        return host.strip("[]"), int(port)


def make_client(client_id: str, settings: BrokerSettings):
    """A paho client (MQTT 5, callback API 2) with the account, TLS and back-off set; not connected yet."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        ca = settings.ca_file
        if ca is not None and not Path(ca).is_file():
            raise BrokerError(f"the broker's CA file {ca} does not exist")
        client.tls_set(ca_certs=str(ca) if ca else None)
    client.reconnect_delay_set(1, MAX_RECONNECT_DELAY_S)
    return client


def reason_text(reason_code) -> str:
    """A reason code as words (``"Not authorized"``)."""
    return str(getattr(reason_code, "getName", lambda: reason_code)())


def connect_failure(settings: BrokerSettings) -> str:
    """What a failed connection attempt says (paho does not pass the reason on)."""
    if settings.tls:
        return (f"cannot connect to the broker at {settings.address} with TLS (down, unreachable, or its "
                "certificate is not trusted: check ca_file); retrying")
    return f"cannot connect to the broker at {settings.address} (down or unreachable); retrying"
