"""Google ADK runners made durable by a plugin given to the runner or to the app it runs."""
import restate
from dbos import DBOS
from dbos_google_adk import DBOSPlugin
from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.runners import InMemoryRunner, Runner
from restate.ext.adk import RestatePlugin

agent = LlmAgent(name="helper", model="gemini-2.5-flash")
durable_runner = InMemoryRunner(agent=agent, plugins=[DBOSPlugin()])
plain_runner = InMemoryRunner(agent=agent)
app = App(name="helper", root_agent=agent, plugins=[RestatePlugin()])
svc = restate.Service("helper")


@DBOS.workflow()
async def answer(message) -> list:
    recorded = [e async for e in durable_runner.run_async(user_id="u", session_id="s", new_message=message)]
    raw = [e async for e in plain_runner.run_async(user_id="u", session_id="s", new_message=message)]  # expect: ADK-W001
    return recorded + raw


@svc.handler()
async def handle(ctx: restate.Context, message) -> list:
    runner = Runner(app=app)
    return [e async for e in runner.run_async(user_id="u", session_id="s", new_message=message)]


# The package's own re-export (`from google.adk import Runner`) is the same runner.
from google.adk import Runner as PublicRunner  # noqa: E402

public_plain = PublicRunner(agent=agent, app_name="helper")
public_durable = PublicRunner(agent=agent, app_name="helper", plugins=[DBOSPlugin()])


@DBOS.workflow()
async def answer_public(message) -> list:
    recorded = [e async for e in public_durable.run_async(user_id="u", session_id="s", new_message=message)]
    raw = [e async for e in public_plain.run_async(user_id="u", session_id="s", new_message=message)]  # expect: ADK-W001
    return recorded + raw


# A project's own copy of the plugin, or its subclass of it, makes the runner durable too.
class RestatePlugin:  # noqa: F811
    """The project's copy of Restate's ADK plugin (it wraps each model call in ctx.run)."""


class JournaledPlugin(DBOSPlugin):
    pass


copied = PublicRunner(agent=agent, app_name="helper", plugins=[RestatePlugin()])
derived = PublicRunner(app=App(name="h", root_agent=agent, plugins=[JournaledPlugin()]))


@DBOS.workflow()
async def answer_own_plugins(message) -> list:
    first = [e async for e in copied.run_async(user_id="u", session_id="s", new_message=message)]
    second = [e async for e in derived.run_async(user_id="u", session_id="s", new_message=message)]
    return first + second
