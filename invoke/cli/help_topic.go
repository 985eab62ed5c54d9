package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/docs"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
)

// TopicText is one page of the reference (`relavium help TOPIC`): its
// Markdown, exact, in the --json envelope; plain text on a terminal.
type TopicText struct {
	Topic    string `json:"topic"`
	Title    string `json:"title"`
	Markdown string `json:"markdown"`
}

// WriteHuman prints the page as plain text, through the display sanitizer
// like everything relavium prints (the pages are relavium's own, but the
// rule has no exceptions).
func (p TopicText) WriteHuman(w io.Writer) error {
	_, err := io.WriteString(w, sanitize.Text(docs.Plain([]byte(p.Markdown))))
	return err
}

// unknownTopicData is the data of E106: every topic, to pick from.
type unknownTopicData struct {
	Topics []docs.Topic `json:"topics"`
}

// helpTopic answers `relavium help WORDS` when WORDS is no command: one
// word naming a page of the reference prints it; anything else is E106,
// whose message lists the topics (and suggests a near command or topic).
func helpTopic(t *Table, words []string) (any, error) {
	topics := docs.Topics()
	if len(words) == 1 {
		if md, ok := docs.Page(words[0]); ok {
			for _, tp := range topics {
				if tp.Name == words[0] {
					return TopicText{Topic: tp.Name, Title: tp.Title, Markdown: string(md)}, nil
				}
			}
		}
	}
	word := strings.Join(words, " ")
	var names, topicNames []string
	for _, c := range t.Commands {
		if !c.Hidden {
			names = append(names, c.Name())
		}
	}
	for _, tp := range topics {
		topicNames = append(topicNames, tp.Name)
	}
	msg := fmt.Sprintf("no command or help topic %q", word)
	if s := engine.Suggest(word, append(names, topicNames...)); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	e := UsageErr(CodeUnknownTopic, "%s (topics: %s; commands: relavium help)", msg, strings.Join(topicNames, ", "))
	e.Data = unknownTopicData{Topics: topics}
	return nil, e
}
