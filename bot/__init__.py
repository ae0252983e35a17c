"""Harmonies wound bot."""
