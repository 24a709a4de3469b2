"""Real browser (headless Debian Chromium, Playwright) with the rule planner: the choropleth map and a follow-up thread.

The map: fills ordered like the values (checked against the raw CSVs with pandas), hover and keyboard
tooltips, the named areas outlined, no-data ZIPs hatched, the table fallback, hiding, and a screenshot
saved under var/test-artifacts/. The thread: three questions where the second and third lean on the
first, each answer's numbers compared with pandas.
"""
import json
import os
import re
from urllib.parse import urljoin
import threading
from pathlib import Path

import pandas as pd
import pytest

from app import create_app
from settings.loader import load_settings, resolve_data_dir

CHROMIUM = "/usr/bin/chromium"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent (make browser-deps)")]
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "var" / "test-artifacts"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAMED_STROKE = "rgb(217, 72, 15)"


@pytest.fixture(scope="module")
def raw():
    """The raw CSVs, read with plain pandas (no project code)."""
    folder = resolve_data_dir(load_settings())
    socio = pd.read_csv(folder / "socioeconomic.csv")
    socio = socio[socio["Community Area Number"].notna()]
    poverty = {str(int(n)): float(v) for n, v in zip(socio["Community Area Number"],
                                                     socio["PERCENT HOUSEHOLDS BELOW POVERTY"])}
    zhvi = pd.read_csv(folder / "property_zhvi_zip_monthly.csv", dtype={"RegionName": str})
    latest = zhvi[(zhvi["Year"] == 2024) & (zhvi["Month"] == 9)]
    homes = {z: round(p) for z, p in zip(latest["RegionName"], latest["price"])}
    homicides = pd.read_csv(folder / "homicides.csv")
    return {"poverty": poverty, "homes": homes, "homicides": homicides}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from werkzeug.serving import make_server

    cache = ROOT / "var" / "test" / "cache"
    app = create_app({"TESTING": True,
                      "SETTINGS_OVERRIDES": {"model.backend": "rules", "data.cache_dir": str(cache),
                                             "server.var_dir": str(tmp_path_factory.mktemp("map_var"))}})
    app.extensions["chiqa_runtime"].orchestrator()  # load the data before the first page
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(5)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


def ask(page, question):
    from playwright.sync_api import expect

    page.fill("#question", question)
    page.press("#question", "Enter")
    expect(page.locator("#asked")).to_have_text("Q: " + question, timeout=30000)
    expect(page.locator("#ask-button")).to_be_enabled(timeout=30000)


def luminance(rgb: str) -> float:
    r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def map_paths(page) -> list:
    return page.eval_on_selector_all("#map-body svg.map path.area", """els => els.map(e => ({
        id: e.dataset.id, name: e.dataset.name, value: e.dataset.value === undefined ? null : Number(e.dataset.value),
        fill: getComputedStyle(e).fill, stroke: getComputedStyle(e).stroke, cls: e.getAttribute('class'),
        label: e.getAttribute('aria-label'), tabindex: e.getAttribute('tabindex')}))""")


def page_weight(page) -> dict:
    """Bytes of the page and each resource as the browser received them (Resource Timing: same origin, so exact)."""
    entries = page.evaluate("""() => performance.getEntriesByType('navigation')
        .concat(performance.getEntriesByType('resource'))
        .map(e => ({path: new URL(e.name).pathname, encoded: e.encodedBodySize, decoded: e.decodedBodySize}))""")
    return {e["path"]: {"encoded": e["encoded"], "decoded": e["decoded"]} for e in entries}


