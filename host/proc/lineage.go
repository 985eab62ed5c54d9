package proc

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// lineage remembers every process ever seen below one stdio server, so a
// process that left the server's process group (setsid) still dies with
// it. While the server lives, its tree is walked every lineageEvery; at
// teardown once more before and after the group is signalled. A process is
// named by its pid AND its start time, so a pid the kernel has reused for an
// unrelated process is never signalled or reaped.
//
// With relavium a child subreaper (BecomeSubreaper), a recorded process
// whose parent died is reparented to relavium instead of init: its parent
// chain stays visible (its own children are still found) and its pid
// cannot be reused until relavium reaps it. Only recorded processes are
// ever reaped here, one pid at a time (waitid on that pid): never a
// process some os/exec Wait is waiting for, which was never recorded below
// a server (the server itself is the root, waited for by its child).
//
// What stays uncovered: a process that leaves the tree between two walks
// (a double fork whose middle process exits within lineageEvery) is never
// recorded, so it survives teardown; on systems without /proc (or without
// the subreaper) nothing of this applies and a setsid escapee survives as
// before.
type lineage struct {
	root int
	self int // relavium's pid: the parent of reparented orphans

	mu   sync.Mutex
	seen map[int]uint64 // pid → start time; the root excluded

	stop chan struct{} // closed to end the walker
	done chan struct{} // closed when the walker ended
}

// lineageEvery is the walk interval while the server lives.
const lineageEvery = 50 * time.Millisecond

// newLineage starts walking root's tree until halt.
func newLineage(root int) *lineage {
	l := &lineage{root: root, self: os.Getpid(), seen: map[int]uint64{}, stop: make(chan struct{}), done: make(chan struct{})}
	if !procAvailable() {
		close(l.done)
		return l
	}
	go l.walker()
	return l
}

func (l *lineage) walker() {
	defer close(l.done)
	t := time.NewTicker(lineageEvery)
	defer t.Stop()
	for {
		l.Record()
		l.reap()
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
	}
}

// halt ends the periodic walk (teardown walks itself from then on).
func (l *lineage) halt() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	<-l.done
}

// Record walks the tree below the root and below every recorded process
// still alive (an orphan reparented to relavium keeps its children), and
// remembers every process found.
func (l *lineage) Record() {
	l.mu.Lock()
	defer l.mu.Unlock()
	queue := []int{l.root}
	for pid, start := range l.seen {
		if st, ok := ReadProcStat(pid); ok && st.Start == start {
			queue = append(queue, pid)
		}
	}
	visited := map[int]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if visited[p] {
			continue
		}
		visited[p] = true
		for _, c := range procChildren(p) {
			if c == l.root || c == l.self {
				continue
			}
			st, ok := ReadProcStat(c)
			if !ok || st.Ppid != p {
				continue // gone, or not p's child any more
			}
			if old, known := l.seen[c]; !known || old != st.Start {
				l.seen[c] = st.Start
			}
			queue = append(queue, c)
		}
	}
}

// alive lists the recorded processes still running (not zombies).
func (l *lineage) alive() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []int
	for pid, start := range l.seen {
		st, ok := ReadProcStat(pid)
		switch {
		case !ok || st.Start != start:
			delete(l.seen, pid) // gone, and reaped by someone
		case st.State != 'Z' && st.State != 'X':
			out = append(out, pid)
		}
	}
	return out
}

// ownZombies reports whether a recorded process is a zombie relavium has
// to reap (a zombie thread-group leader is waitable only once all its
// threads are gone: a moment after it shows as a zombie).
func (l *lineage) ownZombies() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for pid, start := range l.seen {
		if st, ok := ReadProcStat(pid); ok && st.Start == start && st.Ppid == l.self && (st.State == 'Z' || st.State == 'X') {
			return true
		}
	}
	return false
}

// signal sends sig to every recorded process still running.
func (l *lineage) signal(sig syscall.Signal) {
	l.mu.Lock()
	seen := make(map[int]uint64, len(l.seen))
	for pid, start := range l.seen {
		seen[pid] = start
	}
	l.mu.Unlock()
	for pid, start := range seen {
		signalExact(pid, start, sig)
	}
}

// reap collects every recorded process that is relavium's own zombie (an
// orphan the subreaper received, now dead). Reaped processes are
// forgotten.
func (l *lineage) reap() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for pid, start := range l.seen {
		st, ok := ReadProcStat(pid)
		if !ok || st.Start != start {
			delete(l.seen, pid)
			continue
		}
		if st.Ppid == l.self && (st.State == 'Z' || st.State == 'X') && reapExact(pid) {
			delete(l.seen, pid)
		}
	}
}

// procAvailable reports whether /proc describes processes here.
func procAvailable() bool {
	_, ok := ReadProcStat(os.Getpid())
	return ok
}

// procChildren lists pid's children: from /proc/<pid>/task/*/children
// where the kernel provides it, else from a walk of all of /proc.
func procChildren(pid int) []int {
	base := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(base)
	if err != nil {
		return nil // gone (reaped): no children
	}
	if len(tasks) > 0 {
		var out []int
		ok := true
		for _, t := range tasks {
			b, err := os.ReadFile(base + "/" + t.Name() + "/children")
			if err != nil {
				if os.IsNotExist(err) && t.Name() == strconv.Itoa(pid) {
					ok = false // no CONFIG_PROC_CHILDREN
					break
				}
				continue // the thread ended meanwhile
			}
			for _, f := range bytes.Fields(b) {
				if c, err := strconv.Atoi(string(f)); err == nil {
					out = append(out, c)
				}
			}
		}
		if ok {
			return out
		}
	}
	return childrenByScan(pid)
}

// childrenByScan finds pid's children in a walk of all of /proc.
func childrenByScan(pid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []int
	for _, n := range names {
		c, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if st, ok := ReadProcStat(c); ok && st.Ppid == pid {
			out = append(out, c)
		}
	}
	return out
}
