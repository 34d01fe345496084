// The unfold plan (src/replay/unfold-plan.ts) on small session files written here: pi-fold's edits
// (the run right before a commit record, under any entry-type prefix) are removed and the entries
// after them re-parented, every other line kept byte for byte; another extension's edits stay; each
// fold an edit covered is verified against the file's entries, as Pi converts them to messages,
// and a fold whose entries changed or are gone is refused by name.

import { sessionEntryToContextMessages } from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import { foldSource } from "../../src/lattice/index.ts";
import { contextMessageOf, planUnfold, SessionFileError, UnfoldError } from "../../src/replay/index.ts";
import type { TranscriptEntry } from "../../src/transcript/index.ts";
import { sha256Hex } from "../../src/wasm/index.ts";

const T = "2026-12-01T10:00:00.000Z";
type Line = Record<string, unknown>;

function user(id: string, parentId: string | null, text: string): Line {
	return { type: "message", id, parentId, timestamp: T, message: { role: "user", content: text, timestamp: 1 } };
}

/** A fold record over `leaves` (id, message), with the source digest pi-fold would record. */
function foldOver(id: string, leaves: TranscriptEntry[]) {
	const source = foldSource(leaves);
	return {
		id,
		leafIds: leaves.map((l) => l.id),
		sourceSha256: sha256Hex(source),
		sourceBytes: new TextEncoder().encode(source).length,
	};
}

const header = { type: "session", version: 3, id: "s1", timestamp: T, cwd: "/tmp" };

/** u1 u2 u3 folded by prefix `pfx` (u1 a placeholder, u2 omitted), then u4 after the commit. */
function session(prefix = "pi-fold"): Line[] {
	const u1 = user("u1", null, "first question");
	const u2 = user("u2", "u1", "second question");
	const u3 = user("u3", "u2", "third");
	const leaves = [u1, u2].map((l) => ({ id: l.id as string, message: l.message }) as TranscriptEntry);
	const fold = foldOver("f0000000000000001", leaves);
	return [
		header,
		u1,
		u2,
		u3,
		{
			type: "custom",
			id: "r1",
			parentId: "u3",
			timestamp: T,
			customType: `${prefix}:decision`,
			data: { kind: "fold", fold },
		},
		{
			type: "context_edit",
			id: "e1",
			parentId: "r1",
			timestamp: T,
			targetId: "u1",
			replacement: { content: "[fold]" },
		},
		{ type: "context_edit", id: "e2", parentId: "e1", timestamp: T, targetId: "u2", replacement: null },
		{
			type: "custom",
			id: "c1",
			parentId: "e2",
			timestamp: T,
			customType: `${prefix}:decision`,
			data: { kind: "commit", edits: [{ targetId: "u1" }, { targetId: "u2" }] },
		},
		user("u4", "c1", "after"),
	];
}

