// What the person at the keyboard sees of `/fold-context` itself (issue 22 items 9, 11b, 12), in
// real in-process Pi sessions with a recording UI, each notice drawn as Pi's TUI draws it at 80
// columns: `/fold-context config` gives each option a Pi user sets one plain line and keeps the
// internals behind `config all`; a subcommand it does not know is named in the usage; fold ids
// tab-complete after expand, refold, peek and unmark; both commands' descriptions fit Pi's
// command list at 80 columns; a damaged fold original is refused with what to do next.

import { renameSync } from "node:fs";
import { join } from "node:path";
import { SelectList, Text } from "@earendil-works/pi-tui";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPTION_HELP } from "../../src/options/index.ts";
import { expectReadmeExample } from "../helpers/readme-block.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	type Harness,
	say,
	slashCommand,
	tamperBlob,
	tempDir,
} from "./harness.ts";
import { drawn, FOLD_IDS, TMP_DIRS } from "./screen.ts";

afterAll(cleanupTempDirs);

const KEYS = ["a", "b", "c", "d", "e", "f", "g"];

/** A notice as Pi's TUI draws it at 80 columns (a Text with one column of padding), ids and paths masked. */
function rendered(text: string): string[] {
	return drawn(text, [TMP_DIRS, FOLD_IDS]);
}

/** Pi's registered command `name` (what its editor completes and lists). */
function command(h: Harness, name: string) {
	const found = h.session.extensionRunner.getRegisteredCommands().find((c) => c.name === name);
	if (!found) throw new Error(`no command ${name}`);
	return found;
}

/** The values the editor offers after `/fold-context <prefix>`. */
async function completions(h: Harness, prefix: string): Promise<string[] | null> {
	const items = await command(h, "fold-context").getArgumentCompletions?.(prefix);
	return items ? items.map((i) => i.value) : null;
}

describe("/fold-context config", () => {
	let h: Harness;
	beforeAll(async () => {
		h = await createHarness({
			ui: "tui",
			options: { summarizer: "deterministic" },
			settingsFiles: {
				global: '{"foldScheduling": "epoch", "readOnlyTools": ["read"]}',
				project: '{"providerTotalWindow": 120000}',
			},
		});
	});

	it("gives each option a Pi user sets its value, where it came from and one plain line", async () => {
		expect(rendered(await slashCommand(h, "/fold-context config"))).toEqual([
			" pi-fold settings (this project's pi-fold.json beats the global one):",
			'   toolName             default       "active_context"',
			"       the name of the context tool the model calls",
			'   toolLabel            default       "Active Context"',
			"       the context tool's name as Pi shows it in the transcript",
			'   commandPrefix        default       ""',
			'       a prefix for both commands ("my": /my-context, /my-fold-context)',
			'   commandNames         default       {"status": "context",',
			'                                      "fold": "fold-context"}',
			"       the two slash commands' names, instead of commandPrefix",
			'   summarizer           extension     "deterministic"',
			'       who writes briefs: "session" (this model), "deterministic" or a model',
			'   foldScheduling       global file   "epoch"',
			'       when folds land: "cost" (when it pays), "immediate" or "epoch" (80%)',
			"   keepRawTokens        default       10000",
			"       tokens of the newest context a commit leaves unfolded",
			"   prices               default       the model's prices",
			"       dollars per million tokens for pi-fold's choices, if not the model's",
			"   cacheTtlMs           default       the model's cache lifetime",
			"       how long the provider keeps its prompt cache (ms), if not the model's",
			"   foldPeekResults      default       true",
			"       whether a peek at a fold's original may itself fold away later",
			"   providerTotalWindow  project file  120000",
			"       the context window in tokens, instead of the model's",
			'   toolActions          default       ["status", "peek", "search", "fold",',
			'                                      "expand", "refold", "protect",',
			'                                      "unprotect", "rebrief", "reboundary",',
			'                                      "unmark"]',
			"       the actions the context tool offers the model",
			'   readOnlyTools        global file   ["read"]',
			"       the tools whose finished calls pi-fold may fold on its own",
			"   evidenceIngestion    default       true",
			"       a tool result too big for the window shows as an excerpt, kept whole",
			" Settings files:",
			"   global   <tmp>/agent/pi-fold.json: read, 2 settings",
			"   project  <tmp>/cwd/.pi/pi-fold.json: read, 1 setting",
			" Internals (record names, hooks for other extensions): /fold-context config all",
			" A project file cannot set toolName, toolLabel, commandPrefix, commandNames,",
			" entryTypePrefix.",
			" After editing a settings file, /reload applies it.",
		]);
	});

	it("words every option's line to fit 80 columns under its name", () => {
		for (const [key, line] of Object.entries(OPTION_HELP)) expect(line.length, key).toBeLessThanOrEqual(72);
	});

	it("keeps the internals behind config all, each with its own line", async () => {
		const plain = await slashCommand(h, "/fold-context config");
		const all = rendered(await slashCommand(h, "/fold-context config all"));
		for (const internal of ["brandNoun", "entryTypePrefix ", "setProjectionProvider", "setSuggestionSourceRegistrar"]) {
			expect(plain).not.toMatch(new RegExp(`^ +${internal}`, "m"));
			expect(all.some((line) => line.startsWith(`   ${internal}`))).toBe(true);
		}
		const at = all.findIndex((line) => line.startsWith("   setSuggestionSourceRegistrar"));
		expect(all.slice(at, at + 2)).toEqual([
			"   setSuggestionSourceRegistrar  default       not set",
			"       for another extension's code: registers fold suggestions",
		]);
		expect(all).toContain(" Only an extension's code (registerPiFold) can set summarizeContextSpan,");
		expect(all.every((line) => line.length <= 80)).toBe(true);
		expect(all.join("\n")).not.toMatch(/code beats/);
	});
});

