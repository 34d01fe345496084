// Folds outlive Pi's native compaction, and Pi compacts only where pi-fold cannot help, end to end
// in real in-process sessions. After a manual /compact, and after a threshold compaction pi-fold let
// through, the agent's `search` finds a line of a fold made before it, `peek` reads it, and the
// agent's `status`, `/context` (summary, tree, details) and Pi's footer count each fold once, the
// same way: in the window, summarized by Pi and still readable (its source in the store, or rebuilt
// from the session file's entries when the store has no copy), or unreadable (no copy in the store
// and an entry gone from the session file: counted there, once). While automatic
// folding is paused (a decision record refused), Pi's threshold compaction is not cancelled and the
// human is told in one line why; the same session unpaused, with room to fold, still cancels it.

import { readFileSync, rmSync, writeFileSync } from "node:fs";
import type { FauxResponseStep } from "@earendil-works/pi-ai";
import { afterAll, describe, expect, it } from "vitest";
import { isSummaryRequest } from "../../bench/session/compaction-summarizer.ts";
import type { FoldRecord } from "../../src/lattice/index.ts";
import { foldForest, sourcePresence } from "../../src/runtime/index.ts";
import { blobPath } from "../../src/verify/layout.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	probeResultText,
	say,
	slashCommand,
	toolTexts,
} from "./harness.ts";

afterAll(cleanupTempDirs);

/** Answers Pi's summary requests as they come; the agent's own steps keep their order. */
function scripted(h: Harness, steps: FauxResponseStep[]): void {
	const queue = [...steps];
	const respond: FauxResponseStep = (context, ...rest) => {
		if (isSummaryRequest(context.messages)) return say("Summary of the session so far.");
		const step = queue.shift() ?? say("idle");
		return typeof step === "function" ? step(context, ...rest) : step;
	};
	h.script(Array.from({ length: steps.length + 8 }, () => respond));
}

function compactions(h: Harness): number {
	return h.session.sessionManager.getBranch().filter((e) => e.type === "compaction").length;
}

/** Ten small probes; the agent folds the first two (the early fold), then the next two. */
async function foldedEarly(h: Harness): Promise<string> {
	scripted(h, [
		...["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10"].map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_s1", to: "call_s2", brief: "the first two small probes" }),
		callTool({ action: "fold", from: "call_s3", to: "call_s4", brief: "the next two small probes" }),
		say("first run done"),
	]);
	await h.run("go");
	h.faux.setResponses([]);
	const early = [...h.runtime.snapshot(h.host()).state.folds.values()].find(
		(f) => f.brief === "the first two small probes",
	);
	if (!early) throw new Error(`the early fold was not made: ${toolTexts(h).join(" | ")}`);
	return early.id;
}

/** After a compaction: the agent searches, peeks and asks for status; the human opens /context. */
async function readsBack(h: Harness, early: string) {
	h.faux.setResponses([]);
	scripted(h, [
		callTool({ action: "search", pattern: "probe s1:" }),
		callTool({ action: "peek", id: early }),
		callTool({ action: "status", detail: "tree" }),
		say("read back"),
	]);
	await h.run("what did the first probe say?");
	h.faux.setResponses([]);
	const [search, peek, status] = toolTexts(h).slice(-3) as [string, string, string];
	const context = await slashCommand(h, "/context");
	const tree = await slashCommand(h, "/context tree");
	const details = await slashCommand(h, "/context details");
	return { search, peek, status, context, tree, details, footer: h.ui.statuses.get("pi-fold") ?? "" };
}

