// Command genrepo writes a synthetic NeMo Gym-style repository for
// benchmarks:
//
//	genrepo [-servers 2000] [-seed 1] DIR
//
// DIR is created if missing and must be empty.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gymlint/gymlint/bench/gen"
)

func main() {
	servers := flag.Int("servers", 2000, "number of server dirs")
	seed := flag.Int64("seed", 1, "random seed; the same seed gives the same bytes")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: genrepo [-servers N] [-seed S] DIR\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
	sum, err := gen.Generate(dir, gen.Options{Servers: *servers, Seed: *seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, "genrepo:", err)
		os.Exit(1)
	}
	fmt.Printf("servers=%d py_files=%d py_bytes=%d yaml_files=%d yaml_bytes=%d\n",
		sum.Servers, sum.PyFiles, sum.PyBytes, sum.YAMLFiles, sum.YAMLBytes)
}
