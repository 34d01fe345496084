// A real in-process Pi session (faux provider, Pi's own `read` tool on a file in the session's
// directory) in which a file read long ago has folded, and the window only names it: one search for
// its path answers how long the file is and which innermost fold holds the read, and one search for a
// symbol's definition answers on which line of that file it sits. No peek. Checked on the text the
// tool returned and on what the provider was sent.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, type Harness, textOf, toolTexts } from "./harness.ts";

afterAll(cleanupTempDirs);

/** The id of the fold whose first leaf is the assistant message making `callId`. */
function foldOf(h: Harness, callId: string): string {
	const snap = h.runtime.snapshot(h.host());
	const entry = snap.view.transcript.find(
		(e) => e.message.role === "assistant" && JSON.stringify(e.message.content).includes(`"id":"${callId}"`),
	);
	const fold = [...snap.state.folds.values()].find((f) => f.leafIds[0] === entry?.id);
	if (!fold) throw new Error(`no fold starts at ${callId}`);
	return fold.id;
}

const PATH = "src/deep/widget_store.ts";
const LINES = 137;
const DEFINED_AT = 42;
const BODY = Array.from({ length: LINES }, (_, i) =>
	i + 1 === DEFINED_AT
		? "export function mountWidgetStore(root) {"
		: `// widget line ${i + 1}: filler the agent never needs`,
).join("\n");

describe("a recall of a folded file", () => {
	it("takes one search: the hit says the file's length and the innermost fold that holds its read", async () => {
		const h = await createHarness({
			tools: ["read", "probe", "active_context"],
			options: { readOnlyTools: new Set([...PROBE_READ_ONLY, "read"]), summarizer: "deterministic" },
		});
		const cwd = h.ctx().cwd;
		mkdirSync(join(cwd, "src/deep"), { recursive: true });
		writeFileSync(join(cwd, PATH), `${BODY}\n`);
		let windowBefore = "";
		h.script([
			fauxAssistantMessage([fauxToolCall("read", { path: PATH }, { id: "call_read" })], { stopReason: "toolUse" }),
			// Enough later work that the read is out of the fresh tail (the newest units stay raw).
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			// The agent folds the read, then a span holding that fold and the probes after it: the read's fold nests.
			callTool({ action: "fold", from: "call_read", to: "call_read", brief: "Looked at one file." }),
			() => callTool({ action: "fold", from: foldOf(h, "call_read"), to: "call_b", brief: "Early reading." }),
			(context) => {
				windowBefore = context.messages.map((m) => textOf(m as never)).join("\n");
				return callTool({ action: "search", pattern: PATH, limit: 10 });
			},
			callTool({ action: "search", pattern: "function\\s+mountWidgetStore", regex: true }),
			fauxAssistantMessage("done"),
		]);
		await h.run("go");
		// The window names the file (a placeholder's brief or names), but its text has left.
		expect(windowBefore).toContain(PATH);
		expect(windowBefore).not.toContain("widget line 100:");
		const [byPath, byDefinition] = toolTexts(h).slice(-2) as [string, string];
		const snap = h.runtime.snapshot(h.host());
		const readEntry = snap.view.transcript.find(
			(e) => e.message.role === "toolResult" && e.message.toolCallId === "call_read",
		)?.id as string;
		// One call answers the line count: the read's pointer states it, with the fold that holds the read.
		const pointer = new RegExp(
			`→ read ${PATH.replaceAll(".", "\\.")}: ${LINES} lines, result entry ${readEntry} in (f[0-9a-f]{16}) bytes \\d+-\\d+`,
		).exec(byPath);
		expect(pointer, byPath).not.toBeNull();
		const fold = pointer?.[1] as string;
		// That fold is the innermost one holding the read (the smallest of the folds whose leaves hold it), nested
		// inside another.
		const holding = [...snap.state.folds.values()].filter((f) => f.leafIds.includes(readEntry));
		const smallest = Math.min(...holding.map((f) => f.leafIds.length));
		expect(snap.state.folds.get(fold)?.leafIds.length).toBe(smallest);
		expect(holding.length).toBeGreaterThan(1);
		// One call answers the definition's line, and its hit names the same fold, the file and its length.
		expect(byDefinition).toMatch(
			new RegExp(
				`^1\\. ${fold} · depth [1-9] · entry ${readEntry} \\(read result of ${PATH.replaceAll(".", "\\.")}, ${LINES} lines\\) · byte \\d+ · line ${DEFINED_AT}$`,
				"m",
			),
		);
	});
});
