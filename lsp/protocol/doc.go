// Package protocol is the small Language Server Protocol layer behind
// `gymlint lsp`: base-protocol framing and JSON-RPC 2.0 messages
// (jsonrpc.go), the LSP 3.17 types a linting server needs (types.go),
// conversion between byte offsets and LSP positions in any negotiated
// position encoding (position.go), and file URI handling (uri.go).
//
// # Why our own layer
//
// The maintained Go LSP type definitions live in
// golang.org/x/tools/gopls/internal/protocol, which is internal to gopls and
// cannot be imported. The public alternatives (for example
// go.lsp.dev/protocol) are unmaintained and predate LSP 3.17, so they lack
// position encoding negotiation (general.positionEncodings /
// positionEncoding), which we need: gymlint reports byte columns, and
// negotiating "utf-8" lets us send them without any conversion. A linter
// server uses a small subset of the protocol (lifecycle, text document
// synchronisation, diagnostics, code actions, hover, watched files,
// settings, logging), so writing that subset ourselves is a few hundred
// lines with no dependency, and it lets us harden the reader against
// malformed input in the way a long-running editor process needs.
//
// # Scope
//
// Only the fields gymlint uses are declared; unknown fields in incoming JSON
// are ignored by encoding/json, so clients sending more are fine. JSON field
// names follow the 3.17 specification exactly. Union types of the
// specification are narrowed to the variant gymlint sends (for example
// TextDocumentSyncOptions rather than a bare TextDocumentSyncKind), except
// where reading both variants matters (Diagnostic.code may be an integer in
// diagnostics that clients echo back in code action requests).
//
// # Concurrency
//
// A Conn may be written from many goroutines at once (writes are
// serialised); Read must be called from a single goroutine.
package protocol
