"""Data loading: dataset registry, typed tables with a parquet cache, and the gazetteer."""
