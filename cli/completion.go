package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/lint"
)

// Shell completion: `gymlint completion bash|zsh|fish` prints a script
// made from the command table (commands) and each command's own flag set,
// so that it offers what gymlint takes: the subcommands, each command's
// flags, the values of --format (the command's formats), --contract and
// the rule selectors (--select, --extend-select, --ignore: the catalogue's
// codes, names and analyzers, and ALL, after a comma too), the rules and
// topics of explain and help, and files or directories where a flag or
// argument names a FILE, PATH, GLOB or DIR.

// completionShells are the shells `gymlint completion` writes for.
var completionShells = []string{"bash", "zsh", "fish"}

const completionAbout = `Prints a completion script for the shell (bash 4 or later, zsh, fish) on
stdout, made from gymlint's commands and flags: subcommands, flags, the
values of --format, --contract and the rule selectors (--select, --ignore,
--extend-select), rule codes and names, and files for paths. Load it with
  source <(gymlint completion bash)      # in ~/.bashrc
  source <(gymlint completion zsh)       # in ~/.zshrc, after compinit
  gymlint completion fish > ~/.config/fish/completions/gymlint.fish
`

// completionCmd is `gymlint completion SHELL`.
func completionCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	return func(args []string) int {
		if len(args) != 1 {
			return usageError(stderr, fs, "expected one shell (%s), got %d", strings.Join(completionShells, ", "), len(args))
		}
		var script string
		switch args[0] {
		case "bash":
			script = bashCompletion(completionModel())
		case "zsh":
			script = zshCompletion(completionModel())
		case "fish":
			script = fishCompletion(completionModel())
		default:
			return usageError(stderr, fs, "unknown shell %q (known: %s)", args[0], strings.Join(completionShells, ", "))
		}
		if _, err := io.WriteString(stdout, script); err != nil {
			fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
			return ExitError
		}
		return ExitClean
	}
}

// What a value or an argument completes to.
const (
	complNone  = iota // a value, nothing to offer (a number, a revision)
	complWords        // the words
	complFiles        // files (and directories, on the way to them)
	complDirs         // directories
	complRules        // rule selectors, comma-separated
)

// complFlag is a flag as completion sees it.
type complFlag struct {
	name  string
	about string // its usage's first clause
	value bool   // it takes a value (not a boolean)
	kind  int    // what the value completes to
	words []string
	// colonFile: a value NAME:FILE completes FILE (the check's --format).
	colonFile bool
}

// complCommand is a command as completion sees it.
type complCommand struct {
	name  string // "check" for the check
	short string
	flags []complFlag
	kind  int // what its positional arguments complete to
	words []string
}

// completionModel is the command table as completion sees it.
func completionModel() []complCommand {
	var out []complCommand
	for _, c := range commands() {
		cc := complCommand{name: c.name, short: c.short}
		if c.name == "" {
			cc.name = "check"
		}
		switch {
		case c.words != nil:
			cc.kind, cc.words = complWords, c.words()
		case strings.Contains(c.args, "PATH") || strings.Contains(c.args, "FILE"):
			cc.kind = complFiles
		}
		fs, _ := c.flagSet(io.Discard, io.Discard)
		fs.VisitAll(func(f *flag.Flag) {
			if slices.Contains(c.hidden, f.Name) {
				return
			}
			valueName, usage := flag.UnquoteUsage(f)
			cf := complFlag{name: f.Name, about: firstClause(usage), value: true}
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				cf.value = false
			}
			switch {
			case f.Name == "format":
				cf.kind, cf.words, cf.colonFile = complWords, c.formats, c.name == ""
			case f.Name == "contract":
				cf.kind, cf.words = complWords, []string{string(contract.Auto), string(contract.Latest)}
			case f.Name == "select" || f.Name == "extend-select" || f.Name == "ignore":
				cf.kind, cf.words = complRules, selectorWords()
			case valueName == "DIR":
				cf.kind = complDirs
			case valueName == "FILE" || valueName == "PATH" || valueName == "GLOB":
				cf.kind = complFiles
			}
			cc.flags = append(cc.flags, cf)
		})
		out = append(out, cc)
	}
	return out
}

// firstClause is a flag's usage cut to its first clause, for a shell to
// show beside the flag.
func firstClause(usage string) string {
	if i := strings.IndexAny(usage, ";("); i > 0 {
		usage = usage[:i]
	}
	usage = strings.TrimRight(usage, " :,")
	if len(usage) > 80 {
		usage = usage[:strings.LastIndex(usage[:77], " ")] + "..."
	}
	return usage
}

// ruleWords are the catalogue's rule codes and names (what explain takes).
func ruleWords() []string {
	var out []string
	for _, r := range lint.Rules() {
		out = append(out, r.Code, r.Name)
	}
	return out
}

