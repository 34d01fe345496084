// The tool's surface as a model meets it: Pi validates calls against the generated schema, a
// malformed call gets an error naming the field and showing the valid shape and changes nothing;
// 50 parallel decisions in one assistant message leave a consistent hash chain; refusals for the
// fresh tail, protected entries and an incomplete tool batch name the entry; the human commands
// record decisions the next boundary commits and print out of band.

import { join } from "node:path";
import type { ToolResultMessage } from "@earendil-works/pi-ai";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadChainKey } from "../../src/runtime/index.ts";
import { emptyState, replay } from "../../src/state/index.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	resultEntryId,
	say,
	tempDir,
	textOf,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

function decisions(h: Harness) {
	return h.session.sessionManager
		.getBranch()
		.filter((e) => e.type === "custom" && e.customType === "pi-fold-active-context:decision")
		.map((e) => ({ entryId: e.id, data: (e as { data?: unknown }).data }));
}

function toolResults(h: Harness): ToolResultMessage[] {
	return h.session.sessionManager
		.getBranch()
		.flatMap((e) =>
			e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "active_context"
				? [e.message as ToolResultMessage]
				: [],
		);
}

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];

describe("a malformed call", () => {
	it("gets an error naming the field and the valid shape, and changes nothing", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool(
				{ action: "explode" },
				{ action: "expand" },
				{ action: "peek", id: "f0123456789abcdef", bytes: "lots" },
				{ action: "fold", from: "call_a", to: "call_a", brief: "ls" },
				{ action: "protect" },
				{ action: "reboundary", op: "merge", ids: ["f0123456789abcdef"] },
			),
			say("done"),
		]);
		await h.run("go");
		const results = toolResults(h);
		expect(results.every((r) => r.isError)).toBe(true);
		const [unknown, missing, wrongType, structural, neither, merge] = results.map((r) => textOf(r));
		// Schema-level problems are caught by Pi's validator against the generated JSON Schema.
		expect(unknown).toMatch(/Validation failed for tool "active_context"[\s\S]*- action:/);
		expect(wrongType).toMatch(/Validation failed[\s\S]*- bytes:/);
		// Per-action rules come from the same zod schema, with the action's valid shape.
		expect(missing).toContain("id:");
		expect(missing).toContain('Valid shape: {"action":"expand","id":<string>}');
		expect(structural).toMatch(/^fold refused: brief "ls" only names structure/);
		expect(neither).toMatch(/ids\/id: give exactly one/);
		expect(merge).toMatch(/ids: merge takes 2 or more/);
		expect(decisions(h)).toEqual([]);
		expect(h.runtime.telemetry.view().counters.rewrites).toBe(0);
	});
});

