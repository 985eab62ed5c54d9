// Package docs is relavium's reference: one Markdown page per topic, the
// same pages the repository shows under docs/, built into the binary so
// that `relavium help TOPIC` prints them on every machine that has it.
//
// Contract: Topics lists every page but the index, in the index's order,
// each with the summary its row in README.md (the index) gives; Page
// returns one page's Markdown; Plain turns a page into plain text for a
// terminal (headings underlined, fences indented, links spelled out as
// `relavium help TOPIC` or the url, emphasis dropped). Plain writes no
// control character of its own; the caller still passes the text through
// the display sanitizer, as it does all text it prints.
//
// docs is a leaf on floor 0: it imports only the standard library.
package docs
