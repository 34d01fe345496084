// Durable state across the session's life: a resumed session reproduces the same window byte for
// byte without a new commit; a fork keeps the folds made before the fork point; /tree navigation
// rebuilds state from the new branch; a tampered decision record is refused by name, automatic
// folding pauses with a visible reason, and the human is told once, out of band.

import { readFileSync, writeFileSync } from "node:fs";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import {
	allNotices,
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type Harness,
	messageBytes,
	type RecordedRequest,
	relation,
	say,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];
const BRIEF = "Probes a and b returned filler; nothing to keep.";

async function foldedSession(): Promise<Harness> {
	const h = await createHarness({ persistent: true });
	h.script([
		...KEYS.map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_b", brief: BRIEF }),
		say("done"),
	]);
	await h.run("go");
	return h;
}

function contextEdits(h: Harness): number {
	return h.session.sessionManager.getBranch().filter((e) => e.type === "context_edit").length;
}

describe("a resumed session", () => {
	it("reproduces the same window byte for byte and commits nothing new", async () => {
		const h1 = await foldedSession();
		const before = h1.requests.at(-1) as RecordedRequest;
		const file = h1.sessionFile() as string;
		const h2 = await createHarness({ openFile: file, sessionDir: h1.sessionDir });
		expect(h2.runtime.snapshot(h2.host()).state.folds.size).toBe(1);
		const edits = contextEdits(h2);
		h2.script([callProbes("h"), say("resumed")]);
		await h2.run("again");
		const first = h2.requests[0] as RecordedRequest;
		const prefix = conversation(before).map(messageBytes);
		expect(conversation(first).slice(0, prefix.length).map(messageBytes)).toEqual(prefix);
		expect(JSON.stringify(first.messages).includes(`${BRIEF}\\npeek:`)).toBe(true);
		expect(contextEdits(h2)).toBe(edits);
		expect(relation(first, h2.requests[1] as RecordedRequest).kind).toBe("append");
		expect(h2.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
	});
});

describe("a fork", () => {
	it("keeps the folds made before the fork point", async () => {
		const h1 = await foldedSession();
		const file = h1.sessionFile() as string;
		const leaf = h1.session.sessionManager.getLeafId() as string;
		const forked = SessionManager.open(file, h1.sessionDir).createBranchedSession(leaf);
		if (!forked) throw new Error("fork produced no file");
		const h2 = await createHarness({ openFile: forked, sessionDir: h1.sessionDir });
		const fold = [...h2.runtime.snapshot(h2.host()).state.folds.values()][0];
		expect(fold?.brief).toBe(BRIEF);
		h2.script([() => callTool({ action: "peek", id: fold?.id as string }), say("forked")]);
		await h2.run("third");
		expect(JSON.stringify(h2.requests[0]?.messages).includes(`${BRIEF}\\npeek:`)).toBe(true);
		// The fold's verified source is reachable from the fork (the store lives in the session dir).
		expect(JSON.stringify(h2.requests[1]?.messages).includes("verified · one JSON line per entry")).toBe(true);
	});
});

describe("/tree navigation", () => {
	it("rebuilds state from the branch it lands on", async () => {
		const h = await foldedSession();
		const branch = h.session.sessionManager.getBranch();
		const foldRecord = branch.find((e) => e.type === "custom" && (e.data as { kind?: string }).kind === "fold");
		const beforeFold = foldRecord?.parentId as string;
		await h.session.navigateTree(beforeFold);
		expect(h.runtime.snapshot(h.host()).state.folds.size).toBe(0);
		h.script([say("on the old branch")]);
		await h.run("other");
		// The fold call is on this branch, its decision is not: no placeholder reaches the window.
		expect(JSON.stringify(h.requests.at(-1)?.messages).includes("[active-context fold")).toBe(false);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		const leaf = branch.at(-1)?.id as string;
		await h.session.navigateTree(leaf);
		expect(h.runtime.snapshot(h.host()).state.folds.size).toBe(1);
	});
});

describe("a tampered decision record", () => {
	it("is refused by entry id, pauses automatic folding visibly, and is reported once", async () => {
		const h1 = await foldedSession();
		const file = h1.sessionFile() as string;
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"kind":"fold"'));
		const entry = JSON.parse(lines[at] as string) as { id: string; data: { fold: { brief: string } } };
		entry.data.fold.brief = "A forged brief that was never decided.";
		lines[at] = JSON.stringify(entry);
		writeFileSync(file, lines.join("\n"));
		const seen = allNotices.length;
		const h2 = await createHarness({ openFile: file, sessionDir: h1.sessionDir });
		const state = h2.runtime.snapshot(h2.host()).state;
		expect(state.refusals[0]?.entryId).toBe(entry.id);
		expect(state.refusals[0]?.reason).toMatch(/fold record was altered/);
		expect(h2.runtime.pauseReason()).toMatch(
			new RegExp(`automatic folding paused: 1 decision record refused \\(entry ${entry.id}`),
		);
		h2.script([callTool({ action: "status" }), say("ok")]);
		await h2.run("status please");
		const notices = allNotices.slice(seen).filter((n) => n.includes("automatic folding paused"));
		expect(notices).toHaveLength(1);
		const status = JSON.stringify(h2.requests.at(-1)?.messages);
		expect(status.includes("Paused: automatic folding paused")).toBe(true);
		expect(status.includes("A forged brief")).toBe(false);
	});
});

describe("another author's edit of a folded entry", () => {
	it("is reported as an override and not fought over", async () => {
		let target = "";
		const h = await createHarness({
			setup: (pi) =>
				pi.on("turn_end", (event, ctx) => {
					if (event.turnIndex !== 9) return undefined;
					const fold = [...ctx.sessionManager.getBranch()].find(
						(e) => e.type === "custom" && (e.data as { kind?: string }).kind === "fold",
					);
					if (fold?.type !== "custom") throw new Error("no fold record on the branch");
					target = (fold.data as { fold: { leafIds: string[] } }).fold.leafIds[0] as string;
					return {
						entries: [
							...event.entries,
							{ type: "context_edit", targetId: target, replacement: { content: "foreign note" } },
						],
					};
				}),
		});
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: BRIEF }),
			callProbes("h"),
			callProbes("i"),
			callTool({ action: "status" }),
			say("done"),
		]);
		await h.run("go");
		const snap = h.runtime.snapshot(h.host());
		expect([...snap.view.foreign]).toEqual([target]);
		// pi-fold proposed nothing after the foreign edit: its commit count stayed at one.
		expect(snap.state.commitSeq).toBe(1);
		const last = JSON.stringify(h.requests.at(-1)?.messages);
		expect(last.includes("foreign note")).toBe(true);
		expect(last.includes(`Overridden by another author's context edit: ${target}`)).toBe(true);
	});
});
