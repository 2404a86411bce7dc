package rayenabled

// maxRemoteDepth bounds chains of re-exports followed for `.remote`.
const maxRemoteDepth = 8
