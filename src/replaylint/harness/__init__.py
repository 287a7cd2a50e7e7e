"""`replaylint replay`: recorded histories replayed through today's code, each in a child process
of its own."""
