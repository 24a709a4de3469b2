"""Home values (ZHVI by ZIP) and the IHS price index by submarket."""
