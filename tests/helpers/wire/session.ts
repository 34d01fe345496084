// Test helper: a real in-process Pi session with pi-fold loaded (tests/pi/harness.ts) whose model is
// served by pi-ai's REAL client for one API (anthropic-messages, openai-responses, or a custom
// openai-completions provider), configured through models.json with its `baseUrl` pointed at a
// local wire server (server.ts and one dialect module per API). The commit count on the branch is
// recorded at every agent request (a test-only `before_provider_request` listener registered after
// pi-fold's own), so checks know which requests lie between the same two commits.

import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { PiFoldOptions } from "../../../src/options/index.ts";
import { createHarness, type Harness } from "../../pi/harness.ts";
import { createProbeTool } from "../pi-session.ts";
import { anthropicDialect } from "./anthropic.ts";
import { chatDialect } from "./chat.ts";
import { responsesDialect } from "./responses.ts";
import { type Dialect, startWireServer, type WireRequest, type WireServer } from "./server.ts";

export type WireApi = Dialect["api"];

export interface WireSessionOptions {
	readonly api: WireApi;
	/** The model's context window (default 32,000). */
	readonly contextWindow?: number;
	/** The model's output cap (default 4,096). */
	readonly maxTokens?: number;
	/** Thinking on (Anthropic only: budget-based thinking at level "low"). */
	readonly thinking?: boolean;
	readonly options?: PiFoldOptions;
}

export interface WireSession {
	readonly h: Harness;
	readonly server: WireServer;
	readonly api: WireApi;
	readonly contextWindow: number;
	readonly maxTokens: number;
	/** Commits on the branch when each agent request left (index = agent request index). */
	readonly commitsAt: number[];
	/** Agent requests, each with the commit count it left under. */
	agent(): { request: WireRequest; commits: number }[];
	close(): Promise<void>;
}

/**
 * What the probe tool returns for `key`: source-like lines (about 3.7 characters per token, as code
 * with comments is): 170 lines (~7,400 tokens) for keys starting with "huge", 40 (~1,700) for
 * "big", 3 otherwise.
 */
export function codeText(key: string): string {
	const lines = key.startsWith("huge") ? 170 : key.startsWith("big") ? 40 : 3;
	const name = key.replace(/[^a-z0-9]/gi, "_");
	let out = `// probe ${key}\n`;
	for (let i = 0; i < lines; i++)
		out += `  // step ${i} of ${name}: read the configuration, then validate each field\n  const settings${i} = await readConfiguration(moduleName, { strict: true, index: ${i} });\n`;
	return out;
}

const MODEL_IDS: Record<WireApi, string> = {
	"anthropic-messages": "wire-claude",
	"openai-responses": "wire-gpt",
	"openai-completions": "wire-chat",
};

function dialectFor(api: WireApi): Dialect {
	const id = MODEL_IDS[api];
	return api === "anthropic-messages"
		? anthropicDialect(id)
		: api === "openai-responses"
			? responsesDialect(id)
			: chatDialect(id);
}

/** Commit records of pi-fold on the branch of `ctx`. */
export function commitCount(ctx: ExtensionContext): number {
	return ctx.sessionManager
		.getBranch()
		.filter((e) => e.type === "custom" && (e.data as { kind?: unknown } | undefined)?.kind === "commit").length;
}

export async function createWireSession(o: WireSessionOptions): Promise<WireSession> {
	const server = await startWireServer(dialectFor(o.api));
	const contextWindow = o.contextWindow ?? 32_000;
	const maxTokens = o.maxTokens ?? 4096;
	const id = MODEL_IDS[o.api];
	const commitsAt: number[] = [];
	const h = await createHarness({
		options: { summarizer: "deterministic", readOnlyTools: new Set(["probe"]), ...o.options },
		probe: createProbeTool(codeText),
		provider: {
			name: `wire-${o.api}`,
			modelId: id,
			...(o.thinking ? { thinkingLevel: "low" as const } : {}),
			config: {
				baseUrl: o.api === "anthropic-messages" ? server.origin : `${server.origin}/v1`,
				api: o.api,
				apiKey: "test-key",
				models: [
					{
						id,
						name: id,
						reasoning: o.thinking === true,
						input: ["text"],
						contextWindow,
						maxTokens,
						cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
					},
				],
			},
		},
		setup: (pi) =>
			pi.on("before_provider_request", (_event, ctx) => {
				commitsAt.push(commitCount(ctx));
				return undefined;
			}),
	});
	return {
		h,
		server,
		api: o.api,
		contextWindow,
		maxTokens,
		commitsAt,
		agent: () => server.agentRequests().map((request, i) => ({ request, commits: commitsAt[i] ?? -1 })),
		close: () => server.close(),
	};
}
