package protocol

import (
	"encoding/json"
	"fmt"
)

// Method names.
const (
	MethodInitialize                = "initialize"
	MethodInitialized               = "initialized"
	MethodShutdown                  = "shutdown"
	MethodExit                      = "exit"
	MethodCancelRequest             = "$/cancelRequest"
	MethodSetTrace                  = "$/setTrace"
	MethodLogTrace                  = "$/logTrace"
	MethodProgress                  = "$/progress"
	MethodDidOpen                   = "textDocument/didOpen"
	MethodDidChange                 = "textDocument/didChange"
	MethodDidSave                   = "textDocument/didSave"
	MethodDidClose                  = "textDocument/didClose"
	MethodPublishDiagnostics        = "textDocument/publishDiagnostics"
	MethodCodeAction                = "textDocument/codeAction"
	MethodHover                     = "textDocument/hover"
	MethodDidChangeWatchedFiles     = "workspace/didChangeWatchedFiles"
	MethodDidChangeConfiguration    = "workspace/didChangeConfiguration"
	MethodDidChangeWorkspaceFolders = "workspace/didChangeWorkspaceFolders"
	MethodWorkspaceConfiguration    = "workspace/configuration"
	MethodExecuteCommand            = "workspace/executeCommand"
	MethodApplyEdit                 = "workspace/applyEdit"
	MethodRegisterCapability        = "client/registerCapability"
	MethodUnregisterCapability      = "client/unregisterCapability"
	MethodLogMessage                = "window/logMessage"
	MethodShowMessage               = "window/showMessage"
)

// DocumentURI is a URI as sent by the client (see URIToPath, PathToURI).
type DocumentURI = string

