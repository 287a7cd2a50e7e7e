import json
from datetime import timedelta
from pathlib import Path

from temporalio import activity, workflow

SCHEMA = json.loads((Path(__file__).parent / "schema.json").read_text())  # import time


def _load_template(name):
    return (Path(__file__).parent / "templates" / name).read_text()  # expect: ADK-W008


@activity.defn
async def read_report(path: str) -> str:
    with open(path) as handle:
        return handle.read()


@workflow.defn
class ReportWorkflow:
    @workflow.run
    async def run(self, path: str) -> str:
        report = await workflow.execute_activity(
            read_report, path, start_to_close_timeout=timedelta(seconds=10)
        )
        template = _load_template("report.txt")  # expect: ADK-W005
        with open(path, "a") as log:  # expect: ADK-W008
            log.write(report)
        return template.format(report=report, schema=SCHEMA)


def main() -> None:
    Path("worker.pid").write_text("1")
