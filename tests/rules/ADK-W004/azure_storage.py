"""Azure's storage and Cosmos DB clients: building one, or asking one for another, sends
nothing; reading or writing the service does, again on every replay."""
import json

import azure.durable_functions as df
from azure.cosmos import CosmosClient
from azure.data.tables import TableClient
from azure.storage.blob import BlobClient, BlobServiceClient
from azure.storage.blob.aio import ContainerClient
from azure.storage.queue import QueueClient

app = df.DFApp()


@app.orchestration_trigger(context_name="context")
def orchestrator(context: df.DurableOrchestrationContext):
    job = context.get_input()
    service = BlobServiceClient.from_connection_string(job["conn"])
    blob = service.get_container_client("jobs").get_blob_client(job["name"])
    request = json.loads(blob.download_blob().readall())  # expect: ADK-W004
    result = yield context.call_activity("work", request)
    BlobClient.from_blob_url(job["out"]).upload_blob(json.dumps(result))  # expect: ADK-W004
    table = TableClient.from_connection_string(job["conn"], table_name="runs")
    table.upsert_entity({"PartitionKey": "p", "RowKey": job["name"]})  # expect: ADK-W004
    QueueClient.from_connection_string(job["conn"], "done").send_message("x")  # expect: ADK-W004
    items = CosmosClient(job["url"], job["key"]).get_database_client("d")
    items.get_container_client("c").upsert_item({"id": job["name"]})  # expect: ADK-W004
    return blob.url


async def listing(conn: str) -> list:
    container = ContainerClient.from_connection_string(conn, "jobs")
    return [b.name async for b in container.list_blobs()]
