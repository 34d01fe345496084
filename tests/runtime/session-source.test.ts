// A fold's source rebuilt from the branch's own entries (src/runtime/session-source.ts): the same
// bytes the fold stored, verified against its recorded SHA-256, from the context's entries or, for an
// entry a compaction took out of the context, from the whole branch the host reads; an entry that
// changed since, or one the branch does not hold, is refused by the fold's name.

import { describe, expect, it } from "vitest";
import { type FoldRecord, foldId, foldSource } from "../../src/lattice/index.ts";
import { branchViewOf, originalEntry } from "../../src/runtime/index.ts";
import { sessionSource } from "../../src/runtime/session-source.ts";
import type { TranscriptMessage } from "../../src/transcript/index.ts";
import { sha256Hex } from "../../src/wasm/index.ts";

const messages: Record<string, TranscriptMessage> = {
	u1: { role: "user", content: "read the file, é and 🙂", timestamp: 1 },
	a1: { role: "assistant", content: [{ type: "text", text: "done" }], timestamp: 2 },
	u2: { role: "user", content: "thanks", timestamp: 3 },
};

/** A view whose context lacks `drop`; with `branch`, the branch still holds them (a compaction summarized them). */
function view(overrides: Record<string, TranscriptMessage> = {}, drop: string[] = [], branch = false) {
	const all = { ...messages, ...overrides };
	const ids = Object.keys(all).filter((id) => !drop.includes(id));
	const entry = (id: string) => ({ id, type: "message" });
	return branchViewOf({
		leafId: "u2",
		branch: ids.map(entry),
		context: ids.map((id) => ({ entry: entry(id), message: all[id] })),
		decisionType: "pi-fold:decision",
		...(branch ? { branchEntry: (id: string) => (all[id] ? { id, message: all[id] } : undefined) } : {}),
	});
}

function foldOf(ids: string[]): FoldRecord {
	const leaves = ids.map((id) => ({ id, message: messages[id] as TranscriptMessage }));
	const source = foldSource(leaves);
	return {
		id: foldId(leaves),
		leafIds: ids,
		sourceSha256: sha256Hex(source),
		sourceBytes: new TextEncoder().encode(source).length,
	} as unknown as FoldRecord;
}

describe("sessionSource", () => {
	it("rebuilds the exact bytes the fold stored from the branch's original entries", () => {
		const fold = foldOf(["u1", "a1"]);
		const source = sessionSource(view(), fold);
		expect(sha256Hex(source)).toBe(fold.sourceSha256);
		expect(source).toBe(foldSource(["u1", "a1"].map((id) => ({ id, message: messages[id] as TranscriptMessage }))));
		expect(originalEntry(view(), "a1")?.message).toEqual(messages.a1);
		expect(originalEntry(view(), "nope")).toBeUndefined();
	});

	it("refuses an entry changed since the fold was made, naming the fold and both digests", () => {
		const fold = foldOf(["u1", "a1"]);
		const changed = view({ a1: { role: "assistant", content: [{ type: "text", text: "not done" }], timestamp: 2 } });
		expect(() => sessionSource(changed, fold)).toThrow(
			new RegExp(
				`^fold ${fold.id}: its source is not in the store, and the session's entries do not rebuild it: expected sha256 ${fold.sourceSha256} \\(${fold.sourceBytes} bytes\\), the entries give sha256 [0-9a-f]{64} as a manifest, [0-9a-f]{64} as one blob \\(\\d+ bytes\\); nothing from them was returned$`,
			),
		);
	});

	it("rebuilds from the branch an entry a compaction took out of the context", () => {
		const fold = foldOf(["u1", "a1"]);
		const compacted = view({}, ["u1", "a1"], true);
		expect(compacted.transcript.map((e) => e.id)).toEqual(["u2"]);
		expect(sha256Hex(sessionSource(compacted, fold))).toBe(fold.sourceSha256);
	});

	it("refuses when the branch does not hold an entry, naming it", () => {
		const fold = foldOf(["u1", "a1"]);
		expect(() => sessionSource(view({}, ["a1"]), fold)).toThrow(
			`fold ${fold.id}: its source (sha256 ${fold.sourceSha256}) is not in the store, and entry a1 is not on this session's branch to rebuild it from`,
		);
	});
});
