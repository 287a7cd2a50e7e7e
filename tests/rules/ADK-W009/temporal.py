import asyncio
import subprocess
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.worker import Worker


@activity.defn
def render(page: int) -> str:
    return subprocess.run(["render", str(page)], capture_output=True, text=True).stdout


@workflow.defn
class BookWorkflow:
    @workflow.run
    async def run(self, pages: int) -> list:
        # Temporal runs workflow asyncio deterministically: tasks, gather and wait are fine.
        tasks = [
            asyncio.create_task(
                workflow.execute_activity(render, page, start_to_close_timeout=timedelta(minutes=1))
            )
            for page in range(pages)
        ]
        rendered = await asyncio.gather(*tasks)
        await asyncio.wait(tasks)
        cover = await asyncio.to_thread(str, pages)  # expect: ADK-W009
        loop = asyncio.get_running_loop()
        back = await loop.run_in_executor(None, str, pages)  # expect: ADK-W009
        return [cover, *rendered, back]


async def main(client) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        worker = Worker(
            client, task_queue="books", workflows=[BookWorkflow], activities=[render],
            activity_executor=pool,
        )
        await worker.run()
