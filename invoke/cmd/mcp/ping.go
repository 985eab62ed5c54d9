package mcp

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
)

// maxPings bounds --count.
const maxPings = 100

// MCPPing is the data of `relavium mcp ping`.
type MCPPing struct {
	Servers []PingResult `json:"servers"`
}

// PingResult is one server's pings: each round-trip time in milliseconds
// (microsecond precision), their min/avg/max, or why a ping failed.
type PingResult struct {
	Server    string     `json:"server"`
	Transport string     `json:"transport"`
	Protocol  string     `json:"protocol,omitempty"`
	RTTMS     []float64  `json:"rtt_ms"`
	MinMS     float64    `json:"min_ms,omitempty"`
	AvgMS     float64    `json:"avg_ms,omitempty"`
	MaxMS     float64    `json:"max_ms,omitempty"`
	ErrorCode fault.Code `json:"error_code,omitempty"`
	Error     string     `json:"error,omitempty"`
}

// RunMCPPing is `relavium mcp ping`: connect every declared server (or
// SERVER, or one ad-hoc server) and ping it: round-trip times.
func RunMCPPing(ctx context.Context, inv *cli.Invocation) (any, error) {
	count := inv.Int("count")
	if count < 1 || count > maxPings {
		return nil, cli.UsageErr(cli.CodeBadFlag, "--count must be 1 to %d, got %d", maxPings, count)
	}
	if inv.Duration("timeout") <= 0 {
		return nil, cli.UsageErr(cli.CodeBadFlag, "--timeout must be positive")
	}
	servers, adhoc, err := Targets(inv)
	if err != nil {
		return nil, err
	}
	if len(inv.Args) > 0 {
		if adhoc {
			return nil, cli.UsageErr(cli.CodeBadTarget, "give SERVER or an ad-hoc --url/--stdio, not both")
		}
		if servers, err = onlyServer(servers, inv.Args[0]); err != nil {
			return nil, err
		}
	}
	out := &MCPPing{Servers: []PingResult{}}
	if len(servers) == 0 {
		return out, nil
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, cli.ConnectOptions{})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	failed := 0
	for _, st := range h.Servers() {
		r := pingServer(ctx, h, st, count, inv.Duration("timeout"))
		if r.ErrorCode != "" {
			failed++
		}
		out.Servers = append(out.Servers, r)
	}
	if failed > 0 {
		return nil, &fault.Error{ErrCode: cli.CodePingFailed, Msg: fmt.Sprintf("%d of %d servers did not answer every ping", failed, len(out.Servers)), Data: out}
	}
	return out, nil
}

// onlyServer is the declared server named name.
func onlyServer(servers []config.Server, name string) ([]config.Server, error) {
	var names []string
	for _, s := range servers {
		if s.Name == name {
			return []config.Server{s}, nil
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil, cli.UsageErr(cli.CodePingUnknown, "no server %q: no MCP server is declared", sanitize.Line(name))
	}
	return nil, cli.UsageErr(cli.CodePingUnknown, "no server %q is declared (declared: %s)", sanitize.Line(name), strings.Join(names, ", "))
}

// pingServer pings one connected server count times, one after another.
func pingServer(ctx context.Context, h *host.Host, st host.ServerStatus, count int, timeout time.Duration) PingResult {
	r := PingResult{Server: st.Name, Transport: st.Transport, Protocol: st.Protocol, RTTMS: []float64{}}
	var total time.Duration
	for i := 0; i < count; i++ {
		pctx, cancel := context.WithTimeout(ctx, timeout)
		rtt, err := h.Ping(pctx, st.Name)
		cancel()
		if err != nil {
			r.ErrorCode, r.Error = fault.CodeOf(err, cli.CodeInternal), sanitize.Line(fault.MessageOf(err))
			break
		}
		ms := float64(rtt.Microseconds()) / 1000
		r.RTTMS = append(r.RTTMS, ms)
		total += rtt
		if i == 0 || ms < r.MinMS {
			r.MinMS = ms
		}
		r.MaxMS = max(r.MaxMS, ms)
	}
	if n := len(r.RTTMS); n > 0 {
		r.AvgMS = float64((total / time.Duration(n)).Microseconds()) / 1000
	}
	return r
}

// WriteHuman prints one line a server: its round-trip times, or the failure.
func (p *MCPPing) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if len(p.Servers) == 0 {
		b.WriteString("no MCP server is declared (add [[mcp_servers]] to .relavium/config.toml)\n")
	}
	for _, r := range p.Servers {
		fmt.Fprintf(&b, "%s (%s", sanitize.Line(r.Server), r.Transport)
		if r.Protocol != "" {
			fmt.Fprintf(&b, ", %s", sanitize.Line(r.Protocol))
		}
		b.WriteString("):")
		for _, ms := range r.RTTMS {
			fmt.Fprintf(&b, " %.3f ms", ms)
		}
		if len(r.RTTMS) > 0 {
			fmt.Fprintf(&b, " · min/avg/max %.3f/%.3f/%.3f ms", r.MinMS, r.AvgMS, r.MaxMS)
		}
		if r.ErrorCode != "" {
			fmt.Fprintf(&b, " ✗ %s %s", r.ErrorCode, r.Error)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
