// `/fold-context expand-all` in a real in-process Pi session: every fold of the branch restored at
// the agent's next turn boundary, as every human decision lands (the request after it holds no
// placeholder and every original), nested
// folds and a fold whose store blob is gone included; a second run finds nothing to do; `refold`
// undoes one. The faux provider, nothing mocked.

import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { blobPath } from "../../src/verify/layout.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	probeResultText,
	type RecordedRequest,
	say,
	slashCommand,
	textOf,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const PAUSED =
	"Automatic folding is paused until pi-fold is loaded again (/reload or a restart), so nothing folds before you uninstall it; folds you ask for still work.";

const KEYS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];

/** The messages of a request that are pi-fold placeholders (a brief with how to peek and expand it). */
function placeholders(r: RecordedRequest): string[] {
	return conversation(r)
		.map((m) => textOf(m))
		.filter((t) => t.includes('expand: active_context {"action":"expand"'));
}

describe("/fold-context expand-all", () => {
	it("restores every fold after the next turn, nested ones and one whose blob is gone included", async () => {
		const h = await createHarness({ ui: "tui", options: { summarizer: "deterministic" } });
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool(
				{ action: "fold", from: "call_a", to: "call_a" },
				{ action: "fold", from: "call_b", to: "call_b" },
				{ action: "fold", from: "call_d", to: "call_e", brief: "Probes d and e." },
			),
			callTool({ action: "fold", from: "call_a", to: "call_c", brief: "Probes a to c." }),
			say("folded"),
		]);
		await h.run("go");
		const snap = h.runtime.snapshot(h.host());
		expect(snap.state.folds.size).toBe(4);
		expect([...snap.lattice.folds.values()].some((f) => f.parent !== null)).toBe(true);
		const before = h.requests.at(-1) as RecordedRequest;
		expect(placeholders(before)).toHaveLength(2);
		// One fold's blob is gone: its source comes from the session's entries.
		const dir = (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
		const gone = [...snap.state.folds.values()].find((f) => f.brief === "Probes d and e.");
		if (!gone) throw new Error("no fold of d and e");
		rmSync(blobPath(dir, gone.sourceSha256));

		const reply = await slashCommand(h, "/fold-context expand-all");
		expect(reply).toBe(
			"Expanding 2 folds (4 counting those nested inside). The model sees the original entries after the agent's next turn; undo one with /fold-context refold <fold-id>.\n" +
				PAUSED,
		);
		h.script([callProbes("k"), say("done")]);
		await h.run("go on");
		// A human's decision lands at the agent's next turn boundary (Pi appends context edits only
		// there): the request of that turn still shows the folds, the one after it shows none.
		expect(placeholders(h.requests.at(-2) as RecordedRequest)).toHaveLength(2);
		const after = h.requests.at(-1) as RecordedRequest;
		expect(placeholders(after)).toEqual([]);
		for (const k of KEYS) expect(JSON.stringify(after.messages)).toContain(probeResultText(k));
		expect(h.runtime.snapshot(h.host()).state.expanded.size).toBe(4);
		expect(h.runtime.telemetry.view().counters.unattributedRewrites).toBe(0);
		// The human's /context says why nothing folds on its own any more; it and the footer count the
		// folds as the reply did, and say they are expanded.
		const context = await slashCommand(h, "/context");
		expect(context).toContain("Automatic folding is paused: /fold-context expand-all asked for the session whole");
		expect(context).toMatch(/^Folds: 2 in the window \(2 expanded\) · 4 counting those nested inside$/m);
		expect(h.ui.statuses.get("pi-fold")).toBe("pi-fold: 2 folds, 2 expanded");
		expect(await slashCommand(h, "/fold-context expand-all")).toBe(
			`Nothing to expand: all 2 folds (4 counting those nested inside) on this branch are already expanded.\n${PAUSED}`,
		);
	});

	it("names a fold whose source cannot be verified and leaves it folded with the folds inside it", async () => {
		const h = await createHarness({ ui: "tui", options: { summarizer: "deterministic" } });
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: "Probes a and b." }),
			say("folded"),
		]);
		await h.run("go");
		const fold = h.runtime.snapshot(h.host()).state.folds.values().next().value;
		if (!fold) throw new Error("no fold");
		const dir = (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
		rmSync(blobPath(dir, fold.sourceSha256));
		// The session's own copy of a folded result changed (in memory, as a hand-edited file would be).
		const entry = h.session.sessionManager
			.getBranch()
			.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolCallId === "call_a");
		if (entry?.type !== "message" || entry.message.role !== "toolResult") throw new Error("no result a");
		entry.message.content = [{ type: "text", text: "probe a: forged" }];
		const reply = await slashCommand(h, "/fold-context expand-all");
		expect(reply).toContain(`Not expanded: fold ${fold.id}: its source is not in the store`);
		expect(reply).toContain(`expected sha256 ${fold.sourceSha256}`);
		expect(reply).toContain("It stays folded, with any folds inside it.");
		expect(h.runtime.snapshot(h.host()).state.expanded.size).toBe(0);
	});
});

describe("/fold-context expand-all under cost scheduling", () => {
	it("restores the ladder's folds after the next turn, and folds nothing new in their place", async () => {
		const h = await createHarness({
			ui: "tui",
			contextWindow: 64_000,
			options: { foldScheduling: "cost", summarizer: "deterministic", readOnlyTools: PROBE_READ_ONLY },
		});
		let reads = 0;
		let after = false;
		let small = 0;
		// Reads until the ladder has folded; after expand-all, five more reads (nothing folds again) and a reply.
		const step = () => {
			if (after) return small++ < 5 ? callProbes(`more${small}`) : say("done");
			const folds = h.runtime.snapshot(h.host()).state.folds.size;
			return folds === 0 && reads < 60 ? callProbes(`big${reads++}`) : say("enough");
		};
		h.script(Array.from({ length: 64 }, () => step));
		await h.run("go");
		const folds = h.runtime.snapshot(h.host()).state.folds.size;
		const top = h.runtime.snapshot(h.host()).lattice.roots.length;
		expect(folds).toBeGreaterThan(0);
		expect(placeholders(h.requests.at(-1) as RecordedRequest).length).toBeGreaterThan(0);
		const reply = await slashCommand(h, "/fold-context expand-all");
		// Counted as /context counts them: the top-level folds, every fold beside when some are nested.
		expect(reply).toMatch(
			new RegExp(`^Expanding ${top} folds?${folds > top ? ` \\(${folds} counting those nested inside\\)` : ""}\\. `),
		);
		after = true;
		await h.run("go on");
		const last = h.requests.at(-1) as RecordedRequest;
		expect(placeholders(last)).toEqual([]);
		for (let i = 0; i < reads; i++) expect(JSON.stringify(last.messages)).toContain(probeResultText(`big${i}`));
		expect(h.runtime.snapshot(h.host()).state.expanded.size).toBe(folds);
	});
});
