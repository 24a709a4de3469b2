"""The one executor: a checked Query in, a QueryResult out, computed on pandas from the declarations.

Each measure becomes a Series over the query's group keys: rows of its dataset picked by period and filters,
aggregated as declared (count, sum, mean, weighted mean, ratio of two measures, or a member's attribute),
carried along a declared join path where it is published at another grain, and given every member so an
empty one counts as 0. The table of those Series then gets derived columns, the threshold, the order and
limit, totals over the selection (recomputed, so a rate's total is a ratio of sums) and a correlation.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pandas as pd

from semantic import periods
from semantic.catalog import catalog
from semantic.datasets.population import POPULATION_LABELS, POPULATIONS
from semantic.errors import QueryError
from semantic.estimates import band_median_value
from semantic.query import MULTIPLE_RE, PAIR_OPS, WEIGHT_POPULATIONS, Filter, Period, Query, parse_query
from semantic.result import ALL, QueryResult, build_result
HOMICIDE_END = "The homicide data ends on {end}: {year} is a partial year."


def run_query(data, raw) -> QueryResult:
    """Check and run one query (a dict); a bad query raises QueryError."""
    query = parse_query(raw, data)
    executor = Executor(data, query)
    executor.caveats.extend(latest_instead(query, data))
    return executor.run()


def latest_instead(query: Query, data) -> list[str]:
    """A period with a fallback that the data ends before becomes the latest one held, for the whole query and for
    each measure's own period; each change is said ("March 2021 is not in the data: Redfin ... covers 2012-03-31 to
    2019-10-31, so the latest month held, October 2019, is given instead")."""
    cat, notes = catalog(), []
    timed = [spec for spec in query.measures
             if cat.datasets[cat.measures[spec.measure].dataset].time != "snapshot"]

    def replaced(period, spec):
        dataset = cat.datasets[cat.measures[spec.measure].dataset]
        held = periods.latest_held(period, dataset.coverage(data)) if period is not None else None
        if held is not None:
            kind = {"years": "year", "months": "month", "quarters": "quarter", "span": "period"}[held.kind]
            whole = "whole " if period.fallback == "latest_full" else ""
            coverage = dataset.coverage(data)
            instead = f"{held.words()}, as asked," if isinstance(period.fallback, Period) else \
                f"the latest {whole}{kind} held, {held.words()},"
            notes.append(f"{period.words()} is not in the data: {dataset.title.split(' (')[0]} covers {coverage[0]} "
                         f"to {coverage[1]}, so {instead} is given instead.")
        return held

    if timed and query.period is not None:
        query.period = replaced(query.period, timed[0]) or query.period
    for spec in timed:
        spec.period = replaced(spec.period, spec) or spec.period
    if query.members_from is not None:
        notes += latest_instead(query.members_from, data)
    return list(dict.fromkeys(notes))


