"""Workflows and steps under the name their framework registers: methods of a DBOS class
(recorded under `Class.method`), a Durable Functions v1 orchestrator named by its folder, a
durabletask orchestrator registered under a name of its own."""

from __future__ import annotations

from pathlib import Path

from tests.versioning.repos import check_change, found, repository

DBOS_CLASS = """
from dbos import DBOS, DBOSConfiguredInstance

DBOS(config={{"name": "shop", "enable_patching": True}})


@DBOS.dbos_class()
class Shop(DBOSConfiguredInstance):
    def __init__(self) -> None:
        super().__init__("shop")

    @DBOS.step()
    def charge_card(self, order: str) -> str:
        return order

    @DBOS.step()
    def ship(self, order: str) -> str:
        return order

    @DBOS.workflow()
    def {name}(self, order: str) -> str:{mark}
{body}
        return order
"""


def shop(body: str, name: str = "checkout", mark: str = "") -> str:
    text = "\n".join(" " * 8 + line for line in body.strip("\n").splitlines())
    return DBOS_CLASS.format(body=text, name=name, mark=mark)


def test_dbos_class_methods_are_workflows_and_steps(tmp_path: Path) -> None:
    base = shop("self.charge_card(order)\nself.ship(order)")
    new = shop("self.ship(order)  # expect: ADK-V001\nself.charge_card(order)")
    details = ["Shop.checkout: was: step Shop.charge_card, now: step Shop.ship"]
    check_change(tmp_path, "shop.py", base, new, details)


def test_a_dbos_class_workflow_renamed(tmp_path: Path) -> None:
    body = "self.charge_card(order)\nself.ship(order)"
    new = shop(body, "checkout_v2", "  # expect: ADK-V002")
    details = ["was: Shop.checkout, now: Shop.checkout_v2"]
    check_change(tmp_path, "shop.py", shop(body), new, details)


def test_a_dbos_class_step_body_changed_is_silent(tmp_path: Path) -> None:
    base = shop("self.charge_card(order)\nself.ship(order)")
    new = base.replace(
        "    def ship(self, order: str) -> str:\n        return order",
        "    def ship(self, order: str) -> str:\n        return order.upper()",
    )
    assert new != base
    check_change(tmp_path, "shop.py", base, new, [])


V1_ORCHESTRATOR = """
import azure.durable_functions as df


def {name}(context: df.DurableOrchestrationContext):
    first = yield context.call_activity('E1_SayHello', "Tokyo")
    second = yield context.call_activity('{second}', "Seattle"){mark}
    return [first, second]


main = df.Orchestrator.create({name})
"""
FUNCTION_JSON = '{"bindings": [{"name": "context", "type": "orchestrationTrigger"}]}\n'
V1_FOLDER = "E1_HelloSequence"


def v1(name: str = "orchestrator_function", second: str = "E1_SayHello", mark: str = "") -> str:
    return V1_ORCHESTRATOR.format(name=name, second=second, mark=mark)


def test_a_v1_orchestrator_is_named_by_its_folder(tmp_path: Path) -> None:
    # The host registers the function.json folder's name: the Python function's is no name.
    new = v1("sequence_of_greetings")
    repository(
        tmp_path,
        {f"{V1_FOLDER}/__init__.py": v1(), f"{V1_FOLDER}/function.json": FUNCTION_JSON},
        {f"{V1_FOLDER}/__init__.py": new},
    )
    assert found(tmp_path) == set()


def test_a_v1_orchestrator_target_changed(tmp_path: Path) -> None:
    new = v1(second="E1_SayBye", mark="  # expect: ADK-V001")
    details = [f"{V1_FOLDER}: was: activity E1_SayHello, now: activity E1_SayBye"]
    more = {f"{V1_FOLDER}/function.json": FUNCTION_JSON}
    check_change(tmp_path, f"{V1_FOLDER}/__init__.py", v1(), new, details, **more)


def test_a_v1_orchestrator_whose_function_json_is_gone_is_removed(tmp_path: Path) -> None:
    repository(
        tmp_path,
        {f"{V1_FOLDER}/__init__.py": v1(), f"{V1_FOLDER}/function.json": FUNCTION_JSON},
        {f"{V1_FOLDER}/function.json": None},
    )
    assert found(tmp_path) == {(f"{V1_FOLDER}/__init__.py", 1, "ADK-V002")}


NAMED_ORCHESTRATOR = """
from durabletask import task, worker


def hello(ctx: task.ActivityContext, name: str) -> str:
    return name


def {function}(ctx: task.OrchestrationContext, _):{mark}
    yield ctx.call_activity(hello, input="Tokyo")
    return 1


w = worker.TaskHubGrpcWorker()
w.add_named_orchestrator("{name}", {function})
w.add_activity(hello)
"""


def named(name: str, function: str = "sequence", mark: str = "") -> str:
    return NAMED_ORCHESTRATOR.format(name=name, function=function, mark=mark)


def test_a_durabletask_orchestrator_renamed_under_its_registered_name(tmp_path: Path) -> None:
    new = named("greetings", "greetings_sequence")
    check_change(tmp_path, "orchestration.py", named("greetings"), new, [])


def test_a_durabletask_registered_name_changed(tmp_path: Path) -> None:
    new = named("greetings-v2", mark="  # expect: ADK-V002")
    details = ["was: greetings, now: greetings-v2"]
    check_change(tmp_path, "orchestration.py", named("greetings"), new, details)
