"""What the planner used to miss, end to end through the orchestrator with the rules backend.

Every expected figure comes from plain pandas on the raw homicides.csv, never from the tools' code.
"""
import re

import pandas as pd
import pytest

HOMICIDES = "query_homicides_advanced"


@pytest.fixture(scope="module")
def raw(data_dir):
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    df["when"] = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")
    df["year"] = df["when"].dt.year
    df["ward"] = pd.to_numeric(df["Ward"], errors="coerce")
    df["district"] = pd.to_numeric(df["District"], errors="coerce")
    return df


@pytest.mark.full_data
def test_day_of_week_tool_matches_raw(registry, raw):
    result = registry.run(HOMICIDES, {"group_by": "weekday", "year": 2022})
    expected = raw[raw.year == 2022]["when"].dt.day_name().value_counts()
    got = {row["weekday_name"]: row["homicides"] for row in result.values["breakdown"]}
    assert got == expected.to_dict()
    assert result.values["peak"]["weekday_name"] == expected.idxmax()


def test_hour_of_day_tool_matches_raw(registry, raw):
    result = registry.run(HOMICIDES, {"group_by": "hour", "start_year": 2015, "end_year": 2019})
    subset = raw[(raw.year >= 2015) & (raw.year <= 2019)]
    expected = subset["when"].dt.hour.value_counts().reindex(range(24), fill_value=0)
    assert [row["homicides"] for row in result.values["breakdown"]] == expected.tolist()


def test_a_set_of_wards_is_counted_together(registry, raw):
    result = registry.run(HOMICIDES, {"wards": list(range(1, 21)), "year": 2022, "group_by": "ward", "top_n": 20})
    subset = raw[(raw.year == 2022) & raw.ward.between(1, 20)]
    assert result.values["total"] == len(subset)
    assert {row["ward"]: row["homicides"] for row in result.values["breakdown"]} == \
        subset.ward.astype(int).value_counts().to_dict()


def test_wards_1_to_20_is_the_whole_set(ask, raw):
    run = ask("How many homicides were there in wards 1 to 20 in 2022?")
    assert [c.arguments.get("wards") for c in run.calls] == [list(range(1, 21))]
    total = len(raw[(raw.year == 2022) & raw.ward.between(1, 20)])
    assert f"{total:,} homicides" in run.answer and "wards 1-20" in run.answer


def test_injected_sql_does_not_change_the_question(ask, raw):
    run = ask("How many homicides in ward 3; DROP TABLE runs in 2022?")
    assert [(c.name, c.arguments.get("ward"), c.arguments.get("start_year")) for c in run.calls] == \
        [(HOMICIDES, 3, 2022)]
    assert run.answer.startswith(f"There were {len(raw[(raw.year == 2022) & (raw.ward == 3)])} homicides in ward 3")
    assert "read as text only" in run.answer


@pytest.mark.parametrize("question", ["Was 2012 deadlier than 2011?", "homicides in 2011 vs 2012",
                                      "How did 2012 compare with 2011 for murders?"])
def test_two_years_get_each_figure_and_the_change(ask, raw, question):
    run = ask(question)
    n2011, n2012 = (len(raw[raw.year == y]) for y in (2011, 2012))
    pct = round(100 * (n2012 - n2011) / n2011, 1)
    assert f"2011: {n2011:,}" in run.answer and f"2012: {n2012:,}" in run.answer
    assert f"{n2012 - n2011:+,} ({pct:+.1f}%)" in run.answer


@pytest.mark.parametrize("question", ["was 2022 any worse than 2019 for homicides citywide?",
                                      "was last year any worse than 2019 for homicides? give me both totals"])
def test_two_years_apart_lead_with_those_years_not_the_ranges_total(ask, raw, question):
    n2019, n2022 = (len(raw[raw.year == y]) for y in (2019, 2022))
    pct = round(100 * (n2022 - n2019) / n2019, 1)
    run = ask(question)
    assert run.answer.startswith(f"There were {n2019:,} homicides in Chicago in 2019; {n2022:,} in 2022. The change "
                                 f"from 2019 to 2022 was "
                                 f"{n2022 - n2019:+,} ({pct:+.1f}%)")


