// Command gymlint checks a NeMo Gym-style repository of environment servers
// without importing or running any of it.
//
//	gymlint [flags] [DIR]
//
// DIR defaults to the current directory. Exit status: 0 no findings, 1
// findings, 2 usage, configuration or internal error. See README.md.
package main

import (
	"os"

	"github.com/gymlint/gymlint/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
