//go:build !race

package main

// raceBuild is set when the tests run under the race detector, whose
// runtime's memory swamps what the memory tests measure.
const raceBuild = false
