package themes

// Choice is the theme in effect and why.
type Choice struct {
	Name   string `json:"name"`
	Source string `json:"source"` // --theme, RELAVIUM_THEME, config, NO_COLOR, default
}

// Choose applies the precedence: the --theme flag, then RELAVIUM_THEME,
// then `theme` in config.toml, then NO_COLOR (present and non-empty, per
// no-color.org: an explicit choice above still wins), then auto. Empty
// values do not count. An unknown name is a *Error naming its source.
func Choose(flag, env, config, noColor string) (Choice, error) {
	for _, c := range []Choice{{flag, "--theme"}, {env, "RELAVIUM_THEME"}, {config, "config"}} {
		if c.Name == "" {
			continue
		}
		if _, ok := ByName(c.Name); !ok {
			return Choice{}, unknownTheme(c.Name, c.Source)
		}
		return c, nil
	}
	if noColor != "" {
		return Choice{Name: Mono, Source: "NO_COLOR"}, nil
	}
	return Choice{Name: Auto, Source: "default"}, nil
}
