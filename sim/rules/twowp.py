"""Placeholder; being written (seed 000_7f98fe11b25af74f)."""

NAME = "2w2p"
SEED = "000_7f98fe11b25af74f.txt"
