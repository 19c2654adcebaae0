"""Measurement: setups over seeds, the batch paths, bands, statistics, the harness."""
