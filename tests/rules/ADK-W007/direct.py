import getpass
import os
import pathlib
import platform
import socket
import sys
import time

__adk_workflow__ = True


async def run(ctx, order):
    home = os.environ["HOME"]  # expect: ADK-W007:11
    region = os.environ.get("REGION", "eu")  # expect: ADK-W007
    token = os.getenv("TOKEN")  # expect: ADK-W007
    raw = os.environb[b"PATH"]  # expect: ADK-W007
    args = sys.argv[1:]  # expect: ADK-W007
    verbose = len(sys.argv) > 1  # expect: ADK-W007
    debug = "DEBUG" in os.environ  # expect: ADK-W007
    for name in os.environ:  # expect: ADK-W007
        order[name] = 1
    snapshot = dict(os.environ)  # expect: ADK-W007
    pid = os.getpid()  # expect: ADK-W007
    parent = os.getppid()  # expect: ADK-W007
    uid = os.getuid()  # expect: ADK-W007
    host = socket.gethostname()  # expect: ADK-W007
    fqdn = socket.getfqdn()  # expect: ADK-W007
    node = platform.node()  # expect: ADK-W007
    system = platform.uname()  # expect: ADK-W007
    cwd = os.getcwd()  # expect: ADK-W007
    user = getpass.getuser()  # expect: ADK-W007
    cores = os.cpu_count()  # expect: ADK-W007
    kernel = os.uname()  # expect: ADK-W007
    login = os.getlogin()  # expect: ADK-W007
    here = pathlib.Path.cwd()  # expect: ADK-W007
    zone = time.tzname[0]  # expect: ADK-W007
    return (home, region, token, raw, args, verbose, debug, snapshot, pid, parent, uid, host,
            fqdn, node, system, cwd, user, cores, kernel, login, here, zone)
