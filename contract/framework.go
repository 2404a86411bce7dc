package contract

// The framework's names (see the package doc). A rule that needs a name of
// the framework asks for it here. The Go analyzers judge a Go server by the
// HTTP protocol and keep their own route constants (analyzers/gonative).

// DefaultPackage is the framework's package when Options.Package is "":
// where Detect looks, what gym.Options.FrameworkPackage defaults to.
const DefaultPackage = "nemo_gym"

// ServerUtilsModule is the framework's module (under its package) that
// exports EntrypointFunc and RefuseWorkersFunc: the import GL101's fix
// adds, the module GL102's help names.
const ServerUtilsModule = "server_utils"

// The server base classes, by server type. A class whose method resolution
// order reaches one of them (as the framework defines it) is a server
// (gym.View.IsServerClass); the resources bases make it a resources server
// (sessions.IsResourcesServer) and are where Detect reads the session
// facts.
const (
	BaseServer              = "BaseServer"
	SimpleServer            = "SimpleServer"
	BaseResourcesServer     = "BaseResourcesServer"
	SimpleResourcesServer   = "SimpleResourcesServer"
	BaseResponsesAPIAgent   = "BaseResponsesAPIAgent"
	SimpleResponsesAPIAgent = "SimpleResponsesAPIAgent"
	BaseResponsesAPIModel   = "BaseResponsesAPIModel"
	SimpleResponsesAPIModel = "SimpleResponsesAPIModel"
	BaseEnvironmentServer   = "BaseEnvironmentServer"
)

var (
	// ResourcesBases are the bases of resources (environment) servers.
	ResourcesBases = []string{BaseResourcesServer, SimpleResourcesServer}
	// AgentBases are the bases of agent servers.
	AgentBases = []string{BaseResponsesAPIAgent, SimpleResponsesAPIAgent}
	// ModelBases are the bases of model servers.
	ModelBases = []string{BaseResponsesAPIModel, SimpleResponsesAPIModel}
	// EnvironmentBases are the bases of environment servers (newer Gym's
	// environment_servers/, which run an episode against a resources
	// server and an agent: nemo_gym.base_environment_server).
	EnvironmentBases = []string{BaseEnvironmentServer}
	// ServerBases are the bases of every server type: the default of
	// gym.Options.ServerBases, and the classes Detect reads the worker and
	// Ray facts from.
	ServerBases = concat([]string{BaseServer, SimpleServer}, ResourcesBases, AgentBases, ModelBases, EnvironmentBases)
)

// The methods the framework serves as routes by name (Route).
const (
	// SeedMethod, VerifyMethod, CloseMethod and AggregateMetricsMethod are
	// the resources server's session contract: seed a session, score it,
	// close it, aggregate the scores.
	SeedMethod             = "seed_session"
	VerifyMethod           = "verify"
	CloseMethod            = "close_resources_session"
	AggregateMetricsMethod = "aggregate_metrics"
	// RunMethod and ResponsesMethod are an agent's routes.
	RunMethod       = "run"
	ResponsesMethod = "responses"
	// ChatCompletionsMethod and MessagesMethod (with ResponsesMethod) are a
	// model server's routes.
	ChatCompletionsMethod = "chat_completions"
	MessagesMethod        = "messages"
)

// Route is a method the framework's setup_webserver serves by name, and
// its path.
type Route struct {
	Method, Path string
}

var (
	// ResourcesRoutes are the routes of a resources server: the paths the
	// MCP rule (GL312) knows as the framework's own.
	ResourcesRoutes = []Route{
		{SeedMethod, "/seed_session"},
		{VerifyMethod, "/verify"},
		{CloseMethod, "/close_session"},
		{AggregateMetricsMethod, "/aggregate_metrics"},
	}
	// AgentRoutes are the routes of an agent server.
	AgentRoutes = []Route{{RunMethod, "/run"}, responsesRoute}
	// ModelRoutes are the routes of a model server.
	ModelRoutes = []Route{{ChatCompletionsMethod, "/v1/chat/completions"}, responsesRoute, {MessagesMethod, "/v1/messages"}}
	// StandardRoutes are the routes of every server type (a method served
	// by two types is listed for each): facts.Route.Standard.
	StandardRoutes = concat(ResourcesRoutes, AgentRoutes, ModelRoutes)
)

// responsesRoute is the Responses API route of agents and models.
var responsesRoute = Route{ResponsesMethod, "/v1/responses"}

// RoutePath returns the path routes serve method at, "" when they do not
// serve it.
func RoutePath(routes []Route, method string) string {
	for _, r := range routes {
		if r.Method == method {
			return r.Path
		}
	}
	return ""
}

