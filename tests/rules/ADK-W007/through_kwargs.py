"""A value handed to a helper's `**kwargs` or `*args` is followed through the reads of that
collector, as through a named parameter."""
import os

from dbos import DBOS


def connect(**kwargs) -> str:
    return "conn:" + kwargs["conn_str"]


def first(*values) -> str:
    return values[0]


def log_only(**kwargs) -> None:
    print(kwargs)


@DBOS.workflow()
def load(name: str) -> str:
    conn = connect(conn_str=os.environ["CONN"])  # expect: ADK-W007
    region = first(os.environ["REGION"])  # expect: ADK-W007
    log_only(debug=os.environ.get("DEBUG"))
    return conn + region + name
