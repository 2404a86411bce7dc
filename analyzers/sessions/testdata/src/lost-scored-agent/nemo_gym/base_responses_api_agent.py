class SimpleResponsesAPIAgent:
    pass