// The framework's hooks and methods of a server other than its routes.
const (
	// InitMethod is Python's constructor, which runs at start-up.
	InitMethod = "__init__"
	// ModelPostInitMethod is pydantic's hook that building a server runs
	// (GL102: the refusal must come first in it).
	ModelPostInitMethod = "model_post_init"
	// SetupWebserverMethod builds the server's FastAPI app.
	SetupWebserverMethod = "setup_webserver"
	// RunWebserverMethod is the classmethod that starts a server
	// (`X.run_webserver()`; `app = X.run_webserver()` is the module-level
	// app): how gym finds an entrypoint's server class.
	RunWebserverMethod = "run_webserver"
	// RefusalMethod returns why a server refuses several workers (None when
	// it accepts them): the workers analyzer, Fact WorkerRefusal.
	RefusalMethod = "multiple_workers_unsupported_reason"
	// RegisterProtocolRoutesMethod adds a server's own routes to the app
	// the framework builds (Fact ProtocolRoutes, GL321).
	RegisterProtocolRoutesMethod = "register_protocol_routes"
	// CreateResourcesAppMethod builds the resources app (GL321: not to be
	// overridden).
	CreateResourcesAppMethod         = "create_resources_app"
	SetupSessionMiddlewareMethod     = "setup_session_middleware"
	SetupCheckpointParticipantMethod = "setup_checkpoint_participant"
	SetupResourcesCheckpointMethod   = "setup_resources_checkpoint"
	// The scoring helpers of a resources server.
	ComputeMetricsMethod       = "compute_metrics"
	GetKeyMetricsMethod        = "get_key_metrics"
	ComputeRepeatMetricsMethod = "compute_repeat_metrics"
	GetReverifyModeMethod      = "get_reverify_mode"
	// MCPToolsMethod chooses a server's MCP tools:
	// mcp_tools(harvested, catchall) (facts.KeepsHarvested, GL312).
	MCPToolsMethod = "mcp_tools"
	// MCPAllowedToolsMethod and NormalizeToolNameMethod are MCP hooks the
	// framework calls per request (GL313).
	MCPAllowedToolsMethod   = "mcp_allowed_tools_for_session"
	NormalizeToolNameMethod = "normalize_tool_name"
	// ExportMethod, RestoreMethod and RetireMethod move a session's state
	// out of and into a worker, and release it (GL317, GL318, GL319).
	ExportMethod  = "export_session_states"
	RestoreMethod = "restore_session_states"
	RetireMethod  = "retire_session_state"
	// The checkpoint hooks of the resources base (Fact CheckpointHooks;
	// GL320 for the end of a session).
	CheckpointStartsMethod = "checkpoint_session_starts"
	CheckpointVerifyMethod = "checkpoint_verify"
	CheckpointEndedMethod  = "checkpoint_session_ended"
	// DomainValidator is the validator of the framework's server instance
	// config that requires a resources server's domain (Fact
	// ResourcesDomain).
	DomainValidator = "validate_domain_for_resources_server"
	// FailureValidator is the validator of BaseVerifyResponse that warns on
	// a failure_kind outside the registered vocabulary (Fact
	// FailureVocabulary, GL316).
	FailureValidator = "_warn_on_unregistered_failure_kind"
)

var (
	// StartupHooks are the methods that run once per worker process when a
	// server starts (facts.Startup, GL105).
	StartupHooks = []string{InitMethod, ModelPostInitMethod, SetupWebserverMethod}
	// ScoringMethods are the routes whose answer is a score (facts.Scoring).
	ScoringMethods = []string{VerifyMethod, AggregateMetricsMethod}
	// CheckpointHookMethods are the checkpoint hooks (Fact CheckpointHooks).
	CheckpointHookMethods = []string{CheckpointStartsMethod, CheckpointVerifyMethod, CheckpointEndedMethod}
	// MCPPerRequestHooks are the MCP hooks the framework calls per request.
	MCPPerRequestHooks = []string{MCPAllowedToolsMethod, NormalizeToolNameMethod}
	// LifecycleMethods are a resources server's session, scoring, start-up
	// and set-up methods: never tool routes (GL309).
	LifecycleMethods = []string{
		SeedMethod, VerifyMethod, CloseMethod,
		AggregateMetricsMethod, ComputeMetricsMethod, GetKeyMetricsMethod, ComputeRepeatMetricsMethod,
		SetupWebserverMethod, RegisterProtocolRoutesMethod, CreateResourcesAppMethod,
		SetupSessionMiddlewareMethod, SetupCheckpointParticipantMethod, SetupResourcesCheckpointMethod,
		ModelPostInitMethod, InitMethod, RefusalMethod,
		MCPToolsMethod, MCPAllowedToolsMethod, NormalizeToolNameMethod,
		ExportMethod, RestoreMethod, RetireMethod,
		CheckpointEndedMethod, GetReverifyModeMethod, RunWebserverMethod,
	}
)

