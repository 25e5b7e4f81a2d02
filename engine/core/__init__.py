"""Shared numerics: special functions in log space, draws from weights, RNG plumbing."""
