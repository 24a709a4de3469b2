"""Homicide tools: the advanced query, IUCR codes, rates, socioeconomic context and trends."""
