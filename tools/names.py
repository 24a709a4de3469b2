"""The nine tools' names, in one place: the tools register under them and every other module names a tool by them."""

HOMICIDES = "query_homicides_advanced"
IUCR = "get_iucr_info"
CENSUS = "query_census_demographics"
SOCIOECONOMIC = "query_socioeconomic"
PROPERTY = "query_property_values"
AREA_RATES = "analyze_homicide_rates_by_community_area"
SOCIOECONOMIC_CONTEXT = "analyze_homicide_socioeconomic_context"
DISTRICT_TRENDS = "compare_homicide_district_trends"
POLICE_STATIONS = "get_police_stations"
QUERY = "query_data"  # the semantic layer's typed query (semantic/)

ALL = (HOMICIDES, IUCR, CENSUS, SOCIOECONOMIC, PROPERTY, AREA_RATES, SOCIOECONOMIC_CONTEXT, DISTRICT_TRENDS,
       POLICE_STATIONS, QUERY)
