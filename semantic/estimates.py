"""Figures the data does not publish but its parts let us estimate, each formula in one place.

A median from counts in bands: the extract publishes households by five income bands, not a median. The middle
household (half of all households) is placed in the band that holds it, and that band's households are assumed
spread evenly across its dollar range:

    median ~ band lower edge + (households / 2 - households below the band) / households in band * band width

When the middle household falls in the open top band there is no upper edge to interpolate to: only "above the
band's floor" can be said. The census tool (tools/census/median.py) and the layer's ``band_median`` measures both
use this function.
"""
from __future__ import annotations

import math


def median_from_bands(counts, edges) -> tuple[float | None, int | None, float | None]:
    """(estimate, index of the band holding the middle, the open band's floor) from band counts and lower edges.

    ``edges`` holds each band's lower edge; a band's upper edge is the next one's lower edge, and the last band is
    open. The estimate is None when the middle falls in the open band (then the floor is given) or there are no
    households (then all three are None)."""
    counts = [0.0 if c is None or (isinstance(c, float) and math.isnan(c)) else float(c) for c in counts]
    total = sum(counts)
    if total <= 0:
        return None, None, None
    half, below = total / 2, 0.0
    for band, count in enumerate(counts):
        if count > 0 and below + count >= half:
            low = edges[band]
            if band == len(edges) - 1:
                return None, band, low
            return low + (half - below) / count * (edges[band + 1] - low), band, None
        below += count
    return None, None, None


def band_median_value(counts, edges) -> float:
    """The layer's figure: the estimate, or the open band's floor when the middle falls there (the measure's
    caveat says to read it as "above"), NaN with no households."""
    estimate, _band, floor = median_from_bands(counts, edges)
    if estimate is not None:
        return estimate
    return float(floor) if floor is not None else math.nan
