package gen

// Vocabularies the generator draws names, keys and phrases from.

var topicWords = []string{
	"math", "code", "chess", "sudoku", "weather", "calendar", "finance", "legal", "medical",
	"physics", "chemistry", "trivia", "sql", "graph", "maze", "poker", "travel", "retail",
	"airline", "recipe", "poetry", "translation", "summary", "citation", "proof", "geometry",
	"algebra", "logic", "puzzle", "wordle", "crossword", "spelling", "grammar", "ocr", "chart",
	"table", "map", "robot", "warehouse", "inventory", "email", "browser", "terminal", "shell",
	"docker", "kernel", "compiler", "regex", "json", "xml", "api", "wiki", "news", "sports",
	"music", "movie", "book", "genome", "protein", "molecule", "circuit", "verilog", "rust",
	"java", "cpp", "haskell", "lean", "coq", "tax", "insurance", "bank", "stock", "auction",
	"negotiation", "dialog", "persona", "safety", "jailbreak", "refusal", "bias", "toxicity",
	"fact", "claim", "evidence", "arxiv", "patent", "clinical", "radiology", "pharma",
	"nutrition", "fitness", "climate", "energy", "grid", "traffic", "route", "flight", "hotel",
	"restaurant", "shopping", "support", "ticket", "incident", "kubernetes", "network", "dns",
	"firewall", "malware", "forensics", "audit", "invoice", "payroll", "hr", "recruiting",
	"contract", "policy", "compliance", "privacy", "geo", "astronomy", "biology", "ecology",
	"statistics", "probability", "calculus", "combinatorics", "number_theory", "cipher",
	"tetris", "sokoban", "blackjack", "go_game", "checkers", "minesweeper", "bridge", "riddle",
	"analogy", "ethics", "history", "geography", "literature", "philosophy", "economics",
	"spreadsheet", "slides", "pdf", "image", "video", "audio", "speech", "diagram", "plot",
}

var topicModifiers = []string{
	"bench", "eval", "judge", "verifier", "arena", "gym", "suite", "qa", "mcq", "tool_use",
	"multi_turn", "agentic", "sandbox", "lite", "v2", "pro", "hard", "search", "sim", "reasoning",
	"instruct", "rubric", "pairwise", "long_context", "multilingual", "env", "tasks", "checker",
}

var agentWords = []string{
	"react", "planner", "reflexion", "rewoo", "swe", "browser", "terminal", "tool_router",
	"critic", "debate", "tree_search", "self_consistency", "orchestrator", "parallel_thinking",
	"codeact", "mcp", "voyager", "toolformer", "retrieval", "memory", "workflow", "sandboxed",
	"computer_use", "gui", "dialogue", "tutor", "negotiator", "scheduler", "researcher",
}

var modelWords = []string{
	"openai", "vllm", "azure_openai", "local_vllm", "litellm", "sglang", "trtllm", "genrm",
	"bedrock", "gemini", "mistral", "cohere", "together", "fireworks", "groq", "anthropic",
	"inference_provider", "deepinfra", "ollama", "nim", "triton", "replicate", "openrouter",
	"perplexity", "cerebras", "sambanova", "hyperbolic", "lepton", "modal", "runpod",
}

var domains = []string{
	"math", "coding", "knowledge", "agent", "safety", "instruction_following", "games",
	"science", "other", "long_context", "tool_use", "translation",
}

var verbs = []string{
	"get", "fetch", "lookup", "search", "execute", "submit", "list", "create", "update", "delete",
	"check", "validate", "compute", "score", "parse", "extract", "normalize", "render", "apply",
	"resolve", "query", "load", "step", "reset", "inspect", "compare", "rank", "filter", "merge",
	"summarize", "translate", "classify", "grade", "estimate", "simulate", "schedule", "book",
}