describe("a settings file with a typo", () => {
	it("is reported naming the file, the field and every valid value (README's example)", async () => {
		const h = await createHarness({ ui: "tui", settingsFiles: { global: '{"foldScheduling": "epok"}' } });
		h.script([say("ok")]);
		await h.run("go");
		const [warning] = h.ui.notices.filter((n) => n.level === "warning").map((n) => n.message);
		const shown = (warning ?? "").replace(/\/tmp\/\S*\/agent\//, "~/.pi/agent/");
		const lines = new Text(shown, 1, 0).render(80).map((line) => line.trimEnd().slice(1));
		expect(lines.join(" ")).toContain('foldScheduling: "epok" is not valid; valid: "cost", "immediate" or "epoch".');
		expectReadmeExample("settings-typo", lines);
	});
});

describe("/fold-context with words it does not take", () => {
	let h: Harness;
	beforeAll(async () => {
		h = await createHarness({ ui: "tui", options: { summarizer: "deterministic" } });
	});

	it("names the unknown subcommand, then lists every subcommand with what it does", async () => {
		expect(rendered(await slashCommand(h, "/fold-context frob"))).toEqual([
			' /fold-context: "frob" is not a subcommand. Subcommands of /fold-context:',
			"   fold <first-id> [last-id] [brief...]  fold entries (ids: /context entries)",
			"   expand <fold-id>                      bring a fold's original back",
			"   expand-all                            bring every fold back",
			"   refold <fold-id>                      fold an expanded fold again",
			"   peek <fold-id> [offset] [bytes]       read part of a fold's original",
			"   unmark <fold-id>                      withdraw a fold not yet landed",
			"   search [--page <n>] <text>            search the folded history",
			"   adopt                                 accept records held for review",
			"   config [all]                          show the settings",
		]);
	});

	it("says what is missing or extra, on the first line", async () => {
		const first = async (line: string) => rendered(await slashCommand(h, line))[0];
		expect(await first("/fold-context")).toBe(" /fold-context needs a subcommand. Subcommands of /fold-context:");
		expect(await first("/fold-context expand")).toBe(
			" /fold-context expand needs a fold id (/context lists them). Subcommands of",
		);
		expect(await first("/fold-context peek fabc 10 x")).toBe(
			' /fold-context peek: "x" is not a number (offset and bytes are). Subcommands of',
		);
		expect(await first("/fold-context config everything")).toBe(
			' /fold-context config: unexpected "everything". Subcommands of /fold-context:',
		);
	});
});

describe("tab completion of fold ids", () => {
	it("offers the folds expand, refold and peek take, and the marks unmark takes", async () => {
		const h = await createHarness({
			ui: "tui",
			options: { summarizer: "deterministic", foldScheduling: "immediate" },
		});
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b" }),
			callTool({ action: "fold", from: "call_c", to: "call_c" }),
			say("done"),
		]);
		await h.run("go");
		const folds = [...h.runtime.sync(h.host()).folds.keys()];
		expect(folds).toHaveLength(2);
		const [first, second] = folds as [string, string];
		expect(await completions(h, "exp")).toEqual(["expand ", "expand-all "]);
		expect((await completions(h, "expand "))?.sort()).toEqual([`expand ${first}`, `expand ${second}`].sort());
		expect(await completions(h, `peek ${first.slice(0, 12)}`)).toEqual([`peek ${first}`]);
		expect(await completions(h, "refold ")).toBeNull();
		await slashCommand(h, `/fold-context expand ${first}`);
		h.script([say("ok")]);
		await h.run("next");
		expect(await completions(h, "refold ")).toEqual([`refold ${first}`]);
		expect(await completions(h, "expand ")).toEqual([`expand ${second}`]);
		expect(await completions(h, `expand ${second} `)).toBeNull();
	});

	it("offers a pending mark after unmark (epoch scheduling)", async () => {
		const h = await createHarness({ ui: "tui", options: { summarizer: "deterministic", foldScheduling: "epoch" } });
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b" }),
			say("done"),
		]);
		await h.run("go");
		const marks = [...h.runtime.sync(h.host()).pendingMarks.keys()];
		expect(marks).toHaveLength(1);
		expect(await completions(h, "unmark ")).toEqual([`unmark ${marks[0]}`]);
	});
});

