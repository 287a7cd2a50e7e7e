import subprocess

import restate
from restate import Context

builds = restate.Service("Builds")


def compile_project(name: str) -> str:
    return subprocess.check_output(["make", name], text=True)


@builds.handler()
async def build(ctx: Context, name: str) -> str:
    journaled = await ctx.run("compile", compile_project, args=(name,))
    direct = subprocess.check_output(["make", "docs"], text=True)  # expect: ADK-W009
    return journaled + direct
