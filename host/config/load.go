package config

// Load reads and validates <home>/config.toml and
// <project>/.relavium/config.toml. STUB: the foundation issue owns it.
func Load(home, project string) (*Config, error) {
	return &Config{Home: home, Project: project}, nil
}
