package workers

const (
	appFixMessage      = "Add a module-level app (the server is safe with several workers)"
	overrideFixMessage = "Override multiple_workers_unsupported_reason() to refuse several workers"
	entrypointFunc     = "is_nemo_gym_fastapi_entrypoint"
	overrideReason     = "TODO: say why this server cannot run with several workers"
)
