"""A helper that starts a process makes its callers unsafe (ADK-W005, chain to the start)."""
import subprocess

__adk_workflow__ = True


def git_revision():
    return subprocess.check_output(["git", "rev-parse", "HEAD"])  # expect: ADK-W009


async def run(order):
    revision = git_revision()  # expect: ADK-W005
    return revision, order
