"""A DBOS workflow is checked; its steps are recorded and stay clean."""
from dbos import DBOS

JOBS: list[str] = []


@DBOS.step()
def enqueue(job: str) -> None:
    JOBS.append(job)


@DBOS.workflow()
def run_job(job: str) -> int:
    enqueue(job)
    JOBS.append(job)  # expect: ADK-W011
    return len(JOBS)
