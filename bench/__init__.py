"""Benchmarks (python -m bench)."""
