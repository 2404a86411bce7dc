package diag

// InternalError is rule GL011: a rule or an analyzer of gymlint failed (it
// panicked) on a file. The front ends report it wherever the failure
// happened, Python or Go, and go on: the other rules' findings stand.
var InternalError = &Rule{
	Code: "GL011", Name: "internal-error", Analyzer: "core", Severity: Error,
	Summary: "A gymlint rule failed on a file (a bug in gymlint): its findings there are missing.",
	Doc: `## What it does
Reports that one of gymlint's rules or Go analyzers stopped with an internal error (a panic) while it
checked a file. The finding names the rule and the error. gymlint recovers: every other rule's
findings stand, and so do the failing rule's findings in the other files. The Python rules are run
again one entrypoint at a time to tell which files the failure belongs to.

` + "`gymlint`" + ` exits with status 2 when there is such a finding (an incomplete check must not pass a CI
gate), whatever ` + "`--exit-zero`" + ` says.

## Why it matters
The failing rule said nothing about the file, so a mistake it checks for may be there unreported.

## Example
` + "```" + `
resources_servers/maze/app.py:1:1: GL011 internal error: rule GL301 (plain-exception-in-seed) failed while checking this file: runtime error: index out of range [3] with length 3; its findings for this file are missing, the other rules' stand
` + "```" + `

## How to fix
It is a bug in gymlint: please report it with the message and, if you can, the file. Meanwhile the
rule can be disabled for the file with a per-path ignore in ` + "`.gymlint.yaml`" + `.`,
}
