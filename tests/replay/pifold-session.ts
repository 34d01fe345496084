// Test helper: a small session that ran pi-fold, made by a real Pi session on Pi's faux provider
// (tests/pi/harness.ts) at a 30,000-token window: an agent that reads files with a `read` tool, reads
// some of them again unchanged, once reads a batch larger than the window (pi-fold shows it as
// excerpts, then one of its files again), with pi-fold's built-in briefs, and writes its session
// file. The replay of that file is checked against what ran.

import { readFileSync } from "node:fs";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import type { ToolDefinition } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { createHarness, say } from "../pi/harness.ts";

/** The session's window in tokens. */
export const PIFOLD_SESSION_WINDOW = 30_000;

/** A file's text: its name, then a few kB of code-like lines (`lines` of them). */
function fileText(path: string, lines: number): string {
	const body = Array.from({ length: lines }, (_, i) => `export const value_${i} = "${path}:${i * 7919}";`);
	return `// ${path}\n${body.join("\n")}\n`;
}

/** Lines of each file: the `huge` ones are too large to fit the window together. */
const linesOf = (path: string) => (path.startsWith("huge") ? 1_400 : 120);

const readTool: ToolDefinition = {
	name: "read",
	label: "Read",
	description: "Reads a file.",
	parameters: Type.Object({ path: Type.String() }),
	async execute(_id, params) {
		const path = (params as { path: string }).path;
		return { content: [{ type: "text", text: fileText(path, linesOf(path)) }], details: undefined };
	},
};

let calls = 0;
/** One reply reading `paths` in one batch, each call its own id. */
function reads(...paths: string[]) {
	return fauxAssistantMessage(
		paths.map((path) => fauxToolCall("read", { path }, { id: `read_${calls++}` })),
		{ stopReason: "toolUse" },
	);
}

/** Runs the session and returns its file's text. */
export async function pifoldSessionFile(): Promise<string> {
	const h = await createHarness({
		persistent: true,
		contextWindow: PIFOLD_SESSION_WINDOW,
		probe: readTool,
		tools: ["read", "active_context"],
		options: { foldScheduling: "cost", summarizer: "deterministic" },
	});
	for (let run = 0; run < 4; run++) {
		const files = Array.from({ length: 6 }, (_, i) => `src/r${run}/f${i}.ts`);
		h.script([
			...files.map((f) => reads(f)),
			// Reads again, unchanged, the run's first file and one of the run before.
			reads(files[0] as string),
			reads(run > 0 ? `src/r${run - 1}/f1.ts` : (files[1] as string)),
			// A batch larger than the window (pi-fold shows it as excerpts), then one of its files again.
			...(run === 2 ? [reads("huge/a.ts", "huge/b.ts", "huge/c.ts"), reads("huge/b.ts")] : []),
			say(`done with run ${run}`),
		]);
		await h.run(`read the files of run ${run}`);
	}
	const file = h.sessionFile();
	if (!file) throw new Error("the session has no file");
	return readFileSync(file, "utf8");
}
