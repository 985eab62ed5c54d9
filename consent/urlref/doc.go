// Package urlref reads the references of a network server's url as
// written (consent.RefsIn, the one reference reader) and says where each
// sits. Of relavium it imports consent only; config (to admit the
// expanded url when a file is read) and session (to expand it at
// connect) use it.
//
// A network server's url may hold references, as an argument may:
// "{{env.MCP_URL:-https://api.example.com}}/mcp",
// "http://localhost:{{env.PORT}}/mcp",
// "https://api.example.com/mcp?key={{secrets.api_key}}". What is shown,
// recorded, locked, exported and digested is the url as written; what is
// dialled is the url with every reference expanded. Where a reference
// sits decides what it means:
//
//   - When it makes up a whole part of the origin — the whole
//     scheme://host[:port] (the url's first bytes, up to its path), the
//     whole host or the whole port — it is the person's environment
//     choosing where to go, not a value sent there.
//   - In the path, query or fragment it is a value carried to the url's
//     origin, as a header's is: it needs a secret binding (NAME@ORIGIN),
//     {{secrets.NAME}} under NAME, {{env.VAR}} under env.VAR (the name
//     says it is the environment variable), the binding's carrier "url".
//   - Inside a host name with text around it
//     ("https://{{env.TENANT}}.example.com") it is both: it chooses the
//     host, and its value is spelled into a name the file chose, which
//     reaches that domain's name servers and the host itself
//     ("{{env.TOKEN}}.attacker.example" would carry a token there). So it
//     is carried, and bound, as a path's value is: nothing is resolved or
//     dialled before the person bound it to the origin it makes.
//
// Only the environment may choose where to go, and the person's own
// typing: a secret never does, but for a whole host a person types (a VS
// Code file's ${input:id}, "https://${input:domain}/mcp": TypedHost; config
// admits it for a typed input only). Config refuses, too, a variable or
// input whose name says it holds a credential anywhere in the origin. Part of a scheme or a port is refused (no
// origin is made that way), and user info never holds a reference: the
// guard refuses any user info in a url.
package urlref
