// `/fold-context expand-all` on the simulator (no Pi), with every blob dropped from the fold store
// so each source is rebuilt from the session's entries: in each scheduling mode, folds the human
// made are all restored one boundary later (the window holds no placeholder and every original
// message, byte for byte), and nothing folds again at that boundary (automatic folding pauses); a
// session folded by the ladder to fit a 64k window, whole again, would not fit, and the reply says so.

import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../src/options/index.ts";
import { FoldRuntime, runFoldCommand } from "../../src/runtime/index.ts";
import { drive, MemoryStore, SimSession, syntheticSession } from "../../src/simulate/index.ts";
import { contentText } from "../../src/transcript/index.ts";

type Mode = "cost" | "immediate" | "epoch";

async function simulated(mode: Mode, contextWindow: number) {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(resolveOptions({ foldScheduling: mode, summarizer: "deterministic" }), () => store);
	const session = new SimSession({ model: { contextWindow, maxTokens: 8_192 } });
	const messages = syntheticSession({ seed: 5, prompts: 2, turnsPerPrompt: 24, resultChars: [1_500, 9_000] });
	const result = await drive(runtime, session, messages);
	expect(result.errors).toEqual([]);
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	const boundary = async () => {
		const drafts = await runtime.boundary(host, "turn_end", session.llmMessages());
		if (drafts) session.applyDrafts(drafts);
	};
	const emptyStore = () => {
		for (const fold of runtime.snapshot(host).known.values()) store.remove(fold.sourceSha256);
	};
	return { runtime, session, host, boundary, emptyStore };
}

const placeholders = (messages: readonly { content?: unknown }[]) =>
	messages.filter((m) => contentText(m.content as never).includes('{"action":"expand","id":"f'));

describe("expand-all on the simulator, with the fold store emptied", () => {
	it.each(["cost", "immediate"] as const)("restores every fold under %s scheduling", async (mode) => {
		const { runtime, session, host, boundary, emptyStore } = await simulated(mode, 1_000_000);
		// The human folds three spans (one inside another), and they land.
		const ids = runtime.snapshot(host).view.transcript.map((e) => e.id);
		for (const [from, to] of [
			[2, 9],
			[2, 5],
			[20, 31],
		] as const)
			await runFoldCommand(runtime, host, `fold ${ids[from]} ${ids[to]}`);
		await boundary();
		// Cost scheduling's ladder folds more of its own.
		const folds = runtime.snapshot(host).lattice.folds.size;
		const top = runtime.snapshot(host).lattice.roots.length;
		expect(folds).toBeGreaterThanOrEqual(3);
		expect(placeholders(session.llmMessages()).length).toBeGreaterThan(0);
		emptyStore();
		const reply = await runFoldCommand(runtime, host, "expand-all");
		expect(reply).toMatchObject({ level: "info" });
		// Under cost scheduling a fold may still wait as a mark: withdrawn, so nothing folds later.
		expect("text" in reply && reply.text).toMatch(
			new RegExp(
				`^Expanding ${top} folds? \\(${folds} counting those nested inside\\)(; withdrew \\d+ pending marks? \\(not yet folded in the window\\))?\\. The model sees`,
			),
		);
		await boundary();
		const window = session.llmMessages();
		expect(placeholders(window)).toEqual([]);
		const shown = new Set(window.map((m) => JSON.stringify(m.content)));
		for (const entry of runtime.snapshot(host).view.transcript)
			expect(shown.has(JSON.stringify(entry.message.content)), entry.id).toBe(true);
		expect(runtime.snapshot(host).state.expanded.size).toBe(folds);
	});

	it("withdraws epoch scheduling's pending marks, which would fold again at a later commit", async () => {
		const { runtime, host, boundary } = await simulated("epoch", 1_000_000);
		const ids = runtime.snapshot(host).view.transcript.map((e) => e.id);
		await runFoldCommand(runtime, host, `fold ${ids[2]} ${ids[9]}`);
		await runFoldCommand(runtime, host, `fold ${ids[20]} ${ids[31]}`);
		await boundary();
		expect(runtime.snapshot(host).state.pendingMarks.size).toBe(2);
		expect(await runFoldCommand(runtime, host, "expand-all")).toEqual({
			text: "Withdrew 2 pending marks (not yet folded in the window).\nAutomatic folding is paused until pi-fold is loaded again (/reload or a restart), so nothing folds before you uninstall it; folds you ask for still work.",
			level: "info",
		});
		expect(runtime.snapshot(host).state.pendingMarks.size).toBe(0);
	});

	it("says when the session whole would not fit pi-fold's budget, and that Pi's compaction will make it fit", async () => {
		const { runtime, host, emptyStore } = await simulated("cost", 64_000);
		expect(runtime.snapshot(host).lattice.folds.size).toBeGreaterThan(0);
		emptyStore();
		const reply = await runFoldCommand(runtime, host, "expand-all");
		expect(reply).toMatchObject({ level: "warning" });
		expect("text" in reply && reply.text).toMatch(
			/\nThe session whole would be about [\d,]+ tokens, more than pi-fold's limit of [\d,]+ tokens \(as \/context shows it\): Pi's own compaction will summarize the oldest part to make it fit, as it would without pi-fold\.\nAutomatic folding is paused/,
		);
	});
});