class Executor:
    def __init__(self, data, query: Query):
        self.data, self.q = data, query
        self.cat = catalog()
        self.caveats: list[str] = []
        self.used: list[str] = []  # datasets read, for the sources
        self.steps: list[dict] = []  # the members_from results, for the trace
        self._picked: dict = {}  # an event dataset's rows for a period and filters, shared by the query's measures

    # ------------------------------------------------------------------ the whole query

    def run(self) -> QueryResult:
        table, filters = self.table()
        table = self._derive(table)
        # the places with a figure, and every place ("of all 77": East Side has no Zillow value)
        considered = (self._considered(table), len(table)) if self.q.count_share else None
        table = self._having(table)
        if self.q.count_base:  # a row outside the share's base is not counted in it either
            table = table.dropna(subset=[f for f in self.q.count_base if f in table])
        if self.q.groups:
            return self._compare_groups(table, filters)
        correlation = self._correlate(table) if self.q.correlate else None
        fitted = {name: _trend(_column(table, name)) for name in self.q.trend}
        covered = self._cover(table) if self.q.cover else None
        selected = len(table)  # before the limit: "of the 16 areas over 50,000 residents, the highest rate is ..."
        table, ties = self._order(table)
        totals = self._totals(table, filters) if self.q.totals else None
        spread = {name: _spread(_column(table, name)) for name in self.q.spread} if self.q.spread else None
        for name in self.q.spread if self.q.vs_city else []:
            # "how far is the plain average of the 77 areas below the city's own figure": the city's, as a
            # threshold "above the city's" reads it (the published CHICAGO row, or a ratio from the city's sums)
            spread[name]["city"] = self._reference(name, "city", _column(table, name))
        return build_result(self, table, totals, correlation, ties, spread, selected, considered=considered,
                            trend=fitted or None, cover=covered)

    def table(self) -> tuple[pd.DataFrame, list]:
        q = self.q
        filters = list(q.filters)
        if q.members_from is not None:
            inner = Executor(self.data, q.members_from)
            result = inner.run()
            place = q.members_from.place  # this query's own place, or none (grouped by time over the set)
            members = [row[place] for row in result.rows]
            self.caveats.extend(c for c in inner.caveats if c not in self.caveats)
            self.used.extend(inner.used)
            names = [f"{row[place + '_name']} ({row[place]})" if row.get(place + "_name") else str(row[place])
                     for row in result.rows]
            # the set's own totals: a count over the members picked from it is also a share of the set's
            additive = [c["name"] for c in result.columns if c.get("additive")]
            totals = {name: float(sum(r[name] for r in result.rows if isinstance(r.get(name), (int, float))))
                      for name in additive}
            self.steps.append({"query": q.members_from.to_dict(), "members": members, "names": names,
                               "grain": place, "totals": totals})
            filters.append(Filter(place, "in", members))
        keys = list(q.group_by) or [ALL]
        columns = {}
        by_name = {spec.name: spec for spec in q.measures}
        for spec in q.measures:
            matched = self._matched(spec, by_name[spec.matched_with], filters) if spec.matched_with else []
            series = self.measure(spec.measure, q.group_by, spec.period or q.period, filters + spec.filters + matched)
            if spec.per_year:
                series = series / self._years_in(spec.measure, spec.period or q.period, filters + spec.filters)
            columns[spec.name] = series
        table = pd.concat(columns, axis=1) if columns else pd.DataFrame()
        table.index.names = keys
        table = self._restrict(table, filters)
        if q.members_from is not None and not q.order_by and q.place is not None:
            order = self.steps[-1]["members"]  # the set's own order (a ranking's) carries over
            table = table.reindex([m for m in order if m in table.index])
        return table, filters

    # ------------------------------------------------------------------ one measure

    def measure(self, name: str, group_by: list, period, filters: list) -> pd.Series:
        m = self.cat.measures[name]
        dims = self.cat.dimensions
        grouping = next((g for g in group_by if dims[g].groups is not None), None)
        if grouping is not None and m.agg not in ("ratio", "band_median"):  # those are made of their parts
            return self._by_attribute(m, grouping, group_by, period, filters)
        place = next((g for g in group_by if dims[g].kind == "place"), None)
        if grouping is None:  # a ratio or band median over groups: each part is checked as it is grouped
            self._check_grain(m, place, group_by)
        if m.agg == "ratio":
            num = self.measure(m.numerator, group_by, period, filters)
            den = self.measure(m.denominator, group_by, period, self._denominator_filters(m, filters))
            den = den.reindex(num.index)
            return (num / den.where(den != 0) * m.scale).rename(name)
        if m.agg == "band_median":  # from the bands' sums, so a set of areas is its summed bands' median
            bands = pd.concat([self.measure(part, group_by, period, filters) for part in m.parts], axis=1)
            values = [band_median_value(row, m.edges) for row in bands.to_numpy(dtype=float)]
            return pd.Series(values, index=bands.index, name=name, dtype=float)
        if m.agg == "coverage":
            return self._coverage(m, place, group_by, period, filters)
        if m.agg == "weighted_mean" and place != "community_area":
            return self._weighted(m, group_by, period, filters)
        if place in m.derived_grains:
            return self._carried(m, place, group_by, period, filters)
        set_filter = next((f for f in filters if dims[f.dimension].kind == "place" and f.dimension not in group_by
                           and f.dimension in m.derived_grains), None)
        if set_filter is not None and m.agg == "attribute":  # a text per ZIP (a station's) does not average
            raise QueryError(f"{m.label} is one value per {m.grains[0] if m.grains else 'member'}: group by "
                             f"{set_filter.dimension} to give it for each", "grain_not_available")
        if set_filter is not None:  # a value asked of a few areas, published by ZIP: carry, then average
            per_member = self._carried(m, set_filter.dimension, [set_filter.dimension, *group_by], period, filters)
            return self._collapse(per_member, set_filter.dimension, group_by)
        return self._direct(m, group_by, period, filters)

    def _denominator_filters(self, m, filters: list) -> list:
        """A kind of homicide (domestic, with an arrest, at a kind of place, an IUCR code) narrows a rate's
        homicides, not the residents it is over: "domestic homicides per 100,000 residents a year". A time of year
        or day is not dropped (a rate per resident-year of June's homicides alone reads as the year's)."""
        held = self.cat.datasets[self.cat.measures[m.denominator].dataset].dimensions
        return [f for f in filters if f.dimension in held or self.cat.dimensions[f.dimension].kind == "place"
                or f.dimension not in _NUMERATOR_ONLY]

    def _by_attribute(self, m, attribute: str, group_by: list, period, filters: list) -> pd.Series:
        """A measure over groups of places that an attribute names ("the community areas mostly in each IHS
        submarket"): the places' own figures added up, so a rate of a group is its summed homicides over its
        summed population (the ratio's parts are each grouped). A figure that does not add up (a mean, a median)
        is refused rather than averaged silently."""
        if m.agg not in ("count", "sum"):
            raise QueryError(f"{m.label} cannot be added up over groups of places; ask for it by "
                             f"{self.cat.dimensions[self.cat.dimensions[attribute].parent].label.lower()}",
                             "grain_not_available")
        dim = self.cat.dimensions[attribute]
        per_place = self.measure(m.name, [dim.parent if g == attribute else g for g in group_by], period, filters)
        frame = per_place.rename(m.name).reset_index()
        frame[attribute] = frame[dim.parent].map(dim.groups(self.data))
        return frame.dropna(subset=[attribute]).groupby(list(group_by))[m.name].sum(min_count=1)

    def _check_grain(self, m, place, group_by) -> None:
        dims = self.cat.dimensions
        if place is not None and place not in m.grains and place not in m.derived_grains:
            grains = ", ".join(dims[g].label.lower() if g in dims else "the city" for g in m.grains)
            raise QueryError(f"{m.label} is not published by {dims[place].label.lower()}: it exists by {grains}",
                             "grain_not_available")
        dataset = self.cat.datasets[m.dataset]
        for g in group_by:
            if dims[g].kind != "place" and g not in dataset.dimensions:
                raise QueryError(f"{m.label} has no {dims[g].label.lower()}: it is the {dataset.vintage or ''} "
                                 f"{dataset.title.lower()}".replace("  ", " "), "grain_not_available")

    def _rows(self, m, period, filters, post: list) -> pd.DataFrame:
        """The dataset's rows for this measure: period, row filters and the measure's own condition. An event
        dataset's rows for a period and filters are picked once per query (homicides, arrests and domestic
        homicides read the same rows); its notes do not name the measure, and are said again as when picked."""
        dataset = self.cat.datasets[m.dataset]
        if dataset.name not in self.used:
            self.used.append(dataset.name)
        key = None
        if dataset.time == "event":
            key = (dataset.name, repr(period.to_dict()) if period is not None else None,
                   repr([f.to_dict() for f in filters]))
            if key in self._picked:
                frame, posted = self._picked[key]
                self._event_notes(dataset, period)
                post.extend(posted)
                return self._where(m, frame)
        frame = dataset.frame(self.data)
        if key is not None:
            frame = frame[self._event_columns(dataset, frame)]
        # Time filters first: a series' latest value is the latest of the rows they keep ("the window starting
        # 2012-01-01" is that one window, not the data's last).
        early = [f for f in filters if self.cat.dimensions[f.dimension].kind == "time" and f.dimension in frame.columns]
        for f in early:
            frame = frame[_mask(frame[f.dimension], f)]
        frame = self._period(dataset, m, frame, period)
        posted_before = len(post)
        for f in filters:
            dim = self.cat.dimensions[f.dimension]
            if f in early:
                continue
            if f.dimension in frame.columns:
                frame = frame[_mask(frame[f.dimension], f)]
            elif dim.mask is not None and set(dim.needs) <= set(frame.columns):
                keep = dim.mask(self.data, frame, f.values)
                frame = frame[keep if f.op == "in" else ~keep]
            elif dim.kind == "place":
                post.append(f)  # restricts the grouped result instead (the table's rows)
            else:
                raise QueryError(f"{m.label} cannot be filtered by {self.cat.dimensions[f.dimension].label.lower()}",
                                 "invalid_filter")
        if key is not None:
            self._picked[key] = (frame, post[posted_before:])
        return self._where(m, frame)

    def _event_columns(self, dataset, frame: pd.DataFrame) -> list:
        """The columns of an event dataset this query reads (its periods, group keys, filters and measures), so that
        picking rows copies only those."""
        q, dims = self.q, self.cat.dimensions
        named = set(q.group_by) | {f.dimension for f in q.filters} | \
            {f.dimension for spec in q.measures for f in spec.filters} | ({q.place} if q.place else set()) | \
            ({q.members_from.place} if q.members_from is not None else set())  # a set's places filter the rows
        # An attribute that groups places ("the areas mostly in each submarket") reads its places' column.
        named |= {dims[name].parent for name in named if name in dims and dims[name].groups is not None}
        wanted = {"date", "month", "quarter", "year"} | named
        for name in named:
            wanted |= set(dims[name].needs) if name in dims else set()
        for m in self.cat.measures.values():
            if m.dataset == dataset.name:
                wanted |= {m.column} | {column for column, _ in m.where}
        wanted |= set(POPULATIONS.values())
        return [c for c in frame.columns if c in wanted]

    @staticmethod
    def _where(m, frame: pd.DataFrame) -> pd.DataFrame:
        for column, value in m.where:
            frame = frame[frame[column] == value]
        return frame

    def _event_notes(self, dataset, period) -> None:
        """What ``_period`` says of an event dataset's period, said again for rows picked before."""
        if period is None:
            self._partial(dataset, None)
            return
        periods.check_coverage(period, dataset.title.split(" (")[0].split(",")[0], dataset.coverage(self.data),
                               self.caveats)
        self._partial(dataset, period)
        if dataset.name == "homicides":
            self._empty_years(dataset.frame(self.data), period)

    def _direct(self, m, group_by: list, period, filters: list) -> pd.Series:
        post: list = []
        place = next((g for g in group_by if self.cat.dimensions[g].kind == "place"), None)
        place_filtered = any(self.cat.dimensions[f.dimension].kind == "place" for f in filters)
        if place is None and not place_filtered:
            if m.city == "none":
                grains = ", ".join(m.grains + m.derived_grains)
                raise QueryError(f"{m.label} has no city-wide figure: group by {grains} or name members",
                                 "grain_not_available")
            if m.city == "published":  # before the members' rows: their window's note is not the city's figure's
                return self._published(m, group_by, period, filters)
        rows = self._rows(m, period, filters, post)
        keys = list(group_by) or [ALL]
        if not group_by:
            rows = rows.assign(**{ALL: "all"})
        column = m.column
        if m.name == "person_years":
            rows = self._person_years(rows, period)
            column = "person_years"
        grouped = rows.groupby(keys, observed=True, sort=True)
        if m.agg == "count":
            series = grouped.size().astype(float)
        elif m.agg == "sum":
            series = grouped[column].sum(min_count=1)
        elif m.agg in ("mean", "weighted_mean"):
            series = grouped[column].mean()
        else:  # attribute: one value per member
            series = grouped[column].first()
        series = self._complete(series.rename(m.name), m, keys, period)
        for f in post:
            if f.dimension not in keys:  # "the alderperson" over a set of community areas, with no grouping to hold it
                raise QueryError(f"{m.label} cannot be narrowed to {self.cat.dimensions[f.dimension].label.lower()} "
                                 f"members without grouping by {f.dimension}", "grain_not_available")
            series = series[_mask(pd.Series(series.index.get_level_values(f.dimension), index=series.index), f)]
        return series

    def _published(self, m, group_by, period, filters) -> pd.Series:
        """The source's own city-wide figure (its city rows, through the same period and filters)."""
        dataset = self.cat.datasets[m.dataset]
        frame = self._period(dataset, m, dataset.city_frame(self.data), period,
                             pick=dataset.city_period_pick or dataset.period_pick)
        for f in filters:
            if f.dimension in frame.columns:
                frame = frame[_mask(frame[f.dimension], f)]
        self._note(f"{m.label} for the city is the source's own city-wide figure.")
        keys = list(group_by) or [ALL]
        if not group_by:
            frame = frame.assign(**{ALL: "all"})
        grouped = frame.groupby(keys, observed=True, sort=True)[m.column]
        series = grouped.sum(min_count=1) if m.agg == "sum" else grouped.first() if m.agg == "attribute" \
            else grouped.mean()
        return self._complete(series.rename(m.name), m, keys, period)

    def _person_years(self, rows: pd.DataFrame, period) -> pd.DataFrame:
        column = POPULATIONS[self.q.population]
        fractions = periods.year_fractions(period, sorted(rows["year"].unique()))
        self._note(f"Rates per 100,000 use {POPULATION_LABELS[self.q.population]} as the population.")
        return rows.assign(person_years=rows[column] * rows["year"].map(fractions).fillna(0.0))

    def _weighted(self, m, group_by, period, filters) -> pd.Series:
        """A mean over a set of areas (or the city), each area weighted by the declared weight."""
        place_filtered = any(self.cat.dimensions[f.dimension].kind == "place" for f in filters)
        if not group_by and not place_filtered and m.city == "published":
            self._rows(m, period, [], [])
            return self._published(m, group_by, period, filters)
        values = self.measure(m.name, ["community_area"], period, filters)
        # a population the question names weighs the areas instead of the declared one (itself a population)
        weight = WEIGHT_POPULATIONS[self.q.weight_by] if self.q.weight_by and m.weight in WEIGHT_POPULATIONS.values() \
            else m.weight
        weights = self.measure(weight, ["community_area"], None, filters).reindex(values.index)
        both = pd.DataFrame({"v": values, "w": weights}).dropna()
        self._note(f"{m.label} over several areas is their mean weighted by {self.cat.measures[weight].label}.")
        value = float((both["v"] * both["w"]).sum() / both["w"].sum()) if both["w"].sum() else math.nan
        return pd.Series([value], index=pd.Index(["all"], name=ALL), name=m.name)

    def _carry_frame(self, m, target, group_by, period, filters) -> pd.DataFrame:
        """The measure's values at its own grain, each beside the ``target`` members it reaches and the weight."""
        join = next(j for j in self.cat.joins if j.target == target and j.source in m.grains)
        inner_group = [join.source if g == target else g for g in group_by]
        inner_filters = [f for f in filters if f.dimension != target]
        source = self._direct(m, inner_group, period, inner_filters).dropna()
        self._note(f"{m.label} by {self.cat.dimensions[target].label.lower()} is derived: {join.method}.")
        return source.reset_index().merge(join.table(self.data), on=join.source)

    def _carried(self, m, target, group_by, period, filters) -> pd.Series:
        """A measure published at another grain, carried to ``target`` along a declared join path: a weighted mean,
        or for a text attribute the value of the member with the most weight."""
        frame = self._carry_frame(m, target, group_by, period, filters)
        keys = [g for g in group_by]
        if m.agg == "attribute":
            frame = frame.sort_values("weight", ascending=False, kind="mergesort")
            series = frame.groupby(keys, observed=True)[m.name].first()
        else:
            frame["vw"] = frame[m.name] * frame["weight"]
            grouped = frame.groupby(keys, observed=True)
            series = (grouped["vw"].sum() / grouped["weight"].sum()).rename(m.name)
        series = self._complete(series.rename(m.name), m, keys, period)
        for f in filters:
            if f.dimension == target:
                series = series[_mask(pd.Series(series.index.get_level_values(target), index=series.index), f)]
        return series

    def _coverage(self, m, place, group_by, period, filters) -> pd.Series:
        """The summed join weight of the source members where the measure ``m.of`` has a value."""
        if place not in m.derived_grains:
            raise QueryError(f"{m.label} is by {', '.join(m.derived_grains)}: group by it", "grain_not_available")
        of = self.cat.measures[m.of]
        frame = self._carry_frame(of, place, group_by, period, filters)
        series = frame.groupby(list(group_by), observed=True)["weight"].sum().rename(m.name)
        series = self._complete(series, m, list(group_by), period).fillna(0.0)
        for f in filters:
            if f.dimension == place:
                series = series[_mask(pd.Series(series.index.get_level_values(place), index=series.index), f)]
        return series

    def _matched(self, spec, other, filters) -> list:
        """A filter to the source members (an area's ZIPs) valued in both paired columns' periods, so that a change
        between them is not a member entering or leaving the data."""
        m, place = self.cat.measures[spec.measure], self.q.place
        join = next((j for j in self.cat.joins if j.target == place and j.source in m.grains), None)
        if join is None:
            raise QueryError(f"matched_with compares a carried measure over the same members: {m.label} is not "
                             f"carried to {place or 'the city'}", "invalid_query", "matched_with")
        inner = [f for f in filters if self.cat.dimensions[f.dimension].kind != "place" or f.dimension == join.source]
        valued = None
        for s in (spec, other):
            series = self._direct(m, [join.source], s.period or self.q.period, inner + s.filters).dropna()
            members = set(series.index)
            valued = members if valued is None else valued & members
        self._note(f"{spec.name} and {other.name} are over the {self.cat.dimensions[join.source].label}s valued in "
                   "both.")
        return [Filter(join.source, "in", sorted(valued))]

    def _collapse(self, series: pd.Series, dimension: str, group_by: list) -> pd.Series:
        if series.dropna().index.get_level_values(dimension).nunique() > 1:
            self._note(f"Over several {self.cat.dimensions[dimension].label.lower()}s the figure is their plain mean.")
        if not group_by:
            return pd.Series([series.mean()], index=pd.Index(["all"], name=ALL), name=series.name)
        return series.groupby(level=list(group_by)).mean()

    # ------------------------------------------------------------------ periods and members

    def _period(self, dataset, m, frame, period, pick: str = ""):
        if dataset.time == "snapshot":
            if period is not None:
                self._note(f"{m.label} is a single snapshot ({dataset.vintage}): the period "
                           f"{period.label()} does not apply to it.")
            return frame
        coverage = dataset.coverage(self.data)
        if period is None:
            over_time = [g for g in self.q.group_by if self.cat.dimensions[g].kind == "time" and g in frame.columns]
            if dataset.time == "series" and not over_time:  # a value with no period asked: the latest the data has
                latest = _latest(frame)
                self._note(f"{m.label} is the latest the data has: {latest[1]}.")
                return frame[frame[latest[0]] == latest[1]]
            self._partial(dataset, None)
            return frame
        periods.check_coverage(period, dataset.title.split(" (")[0].split(",")[0], coverage, self.caveats)
        self._partial(dataset, period)
        picked = periods.apply(frame, period, m.label)
        if (pick or dataset.period_pick) == "last" and len(picked):
            latest = _latest(picked)
            self._note(f"{m.label} is the window ending {latest[1]}, the last in {period.label()}.")
            picked = picked[picked[latest[0]] == latest[1]]
        if dataset.time == "event" and dataset.name == "homicides":
            self._empty_years(frame, period)
        return picked

    def _partial(self, dataset, period) -> None:
        if dataset.name != "homicides":
            return
        cov = self.data.coverage["homicides"]
        last = int(cov["last_year"])
        end = periods.period_bounds(period)[1] if period is not None else "9999"
        if end >= f"{last}-01-01":
            self._note(HOMICIDE_END.format(end=cov["end"], year=last))

    def _empty_years(self, frame, period) -> None:
        """A year inside the data's span with no rows at all is said, never shown as a quiet 0."""
        lo, hi = periods.period_bounds(period)
        present = set(frame["year"].unique())
        cov = self.data.coverage["homicides"]
        for year in range(max(int(lo[:4]), int(cov["first_year"])), min(int(hi[:4]), int(cov["last_year"])) + 1):
            if year not in present:
                self._note(f"The homicide file has no rows at all for {year}, inside its span: the file may be "
                           "incomplete, so a 0 there is not a count.")

    def _complete(self, series: pd.Series, m, keys: list, period) -> pd.Series:
        """Every member of each key, so that an area or a month with no homicides is a 0, not missing."""
        dims = self.cat.dimensions
        domains = []
        dataset = self.cat.datasets[m.dataset]
        for key in keys:
            if key == ALL:
                domains.append(["all"])
            elif dims[key].kind in ("place", "attribute") and dims[key].members is not None:
                domains.append(list(dims[key].members(self.data)))
            elif dims[key].kind == "time" and dataset.time != "snapshot":
                span = periods.domain(key, period, dataset.coverage(self.data))
                span = span if span is not None and dataset.time == "event" else None
                if span is None and dims[key].members is not None and dataset.time == "event":
                    span = list(dims[key].members(self.data))
                domains.append(span if span is not None else sorted(series.index.get_level_values(key).unique()))
            else:
                domains.append(sorted(series.index.get_level_values(key).unique()))
        index = pd.MultiIndex.from_product(domains, names=keys) if len(keys) > 1 else pd.Index(domains[0], name=keys[0])
        series = series.reindex(index)
        return series.fillna(0.0) if m.agg == "count" else series

    def _restrict(self, table: pd.DataFrame, filters: list) -> pd.DataFrame:
        for f in filters:
            if f.dimension in table.index.names:
                table = table[_mask(pd.Series(table.index.get_level_values(f.dimension), index=table.index), f)]
        return table

    def _years_in(self, name, period, filters=()) -> float:
        dataset = self.cat.datasets[self.cat.measures[name].dataset]
        first, last = (periods.bounds_of(c, e) for c, e in zip(dataset.coverage(self.data), (False, True)))
        lo, hi = periods.period_bounds(period) if period is not None else (first, last)
        years = [y for y in range(int(max(lo, first)[:4]), int(min(hi, last)[:4]) + 1)]
        if period is not None and period.kind == "years":
            years = [y for y in period.values if int(first[:4]) <= y <= int(last[:4])]
        if years and years[-1] == int(last[:4]) and not last.endswith("-12-31") and \
                not self._days_kept(last, filters):
            self._note(f"Per year: {years[-1]} is left out: its data end {last}, before any of the days asked.")
            years = years[:-1]
        self._note(f"Per year: over {len(years)} year(s), {years[0]}-{years[-1]}" if years else "Per year: no years")
        return float(len(years)) if years else math.nan

    def _days_kept(self, last: str, filters) -> bool:
        """Whether a partial last year, up to the data's end, holds any day the calendar filters keep (Christmas in
        a year whose data end in July holds none)."""
        days = pd.date_range(f"{last[:4]}-01-01", last, freq="D")
        frame = pd.DataFrame({"date": days.strftime("%Y-%m-%d"), "year": days.year, "calendar_month": days.month,
                              "month_day": days.strftime("%m-%d")})
        for f in filters:
            dim = self.cat.dimensions[f.dimension]
            if f.dimension in frame.columns and f.dimension != "year":
                frame = frame[_mask(frame[f.dimension], f)]
            elif dim.mask is not None and set(dim.needs) <= set(frame.columns):
                keep = dim.mask(self.data, frame, f.values)
                frame = frame[keep if f.op == "in" else ~keep]
        return len(frame) > 0

    def _note(self, text: str) -> None:
        if text not in self.caveats:
            self.caveats.append(text)

    # ------------------------------------------------------------------ the table's own steps

    def _derive(self, table: pd.DataFrame) -> pd.DataFrame:
        for item in self.q.derived:
            if item["op"] == "excess" and "city" not in item:  # the city's own ratio, once (the totals use it too)
                item["city"] = self._reference(item["of"][1], "city", table[item["of"][1]])
            table[item["name"]] = derive(item, table)
        return table

    def _considered(self, table: pd.DataFrame) -> int:
        """The rows with a value of every thresholded column, before the threshold: "23 of the 77 (29.9%)". A base
        column with a threshold of its own keeps only the rows inside it ("of the 20 cheapest, what % ...")."""
        fields = [f for f in [h["field"] for h in self.q.having] + self.q.count_base if f in table]
        own = [h for h in self.q.having if h["field"] in self.q.count_base]
        table = self._picked_by(table, [dict(h) for h in own])[0] if own else table
        return int(table[fields].notna().all(axis=1).sum()) if fields else len(table)

    def _having(self, table: pd.DataFrame) -> pd.DataFrame:
        table, self.q.having = self._picked_by(table, self.q.having)
        return table  # the result and its sentences say the number a reference stood for

    def _picked_by(self, table: pd.DataFrame, having: list) -> tuple[pd.DataFrame, list]:
        resolved, whole = [], table
        for h in having:
            values = table[h["field"]] if h["field"] in table else _index_values(table, h["field"])
            if isinstance(h["value"], str) and h["field"] in self.q.group_by:  # a member by its name
                h = {**h, "value": self._member(h["field"], h["value"])}
            elif isinstance(h["value"], str):  # "above the city's", "above the median": the number it stands for
                times, word = MULTIPLE_RE.fullmatch(h["value"]).groups() if "*" in h["value"] else (1, h["value"])
                # a median of all the places, not of those an earlier bound kept ("below the median on both"), nor
                # only of another query's members ("of the areas over 40% Black, how many grew faster than the
                # average area")
                whole = self._every_place() if self.q.members_from is not None and word != "city" else whole
                every = whole[h["field"]] if h["field"] in whole else _index_values(whole, h["field"])
                base = self._reference(h["field"], word, every)
                # compared unrounded: the median is one place's own value, and a rounded bound would let that
                # place pass "strictly above the median"
                exact = float(times) * base
                table = table[_compare(values, h["op"], exact).fillna(False).to_numpy(dtype=bool)]
                resolved.append({**h, "value": round(exact, 6), "reference": word,
                                 **({"times": float(times), "base": base} if "*" in h["value"] else {})})
                continue
            resolved.append(h)
            table = table[_compare(values, h["op"], h["value"]).fillna(False).to_numpy(dtype=bool)]
        return table, resolved

    def _every_place(self) -> pd.DataFrame:
        """This query's columns over every member of its grain: no other query's members, no bound."""
        free = replace(self.q, members_from=None, having=[], order_by=[], limit=None, offset=0, totals=False,
                       count_share=False, count_base=[], spread=[], correlate=[], trend=[], cover={}, groups=[])
        inner = Executor(self.data, free)
        table, _ = inner.table()
        return inner._derive(table)

    def _member(self, dimension: str, value: str):
        """A member named in a having, as the dimension's members are written (its resolve, where it has one)."""
        resolve = self.cat.dimensions[dimension].resolve
        return resolve(self.data, value) if resolve is not None else value

    def _reference(self, field: str, word: str, values: pd.Series) -> float:
        """The number a threshold named by what it is stands for: the median or mean of the grouped rows (places
        without a value left out), or the city's own figure for the column's measure over the same period and
        filters (a ratio recomputed from the city's sums, never an average of the places')."""
        numbers = pd.to_numeric(values, errors="coerce").dropna()
        if word in ("median", "mean"):
            if numbers.empty:
                raise QueryError(f"no {field} values to take the {word} of", "empty_result")
            return float(numbers.median() if word == "median" else numbers.mean())
        spec = next((s for s in self.q.measures if s.name == field), None)
        if spec is None:
            raise QueryError(f"having on {field}: 'city' needs a measure column", "invalid_query", "having")
        places = {name for name, d in self.cat.dimensions.items() if d.kind == "place"}
        kept = [f for f in self.q.filters if f.dimension not in places]
        return _scalar(self.measure(spec.measure, [], spec.period or self.q.period, kept + spec.filters))

    def _order(self, table: pd.DataFrame) -> tuple[pd.DataFrame, list]:
        return self._ordered(table, self.q.order_by, self.q.limit, self.q.offset)

    def _ordered(self, table: pd.DataFrame, order_by: list, limit: int | None, start: int) -> tuple[pd.DataFrame, list]:
        ties: list = []
        named = next((f.values for f in self.q.filters if f.op == "in" and self.q.group_by == [f.dimension]), None)
        if not order_by and named and table.index.nlevels == 1:
            # the members in the order the question named them ("Englewood, West Englewood and Auburn Gresham")
            place = {member: i for i, member in enumerate(named)}
            table = table.iloc[sorted(range(len(table)), key=lambda i: place.get(table.index[i], len(place)))]
        if order_by:
            frame = table.reset_index()
            fields = [o["field"] for o in order_by]
            ascending = [o["direction"] == "asc" for o in order_by]
            frame = frame.sort_values(fields + list(table.index.names), ascending=ascending + [True] * table.index.nlevels,
                                      na_position="last", kind="mergesort")
            table = frame.set_index(list(table.index.names))
        if start or (limit is not None and len(table) > limit):
            end = start + limit if limit is not None else len(table)
            if order_by and end < len(table) + 1:
                field = order_by[0]["field"]
                values = table[field] if field in table else _index_values(table, field)
                # Members tied with the first or the last row kept, left out by the offset or the limit
                kept = values.iloc[start:end]
                edges = [kept.iloc[0], kept.iloc[-1]] if len(kept) else []
                outside = [(idx, v) for i, (idx, v) in enumerate(zip(table.index, values)) if not start <= i < end]
                ties = [idx for idx, v in outside if any(_same(v, e) for e in edges)]
            table = table.iloc[start:end]
        return table, ties

    def _totals(self, table: pd.DataFrame, filters: list) -> dict:
        dims = [d for d in self.q.group_by]
        if len(dims) > 1:
            raise QueryError("totals are over one grouping dimension", "invalid_query", "totals")
        selection = [Filter(dims[0], "in", list(table.index))] if dims else []
        base = [f for f in filters if not (dims and f.dimension == dims[0])]
        totals: dict = {}
        for spec in self.q.measures:
            m = self.cat.measures[spec.measure]
            if m.agg == "attribute":
                continue
            period = spec.period or self.q.period
            if not dims or not selection[0].values:
                value = float(table[spec.name].sum()) if m.additive and len(table) else math.nan
            else:
                value = _scalar(self.measure(spec.measure, [], period, base + spec.filters + selection))
            if spec.per_year:
                value = value / self._years_in(spec.measure, period)
            totals[spec.name] = value
            if m.agg == "ratio" and dims and self.cat.dimensions[dims[0]].kind == "place":
                # a rate over the set beside the city's own: "their combined rate, against the city's"
                totals[f"{spec.name}_city"] = _scalar(self.measure(spec.measure, [], period, [
                    f for f in base + spec.filters if self.cat.dimensions[f.dimension].kind != "place"]))
            if m.additive and dims and self.cat.dimensions[dims[0]].kind == "place":
                city = _scalar(self.measure(spec.measure, [], period,
                                            [f for f in base + spec.filters
                                             if self.cat.dimensions[f.dimension].kind != "place"]))
                totals[f"{spec.name}_share_of_city"] = value / city * 100 if city else math.nan
                totals[f"{spec.name}_city"] = city
        for item in self.q.derived:
            if item["op"] in PAIR_OPS and all(f in totals for f in item["of"]):
                totals[item["name"]] = derive(item, pd.DataFrame([totals]))[0]
            if item["op"] == "percent_of" and all(f"{f}_city" in totals for f in item["of"]):
                # "what share were domestic, vs the city as a whole": the city's own share beside the set's
                city = pd.DataFrame([{f: totals[f"{f}_city"] for f in item["of"]}])
                totals[f"{item['name']}_city"] = derive(item, city)[0]
        return totals

    def _compare_groups(self, table: pd.DataFrame, filters: list) -> QueryResult:
        """Each set of the grouped rows its own figures (pooled from the set's sums, or the members' plain mean), and
        the first two sets' ratio and difference: one query answers "how many times higher in the poorer half"."""
        groups, parts = [], []
        figures = [s.name for s in self.q.measures] + [d["name"] for d in self.q.derived]
        # a measure with nothing to pool (an index, a mean of areas' values) is pooled as its members' plain mean
        plain = {s.name for s in self.q.measures if self.cat.measures[s.measure].agg == "mean"}
        for group in self.q.groups:
            as_mean = sorted(n for n in plain if group["figure_of"].get(n, group["figure"]) == "pooled")
            picked, group["having"] = self._picked_by(table, group["having"])
            picked, _ = self._ordered(picked, group["order_by"], group["limit"], 0)
            if group.get("rest"):  # "all the rest": every place the sets before it left, with a value or not
                picked = table.drop(index=[m for g in groups for m in g["members"]], errors="ignore")
            pooled = any(group["figure_of"].get(name, group["figure"]) == "pooled" for name in figures)
            totals = self._totals(picked, filters) if len(picked) and pooled else {}
            values = {}
            for name in figures:
                how = "mean" if name in as_mean else group["figure_of"].get(name, group["figure"])
                if how in ("mean", "median") and name in picked:  # the members' own values' plain mean or median
                    values[name] = float(getattr(pd.to_numeric(picked[name], errors="coerce"), how)())
                elif how == "pooled":
                    values[name] = totals.get(name, math.nan)
            groups.append({**group, "members": list(picked.index), "n": int(len(picked)), "figures": values,
                           "as_mean": as_mean})
            parts.append(picked)
        first, second = groups[0]["figures"], groups[1]["figures"]
        between = {name: {"ratio": first[name] / second[name] if second.get(name) else math.nan,
                          "difference": first[name] - second[name]}
                   for name in figures if isinstance(first.get(name), float) and isinstance(second.get(name), float)}
        table = pd.concat(parts) if parts else table.iloc[0:0]
        return build_result(self, table, None, None, [], groups=groups, between=between)

    def _cover(self, table: pd.DataFrame) -> dict:
        """The fewest rows, largest first (ties by the member's key), whose values reach the share of the city's own
        figure: the city's, since rows with no place (a homicide with no area recorded) count in the whole."""
        name, share = self.q.cover["of"], self.q.cover["share"]
        values = pd.to_numeric(table[name], errors="coerce").dropna()
        order = sorted(values.index, key=lambda k: (-values[k], k))
        whole = self._reference(name, "city", values)
        needed, held, members = whole * share / 100, 0.0, []
        for key in order:
            if held >= needed:
                break
            held += float(values[key])
            members.append(key)
        reached = held >= needed and whole > 0
        return {"of": name, "share": share, "n": len(members) if reached else None, "held": held,
                "whole": whole, "members": members if reached else [], "rows": int(len(values))}

    def _correlate(self, table: pd.DataFrame) -> dict:
        a, b = self.q.correlate
        pair = pd.DataFrame({"a": table[a], "b": table[b]}).astype(float).dropna()
        if len(pair) < 3 or pair["a"].std() == 0 or pair["b"].std() == 0:
            raise QueryError("a correlation needs at least 3 rows with varying values in both columns",
                             "invalid_query", "correlate")
        r = float(np.corrcoef(pair["a"], pair["b"])[0, 1])
        rho = float(pair["a"].rank().corr(pair["b"].rank()))
        return {"of": [a, b], "pearson_r": r, "spearman_rho": rho, "n": int(len(pair)),
                "left_out": int(len(table) - len(pair))}


