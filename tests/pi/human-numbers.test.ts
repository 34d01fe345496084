// One set of numbers, one count, and dollars only at real prices, wherever the person at the
// keyboard looks (issue 22), each view drawn as Pi's TUI draws a notice at 80 columns: a person's
// expand refused in Pi's tokens against pi-fold's limit (the figures /context shows); a cost hold
// whose break-even lies past the limit says so without the number; a commit priced by the settings
// in dollars; folds counted as the listing lists them, nested ones beside; and after a resume,
// `/context` names the last commit from its record.

import { afterAll, describe, expect, it } from "vitest";
import { crowded } from "./crowded.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import { callProbes, callTool, cleanupTempDirs, createHarness, say, slashCommand } from "./harness.ts";
import { drawn, FOLD_IDS } from "./screen.ts";

afterAll(cleanupTempDirs);

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** A notice at 80 columns, fold ids masked. */
function rendered(text: string): string[] {
	return drawn(text, [FOLD_IDS]);
}

describe("a person's expand that would not fit", () => {
	it("is refused in the figures /context shows: Pi's tokens, pi-fold's limit, and what to type instead", async () => {
		const { h, id } = await crowded();
		const used = h.ctx().getContextUsage()?.tokens as number;
		const limit = h.runtime.snapshot(h.host()).budget.budgetTokens;
		const nested = h.runtime
			.snapshot(h.host())
			.lattice.get(id)
			?.children.some((c) => c.type === "fold")
			? ", or expand one of the folds inside it (/context tree lists them)"
			: "";
		const text = await slashCommand(h, `/fold-context expand ${id}`);
		const back = /bring back about ([\d,]+) tokens/.exec(text)?.[1] as string;
		const room = Math.max(0, 0.8 * limit - used);
		expect(text).toBe(
			`expand refused: it would bring back about ${back} tokens. An expand may fill the window to 80% of pi-fold's limit (${fmt(0.8 * limit)} of ${fmt(limit)} tokens); it holds ${fmt(used)} now, as in Pi's footer, and ${room === 0 ? "has no room left below that" : `has room for about ${fmt(room)} more`}. Read it a part at a time instead: /fold-context peek ${id}${nested}`,
		);
		expect(Number(back.replaceAll(",", ""))).toBeGreaterThan(room);
		// The same two figures as the headline, and none of the agent's words.
		const headline = await slashCommand(h, "/context");
		expect(headline).toContain(`(${fmt(used)} of 16,000 tokens), as in Pi's footer`);
		expect(headline).toContain(`pi-fold's limit: ${fmt(limit)} tokens`);
		expect(text).not.toMatch(/offset, bytes|nested folds|serving budget|~/);
		const screen = rendered(text);
		expect(screen[0]).toMatch(/^ expand refused: it would bring back about [\d,]+ tokens\. An expand may fill/);
		expect(screen.at(-1)).toMatch(
			/fXXXXXXXXXXXXXXXX(, or expand one of the folds inside it \(\/context tree lists them\))?$|lists them\)$/,
		);
		expect(h.runtime.snapshot(h.host()).state.expanded.has(id)).toBe(false);
	});
});

describe("cost scheduling, as a person reads it", () => {
	it("never names a break-even past pi-fold's limit", async () => {
		const h = await createHarness({ ui: "tui", options: { foldScheduling: "cost", summarizer: "deterministic" } });
		h.script([callProbes("a"), say("done")]);
		await h.run("go");
		const limit = h.runtime.snapshot(h.host()).budget.budgetTokens;
		const hold = (from: number) =>
			h.runtime.telemetry.recordSchedule({
				at: "end of a turn",
				commit: false,
				reason: `holding: ~3,000 tokens foldable, worth a commit from ~${fmt(from)}`,
				occupancyTokens: 1_000,
				occupancySource: "pi-fold's estimate of the next request",
				waiting: [],
			});
		const waiting = async () =>
			(await slashCommand(h, "/context details")).split("\n").find((l) => l.startsWith("  waiting"));
		const rate = h.runtime.calibration.rate;
		hold(limit * 2);
		expect(await waiting()).toBe(
			`  waiting: ~${fmt(3_000 * rate)} tokens could fold, but folding now costs more than it saves; pi-fold folds them when the window nears its limit`,
		);
		hold(limit / 4);
		expect(await waiting()).toContain(`; it pays once about ${fmt((limit / 4) * rate)} could`);
	});

	it("prices a commit in dollars at the prices the settings give, and says nothing of assumed ones", async () => {
		const h = await createHarness({
			ui: "tui",
			contextWindow: 16_000,
			options: {
				foldScheduling: "cost",
				prices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
				readOnlyTools: PROBE_READ_ONLY,
				summarizer: "deterministic",
			},
		});
		h.script([...Array.from({ length: 10 }, (_, i) => callProbes(`big${i}`)), say("done")]);
		await h.run("go");
		const commits = h.ui.notices.filter((n) => n.message.startsWith("pi-fold folded")).map((n) => n.message);
		expect(commits.length).toBeGreaterThan(0);
		for (const line of commits) {
			expect(line).toMatch(/; rewrites ~[\d,]+ tokens \(\$[\d.]+ over cache reads\), saves \$[\d.]+ a request, /);
			expect(line).not.toContain("assumed");
		}
	});
});

describe("fold counts", () => {
	it("count the folds the listing lists, with those nested inside beside them, and the footer agrees", async () => {
		const h = await createHarness({ ui: "tui", options: { summarizer: "deterministic" } });
		const foldOf = (callId: string) => {
			const s = h.runtime.snapshot(h.host());
			const entry = s.view.transcript.find(
				(e) => e.message.role === "assistant" && JSON.stringify(e.message.content).includes(`"${callId}"`),
			);
			return [...s.state.folds.values()].find((f) => f.leafIds[0] === entry?.id)?.id as string;
		};
		h.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_a" }, { action: "fold", from: "call_b", to: "call_b" }),
			() => callTool({ action: "fold", from: foldOf("call_a"), to: foldOf("call_b"), brief: "Probes a and b" }),
			say("done"),
		]);
		await h.run("go");
		const lines = rendered(await slashCommand(h, "/context"));
		expect(lines[2]).toBe(" Folds: 1 in the window · 3 counting those nested inside");
		expect(lines.filter((l) => l.startsWith("   fXXXXXXXXXXXXXXXX"))).toHaveLength(1);
		expect(h.ui.statuses.get("pi-fold")).toBe("pi-fold: 1 fold");
		const tree = rendered(await slashCommand(h, "/context tree"));
		expect(tree.filter((l) => /^ +fX{16} · /.test(l))).toHaveLength(3);
	});
});

describe("after a resume", () => {
	it("names the last commit from its record, as before the reload", async () => {
		const h1 = await createHarness({ ui: "tui", persistent: true, options: { summarizer: "deterministic" } });
		h1.script([
			...["a", "b", "c", "d", "e", "f", "g"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_a" }),
			say("done"),
		]);
		await h1.run("go");
		const before = rendered(await slashCommand(h1, "/context"))[3];
		expect(before).toBe(" Last commit: #1 at the end of a turn: folded 1 round of tool calls");
		const h2 = await createHarness({
			ui: "tui",
			openFile: h1.sessionFile() as string,
			sessionDir: h1.sessionDir,
			options: { summarizer: "deterministic" },
		});
		const after = rendered(await slashCommand(h2, "/context"));
		expect(after[3]).toBe(before);
		expect(after.join("\n")).not.toContain("reload");
	});
});
