// What the human at the keyboard sees, in real in-process Pi sessions with a recording UI, each
// view drawn as Pi's TUI draws a notice at 80 columns: `/context` opens with a plain headline (the
// window used, the same figure as Pi's footer; pi-fold's limit; folds; the last commit and what it
// freed), then the folds; `/context details` holds the scheduler and the request counters;
// `/context entries` lists the ids `/fold-context fold` takes; long listings page with the slash
// command for the next page; replies to the human name slash commands, never the agent's JSON; a
// commit shows one line and the footer one item, in the TUI (and RPC) only; the agent's `status`
// keeps the formats the benchmark's agent parses.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resolveStoreDir } from "../../src/store/index.ts";
import { PROBE_READ_ONLY } from "./epoch-helpers.ts";
import {
	allNotices,
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	say,
	slashCommand,
	toolTexts,
} from "./harness.ts";
import { drawn, ENTRY_IDS, FOLD_IDS } from "./screen.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];
const FOLD_ID = /f[0-9a-f]{16}/g;

/** A notice as Pi's TUI draws it at 80 columns (a Text with one column of padding), ids masked. */
function rendered(text: string): string[] {
	return drawn(text, [FOLD_IDS, ENTRY_IDS]);
}

/** Pi's own footer figure now: "15.8% used (31,600 of 128,000 tokens)". */
function footerFigure(h: Harness): string {
	const u = h.ctx().getContextUsage();
	if (!u || u.tokens === null || u.percent === null) throw new Error("no context usage");
	return `${u.percent.toFixed(1)}% used (${u.tokens.toLocaleString("en-US")} of ${u.contextWindow.toLocaleString("en-US")} tokens)`;
}

/** Seven probe batches; the agent folds the first two (one span), then the third (one tool batch). */
async function twoFolds(ui: "tui" | "rpc" | undefined = "tui"): Promise<Harness> {
	const h = await createHarness({ ...(ui ? { ui } : {}), options: { summarizer: "deterministic" } });
	h.script([
		...KEYS.map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes returned filler text" }),
		callTool({ action: "fold", from: "call_c", to: "call_c" }),
		say("done"),
	]);
	await h.run("go");
	return h;
}

