"""Placeholder; being written (seed 001_e5fc2d51799d4e98)."""

NAME = "deathwish"
SEED = "001_e5fc2d51799d4e98.txt"
