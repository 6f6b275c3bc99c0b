"""The rig's printable parts: parametric CAD (build123d) sized from the config's ``[build]`` section.

Optional: ``pip install -e '.[parts]'`` brings build123d (on OpenCascade), which only
``rig build-parts`` needs. Nothing else in the rig imports this package (import-linter keeps it so).
"""

#: what to tell a user without the CAD packages
INSTALL_HINT = "pip install -e '.[parts]'"


def require_cad() -> None:
    """Raise :class:`rig.errors.RigError` with the install line when build123d is not importable."""
    from rig.errors import RigError

    try:
        import build123d  # noqa: F401
    except ImportError as exc:
        raise RigError(f"the printed parts need the CAD packages ({exc.name or 'build123d'} is missing): "
                       f"{INSTALL_HINT}") from None
