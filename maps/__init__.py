"""Boundary geometry for the page's choropleth map: projected, simplified SVG paths built once from the geojson."""
