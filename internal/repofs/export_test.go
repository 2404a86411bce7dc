package repofs

import "fmt"

// CostlyGitignoreTree is a repository whose .gitignore patterns are each
// cheap but costly together (2,000 patterns of nine segments, over 1,500
// entries): a walk passes MaxGitignoreWork on it.
func CostlyGitignoreTree() map[string]string {
	var ign []byte
	for i := 0; i < 2000; i++ {
		ign = fmt.Appendf(ign, "**/a%d/**/b/**/c/**/d/z.yaml\n", i)
	}
	files := map[string]string{".gitignore": string(ign), "resources_servers/s/app.py": "x\n"}
	for i := 0; i < 1500; i++ {
		files[fmt.Sprintf("d%d/e/f/g/c%d.yaml", i%50, i)] = "a: 1\n"
	}
	return files
}
