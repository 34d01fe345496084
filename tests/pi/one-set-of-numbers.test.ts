// One set of numbers for the person at the keyboard, each reply drawn as Pi's TUI draws a notice at
// 80 columns: a search excerpt keeps its source's own characters (a line of code keeps its braces,
// commas and quotes; only the JSON around it goes); a person's peek reads all the bytes it asks for,
// since it is only shown, never sent (the agent's peek of the same fold is trimmed to the window's
// room); and expand-all after a compaction says its outcome in one line, folds counted as /context
// counts them, with the limit /context shows.

import { afterAll, describe, expect, it } from "vitest";
import { expandAllText } from "../../src/runtime/expand-all.ts";
import { createProbeTool } from "../helpers/pi-session.ts";
import { crowded } from "./crowded.ts";
import {
	callProbes,
	callTool,
	cleanupTempDirs,
	createHarness,
	probeResultText,
	say,
	slashCommand,
	toolTexts,
} from "./harness.ts";
import { drawn, FOLD_IDS } from "./screen.ts";

afterAll(cleanupTempDirs);

const CODE = 'const config = {"name": "pi-fold", "tags": ["a", "b"], "size": 3};\nexport default config;';

describe("a person's search", () => {
	it("shows the excerpt with the source's own characters", async () => {
		const probe = createProbeTool((key) => (key === "code" ? CODE : probeResultText(key)));
		const h = await createHarness({ ui: "tui", probe, options: { summarizer: "deterministic" } });
		h.script([
			callProbes("code"),
			...["a", "b", "c", "d", "e"].map((k) => callProbes(k)),
			callTool({ action: "fold", from: "call_code", to: "call_code", brief: "the config file's text" }),
			say("done"),
		]);
		await h.run("go");
		const text = await slashCommand(h, "/fold-context search tags");
		const screen = drawn(text, [FOLD_IDS]);
		const excerpt = screen.find((l) => l.includes("«tags»"));
		expect(excerpt).toBe('    …const config = {"name": "pi-fold", "«tags»": ["a", "b"], "size": 3};…');
		expect(screen.every((l) => l.length <= 80)).toBe(true);
	});
});

describe("a person's peek", () => {
	it("reads all the bytes asked for, where the agent's is trimmed to the window's room", async () => {
		const { h, id } = await crowded();
		// The agent's peek of 12,000 bytes is trimmed: the window has no room for it.
		h.script([callTool({ action: "peek", id, bytes: 12_000 }), say("ok")]);
		await h.run("look");
		expect(toolTexts(h).at(-1)).toMatch(/trimmed to [\d,]+ of the 12,000 bytes asked/);
		// The person's is not: it is drawn on the screen, never sent.
		const text = await slashCommand(h, `/fold-context peek ${id} 0 12000`);
		const screen = drawn(text, [FOLD_IDS]);
		expect(screen[0]).toMatch(/^ Fold fX{16}, bytes 0-12,000 of [\d,]+, exact original \(SHA-256$/);
		expect(text).not.toMatch(/trimmed|no room/);
	});
});

describe("expand-all after Pi's compaction summarized many folds", () => {
	it("says its outcome in one line, folds counted as /context counts them, and /context's limit", () => {
		const unplaced = Array.from({ length: 49 }, (_, i) => ({
			id: `f${i.toString(16).padStart(16, "0")}`,
			reason: `entry ${i.toString(16).padStart(8, "0")} is no longer in the context`,
		}));
		const plan = { expand: ["fa", "fb", "fc"], open: [], refused: [], marks: [], unplaced, growth: 900 };
		const text = expandAllText(
			plan,
			"fold-context",
			{ expandTop: 2, openTop: 0, unplacedTop: 11 },
			{ whole: 27_418, budget: 25_904 },
		);
		expect(drawn(text)).toEqual([
			" Expanding 2 folds (3 counting those nested inside); 11 folds (49 counting",
			" those nested inside) not expanded: Pi's compaction summarized their entries,",
			" so there is no place to restore them (/fold-context peek <fold-id> still reads",
			" each; /context lists them). The model sees the original entries after the",
			" agent's next turn; undo one with /fold-context refold <fold-id>.",
			" The session whole would be about 27,418 tokens, more than pi-fold's limit of",
			" 25,904 tokens (as /context shows it): Pi's own compaction will summarize the",
			" oldest part to make it fit, as it would without pi-fold.",
			" Automatic folding is paused until pi-fold is loaded again (/reload or a",
			" restart), so nothing folds before you uninstall it; folds you ask for still",
			" work.",
		]);
		expect(text).not.toMatch(/Not expanded: fold/);
	});
});
