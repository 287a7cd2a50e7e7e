import asyncio
import concurrent.futures
import multiprocessing
import os
import subprocess
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

__adk_workflow__ = True


def work(item):
    return item * 2


async def run(ctx, items):
    worker = threading.Thread(target=print, args=(1,))  # expect: ADK-W009:13
    worker.start()
    timer = threading.Timer(5, print)  # expect: ADK-W009
    with ThreadPoolExecutor(max_workers=4) as pool:  # expect: ADK-W009
        doubled = list(pool.map(work, items))
    processes = ProcessPoolExecutor()  # expect: ADK-W009
    executor = concurrent.futures.ThreadPoolExecutor()  # expect: ADK-W009
    proc = multiprocessing.Process(target=print)  # expect: ADK-W009
    with multiprocessing.Pool(2) as mp:  # expect: ADK-W009
        squares = mp.map(work, items)
    out = subprocess.run(["ls"], capture_output=True)  # expect: ADK-W009
    text = subprocess.check_output(["date"])  # expect: ADK-W009
    child = subprocess.Popen(["sleep", "1"], stdout=subprocess.PIPE)  # expect: ADK-W009
    status = os.system("true")  # expect: ADK-W009
    pipe = os.popen("ls")  # expect: ADK-W009
    pid = os.fork()  # expect: ADK-W009
    os.execv("/bin/true", ["true"])  # expect: ADK-W009
    os.spawnl(os.P_WAIT, "/bin/true", "true")  # expect: ADK-W009
    value = await asyncio.to_thread(work, 3)  # expect: ADK-W009
    loop = asyncio.get_running_loop()
    other = await loop.run_in_executor(None, work, 4)  # expect: ADK-W009
    shell = await asyncio.create_subprocess_shell("ls")  # expect: ADK-W009
    exe = await asyncio.create_subprocess_exec("ls")  # expect: ADK-W009
    return (timer, doubled, processes, executor, proc, squares, out, text, child, status,
            pipe, pid, value, other, shell, exe)
