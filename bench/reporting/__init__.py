"""bench/report's parts: rows.py reads the Google Benchmark and peer JSON into one row list,
markdown.py writes the tables, plots.py the chain plots."""