// The framework's module functions.
const (
	// LostSessionFunc answers a verify for a lost session with a masked
	// sample (Fact LostSession; GL306-GL308, GL316).
	LostSessionFunc = "lost_session_verification"
	// TokenSerializerFunc builds the signer of MCP session tokens (Fact
	// MCPTokenSerializer, GL313).
	TokenSerializerFunc = "mcp_session_token_serializer"
	// RefuseWorkersFunc raises with a server's refusal reason when its
	// config asks for several workers (GL102).
	RefuseWorkersFunc = "refuse_unsupported_num_workers"
	// EntrypointFunc tells uvicorn's import of an entrypoint from a run of
	// it (GL101's fix).
	EntrypointFunc = "is_nemo_gym_fastapi_entrypoint"
)

// The framework's session classes and the methods of them the rules
// follow (as facts.IsFrameworkMethod names them: "Class.method").
const (
	// SessionFencesClass records closed sessions (Fact SessionFences).
	SessionFencesClass  = "ResourcesSessionFences"
	FencesFence         = SessionFencesClass + ".fence"
	FencesGet           = SessionFencesClass + ".get"
	FencesRaiseIfFenced = SessionFencesClass + ".raise_if_fenced"
	// SessionLocksClass serializes a session's seed and close (Fact
	// SessionLocks).
	SessionLocksClass = "ResourcesSessionLocks"
	LocksLocked       = SessionLocksClass + ".locked"
)

// The framework's HTTP errors.
const (
	SeedRejectedErrorClass    = "ResourcesSeedRejectedError"
	SessionConflictErrorClass = "ResourcesSessionConflictError"
	SessionLostErrorClass     = "ResourcesSessionLostError"
)

// ErrorClass is one of the framework's HTTP errors: an HTTPException with
// a fixed status (facts.Exc).
type ErrorClass struct {
	Name   string
	Status int
	// Bases are the builtin bases it adds to HTTPException's.
	Bases []string
	// Fact holds when the framework exports the class.
	Fact Fact
}

// ErrorClasses are the framework's HTTP errors.
var ErrorClasses = []ErrorClass{
	{SeedRejectedErrorClass, 422, []string{"builtins.ValueError"}, SeedRejectedError},
	{SessionConflictErrorClass, 409, []string{"builtins.ValueError"}, SessionConflictError},
	{SessionLostErrorClass, 404, nil, SessionLostError},
}

// The framework's request and response models.
const (
	VerifyRequestClass = "BaseVerifyRequest"
	// SeedRequestClass is the Environment Server's seed, under a
	// caller-assigned resources_session_id, which must be idempotent;
	// LegacySeedRequestClass is the Agent's /run seed, keyed by the session
	// cookie (facts.SeedBodyOf, GL322).
	SeedRequestClass         = "ResourcesSeedSessionRequest"
	LegacySeedRequestClass   = "BaseSeedSessionRequest"
	RunRequestClass          = "BaseRunRequest"
	VerifyResponseClass      = "BaseVerifyResponse"
	MultiRewardResponseClass = "BaseMultiRewardVerifyResponse"
	// RewardField is the verify response's scalar reward.
	RewardField = "reward"
	// RewardComponentsField is the field MultiRewardResponseClass declares
	// (GL314).
	RewardComponentsField = "reward_components"
	// FailureKindField is the failure kind of a verify response, of
	// lost_session_verification and of ResourcesSessionLostError (GL316).
	FailureKindField = "failure_kind"
)

// The session's id, in a request body and in the session cookie
// (facts.KeyOf).
const (
	// SessionIDField is the request body's field that names the session.
	SessionIDField = "resources_session_id"
	// SessionIDKey is the framework's name of the cookie key, and
	// SessionIDKeyValue its value: request.session[SESSION_ID_KEY].
	SessionIDKey      = "SESSION_ID_KEY"
	SessionIDKeyValue = "session_id"
)

// CloseRequestClass is the body of a close, which names the session by
// its SessionIDField (GL305's fix keys the release by it).
const CloseRequestClass = "ResourcesCloseSessionRequest"

// GymToolDecorator registers a resources server's method as a tool (HTTP
// and MCP); the framework passes the method's GymToolSessionParam the
// session's id (facts.KeyOf: a session key).
// (the cookie key's value, SessionIDKeyValue, is the parameter's name).
const (
	GymToolDecorator    = "gym_tool"
	GymToolSessionParam = SessionIDKeyValue
)

// ModuleApp is the module-level binding uvicorn imports (module:app) when
// the framework starts several workers.
const ModuleApp = "app"

// RayEnabledAttr is the class variable by which a server declares that it
// needs Ray (Facts RayDeclaration, RayPerDeclaration).
const RayEnabledAttr = "ray_enabled"

// ReservedMCPToolNamesBinding is the framework's module binding of the
// names it reserves for MCP tools (Fact ReservedMCPToolNames, GL312).
const ReservedMCPToolNamesBinding = "RESERVED_MCP_TOOL_NAMES"

// LatestReservedMCPToolNames are the reserved MCP tool names of the
// current contract, sorted: the resources routes' names and the MCP
// endpoint's. GL312 uses them when the framework's own cannot be read.
var LatestReservedMCPToolNames = []string{"aggregate_metrics", "close_session", "mcp", "seed_session", "verify"}

func concat[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