const text = (lines: Line[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

describe("planUnfold", () => {
	it("removes pi-fold's edits, re-parents what followed them and keeps every other line byte for byte", () => {
		const input = text(session());
		const plan = planUnfold(input);
		expect(plan).toMatchObject({ removed: 2, verified: 1, reparented: 1, decisionTypes: ["pi-fold:decision"] });
		const inLines = input.split("\n");
		const outLines = plan.text.split("\n");
		expect(outLines).toHaveLength(inLines.length - 2);
		expect(plan.text).not.toContain('"type":"context_edit"');
		const commit = JSON.parse(outLines.find((l) => l.includes('"id":"c1"')) as string);
		expect(commit.parentId).toBe("r1");
		expect(Object.keys(commit)).toEqual(["type", "id", "parentId", "timestamp", "customType", "data"]);
		for (const line of outLines) if (!line.includes('"id":"c1"')) expect(inLines).toContain(line);
		expect(outLines.at(-2)).toBe(inLines.at(-2));
	});

	it("finds pi-fold under another entry-type prefix, and leaves another extension's edits alone", () => {
		const lines = session("acme-fold");
		lines.push({ type: "context_edit", id: "x1", parentId: "u4", timestamp: T, targetId: "u3", replacement: null });
		lines.push(user("u5", "x1", "last"));
		const plan = planUnfold(text(lines));
		expect(plan.removed).toBe(2);
		expect(plan.decisionTypes).toEqual(["acme-fold:decision"]);
		expect(plan.text).toContain('"id":"x1"');
	});

	it("keeps the edits that hide pi-fold's own commit receipts, and removes the rest of their run", () => {
		const lines = session();
		lines.splice(4, 0, {
			type: "custom_message",
			id: "rc",
			parentId: "u3",
			timestamp: T,
			customType: "pi-fold:receipt",
			content: "[receipt]",
		});
		(lines[5] as { parentId: string }).parentId = "rc";
		lines.splice(7, 0, {
			type: "context_edit",
			id: "e0",
			parentId: "e1",
			timestamp: T,
			targetId: "rc",
			replacement: null,
		});
		(lines[8] as { parentId: string }).parentId = "e0";
		(lines[9] as { data: { edits: unknown[] } }).data.edits = [
			{ targetId: "u1" },
			{ targetId: "rc" },
			{ targetId: "u2" },
		];
		const plan = planUnfold(text(lines));
		expect(plan).toMatchObject({ removed: 2, keptReceiptEdits: 1, verified: 1 });
		const out = plan.text
			.split("\n")
			.filter(Boolean)
			.map((l) => JSON.parse(l) as Line);
		expect(out.filter((l) => l.type === "context_edit").map((l) => [l.id, l.parentId])).toEqual([["e0", "r1"]]);
		expect(out.find((l) => l.id === "c1")?.parentId).toBe("e0");
	});

	it("does not take an edit run that differs from the commit's own list", () => {
		const lines = session();
		(lines[7] as { data: { edits: unknown[] } }).data.edits = [{ targetId: "u3" }, { targetId: "u2" }];
		expect(planUnfold(text(lines))).toMatchObject({ removed: 0, verified: 0, reparented: 0 });
	});

	it("refuses a fold whose entry changed, naming the fold and both digests", () => {
		const lines = session();
		(lines[2] as { message: { content: string } }).message.content = "second question, edited";
		const fold = (lines[4] as { data: { fold: { sourceSha256: string } } }).data.fold;
		expect(() => planUnfold(text(lines))).toThrow(UnfoldError);
		expect(() => planUnfold(text(lines))).toThrow(
			new RegExp(
				`^fold f0000000000000001: its source cannot be verified: the file's entries give sha256 [0-9a-f]{64} as a manifest, [0-9a-f]{64} as one blob \\(\\d+ bytes\\), the fold recorded sha256 ${fold.sourceSha256}`,
			),
		);
	});

	it("refuses a fold whose entry is not in the file", () => {
		const lines = session();
		(lines[4] as { data: { fold: { leafIds: string[] } } }).data.fold.leafIds = ["u1", "gone"];
		expect(() => planUnfold(text(lines))).toThrow(
			"fold f0000000000000001: its source cannot be verified: entry gone is not in the file",
		);
	});

	it("leaves a session without pi-fold as it is, and names the line of a file that is not a session", () => {
		const plain = text([header, user("u1", null, "hi"), user("u2", "u1", "there")]);
		expect(planUnfold(plain)).toMatchObject({ text: plain, removed: 0 });
		expect(() => planUnfold('{"note":"hello"}\n')).toThrow(SessionFileError);
		expect(() => planUnfold('{"note":"hello"}\n')).toThrow(/^line 1: not a Pi session file/);
	});
});

describe("contextMessageOf", () => {
	it("builds the message an entry contributes exactly as Pi does", () => {
		const entries: Line[] = [
			{
				type: "custom_message",
				id: "m1",
				parentId: null,
				timestamp: T,
				customType: "note",
				content: "hi",
				display: true,
			},
			{
				type: "custom_message",
				id: "m2",
				parentId: "m1",
				timestamp: T,
				customType: "note",
				content: [{ type: "text", text: "x" }],
				display: false,
				details: { a: 1 },
			},
			{ type: "branch_summary", id: "b1", parentId: "m2", timestamp: T, fromId: "m1", summary: "went elsewhere" },
			{ type: "message", id: "a1", parentId: "b1", timestamp: T, message: { role: "assistant", content: null } },
			user("u1", "a1", "plain"),
		];
		for (const entry of entries) {
			const pi = sessionEntryToContextMessages(entry as never);
			expect(JSON.stringify(contextMessageOf(entry))).toBe(JSON.stringify(pi[0]));
		}
		expect(contextMessageOf({ type: "message", message: { role: "system", content: "s" } })).toBeUndefined();
	});
});
