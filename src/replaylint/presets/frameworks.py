"""Framework presets: how Temporal, DBOS, Restate, Azure Durable Functions, durabletask and AWS
Lambda durable functions mark replayed code, which zones they record, and their safe APIs.

Every pattern matches a *resolved* path (after imports, aliases and instances are folded), never
the spelling in the source: `@wf.defn` is Temporal only when `wf` is `temporalio.workflow`.
Instance paths carry `()`: `restate.Service().handler` is the `handler` method of a Service.
The facts come from the frameworks' own packages (see shared/reference/framework_presets.json).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from replaylint.core.codes import Code


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


_NEVER = re.compile(r"(?!)")


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    packages: tuple[str, ...]  # import names: what the prefilter looks for, and annotation roots
    workflow_classes: re.Pattern[str] = _NEVER  # class decorators marking a workflow class
    workflow_methods: re.Pattern[str] = _NEVER  # its handler decorators: those methods run replayed
    workflow_functions: re.Pattern[str] = _NEVER  # function decorators: the body is replayed
    workflow_registrars: re.Pattern[str] = _NEVER  # calls whose function argument is replayed
    recorded_decorators: re.Pattern[str] = _NEVER  # activities, steps: served from history
    recorded_registrars: re.Pattern[str] = _NEVER  # calls registering an activity function
    recorders: re.Pattern[str] = _NEVER  # calls that run the callable they are given, recorded
    context_types: re.Pattern[str] = _NEVER  # parameter annotations naming the run context
    context_param: int | None = None  # position of an unannotated context parameter
    context_type: str = ""  # what that parameter is bound to
    safe: frozenset[str] = frozenset()  # catalog roots that this framework makes deterministic
    child_workflows: bool = False  # a workflow calling another directly starts a recorded child
    inline_activity_remedy: str = ""  # for ADK-W005 at a direct call of one of its activities
    remedies: dict[Code, str] = field(default_factory=dict)


TEMPORAL = Preset(
    name="temporal",
    title="Temporal",
    packages=("temporalio",),
    workflow_classes=_any(r"temporalio\.workflow\.defn"),
    # run, init, signals, queries, updates and their validators run in workflow context; other
    # methods are replayed when these reach them.
    workflow_methods=_any(
        r"temporalio\.workflow\.(run|init|signal|query|update)", r"\w+\.validator"
    ),
    recorded_decorators=_NEVER,  # activity.defn is "inline": a direct call runs the body
    recorders=_any(
        r"temporalio\.workflow\.(execute|start)_(local_)?activity(_method|_class)?",
        r"temporalio\.workflow\.(execute|start)_child_workflow",
        r"temporalio\.workflow\.(execute|start)_update_with_start_workflow",
        # A Nexus operation runs in its handler's worker, a workflow method named to an external
        # handle is only its type: the reference handed over is never run inline.
        r"temporalio\.workflow\.(create_nexus_client\(\)|NexusClient\(\))\.(execute|start)_operation",
        r"temporalio\.workflow\.get_external_workflow_handle(_for)?",
        # Agent integrations hand an activity to the model as a tool: it runs as an activity.
        r"temporalio\.contrib\.(?:\w+\.)*(activity_as_tool|activity_tool|nexus_operation_as_tool)",
        # An ADK MCP toolset's factories build the toolset inside its activities, or outside
        # any workflow (`not_in_workflow_toolset`): never in the workflow itself.
        r"temporalio\.contrib\.google_adk_agents\.(?:\w+\.)*(TemporalMcpToolSet"
        r"|TemporalMcpToolSetProvider|TemporalStatefulMcpToolSetProvider)",
    ),
    # Inside a workflow asyncio's timers are Temporal's durable timers and the event loop's
    # clock is workflow time (temporalio README, "Asyncio and Determinism").
    safe=frozenset(
        {
            "asyncio.sleep",
            "asyncio.get_running_loop().time",
            "asyncio.get_event_loop().time",
            "asyncio.get_running_loop().call_later",
            "asyncio.get_event_loop().call_later",
            # Temporal's agent integrations (temporalio.contrib.openai_agents, google_adk_agents)
            # run these inside a workflow with every model call turned into an activity.
            "agents.Runner.run",
            "agents.Runner.run_sync",
            "agents.Runner.run_streamed",
            "google.adk.runners.Runner().run_async",
            "google.adk.runners.Runner().run",
            "google.adk.runners.InMemoryRunner().run_async",
            "google.adk.runners.InMemoryRunner().run",
        }
    ),
    remedies={
        Code.W001: "call the model from an activity run with workflow.execute_activity, which records its result",
        Code.W002: "use workflow.uuid4() or workflow.random(), which Temporal seeds from the run",
        Code.W003: "use workflow.now() for the time and workflow.sleep() or asyncio.sleep() for waits",
        Code.W004: "move it into an activity run with workflow.execute_activity",
        Code.W005: "move the helper into an activity run with workflow.execute_activity",
        Code.W007: "pass it in as workflow input, or read it in an activity run with workflow.execute_activity",
        Code.W008: "move the file access into an activity run with workflow.execute_activity",
        Code.W009: "run concurrent work as asyncio tasks or activities (workflow.start_activity), which Temporal orders deterministically",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state on the workflow instance (self) or in its inputs; module and class state is shared by every run on the worker",
    },
    inline_activity_remedy=(
        "run the activity with workflow.execute_activity instead of calling it directly"
    ),
)

DBOS = Preset(
    name="dbos",
    title="DBOS",
    packages=("dbos",),
    workflow_functions=_any(r"dbos\.(?:_dbos\.)?DBOS\.workflow"),
    recorded_decorators=_any(
        r"dbos\.(?:_dbos\.)?DBOS\.(step|transaction|communicator)",
        # DBOS 3 datasources: `ds = SQLAlchemyDatasource.create(url)` (or the async class's
        # awaited `create`), then `@ds.transaction()` bodies run once, recorded with the commit.
        r"dbos\.(?:\w+\.)*\w*Datasource(?:\.create)?\(\)\.transaction",
    ),
    recorders=_any(
        r"dbos\.(?:_dbos\.)?DBOS\.(run_step|run_step_async|start_workflow|start_workflow_async"
        r"|enqueue_workflow|enqueue_workflow_async)",
        r"dbos\.(?:\w+\.)*Queue\(\)\.(enqueue|enqueue_async)",
        r"dbos\.(?:\w+\.)*Debouncer\.create",
        r"dbos\.(?:\w+\.)*\w*Datasource(?:\.create)?\(\)\.run_tx_step(?:_async)?",
    ),
    child_workflows=True,
    # An async workflow runs its synchronous steps and transactions through asyncio.to_thread;
    # the workflow's context travels with the thread, so they are checkpointed as usual.
    safe=frozenset({"asyncio.to_thread"}),
    remedies={
        Code.W001: "move the model call into a @DBOS.step(), whose result DBOS checkpoints",
        Code.W002: "draw the value inside a @DBOS.step(), whose result DBOS checkpoints",
        Code.W003: "use DBOS.sleep() for waits, and read the clock inside a @DBOS.step()",
        Code.W004: "move it into a @DBOS.step(), whose result DBOS checkpoints",
        Code.W005: "make the helper a @DBOS.step(), or call it from one",
        Code.W007: "pass it in as a workflow argument, or read it inside a @DBOS.step()",
        Code.W008: "move the file access into a @DBOS.step(), whose result DBOS checkpoints",
        Code.W009: "start concurrent work with DBOS.start_workflow() or a Queue, or run it inside a @DBOS.step()",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state in local variables and the workflow's arguments; DBOS recovers a workflow by running it again from its inputs",
    },
)

RESTATE = Preset(
    name="restate",
    title="Restate",
    packages=("restate",),
    workflow_functions=_any(
        r"restate\.(?:\w+\.)*(Service|VirtualObject|Workflow)\(\)\.(handler|main)",
    ),
    recorders=_any(
        r"restate\.(?:\w+\.)*\w*Context\(\)\.(run|run_typed"
        r"|(service|object|workflow|generic)_(call|send))",
    ),
    context_types=_any(r"restate\.(?:\w+\.)*\w*Context"),
    context_param=0,
    context_type="restate.Context",
    remedies={
        Code.W001: "wrap the model call in ctx.run(...), which journals its result",
        Code.W002: "use ctx.random() or ctx.uuid(), which Restate seeds from the invocation",
        Code.W003: "use await ctx.time() for the time and ctx.sleep() for waits",
        Code.W004: "wrap it in ctx.run(...), which journals its result",
        Code.W005: "wrap the helper call in ctx.run(...)",
        Code.W007: "pass it in the request, or read it inside ctx.run(...), which journals it",
        Code.W008: "wrap the file access in ctx.run(...), which journals its result",
        Code.W009: "start ctx.run(...) or handler calls without awaiting them, then await them together with restate.gather(...)",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state in local variables, or in ctx.set(...) / ctx.get(...) state of a virtual object or workflow",
    },
)

AZURE = Preset(
    name="azure",
    title="Azure Durable Functions",
    packages=("azure.durable_functions",),
    workflow_functions=_any(
        r"azure\.durable_functions\.(?:\w+\.)*(DFApp|Blueprint)\(\)\.(orchestration_trigger|durable_openai_agent_orchestrator)",
    ),
    workflow_registrars=_any(r"azure\.durable_functions\.(?:\w+\.)*Orchestrator\.create"),
    recorded_decorators=_any(
        r"azure\.durable_functions\.(?:\w+\.)*(DFApp|Blueprint)\(\)\.(activity_trigger|entity_trigger)",
    ),
    recorders=_any(
        r"azure\.durable_functions\.(?:\w+\.)*DurableOrchestrationContext\(\)\.(call_activity"
        r"|call_activity_with_retry|call_sub_orchestrator|call_sub_orchestrator_with_retry"
        r"|call_http|call_entity|signal_entity)",
    ),
    context_types=_any(r"azure\.durable_functions\.(?:\w+\.)*DurableOrchestrationContext"),
    context_param=0,
    context_type="azure.durable_functions.DurableOrchestrationContext",
    remedies={
        Code.W001: "call the model from an activity function with context.call_activity",
        Code.W002: "use context.new_uuid(), which is the same on every replay",
        Code.W003: "use context.current_utc_datetime for the time and context.create_timer() for waits",
        Code.W004: "move it into an activity function called with context.call_activity",
        Code.W005: "make the helper an activity function called with context.call_activity",
        Code.W007: "pass it in as orchestration input, or read it in an activity function called with context.call_activity",
        Code.W008: "move the file access into an activity function called with context.call_activity",
        Code.W009: "fan out with context.call_activity and context.task_all, or move the work into an activity function",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state in local variables and the orchestration input, or in a durable entity",
    },
)

DURABLETASK = Preset(
    name="durabletask",
    title="durabletask",
    packages=("durabletask",),
    workflow_registrars=_any(r"durabletask\.(?:\w+\.)*\w*Worker\(\)\.add_(named_)?orchestrator"),
    workflow_functions=_any(r"durabletask\.(?:\w+\.)*\w*Worker\(\)\.add_(named_)?orchestrator"),
    recorded_registrars=_any(r"durabletask\.(?:\w+\.)*\w*Worker\(\)\.add_(named_)?activity"),
    recorded_decorators=_any(r"durabletask\.(?:\w+\.)*\w*Worker\(\)\.add_(named_)?activity"),
    recorders=_any(
        r"durabletask\.(?:\w+\.)*OrchestrationContext\(\)\.(call_activity|call_sub_orchestrator"
        r"|call_entity|signal_entity)",
    ),
    context_types=_any(r"durabletask\.(?:\w+\.)*OrchestrationContext"),
    context_param=0,
    context_type="durabletask.task.OrchestrationContext",
    remedies={
        Code.W001: "call the model from an activity with ctx.call_activity",
        Code.W002: "use ctx.new_uuid(), which is the same on every replay",
        Code.W003: "use ctx.current_utc_datetime for the time and ctx.create_timer() for waits",
        Code.W004: "move it into an activity called with ctx.call_activity",
        Code.W005: "make the helper an activity called with ctx.call_activity",
        Code.W007: "pass it in as orchestration input, or read it in an activity called with ctx.call_activity",
        Code.W008: "move the file access into an activity called with ctx.call_activity",
        Code.W009: "fan out with ctx.call_activity and task.when_all, or move the work into an activity",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state in local variables and the orchestration input",
    },
)

AWS = Preset(
    name="aws",
    title="AWS Lambda durable functions",
    packages=("aws_durable_execution_sdk_python",),
    workflow_functions=_any(
        r"aws_durable_execution_sdk_python\.(?:\w+\.)*(durable_execution|durable_with_child_context|durable_parallel_branch)",
    ),
    recorded_decorators=_any(
        r"aws_durable_execution_sdk_python\.(?:\w+\.)*(durable_step|durable_wait_for_callback)",
    ),
    recorders=_any(
        r"aws_durable_execution_sdk_python\.(?:\w+\.)*DurableContext\(\)\.(step|wait_for_callback|wait_for_condition|invoke)",
    ),
    context_types=_any(r"aws_durable_execution_sdk_python\.(?:\w+\.)*DurableContext"),
    context_param=1,
    context_type="aws_durable_execution_sdk_python.DurableContext",
    remedies={
        Code.W001: "wrap the model call in context.step(...), which checkpoints its result",
        Code.W002: "draw the value inside context.step(...), which checkpoints its result",
        Code.W003: "use context.wait(Duration...) for waits, and read the clock inside context.step(...)",
        Code.W004: "wrap it in context.step(...), which checkpoints its result",
        Code.W005: "make the helper a @durable_step, or call it through context.step(...)",
        Code.W007: "pass it in the event, or read it inside context.step(...), which checkpoints it",
        Code.W008: "wrap the file access in context.step(...), which checkpoints its result",
        Code.W009: "fan out with context.parallel(...) or context.map(...), or run the work inside context.step(...)",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state in local variables and the event, or return it from context.step(...)",
    },
)

MCP_AGENT = Preset(
    name="mcp_agent",
    title="mcp-agent",
    packages=("mcp_agent",),
    # `app = MCPApp(...)`; `@app.workflow` marks a Workflow class whose `@app.workflow_run`
    # method runs replayed (on Temporal, its durable engine); `@app.workflow_task` functions run
    # as recorded activities.
    workflow_classes=_any(r"mcp_agent\.(?:\w+\.)*MCPApp\(\)\.workflow"),
    workflow_methods=_any(r"mcp_agent\.(?:\w+\.)*MCPApp\(\)\.workflow_run"),
    recorded_decorators=_any(r"mcp_agent\.(?:\w+\.)*MCPApp\(\)\.workflow_task"),
    remedies={
        Code.W001: "call the model from an @app.workflow_task, which runs as a recorded activity",
        Code.W002: "draw the value inside an @app.workflow_task, whose result is recorded",
        Code.W003: "read the clock inside an @app.workflow_task, whose result is recorded",
        Code.W004: "move it into an @app.workflow_task, which runs as a recorded activity",
        Code.W005: "make the helper an @app.workflow_task, or call it from one",
        Code.W007: "pass it in as workflow input, or read it in an @app.workflow_task",
        Code.W008: "move the file access into an @app.workflow_task, which runs as a recorded activity",
        Code.W009: "move the work into @app.workflow_task activities, which the engine schedules",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state on the workflow instance (self) or in its inputs",
    },
)

GOOGLE_ADK = Preset(
    name="google_adk",
    title="Google ADK workflows",
    packages=("google.adk",),
    # ADK 2.x workflows: a node declared to re-run on resume (`rerun_on_resume=True`, implied by
    # `require_confirmation=True` and required by `auth_config`) runs its body again when the
    # workflow resumes, and must issue the same `ctx.run_node(...)` calls in the same order; a
    # plain `@node` runs once. Children run through `run_node` are rehydrated from events.
    workflow_functions=_any(
        r"google\.adk\.workflow\.(?:\w+\.)*node\((rerun_on_resume|require_confirmation|auth_config)\)"
    ),
    recorders=_any(r"google\.adk\.(?:\w+\.)*\w*Context\(\)\.run_node"),
    # Only the decorator declares a node: ADK's tool and callback contexts mark no entry. A
    # declared node's unannotated first parameter is its context, for `ctx.run_node`.
    context_param=0,
    context_type="google.adk.agents.context.Context",
    remedies={
        Code.W001: "run the model as a child node with await ctx.run_node(...), whose output is recorded",
        Code.W002: "draw the value in a child node run with ctx.run_node(...), whose output is recorded",
        Code.W003: "read the clock in a child node run with ctx.run_node(...), whose output is recorded",
        Code.W004: "move it into a child node run with ctx.run_node(...), whose output is recorded",
        Code.W005: "run the helper as a child node with ctx.run_node(...)",
        Code.W007: "pass it in as node input, or read it in a child node run with ctx.run_node(...)",
        Code.W008: "move the file access into a child node run with ctx.run_node(...), whose output is recorded",
        Code.W009: "run the work as child nodes with ctx.run_node(...), whose outputs are recorded",
        Code.W010: "iterate in a defined order: sorted(...), or keep the items in a list or dict, which keep insertion order",
        Code.W011: "keep run state in the node's inputs and outputs, which ADK records",
    },
)

PRESETS: dict[str, Preset] = {
    p.name: p for p in (TEMPORAL, DBOS, RESTATE, AZURE, DURABLETASK, AWS, MCP_AGENT, GOOGLE_ADK)
}


def _match(pattern: re.Pattern[str], path: str) -> bool:
    return pattern.fullmatch(path) is not None


class Frameworks:
    """The enabled presets, asked by the evaluator about decorators, calls and annotations."""

    def __init__(
        self, names: tuple[str, ...] | None = None, declared: dict[str, str] | None = None
    ) -> None:
        self.presets = (
            tuple(PRESETS.values()) if names is None else tuple(PRESETS[n] for n in names)
        )
        self._roots = tuple(p for preset in self.presets for p in preset.packages)
        # `workflow-decorators`: a decorator's qualified name -> the preset whose rules apply to
        # what it decorates (a wrapper framework's own decorator, a company's).
        self._declared = {name: PRESETS[preset] for name, preset in (declared or {}).items()}

    def _declared_preset(self, path: str) -> Preset | None:
        # `app.workflow` on an instance resolves to `mcp_agent.app.MCPApp().workflow`; the
        # declaration names the method as `mcp_agent.app.MCPApp.workflow`.
        return self._declared.get(path.replace("()", "")) if self._declared else None

    def get(self, name: str) -> Preset | None:
        return next((p for p in self.presets if p.name == name), None)

    def safe_paths(self, names: list[str]) -> frozenset[str]:
        found: set[str] = set()
        for name in names:
            preset = self.get(name)
            if preset is not None:
                found |= preset.safe
        return frozenset(found)

    def workflow_class(self, path: str) -> Preset | None:
        declared = self._declared_preset(path)
        if declared is not None:
            return declared
        return next((p for p in self.presets if _match(p.workflow_classes, path)), None)

    def workflow_method(self, framework: str, decorators: list[str], name: str) -> bool:
        """Does this method of a workflow class of `framework` run in workflow context itself?"""
        preset = self.get(framework)
        if preset is None:
            return False
        if name == "__init__":
            return True  # the workflow object is built on every run and replay
        return any(_match(preset.workflow_methods, path) for path in decorators)

    def workflow_function(self, path: str) -> Preset | None:
        declared = self._declared_preset(path)
        if declared is not None:
            return declared
        return next((p for p in self.presets if _match(p.workflow_functions, path)), None)

    def workflow_registrar(self, path: str) -> Preset | None:
        return next((p for p in self.presets if _match(p.workflow_registrars, path)), None)

    def recorded_decorator(self, path: str) -> Preset | None:
        return next((p for p in self.presets if _match(p.recorded_decorators, path)), None)

    def recorded_registrar(self, path: str) -> Preset | None:
        return next((p for p in self.presets if _match(p.recorded_registrars, path)), None)

    def context_parameter(self, path: str) -> Preset | None:
        """The preset whose run context a parameter annotation names (`ctx: OrchestrationContext`)."""
        return next((p for p in self.presets if _match(p.context_types, path)), None)

    def recorder(self, path: str) -> bool:
        return any(_match(p.recorders, path) for p in self.presets)

    def is_framework_path(self, path: str) -> bool:
        return any(path == root or path.startswith(root + ".") for root in self._roots)
