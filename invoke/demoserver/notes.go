package demoserver

import (
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// maxNotes bounds the in-memory note store: a long-running demo server must
// not grow without limit.
const maxNotes = 100

type note struct {
	ID    int
	Title string
	Body  string
}

// noteStore holds create_note's notes, in memory only.
type noteStore struct {
	mu    sync.Mutex
	next  int
	notes map[int]note
}

func newNoteStore() *noteStore { return &noteStore{next: 1, notes: map[int]note{}} }

func (s *noteStore) add(title, body string) (note, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.notes) >= maxNotes {
		return note{}, fmt.Errorf("the demo server already holds %d notes, its limit; restart it to start afresh", maxNotes)
	}
	n := note{ID: s.next, Title: title, Body: body}
	s.notes[n.ID] = n
	s.next++
	return n, nil
}

func (s *noteStore) get(id int) (note, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.notes[id]
	return n, ok
}

// ids returns the note ids as strings, ascending.
func (s *noteStore) ids() []string {
	s.mu.Lock()
	ids := make([]int, 0, len(s.notes))
	for id := range s.notes {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	sort.Ints(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.Itoa(id)
	}
	return out
}

func noteURI(id int) string { return fmt.Sprintf("demo://notes/%d", id) }
