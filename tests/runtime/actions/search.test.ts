// The search action over a simulated session (no Pi): matches come back with their fold, depth,
// entry, byte offset and a peek call that lands on them, in the innermost fold even when a
// consolidation holds it, each entry once; a source that fails verification shows none of its bytes
// and its nested folds are searched instead; pages are bounded; nothing is recorded and the window
// does not move. The worker-thread path is covered with the on-disk store.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../../src/options/index.ts";
import { callTool, FoldRuntime, parseToolArgs, toolParameters } from "../../../src/runtime/index.ts";
import { SimSession } from "../../../src/simulate/index.ts";
import { readBatch, reply, user } from "../../helpers/entries.ts";
import { simFixture } from "./sim-helpers.ts";

interface Hit {
	fold: string;
	depth: number;
	entry: string;
	offset: number;
	line: number | null;
}

const fileA = '// src/a.ts\nexport const alpha = 1;\nfunction Needle() { return "quoted"; }\n';
const fileC = "line one\nline two NEEDLE three\n";

async function twoFolds() {
	const f = simFixture();
	f.append([user("u1", "first task"), ...readBatch("b1", ["src/a.ts"], () => fileA), reply("a1", "done with a")]);
	f.append([user("u2", "second task"), ...readBatch("b2", ["src/c.ts"], () => fileC), reply("a2", "done with c")]);
	f.pad();
	const first = await f.fold("u1", "a1", "Looked at a.ts: it exports alpha.");
	const second = await f.fold("u2", "a2", "Looked at c.ts: two lines of text.");
	return { f, first, second };
}

