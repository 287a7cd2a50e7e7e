"""The same starts in the regions never replayed: an activity, `if __name__`."""
import subprocess
from concurrent.futures import ThreadPoolExecutor

from replaylint.workflows import activity

__adk_workflow__ = True


@activity
def convert(name):
    return subprocess.run(["convert", name], check=True).returncode


async def run(ctx, name):
    return convert(name)


if __name__ == "__main__":
    with ThreadPoolExecutor() as pool:
        pool.submit(print, "worker")