def test_area_map_fills_tooltips_named_areas_and_table(server, browser, raw):
    console = []
    page = browser.new_page(viewport={"width": 1280, "height": 1100})
    page.on("console", lambda m: console.append(m.text))
    page.goto(server + "/")
    ask(page, "What is the poverty rate in Englewood compared with Austin?")
    page.wait_for_selector("#map-body svg.map path.area[data-value]", timeout=15000)
    paths = map_paths(page)

    # Page weight, measured in the browser: the map's own cost is its script plus one boundary layer (sent gzipped),
    # tens of kilobytes instead of the 3.5 MB geojson. Saved beside the screenshots.
    weight = page_weight(page)
    layer, script = weight["/api/geo/community_areas"], weight["/static/map.js"]
    assert layer["encoded"] < layer["decoded"] < 16_000 and layer["encoded"] < 8_000
    assert script["decoded"] < 24_000 and layer["encoded"] + script["encoded"] < 40_000
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    weight["total_encoded"] = sum(v["encoded"] for v in weight.values())
    (ARTIFACTS / "map_page_weight.json").write_text(json.dumps(weight, indent=2, sort_keys=True))
    poverty = raw["poverty"]

    # Every community area is drawn, each with the value the raw CSV has.
    assert len(paths) == 77 and {p["id"] for p in paths} == set(poverty)
    for p in paths:
        assert p["value"] == pytest.approx(poverty[p["id"]], abs=0.05), p
    # Fills follow the values: a higher value is never lighter, and the ramp uses five distinct colours.
    ordered = sorted(paths, key=lambda p: p["value"])
    lights = [luminance(p["fill"]) for p in ordered]
    assert all(a >= b - 1e-9 for a, b in zip(lights, lights[1:]))
    assert len({p["fill"] for p in paths}) == 5
    assert luminance(ordered[0]["fill"]) > luminance(ordered[-1]["fill"]) + 100

    # The areas the question names are outlined, and only those.
    named = {p["id"] for p in paths if p["stroke"] == NAMED_STROKE}
    assert named == {"68", "25"}  # Englewood, Austin
    assert "outlined: Austin, Englewood" in page.text_content("#map-body .map-caption")
    ranking = sorted(poverty, key=lambda k: -poverty[k])
    rank = {k: ranking.index(k) + 1 for k in poverty}  # no ties at the top of this column
    englewood = next(p for p in paths if p["id"] == "68")
    assert englewood["label"] == f"Englewood: {poverty['68']}%, rank {rank['68']} of 77 (named in the question)"

    # Hover: the tooltip names the area, its value and rank.
    page.hover("#map-body path.area[data-id='68']")
    tip = page.locator("#map-tip")
    assert tip.is_visible()
    assert tip.text_content() == f"Englewood{poverty['68']}%rank {rank['68']} of 77 (1 = highest)named in the question"

    # Keyboard: Tab from the Hide button lands on the named area first; arrows walk the ranking.
    page.mouse.move(5, 5)
    page.focus("#map-toggle")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.id") == "68"
    assert tip.is_visible() and tip.text_content().startswith(f"Englewood{poverty['68']}%")
    page.keyboard.press("ArrowRight")
    after = ranking[rank["68"]]  # the next lower poverty rate
    assert page.evaluate("document.activeElement.dataset.id") == after
    name_after = next(p["name"] for p in paths if p["id"] == after)
    assert tip.text_content() == f"{name_after}{poverty[after]}%rank {rank[after]} of 77 (1 = highest)"
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.id") == ranking[0]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # back on rank 4 with its tooltip showing, for the screenshot
    page.locator("#answer-section").screenshot(path=str(ARTIFACTS / "map_area_poverty.png"))

    # Legend with classes and units; caption with dataset and period; accessible names.
    legend = page.text_content("#map-body .map-legend")
    assert "Households below poverty (percent)" in legend and "no data" in legend and "named in the question" in legend
    assert legend.count("%") >= 5
    caption = page.text_content("#map-body .map-caption")
    assert "2008-2012" in caption and "socioeconomic indicators" in caption and "igwz-8jzy" in caption
    assert "Arrow keys" in page.get_attribute("#map-body svg.map", "aria-label")

    # The table fallback lists every area in rank order.
    page.click("#map-body details.map-table summary")
    rows = page.eval_on_selector_all("#map-body details.map-table tbody tr",
                                     "els => els.map(r => Array.from(r.cells).map(c => c.textContent))")
    assert len(rows) == 77 and rows[0] == ["1", "Riverdale", f"{poverty[ranking[0]]}%"]

    # The map can be hidden, and stays hidden on the next answer until shown again.
    page.click("#map-toggle")
    assert page.is_hidden("#map-body") and page.get_attribute("#map-toggle", "aria-expanded") == "false"
    page.reload()
    ask(page, "Which community areas had the most homicides in 2022?")
    assert page.is_visible("#map-panel") and page.is_hidden("#map-body")
    page.click("#map-toggle")
    page.wait_for_selector("#map-body svg.map path.area[data-value]")
    counts = raw["homicides"].query("Year == 2022").groupby("Community Area").size()
    drawn = {p["id"]: p["value"] for p in map_paths(page)}
    assert drawn == {str(n): float(counts.get(n, 0)) for n in range(1, 78)}
    assert not [m for m in console if "Content Security Policy" in m]
    page.close()


