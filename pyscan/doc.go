// Package pyscan parses Python source into a typed syntax model (model.go,
// ast.go): every statement and expression with its byte span, and the
// module-scope facts (imports, classes, functions, bindings, __main__
// guards). It knows Python, nothing about Gym.
//
// A parse is tree-sitter-python's (parse.go), under a work budget counted
// in steps, on a text adapted where tree-sitter-python reads Python
// differently from CPython (input.go). The syntax tree then crosses from C
// to Go once: one cgo call copies all its nodes into a flat buffer in
// pre-order (cwalk.go), and the walker (build.go, strings.go) builds the
// model from the buffer with no further cgo call. The Module keeps no
// reference to the tree or to the buffer.
package pyscan
