package demoserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The stdio task layer, spoken to line by line: capabilities.tasks in the
// initialize answer; a tools/call with "task" answered at once with the
// task; tasks/get until completed; tasks/result the tool's result;
// tasks/list; an unknown task refused; the session ends cleanly.
func TestStdioTasks(t *testing.T) {
	in, out, served := stdioPair(t, context.Background())
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(s string) {
		if _, err := fmt.Fprintln(out, s); err != nil {
			t.Fatal(err)
		}
	}
	// answer reads until the response to id (notifications in between are
	// skipped).
	answer := func(id string) map[string]any {
		t.Helper()
		for lines.Scan() {
			var m map[string]any
			if json.Unmarshal(lines.Bytes(), &m) == nil && fmt.Sprint(m["id"]) == id {
				return m
			}
		}
		t.Fatalf("no answer to %s: %v", id, lines.Err())
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	init := answer("1")
	caps := init["result"].(map[string]any)["capabilities"].(map[string]any)
	if tasks, ok := caps["tasks"].(map[string]any); !ok || tasks["requests"] == nil || tasks["list"] == nil {
		t.Fatalf("capabilities: %v", caps)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"as a task"},"task":{"ttl":60000}}}`)
	created := answer("2")["result"].(map[string]any)["task"].(map[string]any)
	id := created["taskId"].(string)
	if created["status"] != "working" || id == "" {
		t.Fatalf("created %v", created)
	}
	status := ""
	for n := 3; status != "completed"; n++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tasks/get","params":{"taskId":%q}}`, n, id))
		status, _ = answer(fmt.Sprint(n))["result"].(map[string]any)["status"].(string)
		if status != "working" && status != "completed" {
			t.Fatalf("status %q", status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":100,"method":"tasks/result","params":{"taskId":%q}}`, id))
	if res := answer("100"); !strings.Contains(fmt.Sprint(res["result"]), "as a task") {
		t.Fatalf("tasks/result %v", res)
	}
	send(`{"jsonrpc":"2.0","id":101,"method":"tasks/list","params":{}}`)
	if list := answer("101")["result"].(map[string]any)["tasks"].([]any); len(list) != 1 {
		t.Fatalf("tasks/list %v", list)
	}
	send(`{"jsonrpc":"2.0","id":102,"method":"tasks/cancel","params":{"taskId":"nope"}}`)
	if res := answer("102"); res["error"] == nil {
		t.Fatalf("cancel of an unknown task: %v", res)
	}
	_ = out.Close()
	if err := waitServed(t, served); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
}
