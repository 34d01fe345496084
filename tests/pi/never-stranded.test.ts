// A session whose fold store lost a fold's blob (the store folder deleted, or the session file
// copied without it) is never stranded: peek and expand rebuild the fold's source from the
// session's own entries, verified against the fold's recorded SHA-256, and the expand lands at the
// next commit with the original content; a session entry changed since the fold was made is
// refused by name and both digests, and nothing of it reaches the window. Real in-process Pi
// sessions on the faux provider.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { blobPath } from "../../src/verify/layout.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type Harness,
	probeResultText,
	type RecordedRequest,
	say,
	textOf,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];

function onlyFold(h: Harness) {
	const fold = h.runtime.snapshot(h.host()).state.folds.values().next().value;
	if (!fold) throw new Error("no fold");
	return fold;
}

/** Deletes the fold's blob from the session's fold store. */
function dropBlob(h: Harness): void {
	const fold = onlyFold(h);
	const dir = (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
	rmSync(blobPath(dir, fold.sourceSha256));
	expect(h.runtime.store(h.host()).has(fold.sourceSha256)).toBe(false);
}

const sent = (r: RecordedRequest) => JSON.stringify(r.messages);

/** The messages of a request that are pi-fold placeholders (a brief with how to peek and expand it). */
function placeholders(r: RecordedRequest): string[] {
	return conversation(r)
		.map((m) => textOf(m))
		.filter((t) => t.includes('expand: active_context {"action":"expand"'));
}

describe("a fold whose blob is gone from the store", () => {
	it("peeks and expands from the session's own entries, verified, and the expand lands", async () => {
		const h = await createHarness();
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes." }),
			() => {
				dropBlob(h);
				const id = onlyFold(h).id;
				return callTool({ action: "peek", id }, { action: "expand", id });
			},
			callProbes("h"),
			say("done"),
		]);
		await h.run("go");
		const fold = onlyFold(h);
		const [, peek, expand] = toolTexts(h);
		expect(peek).toContain(
			`sha256 ${fold.sourceSha256.slice(0, 16)}… verified (rebuilt from the session's entries: the fold store has no copy)`,
		);
		expect(peek).toContain(probeResultText("a"));
		expect(peek).toContain("[end of source]");
		expect(expand).toMatch(
			new RegExp(
				`^Expanding ${fold.id} \\(4 entries, source verified from the session's entries: the fold store has no copy\\)`,
			),
		);
		expect(h.runtime.snapshot(h.host()).state.expanded.has(fold.id)).toBe(true);
		// The expand's commit restored the originals: the last request shows the probes, no placeholder.
		const last = h.requests.at(-1) as RecordedRequest;
		expect(placeholders(h.requests.at(-3) as RecordedRequest)).toHaveLength(1);
		expect(placeholders(last)).toEqual([]);
		expect(sent(last)).toContain(probeResultText("a"));
		expect(sent(last)).toContain(probeResultText("b"));
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});

	it("refuses a session entry changed since the fold was made, by name and both digests", async () => {
		const h1 = await createHarness({ persistent: true });
		h1.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes." }),
			say("folded"),
		]);
		await h1.run("go");
		const fold = onlyFold(h1);
		dropBlob(h1);
		// The session file as copied elsewhere, with the folded result of call_a rewritten.
		const file = h1.sessionFile() as string;
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"toolCallId":"call_a"') && l.includes('"role":"toolResult"'));
		expect(at).toBeGreaterThan(0);
		lines[at] = (lines[at] as string).replace(probeResultText("a"), "probe a: forged");
		writeFileSync(file, lines.join("\n"));
		const h2 = await createHarness({ openFile: file, sessionDir: h1.sessionDir });
		h2.script([callTool({ action: "peek", id: fold.id }, { action: "expand", id: fold.id }), say("done")]);
		await h2.run("again");
		const [peek, expand] = toolTexts(h2).slice(-2);
		for (const text of [peek, expand]) {
			expect(text).toContain(`fold ${fold.id}: its source is not in the store`);
			expect(text).toContain(`expected sha256 ${fold.sourceSha256}`);
			expect(text).toMatch(/the entries give sha256 [0-9a-f]{64}/);
		}
		expect(peek).toMatch(/^peek refused: /);
		expect(expand).toMatch(/^expand refused: /);
		expect(h2.runtime.snapshot(h2.host()).state.expanded.size).toBe(0);
		expect(sent(h2.requests.at(-1) as RecordedRequest)).not.toContain("probe a: forged");
	});
});
