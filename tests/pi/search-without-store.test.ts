// Every fold stays readable from the session file. With the fold store deleted, `search` rebuilds each
// fold's source from the session's own entries, verified against the fold's SHA-256, as `peek` and
// `expand` do, and finds what it found with the store. After a Pi compaction took folds' entries out
// of the context, and the store was deleted, every fold still peeks and searches: the rebuild reads
// every entry on the branch, not only the current context. Real in-process Pi sessions.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { FoldRecord } from "../../src/lattice/index.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	probeResultText,
	say,
	toolTexts,
} from "./harness.ts";
import { compactions, scripted, storeDir } from "./safety-helpers.ts";

afterAll(cleanupTempDirs);

const KEYS = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"];

/** Ten small probes; the agent folds four spans of them (the last two nested in one). */
async function folded(h: Harness): Promise<FoldRecord[]> {
	scripted(h, [
		...KEYS.map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_s1", to: "call_s2", brief: "the first two probes" }),
		callTool({ action: "fold", from: "call_s3", to: "call_s4", brief: "the next two probes" }),
		callTool({ action: "fold", from: "call_s5", to: "call_s5", brief: "the fifth probe" }),
		callTool({ action: "fold", from: "call_s5", to: "call_s6", brief: "the fifth and sixth probes" }),
		say("folded"),
	]);
	await h.run("go");
	const folds = [...h.runtime.snapshot(h.host()).state.folds.values()];
	expect(folds.length).toBe(4);
	return folds;
}

/** The agent's searches, each answered in order; their replies. */
async function searches(h: Harness, patterns: string[]): Promise<string[]> {
	scripted(h, [...patterns.map((pattern) => callTool({ action: "search", pattern })), say("searched")]);
	await h.run("search");
	return toolTexts(h).slice(-patterns.length);
}

/** A search reply without what may differ between reading the store and rebuilding from the session. */
function findings(text: string): string[] {
	return text.split("\n").filter((l) => /^\d+\. /.test(l) || l.includes("«"));
}

const PATTERNS = ["probe s1:", "probe s4:", "probe s6:", "lorem ipsum"];

/** The probes each of the agent's folds holds, by its brief. */
const SPANS: Record<string, string[]> = {
	"the first two probes": ["s1", "s2"],
	"the next two probes": ["s3", "s4"],
	"the fifth probe": ["s5"],
	"the fifth and sixth probes": ["s5", "s6"],
};

describe("search without the fold store", () => {
	it("finds what it found with the store, every source rebuilt from the session and verified", async () => {
		const h = await createHarness({ persistent: true, options: { summarizer: "deterministic" } });
		await folded(h);
		const before = await searches(h, PATTERNS);
		for (const text of before.slice(0, 3)) expect(findings(text).length).toBeGreaterThan(0);
		rmSync(storeDir(h), { recursive: true, force: true });
		const after = await searches(h, PATTERNS);
		after.forEach((text, i) => {
			expect(findings(text)).toEqual(findings(before[i] as string));
			expect(text).not.toMatch(/\(0 bytes\)/);
			expect(text).not.toMatch(/failed|could not be read|unreadable/i);
		});
	});

	it("a session entry changed since the fold was made: that fold's hits are not shown, it is named", async () => {
		const h1 = await createHarness({ persistent: true, options: { summarizer: "deterministic" } });
		const folds = await folded(h1);
		rmSync(storeDir(h1), { recursive: true, force: true });
		const file = h1.sessionFile() as string;
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"toolCallId":"call_s1"') && l.includes('"role":"toolResult"'));
		lines[at] = (lines[at] as string).replace(probeResultText("s1"), "probe s1: forged");
		writeFileSync(file, lines.join("\n"));
		const h2 = await createHarness({
			openFile: file,
			sessionDir: h1.sessionDir,
			options: { summarizer: "deterministic" },
		});
		const [forged, other] = await searches(h2, ["probe s1:", "probe s4:"]);
		const first = folds.find((f) => f.brief === "the first two probes") as FoldRecord;
		expect(forged).not.toContain("forged");
		expect(forged).toContain(first.id);
		expect(forged).toMatch(/do not rebuild it/);
		expect(findings(other as string).length).toBeGreaterThan(0);
	});
});

describe("a Pi compaction, then the fold store deleted", () => {
	it("every fold still peeks and searches, rebuilt from the session file's entries", async () => {
		const h = await createHarness({
			ui: "tui",
			persistent: true,
			contextWindow: 16_000,
			compaction: { enabled: true, reserveTokens: 2_000, keepRecentTokens: 600 },
			options: { readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		const folds = await folded(h);
		h.script([say("Summary of the session so far."), say("Summary of the turn prefix.")]);
		await h.session.compact();
		expect(compactions(h)).toBe(1);
		// Every fold's entries left the context.
		const snap = h.runtime.snapshot(h.host());
		for (const f of folds) expect(snap.lattice.get(f.id)).toBeUndefined();
		rmSync(storeDir(h), { recursive: true, force: true });

		scripted(h, [
			...folds.map((f) => callTool({ action: "peek", id: f.id })),
			...KEYS.slice(0, 6).map((k) => callTool({ action: "search", pattern: `probe ${k}:` })),
			callTool({ action: "status" }),
			say("read back"),
		]);
		await h.run("what did the probes say?");
		const texts = toolTexts(h).slice(-(folds.length + 7));
		const peeks = texts.slice(0, folds.length);
		const found = texts.slice(folds.length, folds.length + 6);
		const status = texts.at(-1) as string;
		folds.forEach((f, i) => {
			expect(peeks[i]).toContain(`sha256 ${f.sourceSha256.slice(0, 16)}… verified (rebuilt from the session's entries`);
			const span = Object.entries(SPANS).find(([brief]) => f.brief === brief || f.brief.startsWith(`${brief} `));
			for (const key of span?.[1] ?? ["?"]) expect(peeks[i]).toContain(probeResultText(key));
		});
		KEYS.slice(0, 6).forEach((k, i) => {
			expect(found[i]).toContain(`«probe ${k}:»`);
		});
		expect(status).toContain("Folds: 3 summarized by Pi, still readable");
		expect(status).not.toContain("unreadable");
	});
});
