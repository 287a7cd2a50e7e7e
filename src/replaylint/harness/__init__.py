"""`replaylint replay`: recorded histories replayed through today's code."""
