package inventory

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Formats lists the inventory formats.
var Formats = []string{"text", "markdown", "json", "mermaid", "dot"}

// Write prints the inventory in the named format; note (ContractNote) goes
// under the text and markdown tables and is a comment of the mermaid and
// dot graphs (graph.go) (JSON has it per row, as contract).
func Write(w io.Writer, format string, rows []Server, note string) error {
	switch format {
	case "text", "markdown":
		var err error
		if format == "text" {
			err = text(w, rows)
		} else {
			err = markdown(w, rows)
		}
		if err == nil && note != "" {
			sep := ""
			if format == "markdown" {
				sep = "\n"
			}
			_, err = fmt.Fprintf(w, "%s%s\n", sep, note)
		}
		return err
	case "mermaid":
		return mermaid(w, rows, note)
	case "dot":
		return dot(w, rows, note)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if rows == nil {
			rows = []Server{}
		}
		return enc.Encode(rows)
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

var header = []string{"TYPE", "DIR", "CLASS", "FILE", "CONFIGS", "WORKERS", "RAY", "SESSION METHODS", "HAZARDS"}

func cells(r Server) []string {
	workers := r.Workers
	switch {
	case r.Condition != "":
		workers += ": " + r.Condition
	case r.Reason != "":
		workers += ": " + r.Reason
	}
	ray := r.Ray
	if r.RayUse != "" {
		ray += " (" + r.RayUse + ")"
	}
	var cfg string
	switch len(r.Configs) {
	case 0:
		cfg = "-"
	case 1:
		cfg = r.Configs[0]
	default:
		cfg = fmt.Sprintf("%d configs", len(r.Configs))
	}
	class := r.Class
	if class == "" {
		class = "-"
	}
	sess := strings.Join(r.Session, ", ")
	if sess == "" {
		sess = "-"
	}
	var codes []string
	for _, h := range r.Hazards {
		if !slices.Contains(codes, h.Code) {
			codes = append(codes, h.Code)
		}
	}
	hazards := strings.Join(codes, ", ")
	if hazards == "" {
		hazards = "-"
	}
	return []string{r.Type, r.Dir, class, fmt.Sprintf("%s:%d", r.Path, r.Line), cfg, workers, ray, sess, hazards}
}

// textCell is the longest cell the text table shows in full; a longer one
// ends with "…" (markdown and JSON have it whole).
const textCell = 32

// text writes a table for a terminal: narrower than the markdown one, it
// shows the file relative to the server's folder, the configs by count and
// Ray without where it is used, and cuts long cells.
func text(w io.Writer, rows []Server) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for _, r := range rows {
		c := cells(r)
		if dir := r.Type + "/" + r.Dir + "/"; strings.HasPrefix(r.Path, dir) {
			c[3] = fmt.Sprintf("%s:%d", strings.TrimPrefix(r.Path, dir), r.Line)
		}
		switch len(r.Configs) {
		case 0:
		case 1:
			c[4] = "1 config"
		default:
			c[4] = fmt.Sprintf("%d configs", len(r.Configs))
		}
		c[6] = r.Ray
		for i := range c {
			c[i] = clean.Replace(c[i])
			if rs := []rune(c[i]); len(rs) > textCell {
				c[i] = string(rs[:textCell-1]) + "…"
			}
		}
		fmt.Fprintln(tw, strings.Join(c, "\t"))
	}
	return tw.Flush()
}

// markdown writes a table a maintainer can paste into a pull request.
func markdown(w io.Writer, rows []Server) error {
	var b strings.Builder
	b.WriteString("| Type | Dir | Class | File | Configs | Workers | Ray | Session methods | Hazards |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	esc := strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ")
	for _, r := range rows {
		c := cells(r)
		for i := range c {
			c[i] = esc.Replace(c[i])
		}
		c[2] = "`" + c[2] + "`"
		c[3] = "`" + c[3] + "`"
		b.WriteString("| " + strings.Join(c, " | ") + " |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
