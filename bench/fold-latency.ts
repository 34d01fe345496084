// The fold-latency benchmark (issue 10, item 6: "large folds land fast"): a persisted session of
// 10,000 messages resumed in a real in-process Pi AgentSession (faux provider, pi-fold registered
// with immediate scheduling); the agent folds the first 500, 1,000 and 2,000 entries through the
// real `active_context` tool, and the fold lands at `turn_end` through the boundary path. Measured:
// the time from the end of the tool's execution to the next provider request, split into pi-fold's
// own hooks (timed around each handler) and Pi (the rest: applying the drafts, projecting, the
// request). The peer is the same request in the same run with no fold (the tool answers `status`),
// so the figure reported is the time a fold ADDS. Not a timed test:
// `npm run bench:fold-latency` or `node --expose-gc bench/fold-latency.ts --messages 2000 --sizes 100,200`.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import type { CommandSpec } from "../src/args/index.ts";
import { numberList, scriptArgs } from "./command-line.ts";
import { machineInfo, median } from "./data.ts";
import {
	applyDraftsOnceMs,
	type BaseSession,
	buildBaseSession,
	openBenchSession,
	type Span,
} from "./fold-latency-session.ts";

/** The target: a 2,000-entry fold adds at most this much to the next request. */
export const TARGET_ADDED_MS = 500;

export interface FoldLatencyArgs {
	messages: number;
	sizes: number[];
	repeats: number;
	json: boolean;
}

const FOLD_LATENCY_COMMAND = {
	name: "bench:fold-latency",
	program: "npm run bench:fold-latency --",
	description:
		"Resumes a persisted session in a real Pi AgentSession, folds its first entries through the real\n" +
		"active_context tool, and times the fold's landing against the same request with no fold (medians).",
	flags: {
		messages: { kind: "integer", value: "N", default: 10_000, min: 1, help: "messages in the persisted session" },
		sizes: { kind: "string", value: "a,b", default: "500,1000,2000", help: "entries folded, one fold per size" },
		repeats: { kind: "integer", value: "N", default: 3, min: 1, help: "runs per size, median reported" },
		json: { kind: "boolean", help: "print the results as JSON" },
	},
} satisfies CommandSpec;

/** One run: a fold of `size` entries (0: the peer, no fold). */
export interface Sample {
	size: number;
	/** context_edit entries the fold appended. */
	edits: number;
	/** Tool end to the next provider request. */
	gapMs: number;
	/** pi-fold's hooks inside the gap. */
	piFoldMs: number;
	/** pi-fold's turn_end handler inside the gap. */
	turnEndMs: number;
	/** The rest of the gap: Pi. */
	piMs: number;
	/** The fold tool's own execution (before the gap). */
	toolMs: number;
	/** Messages of the next request. */
	nextMessages: number;
	/** Pi applying the fold's drafts once to a copy of the branch (as a boundary preview does). */
	applyOnceMs: number;
}

function sumWithin(spans: readonly Span[], from: number, to: number, name?: string): number {
	return spans
		.filter((s) => s.start >= from && s.end <= to && !s.name.startsWith("tool:") && (!name || s.name === name))
		.reduce((sum, s) => sum + (s.end - s.start), 0);
}

function roundId(base: BaseSession, index: number): string {
	const id = base.roundIds[index];
	if (id === undefined) throw new Error(`the session has no round entry ${index}`);
	return id;
}

/** Folds the first `size` round entries of a resumed copy of `base` (size 0: asks `status`). */
async function runOnce(base: BaseSession, size: number, root: string, cwd: string): Promise<Sample> {
	const bench = await openBenchSession(base, root, cwd);
	try {
		const args: Record<string, string> =
			size === 0
				? { action: "status" }
				: { action: "fold", from: roundId(base, 0), to: roundId(base, size - 1), brief: `Probed ${size / 2} keys.` };
		let nextMessages = 0;
		bench.script([
			fauxAssistantMessage(fauxToolCall("active_context", args, { id: "fold_call" }), { stopReason: "toolUse" }),
			(context) => {
				nextMessages = context.messages.length;
				return fauxAssistantMessage("done");
			},
		]);
		(globalThis as { gc?: () => void }).gc?.();
		await bench.session.prompt("Fold the early probes.");
		await bench.session.waitForIdle();
		const tool = bench.spans.find((s) => s.name === "tool:active_context");
		const request = bench.requestTimes[1];
		if (!tool || request === undefined) throw new Error("the run did not reach its second request");
		const gapMs = request - tool.end;
		const piFoldMs = sumWithin(bench.spans, tool.end, request);
		const edits = bench.session.sessionManager.getEntries().filter((e) => e.type === "context_edit").length;
		if (size > 0 && edits === 0) throw new Error(`the fold of ${size} entries did not land`);
		return {
			size,
			edits,
			gapMs,
			piFoldMs,
			turnEndMs: sumWithin(bench.spans, tool.end, request, "turn_end"),
			piMs: gapMs - piFoldMs,
			toolMs: tool.end - tool.start,
			nextMessages,
			applyOnceMs: size === 0 ? 0 : applyDraftsOnceMs(base, root, cwd, size),
		};
	} finally {
		bench.dispose();
	}
}

