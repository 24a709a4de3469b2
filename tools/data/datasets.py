"""The catalogue of source datasets: file names, portal ids, publishers, licences.

One table serves the loader (which file to read), the refresh command (where to fetch it)
and every tool result's ``sources`` list (what a number came from).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dataset:
    key: str
    file: str
    title: str
    publisher: str
    portal_id: str | None = None  # Socrata id on data.cityofchicago.org
    url: str | None = None  # direct CSV download for non-Socrata publishers
    licence: str = "City of Chicago Data Portal terms of use"
    soql_where: str | None = None  # server-side filter used by the refresh


DATASETS: dict[str, Dataset] = {
    d.key: d
    for d in [
        Dataset("homicides", "homicides.csv", "Crimes - 2001 to Present (HOMICIDE rows)", "Chicago Police Department",
                portal_id="ijzp-q8t2", soql_where="primary_type = 'HOMICIDE'"),
        Dataset("iucr", "iucr_codes.csv", "CPD Illinois Uniform Crime Reporting (IUCR) Codes",
                "Chicago Police Department", portal_id="c7ck-438e"),
        Dataset("socioeconomic", "socioeconomic.csv",
                "Census Data - Selected socioeconomic indicators in Chicago, 2008-2012",
                "City of Chicago (ACS 2008-2012)", portal_id="kn9c-c2s2"),
        Dataset("census_acs", "census_acs.csv", "ACS 5 Year Data by Community Area (2019-2023 ACS)",
                "City of Chicago (U.S. Census Bureau ACS)", portal_id="t68z-cikk", soql_where="acs_year = '2023'"),
        Dataset("population_2010", "census_population_2010.csv", "2010 Census population by community area",
                "City of Chicago DPD (U.S. Census 2010)", licence="U.S. Census data, public domain"),
        Dataset("community_areas", "community_areas.csv", "Boundaries - Community Areas (lookup)",
                "City of Chicago", portal_id="igwz-8jzy"),
        Dataset("zip_crosswalk", "community_area_zip_crosswalk.csv", "Community area / ZIP areal overlap",
                "Derived from City of Chicago boundaries (igwz-8jzy, gdcf-axmw)"),
        Dataset("submarket_crosswalk", "community_area_ihs_submarket_crosswalk.csv",
                "Community area / IHS submarket overlap", "Derived from City of Chicago and DePaul IHS boundaries"),
        Dataset("zhvi", "property_zhvi_zip_monthly.csv", "Zillow Home Value Index (ZHVI) by ZIP, monthly",
                "Zillow Research",
                url="https://files.zillowstatic.com/research/public_csvs/zhvi/"
                    "Zip_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv",
                licence="Zillow Research data terms (free use with attribution)"),
        Dataset("ihs_index", "property_ihs_price_index_quarterly.csv", "Cook County House Price Index by submarket",
                "Institute for Housing Studies at DePaul University",
                url="https://price-index.housingstudies.org/data/2025_q4_price_index_by_quarter.csv",
                licence="DePaul IHS data, free use with attribution"),
        # The summary table of the same IHS release: median sales price and the published changes per submarket.
        Dataset("ihs_summary", "property_ihs_price_index_summary_2025q4.csv",
                "Cook County House Price Index summary by submarket (2025 Q4 release)",
                "Institute for Housing Studies at DePaul University",
                licence="DePaul IHS data, free use with attribution"),
        Dataset("police_stations", "police_stations.csv", "Police Stations", "Chicago Police Department",
                portal_id="z8bn-74gv"),
        Dataset("ward_offices", "ward_offices.csv", "Ward Offices", "City of Chicago", portal_id="htai-wnw4"),
    ]
}


def source_entry(key: str, coverage: dict | None = None) -> dict:
    """The ``sources`` record a tool result carries for one dataset."""
    ds = DATASETS[key]
    entry = {"dataset": ds.title, "key": key, "portal_id": ds.portal_id, "publisher": ds.publisher}
    if coverage:
        entry["coverage"] = coverage
    return entry
