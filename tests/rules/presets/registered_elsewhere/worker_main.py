from durabletask import worker

from orchestrators import nightly

w = worker.TaskHubGrpcWorker()
w.add_orchestrator(nightly)
