"""One run of the analysis: the modules read, the rules' findings on the workflow path, their records."""
