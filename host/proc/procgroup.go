package proc

import (
	"bytes"
	"os"
	"strconv"
)

// groupAlive reports whether any process of process group pgid is alive.
// kill(-pgid, 0) answers "does the group exist"; a group of zombies still
// exists until their parent reaps them, so where /proc is available a group
// whose every member is a zombie counts as gone (its members are dead).
func groupAlive(pgid int) bool {
	if !groupExists(pgid) {
		return false
	}
	live, ok := LiveGroupMembers(pgid)
	if !ok {
		return true // no /proc: trust kill
	}
	return len(live) > 0
}

// LiveGroupMembers lists the non-zombie processes whose process group is
// pgid, from /proc. ok is false when /proc cannot be read.
func LiveGroupMembers(pgid int) (pids []int, ok bool) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, false
	}
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		st, ok := ReadProcStat(pid)
		if ok && st.Pgrp == pgid && st.State != 'Z' && st.State != 'X' {
			pids = append(pids, pid)
		}
	}
	return pids, true
}

// ProcStat is what relavium reads of /proc/<pid>/stat.
type ProcStat struct {
	State byte
	Ppid  int
	Pgrp  int
	Start uint64 // start time since boot, in clock ticks: with the pid, names one process
}

// ReadProcStat parses /proc/<pid>/stat: "pid (comm) state ppid pgrp …
// starttime …" (starttime is field 22);
// comm may hold spaces and parentheses, so fields start after the LAST ')'.
func ReadProcStat(pid int) (ProcStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ProcStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return ProcStat{}, false
	}
	f := bytes.Fields(b[i+2:])
	if len(f) < 20 || len(f[0]) != 1 {
		return ProcStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return ProcStat{}, false
	}
	return ProcStat{State: f[0][0], Ppid: ppid, Pgrp: pgrp, Start: start}, true
}
