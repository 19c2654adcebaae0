"""Checks of each lesson's exercises: they say right or wrong, not the answer."""
