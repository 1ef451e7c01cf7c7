"""Placeholder; being written (seed 002_5306f142c0f73876)."""

NAME = "wargame"
SEED = "002_5306f142c0f73876.txt"
