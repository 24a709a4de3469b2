"""Census demographics and socioeconomic indicators by community area."""