describe("50 parallel tool calls in one assistant message", () => {
	it("leave an intact hash chain and lose no decision", async () => {
		const h = await createHarness();
		const batches = Array.from({ length: 40 }, (_, i) => `k${i}`);
		h.script([
			...batches.map((k) => callProbes(k)),
			() =>
				callTool(
					...batches.slice(0, 25).map((k) => ({ action: "fold", from: `call_${k}`, to: `call_${k}` })),
					...batches.slice(25, 34).map((k) => ({ action: "protect", ids: [resultEntryId(h, `call_${k}`)] })),
					...batches.slice(0, 16).map((k) => ({ action: "fold", from: `call_${k}`, to: `call_${k}` })),
				),
			say("done"),
		]);
		await h.run("go");
		const records = decisions(h);
		const state = replay(records, emptyState(), loadChainKey(process.env.PI_CODING_AGENT_DIR).key);
		expect(state.refusals).toEqual([]);
		expect(state.folds.size).toBe(25);
		expect(state.protectedEntries.size).toBe(9);
		// 25 folds + 9 protections + the one commit that landed them all; repeats recorded nothing.
		expect(records).toHaveLength(35);
		expect(state.commitSeq).toBe(1);
		const texts = toolTexts(h);
		expect(texts.filter((t) => t.startsWith("Folded "))).toHaveLength(25);
		expect(texts.filter((t) => t.startsWith("Already folded"))).toHaveLength(16);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});

describe("a refused fold", () => {
	it("names the entry in the fresh tail and the protected entry", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			() => callTool({ action: "protect", ids: [resultEntryId(h, "call_b")] }),
			callTool({ action: "fold", from: "call_f", to: "call_f" }, { action: "fold", from: "call_a", to: "call_c" }),
			callTool({ action: "status", detail: "entries" }),
			say("done"),
		]);
		await h.run("go");
		const [, fresh, prot, entries] = toolTexts(h);
		// status "entries" shows the ids an agent names spans with, and what may not fold.
		expect(entries).toMatch(/\nuser · \S+ · [\d,]+ chars · running turn · go\n/);
		expect(entries).toMatch(/\ntoolBatch · \S+\.\.\S+ · [\d,]+ chars · probe\n/);
		expect(entries).toMatch(/· fresh tail · active_context/);
		expect(fresh).toMatch(/^fold refused: entry \S+ is in the fresh tail/);
		expect(prot).toBe(`fold refused: entry ${resultEntryId(h, "call_b")} is protected (unprotect it first)`);
		expect(h.runtime.snapshot(h.host()).state.folds.size).toBe(0);
	});

	it("names the tool call of an incomplete batch", async () => {
		const dir = tempDir();
		const sm = SessionManager.create(join(dir, "cwd"), join(dir, "sessions"));
		sm.appendMessage({ role: "user", content: "start", timestamp: 1 });
		const broken = fauxAssistantMessage(
			[fauxToolCall("probe", { key: "x" }, { id: "call_x" }), fauxToolCall("probe", { key: "y" }, { id: "call_y" })],
			{
				stopReason: "toolUse",
			},
		);
		const brokenId = sm.appendMessage(broken);
		sm.appendMessage({
			role: "toolResult",
			toolCallId: "call_x",
			toolName: "probe",
			content: [{ type: "text", text: "x" }],
			isError: false,
			timestamp: 2,
		});
		for (let i = 0; i < 8; i++) {
			sm.appendMessage({ role: "user", content: `more ${i}`, timestamp: 3 + i });
			sm.appendMessage(fauxAssistantMessage(`ok ${i}`));
		}
		const file = sm.getSessionFile() as string;
		const h = await createHarness({ openFile: file, sessionDir: join(dir, "sessions") });
		h.script([callTool({ action: "fold", from: brokenId, to: brokenId }), say("done")]);
		await h.run("go");
		expect(toolTexts(h)[0]).toBe(
			`fold refused: entry ${brokenId} starts a tool batch whose results are not all in yet (incomplete batch)`,
		);
	});
});

describe("the human commands", () => {
	it("record decisions the next boundary commits, and print out of band", async () => {
		const h = await createHarness();
		h.script([...KEYS.map((k) => callProbes(k)), say("done")]);
		await h.run("go");
		const out: string[] = [];
		const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
			out.push(String(chunk));
			return true;
		});
		try {
			await h.session.prompt("/fold-context fold call_a call_b The first two probes returned filler text");
			await h.session.prompt("/context tree");
		} finally {
			spy.mockRestore();
		}
		expect(out[0]).toMatch(/^Folded f[0-9a-f]{16} .*the model sees it after the agent's next turn/);
		expect(out[1]).toMatch(/^Context window: [\d.]+% used/);
		expect(out[1]).toContain("Folds: 1 in the window");
		expect(out[1]).toContain("Every fold, nested, oldest first:");
		// The next boundary (the end of the next turn) commits it: the next prompt's first request is
		// still a pure append, the one after it carries the brief.
		h.script([callProbes("h"), say("noted")]);
		await h.run("next");
		const [first, second] = h.requests.slice(-2);
		expect(JSON.stringify(first?.messages)).not.toContain("The first two probes returned filler text");
		expect(JSON.stringify(second?.messages)).toContain("The first two probes returned filler text");
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});
