"""Example workflows: a support agent, a payment flow and an order fulfilment flow."""