# ------------------------------------------------------------------ helpers

def derive(item: dict, table: pd.DataFrame) -> pd.Series:
    op, of = item["op"], item["of"]
    a = table[of[0]].astype(float)
    if op == "rank":
        return a.rank(ascending=item.get("direction") == "asc", method="min")
    if op == "quantile":  # 1 = the lowest group; only the places with a value are cut (a tie split by table order)
        ranks = a.dropna().rank(method="first")
        if len(ranks) < item["groups"]:
            return a * math.nan
        cut = pd.qcut(ranks, item["groups"], labels=False) + 1
        return cut.reindex(a.index).astype(float)
    if op == "step":  # the change from the row before along the time grain, each other group (a place) apart
        others = [n for n in a.index.names if n != item["along"]]
        ordered = a.sort_index()
        steps = ordered.groupby(level=others).diff() if others else ordered.diff()
        return steps.reindex(a.index)
    if op == "run":  # the rows in a row, to this one, on the side of zero asked: each other group (a place) apart
        others = [n for n in a.index.names if n != item["along"]]
        ordered = a.sort_index()
        on = (ordered < 0 if item.get("direction") == "asc" else ordered > 0).astype(int)
        keys = [on.index.get_level_values(n) for n in others]
        runs = on.groupby([*keys, (on == 0).cumsum()]).cumsum()
        return runs.reindex(a.index).astype(float)
    if op == "share_of_total":
        total = a.sum()
        return a / total * 100 if total else a * math.nan
    b = table[of[1]].astype(float)
    if op == "change":
        return b - a
    if op == "pct_change":
        return (b - a) / a.where(a != 0) * 100
    if op == "excess":  # (a row without a count has no exposure to read back from its ratio: no figure)
        return a - a * item["city"] / b.where(b > 0)
    if op == "cagr":
        return ((b / a.where(a > 0)) ** (1.0 / item["years"]) - 1) * 100
    if op == "difference":
        return a - b
    if op == "percent_of":
        return a / b.where(b != 0) * 100
    if op == "sum":
        return a + b
    return a / b.where(b != 0)


