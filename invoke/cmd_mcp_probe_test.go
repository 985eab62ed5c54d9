package invoke

// The process table itself is runProcs (cmd_run_probes_test.go).

// mcpDescendants lists every live process below root.
func mcpDescendants(root int) []int {
	children := map[int][]int{}
	for _, p := range runProcs() {
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
	for _, p := range runProcs() {
		if p.pid == pid {
			return p.state != "Z" && p.state != "X"
		}
	}
	return false
}
