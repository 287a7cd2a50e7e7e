"""An Inngest function declared through a name bound to the client's create_function call: the
client is also a catalog client (its `send` is network I/O), and its other methods still give
what the framework makes of them."""
import uuid

import inngest

client = inngest.Inngest(app_id="shop")

checkout_function = client.create_function(
    fn_id="checkout", trigger=inngest.TriggerEvent(event="shop/order")
)


@checkout_function
async def checkout(ctx) -> dict:
    client.send_sync(inngest.Event(name="shop/seen"))  # expect: ADK-W004
    return {"id": str(uuid.uuid4())}  # expect: ADK-W002
