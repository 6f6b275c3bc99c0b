"""Moved to :mod:`rig.app.serve` (issue 29); this old path stays for old imports."""

from rig.app.serve import bind_socket, page_urls, serve  # noqa: F401
