// Package configscan reads the YAML config files of a NeMo Gym-style
// repository and finds the servers they start.
//
// # What is a server
//
// Gym starts servers from configs nested three levels deep:
//
//	my_instance:                 # instance name
//	  resources_servers:         # server type (Options.ServerTypes)
//	    my_server:               # server dir, relative to the type; may contain "/"
//	      entrypoint: app.py     # relative to resources_servers/my_server/
//	      num_workers: 4
//
// For each document whose root is a mapping, every root key whose value is a
// mapping is an instance name; under it, every key that is a server type
// (by default resources_servers, responses_api_agents, responses_api_models)
// with a mapping value; under that, every key with a mapping value is a
// server dir. A dir mapping with a non-empty string `entrypoint` is a
// server (File.Servers). One without `entrypoint` is an override or
// fragment, such as `policy_model: responses_api_models: vllm_model:
// num_workers: 4`; those are returned as File.Overrides, since other rules
// read their settings. An `entrypoint` that is null, empty, a list, a
// mapping or a non-string scalar is a "bad-entrypoint" Problem. Only
// `entrypoint` at exactly that depth counts: deeper keys named entrypoint
// (e.g. a sandbox spec's container entrypoint list) are ordinary settings.
// Gym itself only uses the first dir of each type; this package reports
// every one, so that a linter sees them all. Root values that are not
// mappings, and level-2 keys that are not server types, are ignored.
//
// Keys starting with "_" (`_inherit_from`, `_copy`, `_delete_key`, ...) are
// directives, not instances, types or dirs, and are skipped at every level.
//
// # Aliases and merge keys
//
// Aliases (*a) are followed anywhere, and merge keys (`<<: *a`,
// `<<: [*a, *b]`) are applied the way PyYAML, and therefore OmegaConf.load,
// applies them: explicit keys override merged keys, and among a list of
// merged mappings the earlier one wins. The resolved tree (Node) records, for
// each pair, whether it came in through a merge and where that << key is;
// when a server's entrypoint comes in through a merge, its position is the
// << key in the server's own mapping (Instance.ViaMerge). Values are kept
// verbatim: ${...} interpolations are not evaluated.
//
// Each use of an alias is resolved into its own copy, so a small hostile
// file (the "billion laughs" pattern) could ask for an enormous tree. The
// resolver therefore has a budget: it may visit each node written in the
// file once plus Options.MaxNodeVisits more (default 100000); each pair
// copied in through a merge key costs a visit too. When the
// budget is spent it stops, reports an "aliasing" Problem, and the file is
// not analysed further (the unfinished document's entry in File.Docs is
// nil). An alias used inside the value it refers to (`a: &a [*a]`,
// `a: &a {<<: *a}`) is reported as an "aliasing" Problem too, and nesting
// deeper than 10000 levels (counting aliases) as a "nesting" Problem.
//
// # Size
//
// A resolved value takes about 165 bytes, and yaml.v3 builds a node of as
// many for each value before it is resolved, so a file of a value every
// two bytes would take some 180 times its size. Parse first counts, from
// the file's bytes, the values it could hold at most (EstimateValues) and
// does not parse a file that could hold more than Options.MaxValues
// (default DefaultMaxValues); with Options.Budget, the files parsed within
// one budget hold no more values together than it allows. A file not
// parsed for either has one Problem, of kind KindTooLarge or KindBudget
// (see budget.go).
//
// Every node and pair carries the file's Origin (one per File), so that
// Compose shares the trees of the files a run includes (see compose.go).
//
// # Duplicate keys
//
// OmegaConf.load rejects a mapping that repeats a key (a ConstructorError),
// while yaml.v3's node parser accepts it. Every repeated explicit key in any
// mapping is reported as a "duplicate-key" Problem at the repeat, naming the
// line of the first occurrence. Keys that override merged keys are not
// duplicates. Lookups use the last occurrence, like PyYAML.
//
// # Fixes
//
// Some Problems carry a suggested fix (Problem.Fix, fix.go): byte edits of
// the file, with whether the fix is safe. A repeated key of a block
// mapping whose value is the same as the first occurrence's is removed
// (safe unless a comment goes with it); one whose value differs, when the
// key is written twice, removes the earlier occurrence instead (unsafe:
// Gym takes neither, and which one the author means is theirs to say).
// Each such fix removes whole lines and is checked by parsing the fixed
// file again. Compose gives a config_paths entry that names no file, but
// names a config relative to the including file's directory, a fix that
// writes that config's path from the repository root in the entry's
// quoting style, when ComposeOptions.Source gives it the file's text.
//
// # Positions
//
// Every Pos has a 0-based byte Offset and a 1-based Line and Col, where Col
// counts bytes. yaml.v3 counts columns in characters, so positions are
// converted using the bytes of the line; lines are split where yaml.v3
// splits them (CR LF, CR, LF, NEL, LS, PS), so CRLF files and non-ASCII text
// get the right columns. A UTF-8 byte order mark is not part of line 1.
//
// # Errors
//
// Parse never panics and always returns a File. YAML syntax errors become
// "syntax" Problems at the line yaml.v3 names (yaml.v3 gives no column, so
// Col is 1); invalid UTF-8 and control characters (such as NUL) are located
// by scanning the bytes. Documents before a syntax error are still used.
// Empty files, CRLF line endings, comments and documents whose root is not
// a mapping are all fine. Anything unexpected is caught and reported as an
// "internal" Problem.
//
// # One document
//
// OmegaConf.load, like yaml.safe_load, reads one document and rejects a
// file with a second (ComposerError "expected a single document in the
// stream"). A file of several documents (--- between them) that declares
// a server or an override in any of them is therefore a "multi-document"
// Problem at the start of the second document, and File.Servers and
// File.Overrides are empty: Gym starts nothing from it. A file of several
// documents without the server nesting (a Kubernetes manifest) is not a
// config and is left alone; its documents are in File.Docs either way.
//
// An entrypoint or a server dir key that contains a NUL byte (\0 or \x00
// in a double-quoted string) names no file, and is a "bad-entrypoint"
// Problem. Keys and values with control characters are quoted, with
// escapes, in messages.
package configscan
