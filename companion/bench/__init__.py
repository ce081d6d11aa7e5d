"""Benchmarks (`tactical bench ...`): scripts that print figures, never timed tests."""
