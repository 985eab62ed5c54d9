// A stdio MCP server built on the TypeScript SDK's low-level Server, in the
// shapes real servers take. Usage: node server.cjs SHAPE PEERS_DIR (the SDK
// is required from PEERS_DIR/node_modules, as installed by .ci/peers.sh):
//   resources-only  declares resources only and registers resources/list
//                   and resources/read, not resources/templates/list: the
//                   SDK answers that one -32601;
//   prompts-only    declares prompts only;
//   banner          declares tools and prints a console.log banner on
//                   stdout before and after connecting (as many servers do);
//   banner-exit     prints a banner line on stdout and exits 1.
const path = require("node:path");
const shape = process.argv[2] || "resources-only";
const peer = require("node:module").createRequire(path.join(path.resolve(process.argv[3] || "."), "node_modules", "x.js"));
const { Server } = peer("@modelcontextprotocol/sdk/server/index.js");
const { StdioServerTransport } = peer("@modelcontextprotocol/sdk/server/stdio.js");
const t = peer("@modelcontextprotocol/sdk/types.js");

if (shape === "banner-exit") {
	console.log("Starting shapes server (no config found)");
	process.exit(1);
}
const caps = {
	"resources-only": { resources: {} },
	"prompts-only": { prompts: {} },
	banner: { tools: {} },
}[shape];
const server = new Server({ name: "shapes-" + shape, version: "1.0.0" }, { capabilities: caps });
if (caps.resources) {
	server.setRequestHandler(t.ListResourcesRequestSchema, async () => ({
		resources: [{ uri: "note://one", name: "one", mimeType: "text/plain" }],
	}));
	server.setRequestHandler(t.ReadResourceRequestSchema, async (req) => ({
		contents: [{ uri: req.params.uri, mimeType: "text/plain", text: "the first note" }],
	}));
}
if (caps.prompts) {
	server.setRequestHandler(t.ListPromptsRequestSchema, async () => ({
		prompts: [{ name: "greet", description: "Greets someone", arguments: [{ name: "who", required: true }] }],
	}));
	server.setRequestHandler(t.GetPromptRequestSchema, async (req) => ({
		messages: [{ role: "user", content: { type: "text", text: "Hello, " + (req.params.arguments || {}).who } }],
	}));
}
if (caps.tools) {
	server.setRequestHandler(t.ListToolsRequestSchema, async () => ({
		tools: [{ name: "echo", description: "Echoes its text", inputSchema: { type: "object", properties: { text: { type: "string" } } } }],
	}));
	server.setRequestHandler(t.CallToolRequestSchema, async (req) => {
		console.log("handling a call"); // a stray line mid-session
		return { content: [{ type: "text", text: String((req.params.arguments || {}).text) }] };
	});
}
if (shape === "banner") console.log("Shapes MCP server v1.0.0 starting...");
server.connect(new StdioServerTransport()).then(() => {
	if (shape === "banner") console.log("Server running on stdio");
});