// selectorWords are the rule selectors (settings.ResolveSelectors): every
// code and name, each analyzer, and ALL. A prefix of a code selects too:
// completion offers the codes it prefixes.
func selectorWords() []string {
	out := ruleWords()
	for _, r := range lint.Rules() {
		if !slices.Contains(out, r.Analyzer) {
			out = append(out, r.Analyzer)
		}
	}
	return append(out, "ALL")
}

// helpTopics are the topics `gymlint help` takes: the commands, the Go
// analyzers and the rules.
func helpTopics() []string {
	out := append([]string{"check"}, subcommandNames()...)
	for _, a := range goAnalyzers() {
		out = append(out, a.Name)
	}
	return append(out, ruleWords()...)
}

// subcommands are the model's commands but the check.
func subcommands(cs []complCommand) []complCommand {
	return slices.DeleteFunc(slices.Clone(cs), func(c complCommand) bool { return c.name == "check" })
}

// caseArms are the arms of a shell's case statement, in order, the
// patterns with the same action in one arm.
type caseArms []struct {
	patterns []string
	action   string
}

func (as *caseArms) add(pattern, action string) {
	for i := range *as {
		if (*as)[i].action == action {
			(*as)[i].patterns = append((*as)[i].patterns, pattern)
			return
		}
	}
	*as = append(*as, struct {
		patterns []string
		action   string
	}{[]string{pattern}, action})
}

// joinWords joins words, one argument of a script (shQuote it).
func joinWords(words []string) string { return strings.Join(words, " ") }

// shQuote quotes s for sh, bash and zsh: in single quotes.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishQuote quotes s for fish: in single quotes, with \ and \' escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// bashCompletion is the bash script: one function, _gymlint, that
// reassembles the words bash splits at '=' and ':' (COMP_WORDBREAKS), finds
// the command (the first word, when it is a subcommand, else the check),
// completes a flag's value after it (or after '='), a flag after '-', and
// else the command's arguments (and the subcommands first).
func bashCompletion(cs []complCommand) string {
	var b strings.Builder
	var names []string
	for _, c := range subcommands(cs) {
		names = append(names, c.name)
	}
	fmt.Fprintf(&b, `# bash completion for gymlint (bash 4 or later), made by "gymlint completion bash"
# from gymlint's commands and flags. Load it with: source <(gymlint completion bash)

_gymlint_rule_words=%s

# _gymlint_compgen COMPGEN-ARGS... sets COMPREPLY to compgen's lines.
_gymlint_compgen() {
    mapfile -t COMPREPLY < <(compgen "$@")
}

# _gymlint_value COMMAND FLAG VALUE completes the value of --FLAG; it
# returns 1 when FLAG takes no value.
_gymlint_value() {
    local cur=$3
    case "$1/$2" in
`, shQuote(joinWords(selectorWords())))
	var arms caseArms
	for _, c := range cs {
		for _, f := range c.flags {
			if !f.value {
				continue
			}
			var action string
			switch f.kind {
			case complWords:
				if f.colonFile {
					action = fmt.Sprintf("if [[ $cur == *:* ]]; then compopt -o filenames 2>/dev/null; _gymlint_compgen -P \"${cur%%%%:*}:\" -f -- \"${cur#*:}\"; else _gymlint_compgen -W %s -- \"$cur\"; fi", shQuote(joinWords(f.words)))
				} else {
					action = fmt.Sprintf("_gymlint_compgen -W %s -- \"$cur\"", shQuote(joinWords(f.words)))
				}
			case complRules:
				action = "local head=\"\"; if [[ $cur == *,* ]]; then head=${cur%,*},; cur=${cur##*,}; fi; _gymlint_compgen -P \"$head\" -W \"$_gymlint_rule_words\" -- \"$cur\""
			case complFiles:
				action = "compopt -o filenames 2>/dev/null; _gymlint_compgen -f -- \"$cur\""
			case complDirs:
				action = "compopt -o filenames 2>/dev/null; _gymlint_compgen -d -- \"$cur\""
			default:
				action = "COMPREPLY=()"
			}
			arms.add(c.name+"/"+f.name, action)
		}
	}
	for _, a := range arms {
		fmt.Fprintf(&b, "    %s)\n        %s ;;\n", strings.Join(a.patterns, "|"), a.action)
	}
	b.WriteString(`    *) return 1 ;;
    esac
}

_gymlint() {
    COMPREPLY=()
    # Reassemble --flag=value and NAME:FILE, which bash splits at = and :.
    local -a words=()
    local i w glue=0
    for (( i = 0; i <= COMP_CWORD; i++ )); do
        w=${COMP_WORDS[i]}
        if (( i > 1 )) && [[ $w == [=:] || $glue == 1 ]]; then
            words[${#words[@]}-1]+=$w
        else
            words+=("$w")
        fi
        if [[ $w == [=:] ]]; then glue=1; else glue=0; fi
    done
    local cword=$(( ${#words[@]} - 1 ))
    local cur=${words[cword]} prev=""
    (( cword > 0 )) && prev=${words[cword-1]}
    local cmd=check
    if (( cword > 1 )); then
        case ${words[1]} in
`)
	fmt.Fprintf(&b, "        %s) cmd=${words[1]} ;;\n", strings.Join(names, "|"))
	b.WriteString(`        esac
    fi
    local pending=1 f
    if [[ $cur == -*=* ]]; then
        f=${cur%%=*}; f=${f#-}; f=${f#-}
        _gymlint_value "$cmd" "$f" "${cur#*=}" && pending=0
        COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
    elif [[ $prev == -* && $prev != *=* ]]; then
        f=${prev#-}; f=${f#-}
        _gymlint_value "$cmd" "$f" "$cur" && pending=0
    fi
    if (( pending )); then
        if [[ $cur == -* ]]; then
            case $cmd in
`)
	for _, c := range cs {
		var flags []string
		for _, f := range c.flags {
			flags = append(flags, "--"+f.name)
		}
		fmt.Fprintf(&b, "            %s) _gymlint_compgen -W %s -- \"$cur\" ;;\n", c.name, shQuote(joinWords(flags)))
	}
	b.WriteString(`            esac
        else
            case $cmd in
`)
	for _, c := range cs {
		fmt.Fprintf(&b, "            %s) ", c.name)
		switch c.kind {
		case complWords:
			fmt.Fprintf(&b, "_gymlint_compgen -W %s -- \"$cur\" ;;\n", shQuote(joinWords(c.words)))
		case complFiles:
			b.WriteString("compopt -o filenames 2>/dev/null; _gymlint_compgen -f -- \"$cur\" ;;\n")
		default:
			b.WriteString(";;\n")
		}
	}
	fmt.Fprintf(&b, `            esac
            if (( cword == 1 )); then
                local -a more
                mapfile -t more < <(compgen -W %s -- "$cur")
                COMPREPLY=("${more[@]}" "${COMPREPLY[@]}")
            fi
        fi
    fi
    # Readline replaces what follows the last = or : of the word (when
    # COMP_WORDBREAKS has them): offer only that part.
    local brk="" c
    for c in = :; do [[ $COMP_WORDBREAKS == *"$c"* ]] && brk+=$c; done
    if [[ -n $brk && $cur == *["$brk"]* ]]; then
        local keep=${cur%%"${cur##*["$brk"]}"}
        COMPREPLY=("${COMPREPLY[@]#"$keep"}")
    fi
    return 0
}

complete -F _gymlint gymlint
`, shQuote(joinWords(names)))
	return b.String()
}

