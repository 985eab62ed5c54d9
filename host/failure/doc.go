// Package failure is host's coded error and the codes host raises.
//
// Contract:
//   - Error is a failure of one server, or of the host: fault's code,
//     message, cause, exit and data, and the server it belongs to with its
//     exit status and stderr tail (redacted before they are set). Message
//     names the server; ErrorData carries server, exit_status and
//     stderr_tail when there are some; WriteHuman prints the failure and
//     the tail indented (WriteTail), cleaned for the terminal. An E520
//     naming several missing secrets keeps each of them (Parts).
//   - The codes are stable (E500–E549, E59x, E880, E90x, E92x) and Codes
//     registers each with its exit class and meaning; docs/error-codes.md
//     says the same to a person, a test holds the two together.
//   - OutcomeKey is how one request of a load is counted in its report:
//     never the message, one key per failure a person would fix
//     differently.
//
// failure may import engine, engine/sanitize and fault, and the go-sdk's
// jsonrpc; never host or anything above (deps_test.go).
package failure
