"""Benchmarks: ``python -m benchmarks`` prints the table of figures each issue must reach and
writes it to docs/benchmarks.md. Benchmarks are not tests; they measure, they do not assert."""
