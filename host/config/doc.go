// Package config loads and validates what a person authors: the global
// (<home>/config.toml) and project (<project>/.relavium/config.toml)
// [[mcp_servers]] registrations and the agents under .relavium/agents/.
//
// Every authored rule of spec/mcp-integration.md "McpServerRef shape" and
// "Security" is checked here, before anything is spawned or dialled; each
// refusal is a Problem naming file:line:column and the field, and Load
// reports ALL problems of all files at once (exit 2).
package config