def _mask(values: pd.Series, f: Filter) -> pd.Series:
    if f.op == "in" or f.op == "equals":
        return values.isin(f.values)
    if f.op == "not_in":
        return ~values.isin(f.values)
    low, high = f.values
    return (values >= low) & (values <= high)


def _compare(values: pd.Series, op: str, value) -> pd.Series:
    if isinstance(value, str):  # a member by its name: only == and != parse
        same = values.astype(str).str.lower() == value.lower()
        return same if op == "==" else ~same
    values = pd.to_numeric(values, errors="coerce")
    return {">": values > value, ">=": values >= value, "<": values < value, "<=": values <= value,
            "==": values == value, "!=": values != value}[op]


def _index_values(table, name):
    return pd.Series(table.index.get_level_values(name), index=table.index)


def _scalar(series: pd.Series) -> float:
    return float(series.iloc[0]) if len(series) else math.nan


def _same(a, b) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-12)
    except (TypeError, ValueError):
        return a == b


def _column(table: pd.DataFrame, name: str) -> pd.Series:
    return table[name] if name in table else _index_values(table, name)


def _spread(values: pd.Series) -> dict:
    """The spread of a column over the rows: how many have a value, the lowest, the median, the plain mean and the
    highest, with the members holding the lowest and the highest."""
    values = pd.to_numeric(values, errors="coerce").dropna()
    if values.empty:
        return {"n": 0, "min": None, "median": None, "mean": None, "max": None, "lowest": None, "highest": None}
    return {"n": int(len(values)), "min": float(values.min()), "median": float(values.median()),
            "mean": float(values.mean()), "max": float(values.max()),
            "lowest": values.idxmin() if values.index.nlevels == 1 else None,
            "highest": values.idxmax() if values.index.nlevels == 1 else None}


