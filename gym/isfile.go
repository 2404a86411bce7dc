package gym

// IsFile reports whether p (root-relative) names a readable regular file
// inside the root, and records p as a dependency of the view's analysis:
// a rule that asks whether a file exists (an install marker of a server
// directory) is answered again when the file appears or goes.
func (v *View) IsFile(p string) bool { return v.isFile(p) }
