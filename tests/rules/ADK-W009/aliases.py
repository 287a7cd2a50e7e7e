import asyncio as aio
import subprocess as sp
import threading as th
from concurrent.futures import ThreadPoolExecutor as Pool
from multiprocessing import Process as Proc
from os import system as shell
from subprocess import run as execute
from threading import Thread

__adk_workflow__ = True


async def run(items):
    a = th.Thread(target=print)  # expect: ADK-W009
    b = Thread(target=print)  # expect: ADK-W009
    c = Pool()  # expect: ADK-W009
    d = Proc(target=print)  # expect: ADK-W009
    e = shell("true")  # expect: ADK-W009
    f = execute(["true"])  # expect: ADK-W009
    g = sp.call(["true"])  # expect: ADK-W009
    h = await aio.to_thread(print, 1)  # expect: ADK-W009
    return a, b, c, d, e, f, g, h
