"""Benchmarks: each module prints measured figures next to its goal. `python -m bench` runs them all."""