var nouns = []string{
	"answer", "record", "document", "task", "episode", "state", "board", "move", "order",
	"account", "balance", "ticket", "query", "result", "table", "row", "column", "file",
	"patch", "test", "report", "entry", "item", "token", "message", "turn", "step", "plan",
	"action", "observation", "reward", "score", "rubric", "criterion", "citation", "claim",
	"source", "passage", "chunk", "label", "span", "entity", "relation", "event", "reservation",
	"flight", "booking", "invoice", "product", "user", "profile", "session", "sample", "batch",
	"candidate", "prediction", "reference", "solution", "program", "snippet", "cell", "image",
}

var localNames = []string{
	"result", "payload", "score", "items", "text", "answer", "expected", "response", "data",
	"records", "counts", "parsed", "tokens", "matches", "total", "state", "entry", "values",
	"output", "content", "messages", "candidates", "label", "normalized", "reward", "status",
	"errors", "details", "summary", "keys", "ranked", "chunks", "lines", "prediction",
	"reference", "metrics", "batch", "pending", "selected", "timeout", "attempts", "elapsed",
	"context", "prompt", "rows", "mapping", "cached", "tool_calls", "arguments", "feedback",
}

var dictKeys = []string{
	"answer", "score", "reward", "content", "role", "tool_calls", "arguments", "name",
	"output", "text", "id", "status", "error", "metadata", "expected", "choices", "messages",
	"label", "type", "value", "steps", "usage", "reason", "source", "index", "result",
}

var attrNames = []string{
	"text", "content", "output_text", "metadata", "expected_answer", "messages", "id", "name",
	"arguments", "status", "value", "items", "score", "reason", "tool_calls", "role",
}

var phrases = []string{
	"could not parse", "skipping", "finished", "received", "falling back to", "retrying",
	"invalid", "missing", "unexpected", "timed out while waiting for", "loaded", "updated",
	"no match for", "using cached", "rejected", "accepted", "truncated", "resolved",
}

var stringValues = []string{
	"", "unknown", "default", "none", "pending", "done", "error", "user", "assistant", "system",
	"tool", "A", "yes", "no", "true", "correct", "incorrect", "N/A", "en", "utf-8",
}

var regexPatterns = []string{
	`r"\\boxed\{(.*?)\}"`,
	`r"<answer>(.*?)</answer>"`,
	`r"^\s*([A-J])\b"`,
	`r"(-?\d+(?:\.\d+)?)"`,
	`r"Final Answer:\s*(.+)$"`,
	`r"\[(\d+)\]"`,
	`r"<tool_call>(.*?)</tool_call>"`,
	`r"^(?P<key>\w+)=(?P<value>.*)$"`,
}

var fieldTypes = []struct{ typ, def string }{
	{"str", `""`},
	{"int", "0"},
	{"float", "0.0"},
	{"bool", "False"},
	{"Optional[str]", "None"},
	{"List[str]", "Field(default_factory=list)"},
	{"Dict[str, Any]", "Field(default_factory=dict)"},
	{"List[Dict[str, Any]]", "Field(default_factory=list)"},
	{"Optional[int]", "None"},
}

var helperModuleNames = []string{
	"utils", "prompts", "metrics", "parsing", "scoring", "schemas", "client", "env_utils",
	"data_utils", "judge", "sandbox_client", "reward", "templates", "extraction",
	"normalization", "grader", "tool_impls", "state_store", "constants", "checkers",
}

var refusalReasons = []string{
	"Episodes are kept in memory by the env_id in the request body, which session routing does not see.",
	"Verify calls are pooled in memory into batches that every request must share.",
	"The sandbox pool and its startup cleanup are owned by one process.",
	"Each worker would build its own Ray actor pool and multiply the GPU actors.",
	"Scoring waits in memory for every rollout of a group, keyed by the group in the request body.",
	"Mock-tool episodes live in the server's memory.",
}

var requirementPkgs = []string{
	"numpy", "pandas", "sympy", "httpx", "aiohttp", "tenacity", "jinja2", "datasets",
	"scikit-learn", "regex", "rapidfuzz", "nltk", "math-verify", "docker", "sqlglot",
	"beautifulsoup4", "lxml", "pillow", "openai", "tiktoken", "python-chess", "networkx",
}
