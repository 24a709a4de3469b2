"""The lead of an IHS submarket answer: the figure the question asked for, before the tool's summary.

The property tool's submarket answer carries the index at the asked quarter and the IHS summary's published figures
(median sales price, year-over-year change, change since 2000, ...) of the latest release. The question's wording
(analysis.price_figure, analyzer/submarkets.py) picks which one leads; without one, the index leads. Numbers are
formatted the way the tool formats them, so the grounding check finds them in the result.
"""
from __future__ import annotations

from analyzer.analysis import Analysis
from loop.steps import ToolCallStep
from tools import names
from tools.common import fmt_money, fmt_num
from tools.property.answers import signed_pct

# analysis.price_figure -> (how the answer names it, the published summary's key, the index value standing in
# when an earlier quarter was asked, whose summary figures are not that quarter's).
FIGURES = {
    "median_sales_price": ("median sales price", "median_sales_price", None),
    "yoy_change": ("year-over-year change", "yoy_change_pct", "price_index_yoy_pct"),
    "change_since_2000": ("change since 2000", "change_since_2000_pct", "price_index_change_pct"),
    "peak_to_current": ("change from the peak to now", "change_peak_to_current_pct", None),
    "bottom_to_current": ("change from the bottom to now", "change_bottom_to_current_pct", None),
    "pandemic_to_current": ("change since the COVID-19 pandemic began", "change_pandemic_to_current_pct", None),
}


def submarket_lead(entry: ToolCallStep, analysis: Analysis) -> str | None:
    """"<area> is in the IHS submarket <name>." when an area led to it, then the asked figure, then the summary."""
    values = entry.result.values
    if entry.name != names.PROPERTY or values.get("scope") != "submarket":
        return None
    name = values["submarket_name"]
    held = [sub.text for sub in analysis.submarkets if sub.match == "area" and sub.code == values.get("submarket_code")]
    figure = _figure_sentence(values, analysis.price_figure)
    if analysis.periods and values.get("price_index_change_pct") is not None and not analysis.price_figure:
        # "how much has it gone up since the first quarter of 2008": the change asked for leads
        change = values["price_index_change_pct"]
        figure = (f"The IHS house price index for {name} {'rose' if change > 0 else 'fell' if change < 0 else 'held'} "
                  f"{abs(change):.1f}% from {values['price_index_since_quarter']} to "
                  f"{values.get('price_index_quarter')}.")
    if held:  # one sentence: where the area is, and the figure asked for ("Hyde Park is in ...; its index ...")
        figure = f"{held[0]} is in the IHS submarket {name}; " + figure[len(name) + 2:] if figure.startswith(
            name + ": ") else f"{held[0]} is in the IHS submarket {name}. {figure}"
    return " ".join(p for p in (figure, entry.result.summary.strip().rstrip(".") + ".") if p)


def _figure_sentence(values: dict, figure: str | None) -> str:
    name, end = values["submarket_name"], values.get("price_index_quarter")
    published = values.get("published") or {}
    label, key, stand_in = FIGURES.get(figure, (None, None, None))
    latest = end == published.get("release")
    if key and published.get(key) is not None and (latest or stand_in is None):
        shown = fmt_money(published[key]) if key == "median_sales_price" else signed_pct(published[key])
        when = f"IHS {published['release']} summary" if published.get("release") else "IHS summary"
        return f"{name}: {label} {shown} ({when})."
    if stand_in == "price_index_yoy_pct" and values.get(stand_in) is not None:
        return f"{name}: price index year over year {signed_pct(values[stand_in])} in {end}."
    if stand_in == "price_index_change_pct" and values.get(stand_in) is not None:
        return (f"{name}: price index {signed_pct(values[stand_in])} from {values['price_index_since_quarter']} "
                f"to {end}.")
    return f"{name}: IHS house price index {fmt_num(values.get('price_index'))} in {end} (2000Q1 = 100)."
