"""Analyses of play: simulation, CPU-vs-CPU matches, game review and the target curves."""
