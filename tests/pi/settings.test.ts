// Settings files in real in-process Pi sessions, as an installed user meets them: pi-fold.json in
// Pi's agent directory and in the project's .pi/ change what pi-fold does (the project's only when
// Pi trusts the project), registerPiFold's own options win over both, a file pi-fold cannot use is
// reported once in the UI naming the file, the field and the valid values while pi-fold runs
// without it, and `/fold-context config` shows every effective option and where it came from.

import { afterAll, describe, expect, it } from "vitest";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	say,
	slashCommand,
	toolTexts,
} from "./harness.ts";
import { drawn, TMP_DIRS } from "./screen.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];

/** Seven probe batches, then the agent folds the first two. */
function foldScript(h: Harness): void {
	h.script([
		...KEYS.map((k) => callProbes(k)),
		callTool({ action: "fold", from: "call_a", to: "call_b", brief: "The first two probes returned filler text" }),
		say("done"),
	]);
}

/** A notice as Pi's TUI draws it at 80 columns (a Text with one column of padding), ids and paths masked. */
function rendered(text: string): string[] {
	return drawn(text, [TMP_DIRS]);
}

describe("the global settings file", () => {
	it("changes what pi-fold does for an installed user (epoch scheduling: a fold becomes a mark)", async () => {
		const h = await createHarness({
			ui: "tui",
			settingsFiles: { global: '{"foldScheduling": "epoch", "summarizer": "deterministic"}' },
		});
		foldScript(h);
		await h.run("go");
		expect(toolTexts(h)[0]).toMatch(/^Marked f[0-9a-f]{16} /);
		expect(h.session.getToolDefinition("active_context")?.description).toContain("unmark");
	});

	it("is reported once, naming the file, the field and the valid values, and pi-fold runs on the defaults", async () => {
		const h = await createHarness({ ui: "tui", settingsFiles: { global: '{"foldScheduling": "epok"}' } });
		foldScript(h);
		await h.run("go");
		const warnings = h.ui.notices.filter((n) => n.level === "warning");
		expect(warnings).toHaveLength(1);
		expect(warnings[0]?.message).toMatch(
			/^pi-fold: \/tmp\/.*\/agent\/pi-fold\.json ignored: foldScheduling: "epok" is not valid; valid: "cost", "immediate" or "epoch"\. pi-fold runs without this file's settings; \/fold-context config shows what is in effect\.$/,
		);
		expect(h.runtime.options.foldScheduling).toBe("cost");
		expect(h.errors).toEqual([]);
	});
});

describe("the project settings file", () => {
	it("wins over the global file when Pi trusts the project, and the tool is registered again to match", async () => {
		const h = await createHarness({
			ui: "tui",
			settingsFiles: {
				global: '{"foldScheduling": "epoch"}',
				project: '{"foldScheduling": "immediate", "summarizer": "deterministic"}',
			},
		});
		foldScript(h);
		await h.run("go");
		expect(toolTexts(h)[0]).toMatch(/^Folded f[0-9a-f]{16} /);
		expect(h.session.getToolDefinition("active_context")?.description).not.toContain("unmark");
	});

	it("is not read in a project Pi does not trust, and the human is told so", async () => {
		const h = await createHarness({
			ui: "tui",
			projectTrusted: false,
			settingsFiles: { project: '{"foldScheduling": "immediate"}' },
		});
		foldScript(h);
		await h.run("go");
		// The default (cost scheduling: a fold is a mark), not the project's immediate scheduling.
		expect(toolTexts(h)[0]).toMatch(/^Marked f[0-9a-f]{16} /);
		expect(h.ui.notices.map((n) => n.message)).toContainEqual(
			expect.stringMatching(/pi-fold: .*\/cwd\/\.pi\/pi-fold\.json not read: Pi does not trust this project/),
		);
	});
});

describe("/fold-context config", () => {
	// The whole view, line by line, is pinned in tests/pi/human-commands.test.ts; here: the sources.
	it("shows where each effective option came from, at 80 columns", async () => {
		const h = await createHarness({
			ui: "tui",
			options: { summarizer: "deterministic" },
			settingsFiles: {
				global: '{"foldScheduling": "epoch", "summarizer": "session", "readOnlyTools": ["read"]}',
				project: '{"providerTotalWindow": 120000}',
			},
		});
		const lines = rendered(await slashCommand(h, "/fold-context config"));
		for (const line of [
			'   summarizer           extension     "deterministic"',
			'   foldScheduling       global file   "epoch"',
			"   providerTotalWindow  project file  120000",
			'   readOnlyTools        global file   ["read"]',
			"   keepRawTokens        default       10000",
			"   global   <tmp>/agent/pi-fold.json: read, 3 settings",
			"   project  <tmp>/cwd/.pi/pi-fold.json: read, 1 setting",
		])
			expect(lines).toContain(line);
		expect(lines.every((line) => line.length <= 80)).toBe(true);
	});
});