/** Every view counts the folds the same way, and lists the early one as summarized by Pi. */
function agree(h: Harness, early: string, seen: Awaited<ReturnType<typeof readsBack>>): void {
	const snap = h.runtime.snapshot(h.host());
	const total = snap.state.folds.size;
	const inWindow = snap.lattice.folds.size;
	const summarized = total - inWindow;
	expect(snap.lattice.get(early)).toBeUndefined();
	expect(summarized).toBeGreaterThan(0);
	// The agent's search finds the early fold's line; peek reads it byte-exact from the store.
	expect(seen.search).not.toContain("No folds on this branch");
	expect(seen.search).toMatch(new RegExp(`^1\\. ${early} · .*\\n.*«probe s1:»`, "m"));
	expect(seen.peek).toContain(probeResultText("s1"));
	// One count, three places, everywhere.
	expect(seen.status).toMatch(new RegExp(`^${early} · span · .* · summarized by Pi, still readable`, "m"));
	// The person's views count the top-level folds, as the list lists them, nested ones beside.
	const forest = foldForest(snap, sourcePresence(h.runtime.store(h.host())));
	const windowTop = snap.lattice.roots.length;
	const summarizedTop = forest.summarized.filter((f) => f.parent === null).length;
	const nested = total > windowTop + summarizedTop ? ` · ${total} counting those nested inside` : "";
	const inWindowWords = windowTop > 0 ? `${windowTop} in the window, ` : "";
	expect(seen.context).toMatch(
		new RegExp(`^Folds: ${inWindowWords}${summarizedTop} summarized by Pi, still readable${nested}$`, "m"),
	);
	// The agent's status counts them the same way, in the same words.
	expect(seen.status).toMatch(
		new RegExp(
			`^Folds: ${inWindowWords}${summarizedTop} summarized by Pi, still readable${nested} · pending marks: `,
			"m",
		),
	);
	expect(seen.context).toMatch(
		new RegExp(
			`^  ${early} · messages · 4 entries · .* · summarized by Pi\n    still readable: "the first two small probes"$`,
			"m",
		),
	);
	// The fold listings fit an 80-column terminal.
	const listed = [...seen.context.split("\n"), ...seen.tree.split("\n")].filter((l) => l.startsWith("  "));
	for (const line of listed) expect(line.length).toBeLessThanOrEqual(78);
	expect(seen.tree).toContain(`${early} · messages · 4 entries`);
	expect(seen.details).toContain(`Folds Pi's compaction summarized: ${summarized}, still readable`);
	expect(seen.details).not.toContain("cannot be shown on this branch");
	const shown = windowTop + summarizedTop;
	expect(seen.footer).toBe(
		`pi-fold: ${shown} fold${shown === 1 ? "" : "s"}${summarizedTop > 0 ? ` (${summarizedTop} summarized by Pi)` : ""}`,
	);
}

/** A 16k TUI session that folded early, then a manual /compact took those folds' entries out of the context. */
async function compactedAfterFolding(persistent = false) {
	const h = await createHarness({
		ui: "tui",
		persistent,
		contextWindow: 16_000,
		compaction: { enabled: true, reserveTokens: 2_000, keepRecentTokens: 600 },
		options: { summarizer: "deterministic" },
	});
	const early = await foldedEarly(h);
	h.script([say("Summary of the session so far."), say("Summary of the turn prefix.")]);
	await h.session.compact();
	return { h, early };
}

describe("folds outlive Pi's native compaction", () => {
	it("a manual /compact: search finds a line of a fold made before it, peek reads it, every view agrees", async () => {
		const { h, early } = await compactedAfterFolding();
		expect(compactions(h)).toBe(1);
		agree(h, early, await readsBack(h, early));
	});

	it("a summarized fold whose source left the store: still readable, rebuilt from the session's entries", async () => {
		const { h, early } = await compactedAfterFolding();
		const state = h.runtime.snapshot(h.host()).state;
		const gone = secondFold(state.folds.values());
		rmSync(blobPath(storeDirOf(h), gone.sourceSha256), { force: true });
		const seen = await readsBack(h, early);
		agree(h, early, seen);
		expect(seen.status).toMatch(
			new RegExp(`^Folds: ${state.folds.size} summarized by Pi, still readable · pending marks: `, "m"),
		);
	});

	it("no copy in the store and an entry gone from the session file: counted once, as unreadable, in every view", async () => {
		const { h: first, early } = await compactedAfterFolding(true);
		const gone = secondFold(first.runtime.snapshot(first.host()).state.folds.values());
		rmSync(blobPath(storeDirOf(first), gone.sourceSha256), { force: true });
		// The session file loses the result of call_s3 (hand-edited, say): its child hangs from its parent now.
		const file = first.sessionFile() as string;
		const lines = readFileSync(file, "utf8").split("\n");
		const at = lines.findIndex((l) => l.includes('"toolCallId":"call_s3"') && l.includes('"role":"toolResult"'));
		const { id, parentId } = JSON.parse(lines[at] as string) as { id: string; parentId: string };
		lines.splice(at, 1);
		writeFileSync(file, lines.map((l) => l.replace(`"parentId":"${id}"`, `"parentId":"${parentId}"`)).join("\n"));
		const h = await createHarness({
			ui: "tui",
			openFile: file,
			sessionDir: first.sessionDir,
			contextWindow: 16_000,
			options: { summarizer: "deterministic" },
		});
		const seen = await readsBack(h, early);
		expect(seen.search).toMatch(new RegExp(`^1\\. ${early} · `, "m"));
		expect(seen.status).toMatch(/^Folds: 1 summarized by Pi, still readable, 1 unreadable · pending marks: /m);
		expect(seen.status).toContain(
			`Unreadable: ${gone.id} (its source (sha256 ${gone.sourceSha256.slice(0, 16)}…) is not in the fold store, and entry ${id} is not on this branch to rebuild it from)`,
		);
		expect(seen.context).toMatch(/^Folds: 1 summarized by Pi, still readable, 1 unreadable$/m);
		expect(seen.context).not.toContain(gone.id);
		expect(seen.details).toContain("Folds Pi's compaction summarized: 1, still readable");
		expect(seen.details).toContain(`Fold ${gone.id} cannot be read: its source`);
		expect(seen.footer).toMatch(/^pi-fold: 2 folds \(1 summarized by Pi\)/);
	});
});

