"""Chat and event services' clients: every call posts or reads again on replay. A Google API
client's resources only build requests: only `execute()` sends one, which the catalog does not
follow through the chain, so nothing is reported for it."""
import inngest
from googleapiclient.discovery import build
from slack_sdk import WebClient
from slack_sdk.web.async_client import AsyncWebClient

client = inngest.Inngest(app_id="notify")
slack = WebClient(token="t")
async_slack = AsyncWebClient(token="t")


@client.create_function(fn_id="notify", trigger=inngest.TriggerEvent(event="notify"))
async def notify(ctx: inngest.Context) -> None:
    await client.send(inngest.Event(name="next"))  # expect: ADK-W004
    slack.chat_postMessage(channel="c", text="hi")  # expect: ADK-W004
    await async_slack.chat_postMessage(channel="c", text="hi")  # expect: ADK-W004
    gmail = build("gmail", "v1")
    request = gmail.users().messages().send(userId="me", body={})
    await ctx.step.run("mail", request.execute)
    # Inside a step, or sent as a step: recorded.
    await ctx.step.run("post", lambda: slack.chat_postMessage(channel="c", text="ok"))
    await ctx.step.send_event("next", inngest.Event(name="next"))
