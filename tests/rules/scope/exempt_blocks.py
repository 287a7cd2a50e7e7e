import time
from typing import TYPE_CHECKING

from replaylint.workflows import activity

__adk_workflow__: bool = True

if TYPE_CHECKING:
    import requests

    requests.get("https://example.com")


@activity
def charge(card):
    time.sleep(1)
    return card


@activity(name="lookup")
def lookup(key):
    return time.time()


def run(card, deadline: "time.struct_time" = None) -> "time.time()":
    return charge(card), lookup("k")


if __name__ == "__main__":
    print(time.time())
    run("card")
