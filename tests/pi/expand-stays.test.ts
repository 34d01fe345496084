// What the agent expands stays (issue 19, item 1), in a real Pi session at a 64k window under
// pi-fold's cost scheduling: once the ladder has folded and the window holds 40% to 65% of its
// serving budget, the agent expands the oldest fold (and, when it holds folds, the first of those):
// the request after each expand shows its entries raw and the folds nested in it as their own briefs,
// and so do the read steps after them (ten at least, and on until the ladder has committed again around them). No rung takes them back (no tool fold, span, or consolidation of the briefs
// the expand showed); both are still expanded at the end, with no refold recorded.

import { afterAll, describe, expect, it } from "vitest";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	conversation,
	createHarness,
	type RecordedRequest,
	say,
	textOf,
} from "./harness.ts";

afterAll(cleanupTempDirs);

const WINDOW = 64_000;

/** The prompt tokens the faux provider billed for a request. */
const promptOf = (r: RecordedRequest | undefined) =>
	r?.usage ? r.usage.input + r.usage.cacheRead + r.usage.cacheWrite : 0;

describe("an accepted expand", () => {
	it("shows at the next request and stays through ten more read steps at a 64k window", async () => {
		const h = await createHarness({
			contextWindow: WINDOW,
			options: { foldScheduling: "cost", summarizer: "deterministic", readOnlyTools: PROBE_READ_ONLY },
		});
		let reads = 0;
		/** What the agent expanded, outer first: the oldest fold, then (when it holds folds) its first. */
		const chain: string[] = [];
		let occupancyAtExpand = 0;
		let after = 0;
		let commitsAtExpand = 0;
		const step = () => {
			const snap = h.runtime.snapshot(h.host());
			if (chain.length === 0) {
				const oldest = snap.lattice.inOrder().find((f) => f.parent === null);
				// Of the serving budget (the window less Pi's reserve), from the last request the provider billed.
				const occupancy = promptOf(h.requests.at(-2)) / snap.budget.budgetTokens;
				if (!oldest || occupancy < 0.4) return callProbes(`big${reads++}`);
				chain.push(oldest.record.id);
				occupancyAtExpand = occupancy;
				commitsAtExpand = snap.view.records.filter((r) => (r.data as { kind?: string }).kind === "commit").length;
				return callTool({ action: "expand", id: oldest.record.id });
			}
			const inner = snap.lattice.get(chain.at(-1) as string)?.children.find((c) => c.type === "fold");
			if (chain.length === 1 && inner) {
				chain.push(inner.id);
				return callTool({ action: "expand", id: inner.id });
			}
			// Ten read steps at least, and on until the ladder has committed again around the expands.
			const commits = snap.view.records.filter((r) => (r.data as { kind?: string }).kind === "commit").length;
			if (after < 10 || (commits <= commitsAtExpand + chain.length && after < 40)) {
				after++;
				return callProbes(`big${reads++}`);
			}
			return say("done");
		};
		h.script(Array.from({ length: 120 }, () => step));
		await h.run("go");
		expect(chain.length).toBeGreaterThan(0);
		expect(after).toBeGreaterThanOrEqual(10);
		expect(occupancyAtExpand).toBeGreaterThanOrEqual(0.4);
		expect(occupancyAtExpand).toBeLessThan(0.65);
		const snap = h.runtime.snapshot(h.host());
		const byId = new Map(snap.view.transcript.map((e) => [e.id, e.message]));
		// What each expand showed: its own entries raw (results by their text), the folds in it as their briefs.
		const shown = chain.map((id) => {
			const children = snap.lattice.get(id)?.children ?? [];
			return {
				id,
				results: children.flatMap((c) =>
					c.type === "entry" && byId.get(c.id)?.role === "toolResult" ? [textOf(byId.get(c.id) as never)] : [],
				),
				briefs: children.flatMap((c) => (c.type === "fold" ? [c.id] : [])),
			};
		});
		expect(shown.flatMap((s) => s.results).length).toBeGreaterThan(0);
		for (const [level, { id, briefs }] of shown.entries()) {
			// Every request from the one right after this expand's result to the last.
			const first = h.requests.findIndex((r) => JSON.stringify(conversation(r)).includes(`Expanding ${id}`));
			expect(first).toBeGreaterThan(0);
			const later = h.requests.slice(first);
			expect(later.length).toBeGreaterThanOrEqual(11);
			for (const r of later) {
				const sent = JSON.stringify(conversation(r));
				expect(sent).not.toContain(`[active-context fold ${id}`);
				for (const text of shown[level]?.results ?? []) expect(sent).toContain(JSON.stringify(text).slice(1, -1));
				// A nested fold the agent did not expand in turn keeps its own brief.
				for (const child of briefs) if (!chain.includes(child)) expect(sent).toContain(`[active-context fold ${child}`);
			}
		}
		// The ladder went on committing meanwhile (one commit landed each expand; more folded around them).
		const expandAt = snap.view.records.findIndex((r) => (r.data as { kind?: string }).kind === "expand");
		const commitsAfter = snap.view.records
			.slice(expandAt)
			.filter((r) => (r.data as { kind?: string }).kind === "commit").length;
		expect(commitsAfter).toBeGreaterThan(chain.length);
		for (const id of chain) {
			expect(snap.state.expanded.has(id)).toBe(true);
			const decided = snap.view.records.filter((r) => (r.data as { foldId?: string }).foldId === id);
			expect(decided.map((r) => (r.data as { kind: string }).kind)).toEqual(["expand"]);
		}
	});
});
