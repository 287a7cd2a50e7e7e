import httpx
import requests

__adk_workflow__ = True

SESSION = requests.Session()


class Gateway:
    def __init__(self):
        self.http = httpx.Client(base_url="https://api.example.com")

    def quote(self, sku):
        return self.http.get(f"/quote/{sku}")  # expect: ADK-W004


def ping(client: httpx.AsyncClient):
    return client.post("/ping")  # expect: ADK-W004


def status():
    return SESSION.head("https://example.com")  # expect: ADK-W004