/** The medians of one size's samples. */
function medianSample(samples: readonly Sample[]): Sample {
	const pick = (key: keyof Sample) => median(samples.map((s) => s[key]));
	return {
		size: pick("size"),
		edits: pick("edits"),
		gapMs: pick("gapMs"),
		piFoldMs: pick("piFoldMs"),
		turnEndMs: pick("turnEndMs"),
		piMs: pick("piMs"),
		toolMs: pick("toolMs"),
		nextMessages: pick("nextMessages"),
		applyOnceMs: pick("applyOnceMs"),
	};
}

export interface Row extends Sample {
	addedMs: number;
	piFoldAddedMs: number;
	piAddedMs: number;
}

/**
 * Runs every size and the peer `repeats` times, round-robin; returns the peer and the rows. Pi's agent
 * directory (where pi-fold keeps the key that signs its records) is the run's own temp directory.
 */
export async function measure(args: FoldLatencyArgs): Promise<{ peer: Sample; rows: Row[] }> {
	const root = mkdtempSync(join(tmpdir(), "pi-fold-latency-"));
	const agentDir = process.env.PI_CODING_AGENT_DIR;
	process.env.PI_CODING_AGENT_DIR = join(root, "agent");
	try {
		const cwd = join(root, "cwd");
		mkdirSync(cwd, { recursive: true });
		const base = buildBaseSession(join(root, "base"), cwd, args.messages);
		const sizes = [0, ...args.sizes];
		const samples = new Map<number, Sample[]>(sizes.map((s) => [s, []]));
		let n = 0;
		for (let r = 0; r < args.repeats; r++)
			for (const size of sizes) samples.get(size)?.push(await runOnce(base, size, join(root, `run${n++}`), cwd));
		const peer = medianSample(samples.get(0) ?? []);
		return { peer, rows: args.sizes.map((size) => rowOf(medianSample(samples.get(size) ?? []), peer)) };
	} finally {
		if (agentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
		else process.env.PI_CODING_AGENT_DIR = agentDir;
		rmSync(root, { recursive: true, force: true });
	}
}

function rowOf(m: Sample, peer: Sample): Row {
	return {
		...m,
		addedMs: m.gapMs - peer.gapMs,
		piFoldAddedMs: m.piFoldMs - peer.piFoldMs,
		piAddedMs: m.piMs - peer.piMs,
	};
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

function report(args: FoldLatencyArgs, peer: Sample, rows: readonly Row[]): string {
	const lines = [
		`Fold latency: a ${args.messages.toLocaleString("en-US")}-message session, medians of ${args.repeats} runs; time from the fold tool's end to the next request.`,
		`Peer (no fold): ${ms(peer.gapMs)} (pi-fold ${ms(peer.piFoldMs)}, Pi ${ms(peer.piMs)}), ${peer.nextMessages} messages sent.`,
		"",
		"| entries folded | context_edits | next request after | added | pi-fold added | Pi added | Pi: drafts applied once | Pi added ÷ once | pi-fold turn_end | messages sent | fold tool |",
		"| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
		...rows.map(
			(r) =>
				`| ${r.size.toLocaleString("en-US")} | ${r.edits} | ${ms(r.gapMs)} | ${ms(r.addedMs)} | ${ms(r.piFoldAddedMs)} | ${ms(r.piAddedMs)} | ${ms(r.applyOnceMs)} | ${(r.piAddedMs / r.applyOnceMs).toFixed(1)} | ${ms(r.turnEndMs)} | ${r.nextMessages} | ${ms(r.toolMs)} |`,
		),
	];
	const largest = rows.at(-1);
	if (largest)
		lines.push(
			"",
			`${largest.size.toLocaleString("en-US")}-entry fold: ${ms(largest.addedMs)} added; target ≤ ${ms(TARGET_ADDED_MS)}: ${largest.addedMs <= TARGET_ADDED_MS ? "met" : "NOT met"}.`,
			"Pi applies a proposal's drafts once per boundary handler (its preview) and once to commit, each draft",
			"walking the whole branch (SessionManager.appendContextEdit -> getBranch()): with pi-fold's one handler",
			'and no other extension\'s, "Pi added ÷ once" is a little over 2 (the rest writes the entries and',
			"projects the window); each other extension's boundary handler after pi-fold adds 1.",
		);
	const info = machineInfo();
	lines.push(`Node ${info.node}, ${info.cpu}.`);
	return lines.join("\n");
}

async function main(): Promise<void> {
	const args = scriptArgs(
		FOLD_LATENCY_COMMAND,
		(flags): FoldLatencyArgs => ({
			messages: flags.messages,
			sizes: numberList("sizes", flags.sizes, "500,1000,2000"),
			repeats: flags.repeats,
			json: flags.json,
		}),
	);
	if (!args) return;
	const { peer, rows } = await measure(args);
	process.stdout.write(
		args.json ? `${JSON.stringify({ args, peer, rows }, null, "\t")}\n` : `${report(args, peer, rows)}\n`,
	);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
