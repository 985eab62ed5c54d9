// Package projectfiles is the one way tests write the files of a project
// (under <project>/.relavium) that more than one package's tests need.
//
// Contract:
//   - Workflow(t, project, id, sideEffect, gate) writes
//     .relavium/workflows/<id>.yaml: an mcp_call workflow with a required
//     string input target and an integer input days (default 30), an output
//     target, and either one tool step (mcp_demo_echo on server demo) or,
//     when gate is not empty, one gate step with that text (it runs without
//     any server). A write failure fails the test.
//
// It imports the standard library only (deps_test.go): tests of every
// floor may use it.
package projectfiles
