"""Every route of the real app (read from its routing table, so a new route is walked too) with the
fuzz corpus: non-ASCII digits and invalid UTF-8 escapes in every path parameter and query, invalid
UTF-8 inside JSON strings in every POST body, malformed Origin, Host, Idempotency-Key, X-Rig-Pin,
Range, Content-Length and Content-Type headers. Never a 500, never a logged traceback, never a
poisoned state."""

from __future__ import annotations

import logging

from starlette.routing import Mount, Route

from rig.bench.fuzz import PIN, _Tracebacks, route_requests, walk_routes
from rig.config import RigConfig
from rig.app.runner import Rig


def test_every_route_walked_with_the_corpus_answers_without_a_500(tmp_path):
    catcher = _Tracebacks()
    logging.getLogger().addHandler(catcher)
    try:
        with Rig(RigConfig.default(), mode="sim", data_dir=tmp_path, seed=16, camera=True, sim_fps=5) as rig:
            app = rig.app(pin=PIN, lan=True)
            walked = {path.split("?")[0] for _, path, _, _ in route_requests(app)}
            for route in app.routes:  # every route and mount is reached, the calibration routes too
                assert isinstance(route, (Route, Mount))
                prefix = route.path.split("{")[0]
                assert any(p == route.path or p.startswith(prefix) and "{" in route.path
                           or isinstance(route, Mount) and p.startswith(route.path + "/") for p in walked), route.path
            assert any(p.startswith("/api/calibration/") for p in walked)
            figures = walk_routes(app)
    finally:
        logging.getLogger().removeHandler(catcher)
    assert figures["failures"] == [], figures["failures"][:10]
    assert catcher.count == 0, catcher.first
    assert figures["poisoned"] == 0 and figures["state_checks"] > 100
    assert figures["requests"] > 3000
    assert figures["statuses"].get(400, 0) > 100 and figures["statuses"].get(422, 0) > 100  # refused, not crashed
