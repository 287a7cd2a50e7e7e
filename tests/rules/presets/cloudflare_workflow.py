"""Cloudflare Python Workflows: run() of a WorkflowEntrypoint runs again when the instance
restarts; @step.do results are cached by the step's name, so the name itself must not vary."""
import random
import uuid
from datetime import datetime

import httpx
from openai import OpenAI
from workers import Response, WorkerEntrypoint, WorkflowEntrypoint

llm = OpenAI()


class Onboarding(WorkflowEntrypoint):
    async def run(self, event, step):
        @step.do("create account")
        async def create_account():
            return httpx.post("https://users.example.com", json={"id": str(uuid.uuid4())}).json()

        @step.do()
        async def welcome_text(ctx):
            return llm.chat.completions.create(model="m", messages=[]).choices[0].message.content

        @step.do(f"send mail {datetime.now():%H%M}")  # expect: ADK-W003
        async def send_mail():
            return httpx.post("https://mail.example.com").status_code

        account = await create_account()
        text = await welcome_text()
        await step.sleep("grace period", "1 day")
        await send_mail()
        variant = self.pick_variant()  # expect: ADK-W005
        greeting = httpx.get("https://greet.example.com").text  # expect: ADK-W004
        return {"account": account, "text": text, "variant": variant, "greeting": greeting}

    def pick_variant(self) -> str:
        return random.choice(["a", "b"])  # expect: ADK-W002


class Default(WorkerEntrypoint):
    async def fetch(self, request):
        instance = await self.env.ONBOARDING.create(id=str(uuid.uuid4()))
        return Response(f"started {instance.id} at {datetime.now()}")
