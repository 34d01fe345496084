// Test helper for the turn_end forecast (src/pi turn-end-forecast.ts): plays a generated session
// shape (tests/simulate/shapes.ts) on a real in-process Pi session (faux provider, pi-fold registered
// as the package does), with or without the audit seam, and gives back what the provider was sent
// (each request's roles), the audit's entries and the commits on the branch.

import { type AssistantMessage, fauxAssistantMessage } from "@earendil-works/pi-ai";
import type { ToolDefinition } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { BoundaryAuditEntry } from "../../src/pi/index.ts";
import { contentText } from "../../src/transcript/index.ts";
import { compactionOf, type Mode, messagesOf, modelOf, type Shape } from "../simulate/shapes.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { createHarness, type RecordedRequest } from "./harness.ts";

/** What one play of a session gave: the provider's requests (their shapes), the audit's entries, the commits. */
export interface Played {
	readonly requests: string[];
	readonly audit: BoundaryAuditEntry[];
	readonly commits: number;
}

/** A request as its messages' roles, in order: a skipped boundary that should have committed changes it. */
function requestShape(request: RecordedRequest): string {
	return request.messages.map((m) => m.role).join(" ");
}

/** The read-only tool the shapes call (`probe`), answering each call with its generated result. */
export function probeFor(results: ReadonlyMap<string, string>): ToolDefinition {
	return {
		name: "probe",
		label: "Probe",
		description: "Reads a file.",
		parameters: Type.Object({ path: Type.String() }),
		async execute(id) {
			return { content: [{ type: "text", text: results.get(id) ?? `no result for ${id}` }], details: undefined };
		},
	};
}

/** Plays a generated shape: its prompts, each with the assistant replies the shape scripted. */
export async function playShape(shape: Shape, mode: Mode, audit: boolean): Promise<Played> {
	const runs: { prompt: string; replies: AssistantMessage[] }[] = [];
	const results = new Map<string, string>();
	for (const { message } of messagesOf(shape, { read: "probe", write: "probe" })) {
		if (message.role === "user") runs.push({ prompt: String(message.content), replies: [] });
		else if (message.role === "toolResult") results.set(String(message.toolCallId), contentText(message.content));
		else if (message.role === "assistant")
			runs.at(-1)?.replies.push(
				fauxAssistantMessage(message.content as AssistantMessage["content"], {
					stopReason: message.stopReason as "stop",
				}),
			);
	}
	const entries: BoundaryAuditEntry[] = [];
	const h = await createHarness({
		...modelOf(shape),
		probe: probeFor(results),
		compaction: compactionOf(shape),
		options: { foldScheduling: mode, readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		extras: audit ? { boundaryAudit: (entry) => entries.push(entry) } : {},
	});
	for (const run of runs) {
		h.script([...run.replies]);
		await h.run(run.prompt);
	}
	return played(h, entries);
}

export function played(h: Awaited<ReturnType<typeof createHarness>>, audit: BoundaryAuditEntry[]): Played {
	const commits = h.session.sessionManager
		.getBranch()
		.filter(
			(e) =>
				e.type === "custom" &&
				e.customType === h.runtime.names.decisionEntryType &&
				(e.data as { kind?: string }).kind === "commit",
		).length;
	return { requests: h.requests.map(requestShape), audit, commits };
}
