// Package core holds gymlint's core rules (GL001–GL016): their metadata and
// documentation, in one place, whichever package reports them. They are not
// about a server's behaviour but about what gymlint meets while it reads a
// repository (files it cannot read or parse, configs that name no usable
// module, suppressions, Go packages it cannot load, its own failures), and
// each one hides a server from the other rules, so most are errors.
//
// Who reports which: package gym GL001–GL007, GL012, GL015 and GL016 (while it
// builds the view and composes the runs), goanalysis GL008, the front ends
// GL011, suppress GL009, GL010 and GL013, and analyzers/gonative GL014.
package core

import "github.com/gymlint/gymlint/diag"

// The core rules report what gymlint meets while it reads a repository:
// files it cannot read, syntax it cannot parse, configs that name no usable
// module. They are not about a server's behaviour, but each one hides a
// server from the other rules, so each is an error by default.
var (
	SyntaxError = &diag.Rule{
		Code: "GL001", Name: "python-syntax-error", Analyzer: "core", Severity: diag.Error,
		Summary: "A Python module that gymlint needs does not parse.",
		Doc:     ruleDoc("GL001"),
	}

	UnreadableFile = &diag.Rule{
		Code: "GL002", Name: "unreadable-file", Analyzer: "core", Severity: diag.Error,
		Summary: "A config or module that gymlint needs cannot be read, or was not analysed.",
		Doc:     ruleDoc("GL002"),
	}

	InvalidConfig = &diag.Rule{
		Code: "GL003", Name: "invalid-config", Analyzer: "core", Severity: diag.Error,
		Summary: "A YAML file does not parse, or a server's entrypoint is not a file name.",
		Doc:     ruleDoc("GL003"),
	}

	DuplicateConfigKey = &diag.Rule{
		Code: "GL004", Name: "duplicate-config-key", Analyzer: "core", Severity: diag.Error,
		Summary: "A YAML mapping has the same key twice.",
		Doc:     ruleDoc("GL004"),
	}

	MissingEntrypoint = &diag.Rule{
		Code: "GL005", Name: "missing-entrypoint", Analyzer: "core", Severity: diag.Error,
		Summary: "A config names an entrypoint file that does not exist.",
		Doc:     ruleDoc("GL005"),
	}

	EntrypointOutsideRoot = &diag.Rule{
		Code: "GL006", Name: "entrypoint-outside-root", Analyzer: "core", Severity: diag.Error,
		Summary: "A config's entrypoint leaves the repository.",
		Doc:     ruleDoc("GL006"),
	}

	UnusedExemption = &diag.Rule{
		Code: "GL007", Name: "unused-exemption", Analyzer: "core", Severity: diag.Warning,
		Summary: "An exemption names no entrypoint.",
		Doc:     ruleDoc("GL007"),
	}

	InconsistentMRO = &diag.Rule{
		Code: "GL012", Name: "inconsistent-mro", Analyzer: "core", Severity: diag.Error,
		Summary: "A class has no method resolution order: its bases form a cycle, C3 cannot order them, or they are deeper than gymlint follows.",
		Doc:     ruleDoc("GL012"),
	}
)

// ConfigInclude is rule GL015.
var ConfigInclude = &diag.Rule{
	Code: "GL015", Name: "bad-config-include", Analyzer: "core", Severity: diag.Error,
	Summary: "A config_paths entry names no file, leaves the repository, closes a cycle, or composes beyond gymlint's bounds.",
	Doc:     ruleDoc("GL015"),
}

// GoLoadError is rule GL008: a Go package that go list, the parser or the
// type checker rejects, and that the analyzers therefore do not see.
var GoLoadError = &diag.Rule{
	Code: "GL008", Name: "go-load-error", Analyzer: "core", Severity: diag.Error,
	Summary: "A Go package is not analyzed: `go list`, the parser or the type checker rejects it, or gymlint does not load it.",
	Doc:     ruleDoc("GL008"),
}

// SuppressionWithoutReason is rule GL009.
var SuppressionWithoutReason = &diag.Rule{
	Code: "GL009", Name: "suppression-without-reason", Analyzer: "core", Severity: diag.Warning,
	Summary: "An inline suppression gives no reason (or names no rule), so it suppresses nothing.",
	Doc:     ruleDoc("GL009"),
}

// UnusedSuppression is rule GL010.
var UnusedSuppression = &diag.Rule{
	Code: "GL010", Name: "unused-suppression", Analyzer: "core", Severity: diag.Warning,
	Summary: "An inline suppression names a rule that reports nothing where the suppression applies.",
	Doc:     ruleDoc("GL010"),
}

// MalformedSuppression is rule GL013.
var MalformedSuppression = &diag.Rule{
	Code: "GL013", Name: "malformed-suppression", Analyzer: "core", Severity: diag.Warning,
	Summary: "A comment looks like an inline suppression of gymlint rules but is not written as one, so it suppresses nothing.",
	Doc:     ruleDoc("GL013"),
}

// GoPartialServer is rule GL014, which ProtocolAnalyzer reports.
var GoPartialServer = &diag.Rule{
	Code: "GL014", Name: "go-partial-server", Analyzer: "core", Severity: diag.Info,
	Summary: "Go code serves part of the resources protocol (/seed_session without /close_session or /verify), so the Go rules do not check it as a server.",
	Doc:     ruleDoc("GL014"),
}

// InternalError is rule GL011: a rule or an analyzer of gymlint failed (it
// panicked) on a file. The front ends report it wherever the failure
// happened, Python or Go, and go on: the other rules' findings stand.
var InternalError = &diag.Rule{
	Code: "GL011", Name: "internal-error", Analyzer: "core", Severity: diag.Error,
	Summary: "A gymlint rule failed on a file (a bug in gymlint): its findings there are missing.",
	Doc:     ruleDoc("GL011"),
}

// StartsNoServer is rule GL016, which package gym reports: a module that
// configs name as an entrypoint but that starts no server (a base-class
// module, a library), which the workers rules therefore skip.
var StartsNoServer = &diag.Rule{
	Code: "GL016", Name: "starts-no-server", Analyzer: "core", Severity: diag.Info,
	Summary: "A module that configs name as an entrypoint starts no server (a base-class module or a library), so the workers rules skip it.",
	Doc:     ruleDoc("GL016"),
}

// Rules are the core rules, in code order.
var Rules = []*diag.Rule{
	SyntaxError, UnreadableFile, InvalidConfig, DuplicateConfigKey, MissingEntrypoint,
	EntrypointOutsideRoot, UnusedExemption, GoLoadError, SuppressionWithoutReason,
	UnusedSuppression, InternalError, InconsistentMRO, MalformedSuppression, GoPartialServer, StartsNoServer,
	ConfigInclude,
}