describe("search", () => {
	it("finds every match with its fold, depth, entry, line and a peek call that lands on it", async () => {
		const { f, first, second } = await twoFolds();
		const result = await f.call({ action: "search", pattern: "needle" });
		expect(result.isError).toBeUndefined();
		const hits = result.details.hits as Hit[];
		expect(hits.map((h) => [h.fold, h.depth, h.entry, h.line])).toEqual([
			[first, 0, "b1-r0", 3],
			[second, 0, "b2-r0", 2],
		]);
		expect(result.text).toContain("(read result of src/a.ts, 3 lines)");
		expect(result.text).toContain("«Needle»");
		for (const h of hits) {
			const peek = await f.call({ action: "peek", id: h.fold, offset: h.offset, bytes: 6 });
			expect(peek.text.split("\n")[1]?.toLowerCase()).toBe("needle");
		}
		const call = /peek: (\{.*\})/.exec(result.text)?.[1] as string;
		const ready = await f.call(JSON.parse(call));
		expect(ready.isError).toBeUndefined();
		expect(ready.text).toContain("Needle()");
	});

	it("reports a match inside a consolidation in its innermost fold, once, at that fold's own offset", async () => {
		const { f, first, second } = await twoFolds();
		const outer = await f.fold(first, second, "Both reads: a.ts exports alpha, c.ts is two lines.");
		const result = await f.call({ action: "search", pattern: "needle" });
		const hits = result.details.hits as Hit[];
		expect(result.details.sources).toBe(1); // the consolidation's source holds both
		expect(hits.map((h) => [h.fold, h.depth])).toEqual([
			[first, 1],
			[second, 1],
		]);
		for (const h of hits) {
			const peek = await f.call({ action: "peek", id: h.fold, offset: h.offset, bytes: 6 });
			expect(peek.text.split("\n")[1]?.toLowerCase()).toBe("needle");
		}
		const scoped = await f.call({ action: "search", pattern: "needle", fold: second });
		expect((scoped.details.hits as Hit[]).map((h) => h.fold)).toEqual([second]);
		expect(outer).toMatch(/^f[0-9a-f]{16}$/);
	});

	it("points from a read call to its result's exact range, one peek away, and says how long the file is", async () => {
		const { f } = await twoFolds();
		const result = await f.call({ action: "search", pattern: "src/c.ts", limit: 10 });
		const pointer = /→ read src\/c\.ts: 2 lines, result entry b2-r0 in \S+ bytes \d+-\d+: (\{.*\})/.exec(result.text);
		expect(pointer).not.toBeNull();
		const peek = await f.call(JSON.parse(pointer?.[1] as string));
		const line = peek.text.split("\n")[1] as string;
		expect(JSON.parse(line)).toMatchObject({ id: "b2-r0", message: { role: "toolResult" } });
		expect(JSON.parse(line).message.content[0].text).toBe(fileC);
	});

	it("records nothing and leaves the window as it was", async () => {
		const { f } = await twoFolds();
		const records = f.host.branchRecords().length;
		const entries = f.session.entries.length;
		const window = JSON.stringify(f.session.llmMessages());
		await f.call({ action: "search", pattern: "needle" });
		await f.call({ action: "search", pattern: "line (one|two)", regex: true });
		expect(f.host.branchRecords().length).toBe(records);
		expect(f.session.entries.length).toBe(entries);
		expect(JSON.stringify(f.session.llmMessages())).toBe(window);
		expect(await f.runtime.boundary(f.host, "turn_end")).toBeUndefined();
	});

	it("names a source that fails verification, shows none of its bytes, and searches its nested folds", async () => {
		const { f, first, second } = await twoFolds();
		const outer = await f.fold(first, second, "Both reads: a.ts exports alpha, c.ts is two lines.");
		const sha = f.runtime.snapshot(f.host).lattice.get(outer)?.record.sourceSha256 as string;
		f.store.tamper(sha, '{"id":"x","message":{"role":"user","content":"needle FORGED-BYTES"}}\n');
		const result = await f.call({ action: "search", pattern: "needle" });
		expect(result.text).toContain(`Not shown: fold ${outer} failed verification`);
		expect(result.text).toContain(`searched the folds nested in it instead: ${first}, ${second}`);
		expect(result.text).not.toContain("FORGED");
		expect((result.details.hits as Hit[]).map((h) => h.fold)).toEqual([first, second]);
	});

	it("pages: limit matches a page (5 by default), a call for the next page, at most 4,000 characters", async () => {
		const f = simFixture();
		const long = Array.from({ length: 30 }, (_, i) => `${"x".repeat(300)} needle ${i} ${"y".repeat(300)}`).join("\n");
		f.append([user("u1", "read it"), ...readBatch("b1", ["src/long.ts"], () => long), reply("a1", "done")]);
		f.pad();
		await f.fold("u1", "a1", "Looked at long.ts: thirty marked lines.");
		expect((await f.call({ action: "search", pattern: "needle" })).details).toMatchObject({ total: 30, pages: 6 });
		const first = await f.call({ action: "search", pattern: "needle", limit: 10 });
		expect(first.details).toMatchObject({ total: 30, page: 1, pages: 3 });
		expect(first.text.length).toBeLessThanOrEqual(4_000);
		const next = /\[more: (\{.*\})\]/.exec(first.text)?.[1] as string;
		expect(JSON.parse(next)).toEqual({ action: "search", pattern: "needle", limit: 10, page: 2 });
		const second = await f.call(JSON.parse(next));
		expect((second.details.hits as Hit[]).map((h) => h.line)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
		const last = await f.call({ action: "search", pattern: "needle", limit: 10, page: 3 });
		expect(last.text).toContain("[end of matches]");
	});

	it("refuses a bad pattern, a page past the first 500 hits or a fold not on the branch, and says when nothing is folded", async () => {
		const { f } = await twoFolds();
		const bad = await f.call({ action: "search", pattern: "(oops", regex: true });
		expect(bad.isError).toBe(true);
		expect(bad.text).toMatch(/search refused: pattern: not a valid regular expression/);
		const deep = await f.call({ action: "search", pattern: "needle", limit: 10, page: 51 });
		expect(deep.text).toMatch(/page 51 of 10 is past the first 500 hits; narrow the pattern/);
		expect((await f.call({ action: "search", pattern: "needle", limit: 10, page: 50 })).isError).not.toBe(true);
		const missing = await f.call({ action: "search", pattern: "x", fold: "f0000000000000000" });
		expect(missing.text).toMatch(/no fold f0000000000000000 on this branch/);
		const empty = simFixture();
		expect((await empty.call({ action: "search", pattern: "x" })).text).toBe("No folds on this branch to search.");
	});

	it("is in the tool's schema with its fields, limits enforced", () => {
		const actions = resolveOptions().toolActions;
		expect(actions).toContain("search");
		const schema = toolParameters(actions) as { properties: Record<string, { description?: string }> };
		expect(schema.properties.pattern?.description).toMatch(/Used by: search\b/);
		expect(schema.properties.regex?.description).toMatch(/Used by: search\?/);
		expect(parseToolArgs({ action: "search" }, actions).ok).toBe(false);
		expect(parseToolArgs({ action: "search", pattern: "x", limit: 11 }, actions).ok).toBe(false);
		expect(parseToolArgs({ action: "search", pattern: "x", regex: true, fold: "f0123456789abcdef" }, actions).ok).toBe(
			true,
		);
	});

	it("searches the on-disk fold store on worker threads", async () => {
		const runtime = new FoldRuntime(resolveOptions({ foldScheduling: "immediate", summarizer: "deterministic" }));
		const session = new SimSession({
			id: `search-disk-${process.pid}-${Date.now()}`,
			model: { contextWindow: 400_000, maxTokens: 8_192 },
		});
		const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
		runtime.rebuild(host, "test");
		for (const e of [user("u1", "task"), ...readBatch("b1", ["a.ts"], () => fileA), reply("a1", "done")])
			session.appendMessage(e.message, e.id);
		for (let i = 0; i < 8; i++) {
			session.appendMessage(user(`p${i}`, "pad").message, `p${i}`);
			session.appendMessage(reply(`q${i}`, "pad").message, `q${i}`);
		}
		const folded = await callTool(
			runtime,
			host,
			{ action: "fold", from: "u1", to: "a1", brief: "Looked at a.ts: exports alpha." },
			"agent",
		);
		expect(folded.isError).toBeUndefined();
		const result = await callTool(runtime, host, { action: "search", pattern: "NEEDLE\\(\\)", regex: true }, "agent");
		expect(result.details).toMatchObject({ total: 1, stopped: null });
	});
});
