"""The same reads in the regions never replayed: an activity, `if __name__`, TYPE_CHECKING."""
import os
import sys
from typing import TYPE_CHECKING

from replaylint.workflows import activity

__adk_workflow__ = True

if TYPE_CHECKING:
    HOME = os.environ["HOME"]


@activity
def load_settings(name):
    return {"region": os.environ.get("REGION"), "pid": os.getpid(), "args": sys.argv}


async def run(ctx, name):
    return load_settings(name)


if __name__ == "__main__":
    print(sys.argv[1:], os.getenv("DEBUG"))