_NUMERATOR_ONLY = ("domestic", "arrest", "location_type", "iucr")  # kinds of homicide, not of residents


def _trend(values: pd.Series) -> dict:
    """The least-squares line through a column over its time grain, one step of the grain apart (a year, a quarter,
    a month): its slope a step, its fitted ends and r squared."""
    values = pd.to_numeric(values, errors="coerce").dropna()
    keys = [str(k) for k in values.index]
    steps = [_step_number(k) for k in keys]
    if len(values) < 3 or len(set(steps)) < 3:
        raise QueryError("a trend needs at least 3 periods with a value", "invalid_query", "trend")
    x, y = np.array(steps, dtype=float), values.to_numpy(dtype=float)
    slope, intercept = np.polyfit(x, y, 1)
    fitted = slope * x + intercept
    total = float(((y - y.mean()) ** 2).sum())
    r2 = 1 - float(((y - fitted) ** 2).sum()) / total if total else math.nan
    return {"slope": float(slope), "n": int(len(values)), "first": keys[0], "last": keys[-1],
            "fitted_first": float(fitted[0]), "fitted_last": float(fitted[-1]), "r2": r2}


def _step_number(key: str) -> int:
    """2019 -> 2019; "2019-03" -> months since year 0; "2019Q2" -> quarters since year 0."""
    year, month, quarter = key[:4], re.fullmatch(r"\d{4}-(\d\d)", key), re.fullmatch(r"\d{4}Q([1-4])", key)
    if month:
        return int(year) * 12 + int(month.group(1)) - 1
    if quarter:
        return int(year) * 4 + int(quarter.group(1)) - 1
    return int(year)


def _latest(frame: pd.DataFrame) -> tuple[str, str]:
    for column in ("date", "month", "quarter"):
        if column in frame.columns:
            return column, frame[column].max()
    return "year", frame["year"].max()
