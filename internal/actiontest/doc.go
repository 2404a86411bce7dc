// Package actiontest tests gymlint's GitHub Action: action.yml at the
// repository root and the script its steps run, .github/action/run.sh.
//
// The tests run the script with bash as the runner does (the environment
// GitHub sets, the inputs as environment variables) on copies of fixture
// repositories, with a gymlint built by the test, and check what a workflow
// sees: the annotations, the SARIF file, the step outputs, the step summary
// and the exit status. They build gymlint, so -short skips them. Another
// test reads action.yml and checks it against the files it names: every
// input declared and used, every output set by the step it names, the
// script present and executable, actions pinned to a major version, and no
// expression written into shell code.
//
// The package holds tests only; nothing imports it.
package actiontest
