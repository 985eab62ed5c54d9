package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/atomicfile"

	"github.com/relavium/relavium/host"
)

// The fake backend's client requests: recorded, answered from fixed data.

func (f *fakeBackend) SetLogLevel(_ context.Context, server, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "level "+server+" "+level)
	return nil
}

func (f *fakeBackend) SubscribeResource(_ context.Context, server, uri string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "subscribe "+server+" "+uri)
	return nil
}

func (f *fakeBackend) UnsubscribeResource(_ context.Context, server, uri string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "unsubscribe "+server+" "+uri)
	return nil
}

// Complete offers languages for any argument, by prefix.
func (f *fakeBackend) Complete(_ context.Context, server string, ref host.CompletionRef, arg, value string, _ map[string]string) (*host.Completion, error) {
	f.mu.Lock()
	f.answers = append(f.answers, "complete "+server+" "+ref.Name+ref.URI+" "+arg+"="+value)
	f.mu.Unlock()
	out := &host.Completion{Values: []string{}}
	for _, v := range []string{"go", "golang", "python", "rust"} {
		if strings.HasPrefix(v, value) {
			out.Values = append(out.Values, v)
		}
	}
	return out, nil
}

// Save writes into the test's temp directory, as live does into the home.
func (f *fakeBackend) Save(job string, n int, mimeType string, data []byte) (string, error) {
	f.mu.Lock()
	if f.saveDir == "" {
		f.saveDir = f.t.TempDir()
	}
	dir := f.saveDir
	f.mu.Unlock()
	path := filepath.Join(dir, fmt.Sprintf("%s-%d%s", job, n, savedExt(mimeType)))
	return path, atomicfile.Write(path, data)
}
