package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/asker"

	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fields/fieldstest"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/form"
	"github.com/relavium/relavium/tui/keymap"
)

// admitCase admits the case's tool as discovery admits a server's tool.
func admitCase(t *testing.T, prop string) engine.ToolDef {
	t.Helper()
	cat, err := discovery.Discover(context.Background(), "srv", fieldstest.Lister(prop), discovery.Options{})
	if err != nil || len(cat.Tools) != 1 {
		t.Fatalf("admit %s: %v %+v", prop, err, cat)
	}
	discovery.Namespace([]*discovery.Catalogue{cat})
	return cat.Tools[0].Def
}

// The call form types every case of the agreement table as the other
// surfaces do (invoke and engine run the same table): the form built for
// the admitted tool, the text typed into its field, the arguments object
// the form submits holds Want exactly, or the field says why not.
func TestCallFormAgreesWithEverySurface(t *testing.T) {
	st := testStyles(termenv.Ascii, themes.Mono)
	for _, c := range fieldstest.Cases {
		t.Run(c.Name, func(t *testing.T) {
			def := admitCase(t, c.Prop)
			specs, err := def.InputFields()
			if err != nil {
				t.Fatal(err)
			}
			f := form.New(st, specs, nil)
			fld := f.Field("v")
			if fld == nil {
				t.Fatalf("no field v in %+v", specs)
			}
			if fld.Kind == form.KindPicker { // an enum or a boolean: choose the option the text names
				pickOption(t, fld, c)
				return
			}
			fld.Input.SetValue(c.Text)
			args, ok := f.Args()
			if c.Err != "" {
				if ok || !strings.Contains(fld.Err, c.Err) {
					t.Fatalf("v=%q: %s, field error %q; want %q", c.Text, args, fld.Err, c.Err)
				}
				return
			}
			var obj map[string]json.RawMessage
			if !ok || json.Unmarshal(args, &obj) != nil || !fieldstest.SameJSON(obj["v"], c.Want) {
				t.Fatalf("v=%q: %s (ok %v, %q); want v %s", c.Text, args, ok, fld.Err, c.Want)
			}
		})
	}
}

// pickOption is an enum or boolean case on the form: the picker offers the member the
// text names, and choosing it submits Want.
func pickOption(t *testing.T, fld *form.Field, c fieldstest.Case) {
	t.Helper()
	for i, o := range fld.Opts {
		if i == 0 {
			continue
		}
		b, _ := json.Marshal(o)
		if fieldstest.SameJSON(b, c.Want) {
			fld.Choice = i
			v, present, err := fld.Value()
			got, _ := json.Marshal(v)
			if err != nil || !present || !fieldstest.SameJSON(got, c.Want) {
				t.Fatalf("picked %s: %v %v", got, present, err)
			}
			return
		}
	}
	t.Fatalf("the picker does not offer %s: %v", c.Want, fld.Opts)
}

// An elicitation form types the cases an elicitation may ask for (flat
// primitives) as every surface does; the answer's content holds the value
// (integers exact, as int64).
func TestElicitationFormAgreesWithEverySurface(t *testing.T) {
	st := testStyles(termenv.Ascii, themes.Mono)
	n := 0
	for _, c := range fieldstest.Cases {
		if !c.Elicit {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			r := &asker.Request{Ctx: context.Background(), Elicit: &engine.ElicitRequest{Server: "srv", Message: "?", Schema: fieldstest.Schema(c.Prop)}}
			d := newElicitDialog(st, keymap.New().RawJSON, r)
			fld := d.Form.Field("v")
			if d.Err != "" || fld == nil {
				t.Fatalf("dialog: %q", d.Err)
			}
			fld.Input.SetValue(c.Text)
			a, _ := d.Handle(keyMsg("ctrl+s"))
			act, ok := a.(elicitAction)
			if c.Err != "" {
				if ok || !strings.Contains(fld.Err, c.Err) {
					t.Fatalf("v=%q: %+v, field error %q; want %q", c.Text, a, fld.Err, c.Err)
				}
				return
			}
			if !ok || act.resp.Action != "accept" || !fieldstest.SameValue(act.resp.Content["v"], c.Want) {
				t.Fatalf("v=%q: %+v (form error %q, field %q); want %s", c.Text, a, d.Form.Err, fld.Err, c.Want)
			}
		})
	}
	if n < 5 {
		t.Fatalf("only %d cases are elicitation fields", n)
	}
}

// Through the workbench: enter on an admitted tool opens its form from the
// fields discovery read, the text typed into v is typed by the one rule,
// and ctrl+s sends exactly that (a ["string","null"] field sends 3 as "3"
// and null as null, as mcp call does).
func TestWorkbenchCallSendsTheTypedValue(t *testing.T) {
	for _, tc := range []struct{ text, want string }{{"3", `{"v":"3"}`}, {"null", `{"v":null}`}} {
		f := newFake(t)
		f.addStdio("srv", "typed-server")
		f.autoApprove["srv"] = []string{"t"}
		f.setTools("srv", []engine.ToolDef{admitCase(t, `{"type":["string","null"]}`)}, nil)
		h := newHarness(t, f, 120, 30)
		h.until("the consent dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Consent); return ok })
		h.key("o")
		h.until("srv ready", func() bool { return h.m.server("srv").state == engine.StateReady && len(h.m.browse.tools) == 1 })
		h.key("tab", "enter")
		if h.m.call.form == nil || h.m.call.form.Field("v") == nil {
			t.Fatal("enter on the tool opened no form with field v")
		}
		h.typeText(tc.text)
		h.key("ctrl+s")
		h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
		if got := string(h.m.call.shownJob().args); got != tc.want {
			t.Fatalf("typed %q, sent %s; want %s", tc.text, got, tc.want)
		}
	}
}
