"""A dispatch table's entry kept in a name first (`handler = HANDLERS[name]`, or `.get(name)`)
is still one of its functions: calling it is a call of each. A table a comprehension builds from
a list of LangChain tools (`{t.name: t for t in TOOLS}`, LangGraph's tool node) holds those
tools, and `.invoke` of the one a key picks runs it. A constant key on such a table, or a table
of values that are not functions, gives nothing."""
import requests
from dbos import DBOS
from langchain_core.tools import tool


def send_email(args: dict) -> str:
    return requests.post("https://mail.example.com/send", json=args).text  # expect: ADK-W004


def note(args: dict) -> str:
    return str(args)


@tool
def schedule(when: str) -> str:
    """Book a meeting."""
    return requests.post("https://cal.example.com/book", json={"at": when}).text  # expect: ADK-W004


HANDLERS = {"send_email": send_email, "note": note}
TOOLS = [schedule]
TOOLS_BY_NAME = {t.name: t for t in TOOLS}
SAFE_BY_NAME = {f.__name__: f for f in [note]}
LIMITS = {"send_email": 3, "note": 1}


@DBOS.workflow()
def picked(name: str, args: dict) -> str:
    handler = HANDLERS[name]
    return handler(args)  # expect: ADK-W005


@DBOS.workflow()
def got(name: str, args: dict) -> str:
    handler = HANDLERS.get(name)
    if handler is None:
        return ""
    return handler(args)  # expect: ADK-W005


@DBOS.workflow()
def tool_node(calls: list) -> list:
    results = []
    for call in calls:
        chosen = TOOLS_BY_NAME[call["name"]]
        results.append(chosen.invoke(call["args"]))  # expect: ADK-W005
    return results


@DBOS.workflow()
def quiet(name: str, args: dict) -> int:
    SAFE_BY_NAME[name](args)
    return LIMITS[name]