describe("the commands in Pi's command list", () => {
	it("show their whole description at 80 columns", async () => {
		const h = await createHarness({ ui: "tui" });
		const theme = {
			selectedPrefix: (s: string) => s,
			selectedText: (s: string) => s,
			description: (s: string) => s,
			scrollInfo: (s: string) => s,
			noMatch: (s: string) => s,
		};
		for (const name of ["context", "fold-context"]) {
			const { description = "" } = command(h, name);
			// Pi's slash-command list: the name column is at most 32 wide (pi-tui's editor layout).
			const list = new SelectList([{ value: name, label: name, description }], 5, theme, {
				minPrimaryColumnWidth: 32,
				maxPrimaryColumnWidth: 32,
			});
			const [line = ""] = list.render(80);
			expect(line.trimEnd(), name).toBe(`→ ${name.padEnd(32)}${description}`);
		}
	});
});

describe("a damaged fold original", () => {
	it("is refused naming the fold, and says what to do next", async () => {
		const h = await createHarness({ ui: "tui", options: { summarizer: "deterministic", foldScheduling: "immediate" } });
		h.script([
			...KEYS.map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_a", to: "call_b" }),
			say("done"),
		]);
		await h.run("go");
		const fold = h.runtime.sync(h.host()).folds.values().next().value;
		if (!fold) throw new Error("no fold");
		const storeDir = (h.runtime.store(h.host()) as unknown as { dir: string }).dir;
		tamperBlob(storeDir, fold.sourceSha256, "forged\n");
		const raw = await slashCommand(h, `/fold-context expand ${fold.id}`);
		const lines = rendered(raw);
		expect(lines[0]).toMatch(/^ expand refused: fold fXXXXXXXXXXXXXXXX: stored source failed verification:/);
		// The file to move and the store to verify, whole (the TUI breaks long paths across lines).
		const blob = `${storeDir}/sha256/${fold.sourceSha256.slice(0, 2)}/${fold.sourceSha256}`;
		expect(raw).toContain(`nothing from it was returned.\nWhat to do: move ${blob} out of the fold store;`);
		expect(raw).toContain(`\`npx pi-fold verify ${storeDir}\` names every other damaged file in the store.`);
		expect(raw.replace(/\s+/g, " ")).toContain(
			`pi-fold then rebuilds the original from this session's own entries, checked against the same SHA-256, and /fold-context expand ${fold.id} works again`,
		);
		expect(lines.every((line) => line.length <= 80)).toBe(true);
		// expand-all names the fold it leaves folded, with the same next step.
		const all = await slashCommand(h, "/fold-context expand-all");
		expect(all).toMatch(
			/^Not expanded: fold f[0-9a-f]{16}: stored source failed verification: .*It stays folded, with any folds inside it\.$/m,
		);
		expect(all).toContain(`\nWhat to do: move ${blob} out of the fold store;`);
		expect(rendered(all).every((line) => line.length <= 80)).toBe(true);
		// Doing what it says works: with the damaged file moved out, the expand succeeds.
		renameSync(blob, join(tempDir("pi-fold-damaged-"), "blob"));
		const again = await slashCommand(h, `/fold-context expand ${fold.id}`);
		expect(again).not.toMatch(/refused/);
		expect(again).toContain(fold.id);
	});
});
