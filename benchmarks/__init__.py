"""Benchmarks: ``python -m benchmarks`` prints the table of figures each issue must reach and
writes it to docs/benchmark-run.md (docs/benchmarks.md keeps the latest figures). Benchmarks are
not tests; they measure, they do not assert."""
