"""Lunar Laser Frogs' benchmarks (``rig bench rules``, ``rig bench dice``; see :attr:`rig.registry.Game.benchmarks`)."""
