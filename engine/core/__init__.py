"""Shared numerics: special functions in log space, draws from weights, RNG plumbing, the one
open-addressing hash table (and the keyed lists built on it), CRP seating, resampling."""