describe("/context for the human", () => {
	let h: Harness;
	beforeAll(async () => {
		h = await twoFolds();
	});

	it("opens with a plain headline (Pi's footer figure, pi-fold's limit, folds, the last commit), then the folds", async () => {
		const screen = rendered(await slashCommand(h, "/context"));
		// README's example is this screen (its window figure aside, which varies with the run).
		const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
		const example = /## What you see\n[\s\S]*?```text\n([\s\S]*?)\n {2}```/.exec(readme)?.[1] ?? "";
		const figureless = (l: string) =>
			l.replace(/^ Context window: .*$/, "window").replace(FOLD_ID, "fXXXXXXXXXXXXXXXX");
		expect(example.split("\n").map((l) => figureless(l.replace(/^ {2}/, " ")))).toEqual(screen.map(figureless));
		expect(screen).toEqual([
			` Context window: ${footerFigure(h)}, as in Pi's footer`,
			" pi-fold's limit: 123,904 tokens (96.8%), leaving 4,096 for the reply",
			" Folds: 2 in the window",
			" Last commit: #2 at the end of a turn: folded 1 round of tool calls",
			" Folds, oldest first:",
			"   fXXXXXXXXXXXXXXXX · messages · 4 entries · ~292 tokens · collapsed",
			'     "The first two probes returned filler text"',
			"   fXXXXXXXXXXXXXXXX · tool calls · 2 entries · ~146 tokens · collapsed",
			'     "probe called. 1 tool result, 549 chars"',
			" Read one: /fold-context peek <id> · restore it: /fold-context expand <id>",
			" More: /context details · /context tree · /context entries",
		]);
	});

	it("keeps the scheduler and the request counters behind /context details, in plain words", async () => {
		// pi-fold's estimate, in Pi's tokens (the calibration's overhead and rate), as every figure a person reads.
		const { overhead, rate } = h.runtime.calibration;
		const occupancy = h.runtime.telemetry.view().schedule?.occupancyTokens ?? 0;
		const estimate = Math.round(overhead + occupancy * rate).toLocaleString("en-US");
		const { dir, id } = h.host().session();
		const where = resolveStoreDir({ sessionDir: dir, sessionId: id, storeDirName: h.runtime.names.storeDirName });
		const store = rendered(`Exact originals of the folds are kept in ${where}`);
		// The store's figures depend on how many folds the run made; the line's wording does not.
		const storeFigures = (l: string) =>
			/^ (Fold store|folds: )/.test(l) ? l.replace(/~[\d,]+ tokens/g, "~N tokens").replace(/\d+ blobs/, "N blobs") : l;
		expect(rendered(await slashCommand(h, "/context details")).map(storeFigures)).toEqual([
			` Context window: ${footerFigure(h)}, as in Pi's footer`,
			" pi-fold's limit: 123,904 tokens (96.8%), leaving 4,096 for the reply",
			"   = the model's window 128,000 less 4,096 kept for the reply",
			"     (the model's whole output cap, under Pi's 16,384-token reserve)",
			"   Pi compacts on its own above 111,616 tokens",
			" Scheduling: immediate (each fold lands at the next request)",
			" Last decision, at the end of the agent's run:",
			"   waiting: the window is below the level where pi-fold folds on its own",
			`   its estimate of the next request: ~${estimate} tokens`,
			" Requests since session startup: 10",
			"   7 only added messages to the previous request (its cache stays valid)",
			"   0 repeated it exactly; 2 changed earlier messages, the prompt or the tools",
			"   0 of those changes no commit or compaction explains (should be 0)",
			"   0 missed the provider's cache with nothing changed (the provider's doing)",
			" Fold store: originals of ~N tokens in N blobs (each once); this session's",
			" folds: ~N tokens",
			...store,
			" Back to the summary: /context · settings: /fold-context config",
		]);
	});

	it("lists the unfolded entries with the ids /fold-context fold takes, and those ids fold", async () => {
		const text = await slashCommand(h, "/context entries");
		// Token counts of tool batches depend on usage numbers; the layout does not.
		expect(rendered(text).map((l) => l.replace(/~[\d,]+ tokens/, "~N tokens"))).toEqual([
			` Context window: ${footerFigure(h)}, as in Pi's footer`,
			" pi-fold's limit: 123,904 tokens (96.8%), leaving 4,096 for the reply",
			" Folds: 2 in the window",
			" Last commit: #2 at the end of a turn: folded 1 round of tool calls",
			" Unfolded entries, oldest first; recent ones stay raw:",
			'   eeeeeeee           you: "go" (recent)',
			"   eeeeeeee..eeeeeeee tool calls: probe, ~N tokens",
			"   eeeeeeee..eeeeeeee tool calls: probe, ~N tokens (recent)",
			"   eeeeeeee..eeeeeeee tool calls: probe, ~N tokens (recent)",
			"   eeeeeeee..eeeeeeee tool calls: probe, ~N tokens (recent)",
			"   eeeeeeee..eeeeeeee tool calls: active_context, ~N tokens (recent)",
			"   eeeeeeee..eeeeeeee tool calls: active_context, ~N tokens (recent)",
			'   eeeeeeee           assistant: "done" (recent)',
			" Fold some of them: /fold-context fold <first-id> <last-id> [brief]",
		]);
		const [first, last] =
			/\n {2}([0-9a-f]{8})\.\.([0-9a-f]{8}) tool calls: probe, ~[\d,]+ tokens\n/.exec(text)?.slice(1) ?? [];
		expect(await slashCommand(h, `/fold-context fold ${first} ${last} The fourth probe`)).toMatch(
			/^Folded f[0-9a-f]{16} \(tool calls, 2 entries .*the model sees it after the agent's next turn/,
		);
	});

	it("answers in slash commands, never in the agent's JSON", async () => {
		const id = (toolTexts(h)[0] ?? "").match(FOLD_ID)?.[0] as string;
		const expand = await slashCommand(h, `/fold-context expand ${id}`);
		expect(expand).toContain(`Refold it with /fold-context refold ${id} when done.`);
		const peek = await slashCommand(h, `/fold-context peek ${id} 0 100`);
		// The next page asks for as many bytes as this one did.
		expect(peek.split("\n").at(-1)).toBe(`[more: /fold-context peek ${id} 100 100]`);
		const bad = await slashCommand(h, "/fold-context expand nonsense");
		expect(bad).toBe("/fold-context: id: expected a fold id like f0123456789abcdef");
		for (const reply of [expand, peek, bad]) expect(reply).not.toContain('{"action"');
	});

	it("answers a view it does not know with its usage", async () => {
		expect(await slashCommand(h, "/context everything")).toBe("usage: /context [details | tree | entries] [page]");
		expect(h.ui.notices.at(-1)?.level).toBe("warning");
	});
});

describe("a long fold listing", () => {
	it("pages, naming the slash command for the next page", async () => {
		const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
		const h = await createHarness({ ui: "tui", options: { summarizer: "deterministic" } });
		h.script([
			...keys.map((k) => callProbes(k)),
			callTool(...keys.slice(0, 14).map((k) => ({ action: "fold", from: `call_${k}`, to: `call_${k}` }))),
			say("done"),
		]);
		await h.run("go");
		const first = rendered(await slashCommand(h, "/context"));
		expect(first).toContain(" Folds, oldest first (page 1 of 2):");
		expect(first).toContain(" Next page: /context 2");
		const second = rendered(await slashCommand(h, "/context tree 2"));
		expect(second).toContain(" Every fold, nested, oldest first (page 2 of 2):");
		expect(second.filter((l) => l.startsWith("   fXXXXXXXXXXXXXXXX"))).toHaveLength(2);
		expect(second.some((l) => l.includes("Next page"))).toBe(false);
	});
});

describe("a commit, as the human sees it", () => {
	it("shows one line per commit and a footer item in the TUI", async () => {
		const h = await twoFolds();
		const commits = h.ui.notices.filter((n) => n.message.startsWith("pi-fold folded"));
		expect(commits.map((n) => n.message)).toEqual([
			expect.stringMatching(/^pi-fold folded 1 run of messages, ~\d+ tokens freed\. \/context lists the folds\.$/),
			"pi-fold folded 1 round of tool calls. /context lists the folds.",
		]);
		expect(commits.every((n) => n.level === "info")).toBe(true);
		// No percentage of its own: Pi's footer shows the window's, and a second one could only lag.
		expect(h.ui.statuses.get("pi-fold")).toBe("pi-fold: 2 folds");
	});

	it("carries the commit's cost arithmetic when cost scheduling priced it", async () => {
		const h = await createHarness({
			ui: "tui",
			contextWindow: 16_000,
			options: { foldScheduling: "cost", readOnlyTools: PROBE_READ_ONLY, summarizer: "deterministic" },
		});
		h.script([...Array.from({ length: 10 }, (_, i) => callProbes(`big${i}`)), say("done")]);
		await h.run("go");
		const commits = h.ui.notices.filter((n) => n.message.startsWith("pi-fold folded"));
		expect(commits.length).toBeGreaterThan(0);
		// At this small window the budget forces the commits, and each line says so.
		expect(commits.some((n) => n.message.includes("; forced: the window reached its budget;"))).toBe(true);
		for (const n of commits)
			expect(n.message).toMatch(
				/^pi-fold folded [^;]+, ~[\d,]+ tokens freed(; forced: [^;]+)?; rewrites ~[\d,]+ tokens, (pays back in \d+ requests?|costs nothing extra) at assumed prices \(\$5 \/ \$30 \/ \$0\.50 per M: the model states none\)\. \/context lists the folds\.$/,
			);
		expect(await slashCommand(h, "/context details")).toContain(
			"\nScheduling: cost (marks land together when that is cheaper than waiting)\n",
		);
	});

	it("reaches an RPC client as any extension's notify and status do", async () => {
		const h = await twoFolds("rpc");
		expect(h.ui.notices.filter((n) => n.message.startsWith("pi-fold folded"))).toHaveLength(2);
		expect(h.ui.statuses.get("pi-fold")).toBe("pi-fold: 2 folds");
	});

	it("prints nothing in print mode", async () => {
		const out = vi.spyOn(process.stdout, "write");
		const seen = allNotices.length;
		try {
			await twoFolds(undefined);
			expect(out.mock.calls.map((c) => String(c[0])).filter((s) => s.includes("pi-fold folded"))).toEqual([]);
		} finally {
			out.mockRestore();
		}
		expect(allNotices.slice(seen).filter((s) => s.includes("folded"))).toEqual([]);
	});
});

describe("the agent's status", () => {
	it("keeps the listing formats the benchmark's agent parses", async () => {
		const h = await createHarness({ options: { summarizer: "deterministic" } });
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes" }),
			callTool({ action: "status", detail: "tree" }),
			say("done"),
		]);
		await h.run("go");
		const status = toolTexts(h)[1] ?? "";
		expect(status).toMatch(/^Fold tree \(transcript order\) · page 1\/1:$/m);
		expect(status).toMatch(
			/^f[0-9a-f]{16} · span · depth 0 · parent - · 4 leaves · [\d,]+ bytes · collapsed · "The first two probes"$/m,
		);
		expect(status).toMatch(
			/^Window: [\d,]+ tokens = [\d.]+% of the model's 128,000-token window \(Pi's context usage/m,
		);
	});
});