// zshCompletion is the zsh script: _gymlint, for compsys (compinit), with
// the same logic as bash's and each subcommand and flag described.
func zshCompletion(cs []complCommand) string {
	var b strings.Builder
	var names, described []string
	for _, c := range subcommands(cs) {
		names = append(names, c.name)
		described = append(described, shQuote(c.name+":"+c.short))
	}
	fmt.Fprintf(&b, `#compdef gymlint
# zsh completion for gymlint, made by "gymlint completion zsh" from gymlint's
# commands and flags. Load it with: source <(gymlint completion zsh) (after
# compinit), or save it as _gymlint in a directory of $fpath.

_gymlint_rule_words=(%s)

# _gymlint_value COMMAND FLAG completes the value of --FLAG ($PREFIX); it
# returns 1 when FLAG takes no value.
_gymlint_value() {
  case "$1/$2" in
`, joinWords(selectorWords()))
	var arms caseArms
	for _, c := range cs {
		for _, f := range c.flags {
			if !f.value {
				continue
			}
			var action string
			switch f.kind {
			case complWords:
				if f.colonFile {
					action = fmt.Sprintf("if [[ $PREFIX == *:* ]]; then compset -P '*:'; _files; else compadd -- %s; fi", joinWords(f.words))
				} else {
					action = "compadd -- " + joinWords(f.words)
				}
			case complRules:
				action = "compset -P '*,'; compadd -- $_gymlint_rule_words"
			case complFiles:
				action = "_files"
			case complDirs:
				action = "_files -/"
			default:
				action = "_message " + shQuote(f.about)
			}
			arms.add(c.name+"/"+f.name, action)
		}
	}
	for _, a := range arms {
		fmt.Fprintf(&b, "    (%s) %s ;;\n", strings.Join(a.patterns, "|"), a.action)
	}
	b.WriteString(`    (*) return 1 ;;
  esac
  return 0
}

_gymlint() {
  local cmd=check f prev=${words[CURRENT-1]}
  if (( CURRENT > 2 )); then
    case ${words[2]} in
`)
	fmt.Fprintf(&b, "      (%s) cmd=${words[2]} ;;\n", strings.Join(names, "|"))
	b.WriteString(`    esac
  fi
  if [[ $PREFIX == -*=* ]]; then
    f=${PREFIX%%=*}; f=${f#-}; f=${f#-}
    compset -P '*='
    _gymlint_value $cmd $f
    return
  fi
  if [[ $prev == -* && $prev != *=* ]]; then
    f=${prev#-}; f=${f#-}
    _gymlint_value $cmd $f && return
  fi
  local -a flags
  if [[ $PREFIX == -* ]]; then
    case $cmd in
`)
	for _, c := range cs {
		var flags []string
		for _, f := range c.flags {
			flags = append(flags, shQuote("--"+f.name+":"+f.about))
		}
		fmt.Fprintf(&b, "      (%s) flags=(%s) ;;\n", c.name, strings.Join(flags, " "))
	}
	fmt.Fprintf(&b, `    esac
    _describe -t flags flag flags
    return
  fi
  if (( CURRENT == 2 )); then
    local -a commands=(%s)
    _describe -t commands command commands
  fi
  case $cmd in
`, strings.Join(described, " "))
	for _, c := range cs {
		switch c.kind {
		case complWords:
			fmt.Fprintf(&b, "    (%s) compadd -- %s ;;\n", c.name, joinWords(c.words))
		case complFiles:
			fmt.Fprintf(&b, "    (%s) _files ;;\n", c.name)
		}
	}
	b.WriteString(`  esac
}

if [[ $funcstack[1] == _gymlint ]]; then
  _gymlint "$@"
else
  compdef _gymlint gymlint
fi
`)
	return b.String()
}

