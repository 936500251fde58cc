"""The policy layer: value sources (expected score, target score, winning chance), the one Policy that ranks options, the advisor and the CPU players."""
