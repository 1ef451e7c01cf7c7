"""Placeholder; being written (seed 003_fd1c4a13f28810ec)."""

NAME = "d6"
SEED = "003_fd1c4a13f28810ec.txt"
