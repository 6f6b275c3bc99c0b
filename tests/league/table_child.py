"""Child process of test_live.py: a rig's table (EngineService + league Publisher) playing at full speed.

Usage: python table_child.py DATA_DIR TABLE PORT PASSWORD SEED STEPS
STEPS = 0 plays until killed; else plays STEPS inputs, waits until the broker has acknowledged
everything and exits. Prints ``ready`` once publishing.
"""

import sys
import time

from rig.engine.paths import database_path
from rig.engine.service import EngineService
from rig.league.mqtt import BrokerSettings
from rig.league.publisher import Publisher, wait_until
from rig.league.simtable import SimTable


def main() -> int:
    data_dir, table, port, password, seed, steps = sys.argv[1:7]
    settings = BrokerSettings("127.0.0.1", int(port), username=table, password=password)
    with EngineService.open(data_dir, clock="child") as service, \
            Publisher(database_path(data_dir), table, settings, service=service) as publisher:
        sim = SimTable(service, seed=int(seed), t_us=time.monotonic_ns() // 1000)
        print("ready", flush=True)
        done = 0
        while int(steps) == 0 or done < int(steps):
            sim.step()
            done += 1
        ok = wait_until(lambda: publisher.link()["acked"] == service.log.last_seq(), 30)
        print("acked" if ok else f"not acked: {publisher.link()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