/** The agent's second fold (the next two small probes). */
function secondFold(folds: Iterable<FoldRecord>): FoldRecord {
	const found = [...folds].find((f) => f.brief === "the next two small probes");
	if (!found) throw new Error("no second fold");
	return found;
}

function storeDirOf(h: Harness): string {
	return (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
}

/** Entries outside every fold: protecting them all leaves pi-fold nothing it may fold. */
function rawIds(h: Harness): string[] {
	const snap = h.runtime.snapshot(h.host());
	return snap.view.transcript
		.filter((e) => snap.lattice.innermostAt(snap.lattice.position.get(e.id) ?? -1) === undefined)
		.map((e) => e.id);
}

/**
 * A session at Pi's threshold (reserve 9,000 of a 16k window): `unpaused` has room to fold,
 * `paused` refuses a record first, `protected` protects every raw entry as it lands (nothing foldable).
 */
async function atThreshold(kind: "unpaused" | "paused" | "protected") {
	const h = await createHarness({
		ui: "tui",
		contextWindow: 16_000,
		compaction: { enabled: true, reserveTokens: 9_000, keepRecentTokens: 600 },
		// Results too large for the window would show as excerpts: off where nothing may fold.
		options: { readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic", evidenceIngestion: kind !== "protected" },
	});
	const early = await foldedEarly(h);
	// A record pi-fold cannot verify: replay refuses it, and automatic folding pauses.
	if (kind === "paused")
		h.session.sessionManager.appendCustomEntry(h.runtime.names.decisionEntryType, { kind: "fold", v: 1 });
	const before = h.ui.notices.length;
	const protect = () => callTool({ action: "protect", ids: rawIds(h) });
	const bigs = ["big1", "big2", "big3", "big4", "big5", "big6"].map((k) => callProbes(k));
	scripted(h, [...(kind === "protected" ? bigs.flatMap((b) => [protect, b]) : bigs), say("done")]);
	await h.run("read on");
	h.faux.setResponses([]);
	const threshold = h.runtime.telemetry.view().compactions.recent.filter((c) => c.reason === "threshold");
	const told = h.ui.notices.slice(before).map((n) => n.message);
	return { h, early, threshold, told };
}

describe("Pi compacts only where pi-fold cannot help", () => {
	it("paused: the threshold compaction runs, the human is told in one line why, and the folds stay readable", async () => {
		const { h, early, threshold, told } = await atThreshold("paused");
		expect(h.runtime.pauseReason()).toMatch(/^automatic folding paused: 1 decision record refused/);
		expect(threshold.length).toBeGreaterThan(0);
		expect(threshold.every((c) => c.decision === "passed")).toBe(true);
		expect(compactions(h)).toBeGreaterThan(0);
		const why = told.filter((n) => n.includes("Pi's compaction runs because"));
		expect(why).toHaveLength(threshold.length);
		expect(why[0]).toMatch(
			/^active-context: Pi's compaction runs because automatic folding is paused: 1 decision record refused \(entry \w+: .*\); folds made before it stay readable \(peek, search\)$/,
		);
		expect(why[0]).not.toContain("\n");
		agree(h, early, await readsBack(h, early));
	});

	it("unpaused with room to fold: the same threshold compaction is cancelled", async () => {
		const { h, threshold, told } = await atThreshold("unpaused");
		expect(h.runtime.pauseReason()).toBeNull();
		expect(threshold.length).toBeGreaterThan(0);
		expect(threshold.every((c) => c.decision === "cancelled")).toBe(true);
		expect(compactions(h)).toBe(0);
		expect(told.some((n) => n.includes("Pi's compaction runs because"))).toBe(false);
	});

	it("nothing foldable (every raw entry protected): the threshold compaction runs, and the human is told why", async () => {
		const { h, early, threshold, told } = await atThreshold("protected");
		expect(h.runtime.pauseReason()).toBeNull();
		// Once the last foldable bytes are gone (the newest protect call's batch), Pi's compaction runs.
		const passed = threshold.filter((c) => c.decision === "passed");
		expect(passed.length).toBeGreaterThan(0);
		expect(threshold.at(-1)?.decision).toBe("passed");
		expect(compactions(h)).toBeGreaterThan(0);
		const why = told.filter((n) => n.includes("Pi's compaction runs because"));
		expect(why).toHaveLength(passed.length);
		expect(why[0]).toBe(
			"active-context: Pi's compaction runs because active-context has nothing it could fold losslessly; folds made before it stay readable (peek, search)",
		);
		agree(h, early, await readsBack(h, early));
	});
});
