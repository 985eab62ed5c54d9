package invoke

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// mcpProc is one row of the process table (/proc/<pid>/stat).
type mcpProc struct {
	pid, ppid int
	state     string
}

func mcpProcTable() []mcpProc {
	entries, _ := os.ReadDir("/proc")
	var out []mcpProc
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b) // pid (comm) state ppid …; comm may hold ')'
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		out = append(out, mcpProc{pid: pid, ppid: ppid, state: f[0]})
	}
	return out
}

// mcpDescendants lists every live process below root.
func mcpDescendants(root int) []int {
	children := map[int][]int{}
	for _, p := range mcpProcTable() {
		if p.state != "Z" && p.state != "X" {
			children[p.ppid] = append(children[p.ppid], p.pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		out = append(out, children[p]...)
		queue = append(queue, children[p]...)
	}
	return out
}

// mcpProcAlive reports whether pid is a live (not zombie) process.
func mcpProcAlive(pid int) bool {
	for _, p := range mcpProcTable() {
		if p.pid == pid {
			return p.state != "Z" && p.state != "X"
		}
	}
	return false
}
