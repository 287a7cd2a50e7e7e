"""A handler picked from a dispatch table (a dict literal of the module's functions) by a key
known only at run time runs one of them: the call is a call of each, reported through the
unsafe ones, as a constant key's call is of the one it names. A table of safe functions gives
nothing."""
import requests
from dbos import DBOS


def send_email(args: dict) -> str:
    return requests.post("https://mail.example.com/send", json=args).text  # expect: ADK-W004


def note(args: dict) -> str:
    return str(args)


HANDLERS = {"send_email": send_email, "note": note}
QUIET = {"note": note}


@DBOS.workflow()
def dispatch(name: str, args: dict) -> str:
    QUIET[name](args)
    HANDLERS["note"](args)
    return HANDLERS[name](args)  # expect: ADK-W005