// Position is a zero-based line and a character offset whose unit is the
// negotiated position encoding (see Mapper).
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a half-open range [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   DocumentURI `json:"uri"`
	Range Range       `json:"range"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI DocumentURI `json:"uri"`
}

// VersionedTextDocumentIdentifier names a version of a document.
type VersionedTextDocumentIdentifier struct {
	URI     DocumentURI `json:"uri"`
	Version int32       `json:"version"`
}

// OptionalVersionedTextDocumentIdentifier names a document and, unless
// Version is nil (sent as null), the version an edit applies to.
type OptionalVersionedTextDocumentIdentifier struct {
	URI     DocumentURI `json:"uri"`
	Version *int32      `json:"version"`
}

// TextDocumentItem is an opened document with its full text.
type TextDocumentItem struct {
	URI        DocumentURI `json:"uri"`
	LanguageID string      `json:"languageId"`
	Version    int32       `json:"version"`
	Text       string      `json:"text"`
}

// ---- initialize ----

// ClientInfo and ServerInfo identify the two ends.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ServerInfo identifies the server in InitializeResult.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// WorkspaceFolder is one root folder of the workspace.
type WorkspaceFolder struct {
	URI  DocumentURI `json:"uri"`
	Name string      `json:"name"`
}

// InitializeParams are the params of the initialize request. Nullable
// members (processId, rootPath, rootUri) are pointers; WorkspaceFolders is
// nil when absent or null.
type InitializeParams struct {
	ProcessID             *int32             `json:"processId"`
	ClientInfo            *ClientInfo        `json:"clientInfo,omitempty"`
	Locale                string             `json:"locale,omitempty"`
	RootPath              *string            `json:"rootPath,omitempty"`
	RootURI               *DocumentURI       `json:"rootUri"`
	InitializationOptions json.RawMessage    `json:"initializationOptions,omitempty"`
	Capabilities          ClientCapabilities `json:"capabilities"`
	Trace                 string             `json:"trace,omitempty"`
	WorkspaceFolders      []WorkspaceFolder  `json:"workspaceFolders,omitempty"`
}

// RootURIs returns the workspace roots the client announced, in the order
// of precedence of the specification: the workspace folders if any, else
// rootUri, else rootPath converted to a URI. It returns nil when the client
// opened no folder.
func (p *InitializeParams) RootURIs() []DocumentURI {
	if len(p.WorkspaceFolders) > 0 {
		uris := make([]DocumentURI, len(p.WorkspaceFolders))
		for i, f := range p.WorkspaceFolders {
			uris[i] = f.URI
		}
		return uris
	}
	if p.RootURI != nil && *p.RootURI != "" {
		return []DocumentURI{*p.RootURI}
	}
	if p.RootPath != nil && *p.RootPath != "" {
		return []DocumentURI{PathToURI(*p.RootPath)}
	}
	return nil
}

// ClientCapabilities lists what the client supports. Only the members a
// linter server looks at are declared.
type ClientCapabilities struct {
	Workspace    WorkspaceClientCapabilities    `json:"workspace,omitzero"`
	TextDocument TextDocumentClientCapabilities `json:"textDocument,omitzero"`
	Window       WindowClientCapabilities       `json:"window,omitzero"`
	General      GeneralClientCapabilities      `json:"general,omitzero"`
	Experimental json.RawMessage                `json:"experimental,omitempty"`
}

// GeneralClientCapabilities holds general.*.
type GeneralClientCapabilities struct {
	// PositionEncodings lists the encodings the client supports, in its
	// order of preference; see ChooseEncoding.
	PositionEncodings []string `json:"positionEncodings,omitempty"`
}

// WorkspaceClientCapabilities holds workspace.*.
type WorkspaceClientCapabilities struct {
	ApplyEdit              bool                                    `json:"applyEdit,omitempty"`
	WorkspaceEdit          WorkspaceEditClientCapabilities         `json:"workspaceEdit,omitzero"`
	DidChangeConfiguration DynamicRegistrationCapability           `json:"didChangeConfiguration,omitzero"`
	DidChangeWatchedFiles  DidChangeWatchedFilesClientCapabilities `json:"didChangeWatchedFiles,omitzero"`
	ExecuteCommand         DynamicRegistrationCapability           `json:"executeCommand,omitzero"`
	WorkspaceFolders       bool                                    `json:"workspaceFolders,omitempty"`
	Configuration          bool                                    `json:"configuration,omitempty"`
}

// DynamicRegistrationCapability is the common { dynamicRegistration }.
type DynamicRegistrationCapability struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
}

// WorkspaceEditClientCapabilities holds workspace.workspaceEdit.
type WorkspaceEditClientCapabilities struct {
	// DocumentChanges means WorkspaceEdit.DocumentChanges (versioned edits)
	// is supported.
	DocumentChanges    bool     `json:"documentChanges,omitempty"`
	ResourceOperations []string `json:"resourceOperations,omitempty"`
	FailureHandling    string   `json:"failureHandling,omitempty"`
}

// DidChangeWatchedFilesClientCapabilities holds
// workspace.didChangeWatchedFiles.
type DidChangeWatchedFilesClientCapabilities struct {
	DynamicRegistration    bool `json:"dynamicRegistration,omitempty"`
	RelativePatternSupport bool `json:"relativePatternSupport,omitempty"`
}

// TextDocumentClientCapabilities holds textDocument.*.
type TextDocumentClientCapabilities struct {
	Synchronization    TextDocumentSyncClientCapabilities   `json:"synchronization,omitzero"`
	PublishDiagnostics PublishDiagnosticsClientCapabilities `json:"publishDiagnostics,omitzero"`
	CodeAction         CodeActionClientCapabilities         `json:"codeAction,omitzero"`
	Hover              HoverClientCapabilities              `json:"hover,omitzero"`
}

// HoverClientCapabilities holds textDocument.hover.
type HoverClientCapabilities struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
	// ContentFormat lists the markup kinds the client renders in a
	// hover, in its order of preference; absent: plaintext only.
	ContentFormat []MarkupKind `json:"contentFormat,omitempty"`
}

// TextDocumentSyncClientCapabilities holds textDocument.synchronization.
type TextDocumentSyncClientCapabilities struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
	WillSave            bool `json:"willSave,omitempty"`
	WillSaveWaitUntil   bool `json:"willSaveWaitUntil,omitempty"`
	DidSave             bool `json:"didSave,omitempty"`
}

// PublishDiagnosticsClientCapabilities holds textDocument.publishDiagnostics.
type PublishDiagnosticsClientCapabilities struct {
	RelatedInformation     bool                  `json:"relatedInformation,omitempty"`
	TagSupport             *DiagnosticTagSupport `json:"tagSupport,omitempty"`
	VersionSupport         bool                  `json:"versionSupport,omitempty"`
	CodeDescriptionSupport bool                  `json:"codeDescriptionSupport,omitempty"`
	DataSupport            bool                  `json:"dataSupport,omitempty"`
}

// DiagnosticTagSupport lists the diagnostic tags the client renders.
type DiagnosticTagSupport struct {
	ValueSet []DiagnosticTag `json:"valueSet"`
}

// CodeActionClientCapabilities holds textDocument.codeAction.
type CodeActionClientCapabilities struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
	// CodeActionLiteralSupport is non-nil when the client accepts CodeAction
	// literals (rather than bare Commands) in textDocument/codeAction
	// results, and only then may the server announce CodeActionOptions.
	CodeActionLiteralSupport *CodeActionLiteralSupport `json:"codeActionLiteralSupport,omitempty"`
	IsPreferredSupport       bool                      `json:"isPreferredSupport,omitempty"`
	DisabledSupport          bool                      `json:"disabledSupport,omitempty"`
	DataSupport              bool                      `json:"dataSupport,omitempty"`
}

// CodeActionLiteralSupport lists the code action kinds the client knows.
type CodeActionLiteralSupport struct {
	CodeActionKind struct {
		ValueSet []CodeActionKind `json:"valueSet"`
	} `json:"codeActionKind"`
}

// WindowClientCapabilities holds window.*.
type WindowClientCapabilities struct {
	WorkDoneProgress bool `json:"workDoneProgress,omitempty"`
}

// InitializeResult is the result of the initialize request.
type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   *ServerInfo        `json:"serverInfo,omitempty"`
}

// ServerCapabilities announces what the server provides.
type ServerCapabilities struct {
	// PositionEncoding is the encoding chosen from the client's
	// general.positionEncodings (ChooseEncoding); utf-16 when omitted.
	PositionEncoding Encoding                 `json:"positionEncoding,omitempty"`
	TextDocumentSync *TextDocumentSyncOptions `json:"textDocumentSync,omitempty"`
	// CodeActionProvider is true or a *CodeActionOptions. Options may only
	// be sent when the client has CodeActionLiteralSupport.
	CodeActionProvider     any                          `json:"codeActionProvider,omitempty"`
	HoverProvider          bool                         `json:"hoverProvider,omitempty"`
	ExecuteCommandProvider *ExecuteCommandOptions       `json:"executeCommandProvider,omitempty"`
	Workspace              *WorkspaceServerCapabilities `json:"workspace,omitempty"`
}

// TextDocumentSyncKind is how documents are synchronised.
type TextDocumentSyncKind int

// Text document sync kinds.
const (
	SyncNone        TextDocumentSyncKind = 0
	SyncFull        TextDocumentSyncKind = 1
	SyncIncremental TextDocumentSyncKind = 2
)

// TextDocumentSyncOptions is the textDocumentSync server capability.
type TextDocumentSyncOptions struct {
	OpenClose bool                 `json:"openClose,omitempty"`
	Change    TextDocumentSyncKind `json:"change,omitempty"`
	// Save, when non-nil, asks for didSave notifications.
	Save *SaveOptions `json:"save,omitempty"`
}

// SaveOptions asks for the document text in didSave when IncludeText.
type SaveOptions struct {
	IncludeText bool `json:"includeText,omitempty"`
}

// CodeActionOptions is the codeActionProvider server capability.
type CodeActionOptions struct {
	CodeActionKinds []CodeActionKind `json:"codeActionKinds,omitempty"`
	ResolveProvider bool             `json:"resolveProvider,omitempty"`
}

// ExecuteCommandOptions lists the commands workspace/executeCommand runs.
type ExecuteCommandOptions struct {
	Commands []string `json:"commands"`
}

// WorkspaceServerCapabilities is the workspace server capability.
type WorkspaceServerCapabilities struct {
	WorkspaceFolders *WorkspaceFoldersServerCapabilities `json:"workspaceFolders,omitempty"`
}

// WorkspaceFoldersServerCapabilities says whether the server supports
// workspace folders and wants didChangeWorkspaceFolders.
type WorkspaceFoldersServerCapabilities struct {
	Supported           bool `json:"supported,omitempty"`
	ChangeNotifications bool `json:"changeNotifications,omitempty"`
}

// InitializedParams are the (empty) params of initialized.
type InitializedParams struct{}

// ---- document synchronisation ----

// DidOpenTextDocumentParams are the params of textDocument/didOpen.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// DidChangeTextDocumentParams are the params of textDocument/didChange.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// TextDocumentContentChangeEvent is one change: with a Range, the text
// replaces that range; without, it is the full new content (see
// ApplyChanges). RangeLength is deprecated and ignored.
type TextDocumentContentChangeEvent struct {
	Range       *Range  `json:"range,omitempty"`
	RangeLength *uint32 `json:"rangeLength,omitempty"`
	Text        string  `json:"text"`
}

// DidSaveTextDocumentParams are the params of textDocument/didSave; Text is
// set when the server asked for it with SaveOptions.IncludeText.
type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

// DidCloseTextDocumentParams are the params of textDocument/didClose.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// ---- workspace ----

// FileChangeType is the kind of a FileEvent.
type FileChangeType uint32

// File change types.
const (
	FileCreated FileChangeType = 1
	FileChanged FileChangeType = 2
	FileDeleted FileChangeType = 3
)

// FileEvent is one watched-file change.
type FileEvent struct {
	URI  DocumentURI    `json:"uri"`
	Type FileChangeType `json:"type"`
}

// DidChangeWatchedFilesParams are the params of
// workspace/didChangeWatchedFiles.
type DidChangeWatchedFilesParams struct {
	Changes []FileEvent `json:"changes"`
}

// WatchKind is a bit set of the events a FileSystemWatcher reports.
type WatchKind uint32

// Watch kinds (combine with |; 0 means all three).
const (
	WatchCreate WatchKind = 1
	WatchChange WatchKind = 2
	WatchDelete WatchKind = 4
)

// FileSystemWatcher is one watcher of
// DidChangeWatchedFilesRegistrationOptions. GlobPattern is a glob string
// such as "**/*.py".
type FileSystemWatcher struct {
	GlobPattern string    `json:"globPattern"`
	Kind        WatchKind `json:"kind,omitempty"`
}

// DidChangeWatchedFilesRegistrationOptions are the registerOptions of a
// workspace/didChangeWatchedFiles registration.
type DidChangeWatchedFilesRegistrationOptions struct {
	Watchers []FileSystemWatcher `json:"watchers"`
}

// DidChangeConfigurationParams are the params of
// workspace/didChangeConfiguration.
type DidChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// DidChangeConfigurationRegistrationOptions are the registerOptions of a
// workspace/didChangeConfiguration registration: the settings sections
// the server reads.
type DidChangeConfigurationRegistrationOptions struct {
	Section []string `json:"section,omitempty"`
}

// ConfigurationItem asks for one settings section (in the scope of a
// resource, when ScopeURI is set).
type ConfigurationItem struct {
	ScopeURI DocumentURI `json:"scopeUri,omitempty"`
	Section  string      `json:"section,omitempty"`
}

// ConfigurationParams are the params of workspace/configuration; the
// result is an array with one value (any JSON, null when unset) per item.
type ConfigurationParams struct {
	Items []ConfigurationItem `json:"items"`
}

// WorkspaceFoldersChangeEvent lists added and removed folders.
type WorkspaceFoldersChangeEvent struct {
	Added   []WorkspaceFolder `json:"added"`
	Removed []WorkspaceFolder `json:"removed"`
}

// DidChangeWorkspaceFoldersParams are the params of
// workspace/didChangeWorkspaceFolders.
type DidChangeWorkspaceFoldersParams struct {
	Event WorkspaceFoldersChangeEvent `json:"event"`
}

// ExecuteCommandParams are the params of workspace/executeCommand.
type ExecuteCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// ApplyWorkspaceEditParams are the params of workspace/applyEdit.
type ApplyWorkspaceEditParams struct {
	Label string        `json:"label,omitempty"`
	Edit  WorkspaceEdit `json:"edit"`
}

// ---- diagnostics ----

// DiagnosticSeverity ranks a diagnostic.
type DiagnosticSeverity int

// Diagnostic severities.
const (
	SeverityError       DiagnosticSeverity = 1
	SeverityWarning     DiagnosticSeverity = 2
	SeverityInformation DiagnosticSeverity = 3
	SeverityHint        DiagnosticSeverity = 4
)

// DiagnosticTag adds rendering hints to a diagnostic.
type DiagnosticTag int

// Diagnostic tags.
const (
	TagUnnecessary DiagnosticTag = 1
	TagDeprecated  DiagnosticTag = 2
)

// CodeDescription links a diagnostic code to its documentation.
type CodeDescription struct {
	Href string `json:"href"`
}

// DiagnosticRelatedInformation points at a related location.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// Diagnostic is one finding. Code is a string (the rule id); when decoding,
// an integer code (sent by another server and echoed back in a code action
// request) is accepted and kept as its decimal text.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           DiagnosticSeverity             `json:"severity,omitempty"`
	Code               string                         `json:"code,omitempty"`
	CodeDescription    *CodeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source,omitempty"`
	Message            string                         `json:"message"`
	Tags               []DiagnosticTag                `json:"tags,omitempty"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
	Data               json.RawMessage                `json:"data,omitempty"`
}

// UnmarshalJSON decodes a diagnostic whose code is a string or an integer.
func (d *Diagnostic) UnmarshalJSON(b []byte) error {
	type plain Diagnostic // no methods: no recursion
	var aux struct {
		plain
		Code json.RawMessage `json:"code"` // shadows plain.Code
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*d = Diagnostic(aux.plain)
	d.Code = ""
	if len(aux.Code) == 0 || string(aux.Code) == "null" {
		return nil
	}
	if aux.Code[0] == '"' {
		return json.Unmarshal(aux.Code, &d.Code)
	}
	var n json.Number
	if err := json.Unmarshal(aux.Code, &n); err != nil {
		return fmt.Errorf("diagnostic code must be a string or a number: %w", err)
	}
	d.Code = n.String()
	return nil
}

// PublishDiagnosticsParams are the params of textDocument/publishDiagnostics.
// Diagnostics is always sent as an array ([] when empty, which clears the
// document's diagnostics), never null.
type PublishDiagnosticsParams struct {
	URI         DocumentURI  `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// MarshalJSON writes a nil Diagnostics as [].
func (p PublishDiagnosticsParams) MarshalJSON() ([]byte, error) {
	type plain PublishDiagnosticsParams
	if p.Diagnostics == nil {
		p.Diagnostics = []Diagnostic{}
	}
	return json.Marshal(plain(p))
}

// ---- hover ----

// TextDocumentPositionParams name a position in a document.
type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// HoverParams are the params of textDocument/hover.
type HoverParams struct {
	TextDocumentPositionParams
}

// MarkupKind is the format of a MarkupContent.
type MarkupKind string

// Markup kinds.
const (
	PlainText MarkupKind = "plaintext"
	Markdown  MarkupKind = "markdown"
)

// MarkupContent is text in a markup kind.
type MarkupContent struct {
	Kind  MarkupKind `json:"kind"`
	Value string     `json:"value"`
}

// Hover is the result of textDocument/hover (null when there is nothing
// to show). Range, when set, is what the hover is about; clients
// highlight it.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// ---- code actions ----

// CodeActionKind classifies a code action; kinds are hierarchical with
// dots (a client asking for "source" accepts "source.fixAll").
type CodeActionKind string

// Code action kinds.
const (
	KindEmpty          CodeActionKind = ""
	KindQuickFix       CodeActionKind = "quickfix"
	KindRefactor       CodeActionKind = "refactor"
	KindSource         CodeActionKind = "source"
	KindSourceFixAll   CodeActionKind = "source.fixAll"
	KindSourceOrganize CodeActionKind = "source.organizeImports"
)

// CodeActionTriggerKind says why code actions were requested.
type CodeActionTriggerKind int

// Code action trigger kinds.
const (
	TriggerInvoked   CodeActionTriggerKind = 1
	TriggerAutomatic CodeActionTriggerKind = 2
)

// CodeActionParams are the params of textDocument/codeAction.
type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// CodeActionContext carries the diagnostics overlapping the range (possibly
// from other servers) and the kinds the client asks for (Only; all when
// empty).
type CodeActionContext struct {
	Diagnostics []Diagnostic          `json:"diagnostics"`
	Only        []CodeActionKind      `json:"only,omitempty"`
	TriggerKind CodeActionTriggerKind `json:"triggerKind,omitempty"`
}

// Command is a command the client can run.
type Command struct {
	Title     string `json:"title"`
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
}

// CodeAction is a change the client can apply.
type CodeAction struct {
	Title       string          `json:"title"`
	Kind        CodeActionKind  `json:"kind,omitempty"`
	Diagnostics []Diagnostic    `json:"diagnostics,omitempty"`
	IsPreferred bool            `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit  `json:"edit,omitempty"`
	Command     *Command        `json:"command,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
}

// TextEdit replaces Range with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// TextDocumentEdit is a set of edits to one version of a document.
type TextDocumentEdit struct {
	TextDocument OptionalVersionedTextDocumentIdentifier `json:"textDocument"`
	Edits        []TextEdit                              `json:"edits"`
}

// WorkspaceEdit changes documents. Use DocumentChanges (versioned) when the
// client has workspace.workspaceEdit.documentChanges, Changes otherwise.
type WorkspaceEdit struct {
	Changes         map[DocumentURI][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []TextDocumentEdit         `json:"documentChanges,omitempty"`
}

// ApplyWorkspaceEditResult is the result of workspace/applyEdit.
type ApplyWorkspaceEditResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
}

// ---- registration, cancellation, window ----

// Registration registers one capability dynamically.
type Registration struct {
	ID              string `json:"id"`
	Method          string `json:"method"`
	RegisterOptions any    `json:"registerOptions,omitempty"`
}

// RegistrationParams are the params of client/registerCapability.
type RegistrationParams struct {
	Registrations []Registration `json:"registrations"`
}

// Unregistration undoes a Registration.
type Unregistration struct {
	ID     string `json:"id"`
	Method string `json:"method"`
}

// UnregistrationParams are the params of client/unregisterCapability (the
// misspelt member name is the specification's).
type UnregistrationParams struct {
	Unregisterations []Unregistration `json:"unregisterations"`
}

// CancelParams are the params of $/cancelRequest.
type CancelParams struct {
	ID ID `json:"id"`
}

// MessageType ranks a window message.
type MessageType int

// Message types.
const (
	MessageError   MessageType = 1
	MessageWarning MessageType = 2
	MessageInfo    MessageType = 3
	MessageLog     MessageType = 4
)

// LogMessageParams are the params of window/logMessage.
type LogMessageParams struct {
	Type    MessageType `json:"type"`
	Message string      `json:"message"`
}

// ShowMessageParams are the params of window/showMessage.
type ShowMessageParams struct {
	Type    MessageType `json:"type"`
	Message string      `json:"message"`
}

// DecodeParams unmarshals a message's params into v, returning an
// InvalidParams error suitable for Reply when they do not fit. Absent params
// leave v unchanged.
func DecodeParams(raw json.RawMessage, v any) *Error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return Errorf(InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// ---- work done progress ----

// MethodWorkDoneProgressCreate asks the client to create a progress token.
const MethodWorkDoneProgressCreate = "window/workDoneProgress/create"

// WorkDoneProgressCreateParams are the params of
// window/workDoneProgress/create.
type WorkDoneProgressCreateParams struct {
	Token string `json:"token"`
}

// ProgressParams are the params of $/progress.
type ProgressParams struct {
	Token string `json:"token"`
	Value any    `json:"value"`
}

// WorkDoneProgressBegin starts a progress report.
type WorkDoneProgressBegin struct {
	Kind        string `json:"kind"` // "begin"
	Title       string `json:"title"`
	Cancellable bool   `json:"cancellable,omitempty"`
	Message     string `json:"message,omitempty"`
}

// WorkDoneProgressEnd ends a progress report.
type WorkDoneProgressEnd struct {
	Kind    string `json:"kind"` // "end"
	Message string `json:"message,omitempty"`
}