def test_zip_map_hatches_zips_without_values(server, browser, raw):
    page = browser.new_page(viewport={"width": 1280, "height": 1100})
    page.goto(server + "/")
    ask(page, "What are home values by ZIP code?")
    page.wait_for_selector("#map-body svg.map path.area[data-value]", timeout=15000)
    paths = map_paths(page)
    homes = raw["homes"]
    drawn = {p["id"]: p["value"] for p in paths if p["value"] is not None}
    assert drawn == {z: float(v) for z, v in homes.items()}
    missing = sorted(p["id"] for p in paths if p["value"] is None)
    assert missing and all("nodata" in p["cls"] and "no data" in p["label"] for p in paths if p["value"] is None)
    assert set(missing).isdisjoint(homes)
    ordered = sorted((p for p in paths if p["value"] is not None), key=lambda p: p["value"])
    lights = [luminance(p["fill"]) for p in ordered]
    assert all(a >= b - 1e-9 for a, b in zip(lights, lights[1:]))
    page.hover(f"#map-body path.area[data-id='{missing[0]}']")
    assert page.text_content("#map-tip") == f"ZIP {missing[0]}no data"
    assert "Zillow home value by ZIP (2024-09)" in page.text_content("#map-body .map-caption")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("#map-panel").screenshot(path=str(ARTIFACTS / "map_zip_home_values.png"))
    page.close()


def test_three_turn_follow_up_thread(server, browser, raw):
    h = raw["homicides"]
    englewood_2022 = int(((h["Year"] == 2022) & (h["Community Area"] == 68)).sum())
    englewood_2021 = int(((h["Year"] == 2021) & (h["Community Area"] == 68)).sum())
    city_2021 = int((h["Year"] == 2021).sum())
    page = browser.new_page(viewport={"width": 1280, "height": 1100})
    page.goto(server + "/")

    ask(page, "How many homicides were there in Englewood in 2022?")
    first = page.inner_text("#answer")  # the reading line is its own paragraph
    assert re.search(rf"\b{englewood_2022} homicides\b", first) and "Englewood" in first
    assert page.is_visible("#followup-note") and page.is_hidden("#thread-section")

    # Turn 2 names only a year: the place and the subject come from turn 1.
    ask(page, "And in 2021?")
    second = page.inner_text("#answer")
    assert re.search(rf"\b{englewood_2021} homicides\b", second) and "Englewood" in second and "2021" in second
    analysis = page.text_content("#trace li.step-analysis summary")
    assert "areas from turn 1" in analysis and "metrics from turn 1" in analysis
    page.wait_for_selector("#thread li:nth-child(2)")

    # Turn 3 names nothing: Englewood from turn 1, 2021 from turn 2, and the city figure beside it.
    ask(page, "How does that compare with the city?")
    third = page.inner_text("#answer")
    assert re.search(rf"\b{englewood_2021} homicides\b", third) and re.search(rf"\b{city_2021} homicides\b", third)
    analysis = page.text_content("#trace li.step-analysis summary")
    assert "areas from turn 1" in analysis and "years from turn 2" in analysis and "compared with the city" in analysis
    page.wait_for_selector("#thread li:nth-child(3)")
    turns = page.eval_on_selector_all("#thread li", """els => els.map(li => ({turn: li.dataset.turn,
        current: li.getAttribute('aria-current'), q: li.querySelector('a').textContent,
        href: li.querySelector('a').getAttribute('href')}))""")
    assert [t["q"] for t in turns] == ["How many homicides were there in Englewood in 2022?", "And in 2021?",
                                       "How does that compare with the city?"]
    assert [t["current"] for t in turns] == [None, None, "true"]
    assert len({t["href"] for t in turns}) == 3  # each turn is a run with its own permalink
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "follow_up_thread.png"), full_page=True)

    # The permalink of turn 2 shows that turn, inside its conversation.
    page.goto(urljoin(server + "/", turns[1]["href"]))  # the link may be absolute
    page.wait_for_selector("#thread li.current", timeout=15000)
    assert page.inner_text("#answer") == second
    assert page.get_attribute("#thread li.current", "data-turn") == "2"

    # A new conversation forgets the earlier turns: "And in 2021?" alone carries nothing.
    page.click("#new-conversation")
    assert page.is_hidden("#followup-note") and page.is_hidden("#thread-section")
    ask(page, "And in 2021?")
    assert f"{englewood_2021} homicides" not in page.text_content("#answer")
    assert "carried" not in page.text_content("#trace li.step-analysis summary")
    assert page.is_hidden("#thread-section")
    page.close()
