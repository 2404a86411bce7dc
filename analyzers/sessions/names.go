package sessions

// maxNameDepth bounds chains of imports, aliases and re-exports (and ends
// cycles).
const maxNameDepth = 16
