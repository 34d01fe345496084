// Test harness for host-behaviour probes: a real in-process Pi AgentSession driven by the faux provider.
// Every provider request is recorded (a deep copy of the transcript the provider received, plus the usage
// the faux provider's positional prefix cache reported for it), so tests can compare requests message by
// message. Boundary hooks forward to mutable callbacks so each test scripts its own commit behaviour.
// No part of Pi is mocked. The session itself (provider, settings, loader, session manager, request
// recording, script/run, temp dirs) is built by tests/helpers/pi-session.ts; this file owns the hook
// slots, the turn records and the probe sizes.

import type { Message } from "@earendil-works/pi-ai";
import type {
	AgentBeforeSettleEvent,
	BoundaryResult,
	ExtensionAPI,
	ExtensionContext,
	ToolDefinition,
	TurnEndEvent,
} from "@earendil-works/pi-coding-agent";
import {
	classifyMessages,
	createPiSession,
	createProbeTool,
	type PiSession,
	type PiSessionSettings,
	probeText,
	type RecordedRequest,
	type RequestRelation,
	tempDir as sharedTempDir,
} from "../helpers/pi-session.ts";

export {
	callProbes,
	cleanupTempDirs,
	messageBytes,
	pairingProblems,
	type RecordedRequest,
	type RequestRelation,
	say,
	textOf,
} from "../helpers/pi-session.ts";

type Handler<E> = (event: E, ctx: ExtensionContext) => BoundaryResult | undefined | Promise<BoundaryResult | undefined>;

/** Mutable hook slots the test extension forwards to. */
export interface HookSlots {
	turnEnd?: Handler<TurnEndEvent>;
	beforeSettle?: Handler<AgentBeforeSettleEvent>;
	/** Extra registration (tools, other events) run once at extension load. */
	setup?: (pi: ExtensionAPI) => void;
}

export interface HarnessOptions extends PiSessionSettings {
	hooks?: HookSlots;
	/** Extra tool names to allow (tools registered by `hooks.setup`); `probe` is always allowed. */
	extraTools?: string[];
}

/** What the harness saw at one `turn_end` (before any test hook ran). */
export interface TurnRecord {
	turnIndex: number;
	messageEntryId: string;
	toolResultEntryIds: string[];
	/** `event.context.llmMessages` as the first handler saw it. */
	preview: Message[];
}

export interface Harness extends Omit<PiSession, "errors"> {
	turns: TurnRecord[];
	hooks: HookSlots;
	dispose(): void;
}

/** Content text of a probe tool result: ~540 chars, or ~5,400 for keys starting with "big". */
export function probeResultText(key: string): string {
	return probeText(key, key.startsWith("big") ? 200 : 20);
}

/** A deterministic custom tool: its result depends only on its argument. */
export const probeTool: ToolDefinition = createProbeTool(probeResultText);

export function tempDir(prefix = "pi-fold-host-"): string {
	return sharedTempDir(prefix);
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
	const hooks: HookSlots = options.hooks ?? {};
	const turns: TurnRecord[] = [];
	const { errors: _errors, ...pi } = await createPiSession(options, {
		tempPrefix: "pi-fold-host-",
		customTools: [probeTool],
		tools: ["probe", ...(options.extraTools ?? [])],
		extension: (api, see) => {
			api.on("turn_end", async (event, ctx) => {
				see(ctx);
				turns.push({
					turnIndex: event.turnIndex,
					messageEntryId: event.messageEntryId,
					toolResultEntryIds: [...event.toolResultEntryIds],
					preview: structuredClone(event.context.llmMessages),
				});
				return hooks.turnEnd?.(event, ctx);
			});
			api.on("agent_before_settle", async (event, ctx) => {
				see(ctx);
				return hooks.beforeSettle?.(event, ctx);
			});
			api.on("session_start", async (_event, ctx) => {
				see(ctx);
			});
			hooks.setup?.(api);
		},
	});
	return {
		...pi,
		turns,
		hooks,
		dispose() {
			pi.session.dispose();
		},
	};
}

/** Classify `next` against `previous` by per-message byte comparison. */
export function relation(previous: RecordedRequest, next: RecordedRequest): RequestRelation {
	return classifyMessages(previous.messages, next.messages);
}

/** Roles of a request's messages, for readable assertions. */
export function roles(request: RecordedRequest): string[] {
	return request.messages.map((message) => message.role);
}
