package workers

// rfMaxAtoms bounds the number of distinct tests gymlint enumerates
// (2^rfMaxAtoms assignments); rfMaxMinimize bounds the ones it writes a
// condition for.
const (
	rfMaxAtoms    = 12
	rfMaxMinimize = 8
	rfMaxDepth    = 8 // super() chains followed
)

// The kinds of WorkerStatus.
const (
	// StatusApp: a module-level app and no refusal: several workers work.
	StatusApp = "app"
	// StatusRefusesAlways: the refusal returns a reason on every path.
	StatusRefusesAlways = "refuses always"
	// StatusRefusesWhen: the refusal depends on the config; Condition says
	// when, or is "" when gymlint cannot tell.
	StatusRefusesWhen = "refuses when"
	// StatusNoApp: an override that never refuses, but no module-level app
	// for uvicorn's workers to import.
	StatusNoApp = "no app"
	// StatusUndeclared: neither a module-level app nor an override (what
	// GL101 reports).
	StatusUndeclared = "undeclared"
	// StatusExempt: the entrypoint is exempt (it starts no server).
	StatusExempt = "exempt"
	// StatusUnknown: gymlint cannot tell: the module does not parse, or the
	// server's ancestry runs through classes it cannot resolve.
	StatusUnknown = "unknown"
)

const rfMaxNesting = 200
