REASON = "Episodes are kept in memory by the env_id in the request body."
