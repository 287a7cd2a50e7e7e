"""What a check returns: the ReplayReport, and the selection that decides which findings it keeps."""
