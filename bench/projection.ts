// Per-request cost of pi-fold's own work as a session grows (issue 4's benchmark): for transcripts
// of 1,000 and 10,000 messages, the time the window observer takes per request (per-message
// digests of everything sent, compared with the previous request) and the time a boundary takes to
// plan a commit (units, lattice, implied edits, diff against the edits in force), with the heap it
// holds. Run: `npm exec -- node bench/projection.ts [--json]`. Not a timed test: numbers are
// printed, with the machine line, for docs/runtime.md.

import { pathToFileURL } from "node:url";
import type { CommandSpec } from "../src/args/index.ts";
import { type FoldRecord, foldId, foldSource, Lattice } from "../src/lattice/index.ts";
import {
	editsToCommit,
	impliedEdits,
	NO_MOVES,
	type Replacement,
	renderPlaceholder,
	WindowObserver,
} from "../src/projection/index.ts";
import { type TranscriptEntry, toUnits } from "../src/transcript/index.ts";
import { scriptArgs } from "./command-line.ts";
import { machineInfo, median } from "./data.ts";

/** Transcript sizes measured, in messages. */
export const SIZES = [1_000, 10_000] as const;
/** Requests timed per size (each appends one tool batch, as a request in a long run does). */
const REQUESTS = 40;

function batch(i: number): TranscriptEntry[] {
	const call = { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `src/file-${i}.ts` } };
	return [
		{ id: `u${i}`, message: { role: "assistant", content: [call], stopReason: "toolUse", timestamp: i } },
		{
			id: `r${i}`,
			message: {
				role: "toolResult",
				toolCallId: `c${i}`,
				toolName: "read",
				content: [{ type: "text", text: `export const v${i} = ${"x".repeat(400)};` }],
				isError: false,
				timestamp: i,
			},
		},
	];
}

function transcript(messages: number): TranscriptEntry[] {
	const out: TranscriptEntry[] = [{ id: "u", message: { role: "user", content: "start", timestamp: 0 } }];
	for (let i = 0; out.length < messages; i++) out.push(...batch(i));
	return out.slice(0, messages);
}

function foldsOver(entries: readonly TranscriptEntry[]): FoldRecord[] {
	const folds: FoldRecord[] = [];
	for (let start = 1; start + 2 <= entries.length * 0.8; start += 20) {
		const leaves = entries.slice(start, start + 2);
		folds.push({
			id: foldId(leaves),
			kind: "tools",
			origin: "ladder",
			leafIds: leaves.map((e) => e.id),
			sourceSha256: "c".repeat(64),
			sourceBytes: foldSource(leaves).length,
			brief: "read a file",
			briefSource: "deterministic",
		});
	}
	return folds;
}

export interface ProjectionBenchRow {
	readonly messages: number;
	readonly folds: number;
	/** Median ms per request for the observer (digest every message sent, classify). */
	readonly observeMs: number;
	/** Median ms to plan a commit at a boundary. */
	readonly planMs: number;
	/** Heap held by the observer's state after the run, in MB. */
	readonly heapMB: number;
}

export function runProjectionBench(): { machine: ReturnType<typeof machineInfo>; rows: ProjectionBenchRow[] } {
	const rows: ProjectionBenchRow[] = [];
	for (const size of SIZES) {
		const entries = transcript(size);
		const folds = foldsOver(entries);
		const observer = new WindowObserver();
		const names = { brandNoun: "active-context", toolName: "active_context" };
		const observe: number[] = [];
		const plan: number[] = [];
		global.gc?.();
		const heapBefore = process.memoryUsage().heapUsed;
		let inForce = new Map<string, Replacement>();
		for (let r = 0; r < REQUESTS; r++) {
			const grown = [...entries, ...batch(size + r)];
			// What Pi sends: fresh message objects every request (it deep-copies), so no identity cache helps.
			const sent = grown.map((e) => structuredClone(e.message));
			let t = performance.now();
			observer.observe(sent, NO_MOVES);
			observe.push(performance.now() - t);
			t = performance.now();
			toUnits(grown);
			const lattice = Lattice.build(grown, folds);
			const implied = impliedEdits({
				lattice,
				expanded: new Set(),
				placeholder: (id) => renderPlaceholder(lattice.get(id)?.record as FoldRecord, names),
				managed: new Map(),
				original: () => "",
			});
			const commit = editsToCommit(implied, inForce);
			inForce = new Map([...inForce, ...commit.map((e) => [e.targetId, e.replacement] as const)]);
			plan.push(performance.now() - t);
		}
		global.gc?.();
		rows.push({
			messages: size,
			folds: folds.length,
			observeMs: median(observe),
			planMs: median(plan),
			heapMB: (process.memoryUsage().heapUsed - heapBefore) / 1e6,
		});
	}
	return { machine: machineInfo(), rows };
}

export function renderProjectionTable(result: ReturnType<typeof runProjectionBench>): string {
	const m = result.machine;
	const lines = [
		`Node ${m.node}, ${m.cpu} x${m.cores}, ${m.platform}, ${m.date}`,
		"",
		"| messages | folds | observe per request | plan a commit | heap held |",
		"| ---: | ---: | ---: | ---: | ---: |",
	];
	for (const r of result.rows)
		lines.push(
			`| ${r.messages.toLocaleString("en-US")} | ${r.folds} | ${r.observeMs.toFixed(2)} ms | ${r.planMs.toFixed(2)} ms | ${r.heapMB.toFixed(1)} MB |`,
		);
	return `${lines.join("\n")}\n`;
}

const PROJECTION_BENCH_COMMAND = {
	name: "projection",
	program: "npm exec -- node --expose-gc bench/projection.ts",
	description:
		"Times pi-fold's own work per request (the window observer, planning a commit) on transcripts of\n" +
		`${SIZES.map((n) => n.toLocaleString("en-US")).join(" and ")} messages, with the heap it holds.`,
	flags: { json: { kind: "boolean", help: "print the results as JSON" } },
} satisfies CommandSpec;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const flags = scriptArgs(PROJECTION_BENCH_COMMAND, (f) => f);
	if (flags) {
		const result = runProjectionBench();
		process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : renderProjectionTable(result));
	}
}
