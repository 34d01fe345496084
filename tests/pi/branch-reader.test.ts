// The incremental branch reader (src/pi/branch.ts) against a whole read of the same branch through
// Pi, after every step of a session on Pi's own SessionManager: messages, pi-fold's records and a
// commit's context edits, another extension's edit, a receipt, a native compaction, and a move of
// the leaf back to an earlier entry and on along another branch. The view, the records, the
// compaction count and the latest rewrite's time must match at every step, and an unchanged branch
// gives the same view object.

import { SessionManager } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { branchRecords, compactionCount, latestRewriteTime, readBranch, readBranchAnew } from "../../src/pi/branch.ts";
import type { BranchView } from "../../src/policy/index.ts";

const DECISIONS = "pi-fold-decision";
const RECEIPTS = "pi-fold-receipt";

function plain(view: BranchView) {
	const lookups = view.transcript.map((e) => view.branchEntry?.(e.id)?.message);
	return { ...view, branchEntry: lookups };
}

function user(sm: SessionManager, text: string): string {
	return sm.appendMessage({ role: "user", content: text, timestamp: Date.now() });
}

function call(sm: SessionManager, i: number): string {
	return sm.appendMessage({
		role: "assistant",
		content: [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}` } }],
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "toolUse",
		timestamp: Date.now(),
	});
}

function result(sm: SessionManager, i: number): string {
	return sm.appendMessage({
		role: "toolResult",
		toolCallId: `c${i}`,
		toolName: "read",
		content: [{ type: "text", text: `contents ${i}` }],
		isError: false,
		timestamp: Date.now(),
	});
}

describe("the incremental branch reader", () => {
	it("reads what a whole read of the branch reads, after every kind of step", () => {
		const sm = SessionManager.inMemory("/tmp");
		const ids: string[] = [];
		let checks = 0;
		const check = (step: string) => {
			const view = readBranch(sm, DECISIONS, RECEIPTS);
			expect(plain(view), step).toEqual(plain(readBranchAnew(sm, DECISIONS, RECEIPTS)));
			expect(readBranch(sm, DECISIONS, RECEIPTS), `${step}: unchanged`).toBe(view);
			expect(branchRecords(sm, DECISIONS, RECEIPTS)).toBe(view.records);
			const branch = sm.getBranch();
			expect(compactionCount(sm, DECISIONS, RECEIPTS), step).toBe(branch.filter((e) => e.type === "compaction").length);
			const rewrite = branch.findLast((e) => e.type === "context_edit" || e.type === "compaction");
			expect(latestRewriteTime(sm, DECISIONS, RECEIPTS), step).toBe(rewrite ? Date.parse(rewrite.timestamp) : null);
			checks++;
		};
		check("empty");
		ids.push(user(sm, "start"));
		check("a prompt");
		for (let i = 0; i < 6; i++) {
			ids.push(call(sm, i), result(sm, i));
			check(`batch ${i}`);
		}
		// pi-fold's commit: its edits, then its record naming them; a receipt.
		const targets = [ids[1] as string, ids[2] as string];
		sm.appendContextEdit(targets[0] as string, { content: [{ type: "text", text: "brief" }] });
		sm.appendContextEdit(targets[1] as string, null);
		check("edits before the record");
		sm.appendCustomEntry(DECISIONS, { kind: "commit", edits: targets.map((targetId) => ({ targetId })) });
		sm.appendCustomMessageEntry(RECEIPTS, "commit #1", false);
		check("the commit");
		// Another extension's edit of a managed target.
		sm.appendContextEdit(targets[0] as string, { content: [{ type: "text", text: "theirs" }] });
		sm.appendCustomEntry("someone-else", { note: 1 });
		check("a foreign edit");
		ids.push(call(sm, 6), result(sm, 6));
		check("more work");
		sm.appendCompaction("summary of the start", ids[5] as string, 1_000);
		check("a native compaction");
		ids.push(call(sm, 7), result(sm, 7));
		check("work after the compaction");
		// Back to an earlier entry, then on along another branch.
		sm.branch(ids[4] as string);
		check("moved back");
		user(sm, "another way");
		call(sm, 8);
		check("another branch");
		sm.resetLeaf();
		check("no leaf");
		user(sm, "from the root");
		check("a new root");
		expect(checks).toBe(18);
	});
});
