"""What the planner tests of the blind sets share: the raw homicide rows read with plain pandas (never through the
app's loaders, so the expected figures are independent), the rules backend's run, and an answer's lead."""
import pandas as pd

from assembly.services import build_services
from backends.rules_only import RulesBackend


def raw_homicides(data_dir) -> pd.DataFrame:
    df = pd.read_csv(data_dir / "homicides.csv", dtype=str)
    when = pd.to_datetime(df["Date"], format="%m/%d/%Y %I:%M:%S %p")
    df["year"], df["month"] = when.dt.year, when.dt.month
    df["area"] = pd.to_numeric(df["Community Area"], errors="coerce")
    df["ward"] = pd.to_numeric(df["Ward"], errors="coerce")
    df["arrested"] = df["Arrest"].astype(str).str.lower() == "true"
    df["domestic"] = df["Domestic"].astype(str).str.lower() == "true"
    df["day"], df["dom"], df["hour"] = when.dt.normalize(), when.dt.day, when.dt.hour
    df["weekday"] = when.dt.day_of_week + 1  # Monday is 1
    df["district"] = pd.to_numeric(df["District"], errors="coerce")
    df["place"] = df["Location Description"].fillna("")
    return df


def rules_run(settings, data):
    """The orchestrator's run with the rules backend: the planner's own answer, end to end."""
    return build_services(settings, backend=RulesBackend(), data=data).orchestrator.run


def lead(run) -> str:
    """The answer above its details."""
    return run.answer.split("\n\nDetails:")[0]