def test_a_range_of_years_is_not_a_comparison_of_its_ends(ask, raw):
    # "between 2015 and 2019" is five years, not 2015 against 2019.
    run = ask("On average how many homicides did District 7 see per year between 2015 and 2019?")
    total = len(raw[raw.year.between(2015, 2019) & (raw.district == 7)])
    # The average was asked for, so it leads (analyzer/times.py), with the five years' total beside it.
    assert run.answer.startswith(f"There was an average of {total / 5:.1f} homicides a year in police district 7 "
                                 f"(Englewood) (2015-2019: {total} in all)")


def test_percent_change_between_two_years(ask, raw):
    run = ask("What was the percent change in homicides between 2019 and 2021?")
    n2019, n2021 = (len(raw[raw.year == y]) for y in (2019, 2021))
    assert f"{round(100 * (n2021 - n2019) / n2019, 1):+.1f}%" in run.answer


@pytest.mark.parametrize("question, group", [("On which day of the week do most homicides happen?", "weekday"),
                                             ("What time of day are most murders committed?", "hour"),
                                             ("Are homicides more common at night?", "hour")])
def test_day_and_time_questions_are_not_area_rankings(ask, raw, question, group):
    run = ask(question)
    assert [c.arguments.get("group_by") for c in run.calls] == [group]
    if group == "weekday":
        assert raw["when"].dt.day_name().value_counts().idxmax() in run.answer.split(".")[0]


@pytest.mark.full_data
def test_month_names_in_answers(ask):
    run = ask("Which month had the most homicides in 2018?")
    assert run.answer.startswith("The month with the most homicides in 2018 was July 2018") and "2018-07" not in run.answer


@pytest.mark.parametrize("question, metric", [("Are people in Austin hard up?", "poverty"),
                                              ("How well-off is Lincoln Park?", "income"),
                                              ("How many people are out of work in Englewood?", "unemployment")])
def test_everyday_words_for_socioeconomic_measures(ask, question, metric):
    run = ask(question)
    assert [(c.name, c.arguments.get("metric")) for c in run.calls] == [("query_socioeconomic", metric)]


def test_more_areas_than_calls_is_said_and_partial(ask):
    run = ask("How many homicides in 2020 in Austin, Englewood, Uptown, Hyde Park, Lincoln Park, Rogers Park, "
              "West Town, Logan Square, Edgewater, Garfield Ridge, Chatham, Roseland and Pullman?")
    assert len(run.calls) == 4 and run.partial
    note = next(c for c in run.caveats if "not covered" in c)
    assert "Only 4 of the 13 community areas" in note and "Pullman (50)" in note and "Austin" not in note


@pytest.mark.parametrize("question", ["how many cars were stolen in 2020", "what's the weather like tomorrow?",
                                      "Who is the mayor of Chicago?"])
def test_unanswerable_questions_say_so_and_suggest(ask, question):
    run = ask(question)
    assert run.calls == []  # never an unrelated ranking or a homicide count standing in
    assert "cannot answer" in run.answer or "can't answer" in run.answer
    assert "Nearest questions it can answer:" in run.answer


@pytest.mark.parametrize("question, most_without", [
    ("Where are adults least likely to have finished high school?", True),
    ("which area has the lowest education levels", True),
    ("which area has the most high school graduates", False),
    ("which area has the highest share without a high school diploma", True),
    ("best educated community area", False),
])
def test_education_rankings_read_the_question_the_right_way_round(ask, data_dir, question, most_without):
    # The figure is the share WITHOUT a diploma, so "least likely to have finished" ranks it highest first.
    socio = pd.read_csv(data_dir / "socioeconomic.csv").dropna(subset=["Community Area Number"])
    column = "PERCENT AGED 25+ WITHOUT HIGH SCHOOL DIPLOMA"
    row = socio.loc[socio[column].idxmax() if most_without else socio[column].idxmin()]
    result = ask(question)
    assert result.calls[0].arguments["sort_order"] == ("desc" if most_without else "asc")
    assert result.answer.startswith(f"The community area with the {'highest' if most_without else 'lowest'} share of "
                                    f"people aged 25+ without a high-school diploma is {row['COMMUNITY AREA NAME']}")
    assert f"{row[column]:.1f}%" in result.answer


@pytest.mark.parametrize("question", ["what would a home in 60647 set me back?",
                                      "how much is a house in 60647 these days"])