// fishCompletion is the fish script: complete commands whose conditions
// name the command being completed (__gymlint_cmd: the first word when it
// is a subcommand, else the check).
func fishCompletion(cs []complCommand) string {
	var b strings.Builder
	var names []string
	for _, c := range subcommands(cs) {
		names = append(names, c.name)
	}
	fmt.Fprintf(&b, `# fish completion for gymlint, made by "gymlint completion fish" from
# gymlint's commands and flags. Save it as
# ~/.config/fish/completions/gymlint.fish, or: gymlint completion fish | source

# __gymlint_cmd prints the command being completed: the first word when it
# is a subcommand, else check.
function __gymlint_cmd
    set -l tokens (commandline -opc)
    if test (count $tokens) -ge 2; and contains -- $tokens[2] %s
        echo $tokens[2]
    else
        echo check
    end
end

function __gymlint_is
    test (__gymlint_cmd) = $argv[1]
end

# __gymlint_first: the word being completed is the first.
function __gymlint_first
    test (count (commandline -opc)) -eq 1
end

# __gymlint_rules prints the rule selectors, after the comma-separated ones
# already typed.
function __gymlint_rules
    set -l cur (string replace -r -- '^-+[^=]*=' '' (commandline -ct))
    set -l head (string replace -r -- '[^,]*$' '' $cur)
    for w in %s
        echo $head$w
    end
end

complete -c gymlint -f
`, joinWords(names), joinWords(selectorWords()))
	for _, c := range subcommands(cs) {
		fmt.Fprintf(&b, "complete -c gymlint -n __gymlint_first -a %s -d %s\n", c.name, fishQuote(c.short))
	}
	for _, c := range cs {
		cond := fishQuote("__gymlint_is " + c.name)
		for _, f := range c.flags {
			fmt.Fprintf(&b, "complete -c gymlint -n %s -l %s", cond, f.name)
			if f.value {
				switch f.kind {
				case complWords:
					fmt.Fprintf(&b, " -x -a %s", fishQuote(joinWords(f.words)))
				case complRules:
					b.WriteString(" -x -a '(__gymlint_rules)'")
				case complFiles:
					b.WriteString(" -r -F")
				case complDirs:
					b.WriteString(" -x -a '(__fish_complete_directories)'")
				default:
					b.WriteString(" -x")
				}
			}
			fmt.Fprintf(&b, " -d %s\n", fishQuote(f.about))
		}
		switch c.kind {
		case complWords:
			fmt.Fprintf(&b, "complete -c gymlint -n %s -a %s\n", cond, fishQuote(joinWords(c.words)))
		case complFiles:
			fmt.Fprintf(&b, "complete -c gymlint -n %s -F\n", cond)
		}
	}
	return b.String()
}
