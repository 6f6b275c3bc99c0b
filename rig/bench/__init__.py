"""Benchmarks run by ``rig bench``; each prints figures, none asserts timings."""