@pytest.mark.full_data
def test_everyday_home_price_wording_asks_for_home_values(ask, data_dir, question):
    zhvi = pd.read_csv(data_dir / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    rows = zhvi[zhvi["RegionName"].str.zfill(5) == "60647"].dropna(subset=["price"])
    latest = rows.sort_values(["Year", "Month"]).iloc[-1]
    result = ask(question)
    assert [c.name for c in result.calls] == ["query_property_values"]
    assert result.calls[0].arguments["zip"] == "60647"
    assert f"${latest['price']:,.0f}" in result.answer


@pytest.mark.parametrize("question", ["out of every 100k chicagoans, how many were murdered in 2019?",
                                      "for each 100,000 people in the city, how many homicides were there in 2019"])
def test_every_hundred_thousand_asks_for_the_rate(ask, raw, data_dir, question):
    acs = pd.read_csv(data_dir / "census_acs.csv")
    population = int(acs[acs.acs_year == acs.acs_year.max()].total_population.sum())  # ACS for years from 2016
    result = ask(question)
    assert [c.name for c in result.calls] == ["analyze_homicide_rates_by_community_area"]
    assert result.calls[0].arguments["year"] == 2019
    count = int((raw.year == 2019).sum())
    assert f"{count / population * 100000:.1f} per 100k" in result.answer


@pytest.mark.parametrize("question", ["has logan square grown or shrunk since the 2010 census?",
                                      "Has Logan Square grown since 2010?",
                                      "did logan square lose residents after 2010"])
def test_a_place_growing_means_its_population(ask, data_dir, question):
    pop2010 = pd.read_csv(data_dir / "census_population_2010.csv")
    acs = pd.read_csv(data_dir / "census_acs.csv")
    then = int(pop2010.loc[pop2010["NID"] == 22, "POP2010"].iloc[0])
    now = int(acs.loc[acs.community_area.str.upper() == "LOGAN SQUARE", "total_population"].iloc[-1])
    result = ask(question)
    assert [c.name for c in result.calls] == ["query_census_demographics"]
    assert result.calls[0].arguments["community_area"] == 22
    assert f"{then:,}" in result.answer and f"{now:,}" in result.answer
    assert "homicide" not in result.answer.lower()


def test_an_unheld_subject_is_named_as_asked(ask):
    result = ask("carjackings in chicago 2022 - how many?")
    assert not result.calls
    assert "carjackings" in result.answer and "robberies" not in result.answer


def test_the_measures_asked_lead_not_the_summarys_income(ask, data_dir):
    socio = pd.read_csv(data_dir / "socioeconomic.csv").dropna(subset=["Community Area Number"])
    row = socio[socio["Community Area Number"] == 73].iloc[0]
    result = ask("how bad is joblessness in Washington Heights, and what's its hardship score?")
    lead = result.answer.split("\n")[0]
    assert lead.startswith(f"In Washington Heights, the share of people aged 16+ unemployed was "
                           f"{row['PERCENT AGED 16+ UNEMPLOYED']:.1f}%")
    assert f"hardship index was {int(row['HARDSHIP INDEX'])}" in lead and "income" not in lead


@pytest.mark.parametrize("question", ["How many Chatham residents are 65 or older?",
                                      "How many Chatham residents are 65 or older, how many people live there "
                                      "altogether, and what's Chatham's hardship index?"])
def test_an_age_band_asked_about_is_counted(ask, data_dir, question):
    # A blind tester's three-part question got the hardship index and the population, and no count of seniors.
    acs = pd.read_csv(data_dir / "census_acs.csv")
    row = acs[(acs["acs_year"] == acs["acs_year"].max()) & (acs["community_area"] == "CHATHAM")].iloc[0]
    seniors, population = int(row["male_65"]) + int(row["female_65"]), int(row["total_population"])
    result = ask(question)
    assert "age" in result.analysis.metrics and result.analysis.not_used == []
    lead = result.answer.split("\n")[0]
    assert f"{seniors:,} residents aged 65+, {100 * seniors / population:.1f}% of {population:,}" in lead
    if "altogether" in question:  # the population asked too leads its own clause
        assert f"Chatham had {population:,} residents" in lead
    else:
        assert f"Chatham had {seniors:,} residents aged 65+" in lead
    if "hardship" in question:
        socio = pd.read_csv(data_dir / "socioeconomic.csv").dropna(subset=["Community Area Number"])
        hardship = int(socio[socio["Community Area Number"] == 44].iloc[0]["HARDSHIP INDEX"])
        assert f"hardship index (1-100, higher = more hardship) was {hardship}" in lead


@pytest.mark.parametrize("question", ["Can you list the names of the people who were killed in Englewood in 2022?",
                                      "what were the victims' names in Austin in 2021"])
def test_victims_names_are_declined_by_name(ask, question):
    result = ask(question)
    assert result.answer.startswith("The data behind ChiQA does not include victims' names")
    assert "so I cannot answer that from it" in result.answer.split("\n")[0]
    assert result.calls == []  # the count of all homicides would answer another question


@pytest.mark.parametrize("question, subject", [("How many of the 2022 homicides involved a gun?", "weapons"),
                                               ("What was the average age of homicide victims in 2022?",
                                                "victim demographics")])
def test_a_count_the_data_cannot_narrow_is_declined_without_a_stand_in(ask, question, subject):
    # The count of all homicides had followed the decline: a figure for another question.
    result = ask(question)
    assert result.calls == [] and not re.search(r"\b\d{3}\b", result.answer.split("\n\n")[0])
    assert result.answer.startswith(f"The data behind ChiQA does not include {subject} (")  # with the question's words


def test_a_second_question_beside_the_missing_subject_is_still_answered(ask, raw):
    result = ask("How many homicides were there in 2022, and how many involved a gun?")
    # The decline names the question's own word beside the data's name for the subject.
    assert result.answer.startswith("The homicide data does not record weapons ('gun'), so I cannot answer that part")
    assert f"There were {int((raw.year == 2022).sum())} homicides in Chicago in 2022" in result.answer


def test_how_many_more_and_how_many_times_lead_with_that_figure(ask, raw):
    # A blind tester's "how many more ... than" got both counts and no difference.
    raw = raw.assign(area=pd.to_numeric(raw["Community Area"], errors="coerce"))
    austin, lawndale = (int(((raw.area == a) & (raw.year == 2020)).sum()) for a in (25, 29))
    result = ask("How many more homicides did Austin have than North Lawndale in 2020?")
    assert result.answer.startswith(
        f"There were {austin - lawndale:,} more homicides in Austin (community area 25) than in North Lawndale "
        f"(community area 29) in 2020: {austin:,} in Austin against {lawndale:,} in North Lawndale.")
    assert result.ungrounded_numbers == []
    austin_all, lincoln_all = (int((raw.area == a).sum()) for a in (25, 7))
    result = ask("how many times as many murders in Austin as in Lincoln Park?")
    assert result.answer.startswith(f"There were {austin_all / lincoln_all:.1f} times as many homicides in Austin")


@pytest.mark.parametrize("question, ward", [("How many people were killed in the twenty-eighth ward in 2021?", 28),
                                            ("homicides in ward thirty one in 2019", 31),
                                            ("murders in the 2nd ward in 2020", 2)])
def test_a_ward_number_in_words(ask, raw, question, ward):
    result = ask(question)
    assert result.analysis.wards == [ward] and result.analysis.not_used == []
    year = int(re.search(r"\d{4}", question).group(0))
    assert f"{int(((raw.ward == ward) & (raw.year == year)).sum()):,} homicides in ward {ward}" in result.answer


def test_a_district_named_like_an_area_is_the_district(ask, raw):
    # "the Austin police district" is district 15, not the Austin community area (25).
    result = ask("How many homicides were there in the Austin police district in 2021?")
    assert result.analysis.districts == [15] and result.analysis.areas == []
    count = int(((raw.district == 15) & (raw.year == 2021)).sum())
    assert f"There were {count:,} homicides in police district 15" in result.answer


@pytest.mark.parametrize("question, kind, column, year, position", [
    ("Which was the second-deadliest police district in 2021?", "district", "district", 2021, 2),
    ("which ward had the 3rd most murders in 2019", "ward", "ward", 2019, 3),
    ("Austin led the city in homicides in 2020 - which community area was the runner-up, and with how many?",
     "community area", "Community Area", 2020, 2),
])
def test_a_place_in_a_ranking_other_than_the_first(ask, raw, question, kind, column, year, position):
    # "the second-deadliest police district" had been answered with the community area with the most homicides.
    counts = pd.to_numeric(raw[raw.year == year][column], errors="coerce").value_counts()
    place, count = int(counts.index[position - 1]), int(counts.iloc[position - 1])
    assert counts.iloc[position - 2] > count > counts.iloc[position]  # no tie at that place
    ordinal = {2: "second", 3: "third"}[position]
    result = ask(question)
    first = result.answer.split("\n")[0]
    assert first.startswith(f"The {'police district' if kind == 'district' else kind} with the {ordinal}-most "
                            f"homicides in {year} was ")
    named = re.search(r"was (?:District|Ward) (\d+)|was [A-Za-z ]+ \((\d+)\)", first)
    assert int(named.group(1) or named.group(2)) == place and f": {count} (" in first
    assert result.analysis.not_used == []


def test_a_ranked_place_other_than_the_first_carries_into_the_next_call(ask, data_dir):
    # "the second poorest area": the second entry of the income ranking is the area the homicide call asks about.
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    income = [c for c in socio.columns if "INCOME" in c.upper()][0]
    ranked = socio.dropna(subset=["Community Area Number"]).sort_values(income)
    second = int(ranked.iloc[1]["Community Area Number"])
    result = ask("what is the homicide count in the second poorest community area in 2022")
    assert [c.arguments.get("community_area") for c in result.calls] == [None, second]
    assert "second-lowest per capita income" in result.answer.split("\n")[0]


def test_a_per_month_average_leads_when_one_is_asked_for(ask, raw):
    total = int((raw.year == 2020).sum())
    result = ask("On average, how many people were killed per month in Chicago in 2020?")
    assert result.answer.startswith(f"There was an average of {round(total / 12, 1)} homicides a month in Chicago "
                                    f"(2020: {total:,} in all, over 12 months).")
    assert result.analysis.not_used == []


def test_no_per_month_average_over_the_partial_last_year_or_a_month_filter(registry, raw):
    last = int(raw.year.max())
    assert "per_month_average" not in registry.run(HOMICIDES, {"year": last, "group_by": "month"}).values
    filtered = registry.run(HOMICIDES, {"year": 2020, "months": [6, 7, 8], "group_by": "month"}).values
    assert "per_month_average" not in filtered
    whole = registry.run(HOMICIDES, {"start_year": 2015, "end_year": 2019, "group_by": "month"}).values
    assert whole["per_month_average"] == round(int(raw.year.between(2015, 2019).sum()) / 60, 1)
    assert whole["per_month_months"] == 60


def test_a_ranking_of_places_under_a_kind_of_place(ask, raw):
    # "Where in the city ... inside an apartment" ranks community areas by apartment killings; it had ranked the
    # kinds of place (the street first).
    apartments = raw[raw["Location Description"] == "APARTMENT"]
    counts = pd.to_numeric(apartments["Community Area"], errors="coerce").value_counts()
    result = ask("Where in the city have the most people been killed inside an apartment since 2001, and how many?")
    call = result.calls[0]
    assert call.arguments["group_by"] == "community_area" and call.arguments["location_type"] == "APARTMENT"
    first = result.answer.split("\n")[0]
    assert f"({int(counts.index[0])}): {int(counts.iloc[0])} (" in first and "APARTMENT" in first


@pytest.mark.parametrize("question, areas, year", [
    ("What share of Chicago's 2016 homicides happened in Englewood and West Englewood combined?", [67, 68], 2016),
    ("what percent of all the murders in the city were in Austin in 2020", [25], 2020),
])
def test_a_places_share_of_the_city_leads(ask, raw, question, areas, year):
    # The share had not been given at all (the two areas' counts, separately): a confident answer to another question.
    in_year = raw[raw.year == year]
    part = int(pd.to_numeric(in_year["Community Area"], errors="coerce").isin(areas).sum())
    share = round(100 * part / len(in_year), 1)
    result = ask(question)
    assert len(result.calls) == 1 and result.calls[0].arguments["city_share"] is True
    assert f" had {share}% of the city's {len(in_year):,} homicides in {year}: {part}; " in result.answer.split("\n")[0]
    assert result.analysis.not_used == []


def test_places_counted_together_are_one_call_and_one_figure(ask, raw):
    in_2016 = raw[raw.year == 2016]
    both = int(pd.to_numeric(in_2016["Community Area"], errors="coerce").isin([67, 68]).sum())
    result = ask("how many homicides in Englewood and West Englewood combined in 2016")
    assert [sorted(c.arguments["community_areas"]) for c in result.calls] == [[67, 68]]
    assert result.answer.startswith(f"There were {both} homicides in West Englewood (community area 67) and "
                                    "Englewood (community area 68) combined in 2016")
    # Without "combined", two areas are two figures, as before.
    apart = ask("homicides in Englewood and West Englewood in 2016")
    assert [c.arguments.get("community_area") for c in apart.calls] == [68, 67]


def test_a_population_change_is_given_in_residents(ask, data_dir):
    # "By how many residents did Englewood's population shrink": the answer had the percent only.
    acs = pd.read_csv(data_dir / "census_acs.csv")
    now = int(acs.loc[acs["community_area"].str.upper() == "ENGLEWOOD", "total_population"].iloc[0])
    pop2010 = pd.read_csv(data_dir / "census_population_2010.csv")
    before = int(pop2010.loc[pop2010["NID"] == 68, "POP2010"].iloc[0])
    result = ask("By how many residents did Englewood's population shrink between the 2010 census and the latest "
                 "ACS estimate?")
    assert result.answer.startswith(f"Englewood had {now:,} residents (ACS 2019-2023 5-year), {before - now:,} fewer "
                                    f"than the {before:,} of the 2010 Census")


@pytest.mark.full_data
@pytest.mark.parametrize("question", ["home value in 60647 in 2012 and 2018", "home value in 60647 from 2012 to 2018"])
def test_a_home_value_in_two_years_is_each_years_value_and_the_change(ask, data_dir, question):
    # Both had been answered with the latest month's value: a figure for neither year.
    zhvi = pd.read_csv(data_dir / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    rows = zhvi[zhvi["RegionName"].str.zfill(5) == "60647"]
    first, second = (round(float(rows[rows["Year"] == y]["price"].mean())) for y in (2012, 2018))
    result = ask(question)
    assert [c.arguments.get("year") for c in result.calls] == [2012, 2018]
    change = second - first
    assert result.answer.startswith(
        f"The typical home value in ZIP 60647 went from ${first:,} in 2012 (the year's average) to ${second:,} in 2018 "
        f"(the year's average), a change of {'+' if change >= 0 else '-'}${abs(change):,}")
    since = ask("home value in 60647 since 2012")  # runs to the data's end: the latest value and its change
    assert [c.arguments.get("since_year") for c in since.calls] == [2012]


def test_a_domestic_share_leads_with_its_count_and_share(ask, raw):
    # The model's own call split 2020 by the domestic flag, and its answer gave only the year's total: the split is
    # now the result's lead (so the answer check asks for it).
    year = raw[raw.year == 2020]
    domestic = int((year["Domestic"].str.lower() == "true").sum())
    result = ask("What share of the people murdered in Chicago in 2020 died in domestic incidents?")
    assert result.analysis.not_used == []
    assert result.answer.startswith(f"There were {len(year)} homicides in Chicago in 2020. Of these, {domestic} were "
                                    f"domestic ({100 * domestic / len(year):.1f}%)")


def test_never_led_to_an_arrest_is_the_no_arrest_filter(ask, raw):
    year = raw[raw.year == 2022]
    unsolved = int((year["Arrest"].str.lower() != "true").sum())
    result = ask("How many of the 2022 killings in Chicago never led to anyone being arrested?")
    assert result.analysis.arrest_filter == "not_arrested" and result.analysis.not_used == []
    assert result.answer.startswith(f"There were {unsolved} homicides in Chicago in 2022, with no arrest made")


def test_a_top_three_ranking_names_each_with_its_figure(ask, raw):
    counts = raw[raw.year == 2019]["ward"].value_counts()
    result = ask("Which three wards lost the most people to homicide in 2019?")
    expected = "; ".join(f"Ward {int(w)}: {int(n)}" for w, n in counts.iloc[:3].items())
    assert result.answer.startswith(f"The three wards with the most homicides in 2019 were {expected}.")


def test_work_out_to_is_a_way_of_asking_not_a_subject(ask):
    result = ask("How many people live in humboldt park, how many were murdered there in 2022, and what does that "
                 "work out to per 100,000 residents?")
    assert result.analysis.not_used == []


# ---------------------------------------------------------------- found by the blind sets of sessions 7 and 8

def _count(raw, **where):
    rows = raw
    for column, wanted in where.items():
        rows = rows[rows[column].isin(wanted if isinstance(wanted, list) else [wanted])]
    return len(rows)


@pytest.mark.full_data
def test_years_left_out_of_a_range_are_not_counted(ask, raw):
    run = ask("add up all the homicides from 2014 thru 2022 but dont count 2020 at all")
    kept = [y for y in range(2014, 2023) if y != 2020]
    assert [c.arguments.get("years") for c in run.calls] == [kept]
    assert run.answer.startswith(f"There were {_count(raw, year=kept):,} homicides in Chicago in 2014-2022 "
                                 "without 2020")


@pytest.mark.full_data
@pytest.mark.parametrize("question", ["how many ppl were killed in 2020 not counting june july and august",
                                      "2020 homicides in the city not counting june, july or august"])
def test_months_left_out_are_not_counted_with_or_without_commas(ask, raw, question):
    run = ask(question)
    in_2020 = raw[raw.year == 2020]
    kept = int((~in_2020["when"].dt.month.isin([6, 7, 8])).sum())
    assert run.answer.startswith(f"There were {kept:,} homicides in Chicago in 2020, not counting June, July and "
                                 "August")
    assert "not Jun, Jul, Aug" in run.reading.filters


@pytest.mark.full_data
@pytest.mark.parametrize("question, years", [
    ("austin murders in 2004 2008 and 2012 added together?", [2004, 2008, 2012]),
    ("how many homicides in austin in 2017 and 2020 combined (just those 2 years)", [2017, 2020]),
])
def test_separate_years_asked_together_lead_with_their_sum(ask, raw, question, years):
    run = ask(question)
    austin = raw[pd.to_numeric(raw["Community Area"], errors="coerce") == 25]
    total = _count(austin, year=years)
    assert run.answer.startswith(f"There were {total:,} homicides in Austin (community area 25) in ")
    assert " together (" in run.answer.split("\n")[0] and not run.reading.not_used


@pytest.mark.full_data
def test_a_list_of_years_each_with_its_own_preposition_is_a_list(ask, raw):
    run = ask("district 4 murders - i need the number for 2007, for 2011 and for 2018 separately")
    assert [c.arguments.get("years") for c in run.calls] == [[2007, 2011, 2018]]
    d4 = raw[raw.district == 4]
    assert run.answer.startswith(f"There were {_count(d4, year=2007)} homicides in police district 4 (South Chicago) "
                                 f"in 2007; {_count(d4, year=2011)} in 2011; {_count(d4, year=2018)} in 2018")


@pytest.mark.full_data
def test_second_worst_by_count_not_rate_ranks_counts(ask, raw):
    run = ask("which neighborhood was 2nd worst for murders in 2019 (by count not rate)")
    counts = pd.to_numeric(raw[raw.year == 2019]["Community Area"], errors="coerce").value_counts()
    assert [c.name for c in run.calls] == [HOMICIDES]
    assert f"the second-most homicides in 2019 was Humboldt Park (23): {counts[23]}" in run.answer
    assert counts.index[1] == 23


def test_a_gang_question_is_declined_with_no_figure(ask):
    run = ask("which gang was responsible for the most murders in 2021")
    assert run.calls == [] and "does not include gangs, suspects and motives" in run.answer
    assert not any(ch.isdigit() for ch in run.answer.split("\n")[0].replace("2021", ""))


@pytest.mark.full_data
def test_an_areas_rate_against_the_citys_is_the_ratio_asked_for(ask, raw):
    run = ask("how many times higher was englewood's homicide rate than the city as a whole in 2019")
    values = run.calls[0].result.values
    area, city = values["breakdown"][0]["rate_per_100k"], values["citywide"]["rate_per_100k"]
    assert values["breakdown"][0]["homicides"] == int((pd.to_numeric(raw[raw.year == 2019]["Community Area"], errors="coerce") == 68).sum())
    assert run.answer.startswith(f"Englewood's homicide rate in 2019, {area:.1f} per 100,000, was {area / city:.1f} "
                                 f"times the city's {city:.1f}.")
    assert not run.reading.not_used


def test_two_areas_income_gap_leads(ask, data_dir):
    socio = pd.read_csv(data_dir / "socioeconomic.csv")
    socio.columns = [c.strip() for c in socio.columns]
    income = socio.set_index("Community Area Number")["PER CAPITA INCOME"]
    run = ask("is per capita income higher in hyde park or kenwood? whats the gap")
    gap = int(income[41] - income[39])
    assert run.answer.startswith(f"Per capita income was ${gap:,} higher in Hyde Park (${int(income[41]):,}) than in "
                                 f"Kenwood (${int(income[39]):,}), 2008-2012.")


@pytest.mark.full_data
def test_an_areas_rate_names_its_count_and_population(ask, raw):
    run = ask("how many people live in west englewood, how many were murdered there in 2022 and whats that per 100k")
    n = int((pd.to_numeric(raw[raw.year == 2022]["Community Area"], errors="coerce") == 67).sum())
    assert run.answer.startswith("West Englewood's homicide rate in 2022 was ")
    assert f"({n} homicides among " in run.answer.split("\n")[0]


@pytest.mark.full_data
def test_two_periods_are_compared_forward_in_time_whatever_the_wording(ask, raw):
    run = ask("auburn gresham - avg murders per year 2016-2020 vs 2011-2015, how much did the yearly average go up")
    area = raw[pd.to_numeric(raw["Community Area"], errors="coerce") == 71]
    first, second = _count(area, year=list(range(2011, 2016))), _count(area, year=list(range(2016, 2021)))
    before, after = first / 5, second / 5
    assert run.answer.startswith(f"In Auburn Gresham (community area 71), there were {first} homicides in 2011-2015 "
                                 f"({before:.1f} a year); {second} in 2016-2020 ({after:.1f} a year); the yearly "
                                 f"average changed by {after - before:+.1f}")


@pytest.mark.full_data
def test_a_district_named_by_its_stations_address(ask, raw):
    run = ask("the police district whose station is at 1438 w 63rd st, how many homicides did it have in 2021")
    assert [c.arguments.get("district") for c in run.calls if c.name == HOMICIDES] == [7]
    assert f"There were {_count(raw[raw.year == 2021], district=7.0)} homicides in police district 7" in run.answer
    # An address with no station or district named is where something happened: reported as not used.
    plain = ask("how many homicides in 2021 at 1438 w 63rd st")
    assert all(c.arguments.get("district") is None for c in plain.calls) and plain.reading.not_used


@pytest.mark.full_data
@pytest.mark.parametrize("question", [
    "whichever ward had the most murders in 2020, how many did that same ward have the next year",
    "which ward had the most homicides in 2020 and how many did it have in 2021",
])
def test_a_ranking_in_one_year_then_the_place_it_found_in_another(ask, raw, question):
    run = ask(question)
    top = raw[raw.year == 2020].ward.value_counts()
    ward = int(top.index[0])
    assert top.iloc[0] > top.iloc[1]  # no tie: the first place is one ward
    assert [(c.arguments.get("group_by"), c.arguments.get("start_year"), c.arguments.get("ward")) for c in run.calls] \
        == [("ward", 2020, None), (None, 2021, ward)]
    later = int(((raw.year == 2021) & (raw.ward == ward)).sum())
    assert run.answer.startswith(f"The ward with the most homicides in 2020 was Ward {ward}: {top.iloc[0]}")
    assert f"There were {later} homicides in ward {ward} in 2021" in run.answer
    assert "then 2021 for the place ranked" in run.reading.periods[0]


@pytest.mark.full_data
def test_arrests_out_of_a_rankings_count_are_a_part_of_it_not_a_filter(ask, raw):
    # Ranked with arrests only, ward 24 came first: an answer to another question.
    run = ask("which ward had the most murders in 2021, and out of those how many led to an arrest?")
    in_2021 = raw[raw.year == 2021]
    top = in_2021.ward.value_counts()
    ward = int(top.index[0])
    arrested = int((in_2021[in_2021.ward == ward]["Arrest"].astype(str).str.lower() == "true").sum())
    assert run.answer.startswith(f"The ward with the most homicides in 2021 was Ward {ward}: {top.iloc[0]} ")
    assert f"Of these, {arrested} led to an arrest ({100 * arrested / top.iloc[0]:.1f}%)." in run.answer
