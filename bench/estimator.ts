// The token-estimator benchmark: per-file error of estimateTokens against exact o200k_base counts
// (gpt-tokenizer) on the held-out half of the corpus (bench/estimator-corpus.ts), next to chars/4, and the
// estimator's throughput (JS string -> Wasm included) next to the exact encoder's. Reads corpus
// files; no writes. Importable (runEstimatorBench, renderEstimatorTable) and runnable alone:
//   npm exec -- node bench/estimator.ts [--json] [--sample N]

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CommandSpec } from "../src/args/index.ts";
import { type CoreBackend, core, estimateTokens } from "../src/wasm/index.ts";
import { scriptArgs } from "./command-line.ts";
import { type MachineInfo, machineInfo, median } from "./data.ts";
import { CORPUS_RULE, listCorpus } from "./estimator-corpus.ts";

/** Error target (mean absolute percentage error per file, held out). */
export const TARGET_MAPE = 0.05;
/** Throughput target in MB/s (1e6 bytes of UTF-8 per second), strings going into Wasm included. */
export const TARGET_MB_PER_S = 200;

/** Options of runEstimatorBench. */
export interface EstimatorBenchOptions {
	/** Project root containing node_modules. Default: the folder above bench/. */
	readonly root?: string;
	/** Use every Nth held-out file (1 = all; tests pass e.g. 10 for a quick run). Default 1. */
	readonly sampleEvery?: number;
	/** Bytes of text per timed throughput repeat, in MB. Default 32. */
	readonly throughputMB?: number;
	/** Timed repeats per throughput figure, median reported. Default 5. */
	readonly repeats?: number;
	/** Progress lines. Default: none. */
	readonly log?: (line: string) => void;
}

/** Per-file error statistics (fractions, e.g. 0.035 = 3.5%). */
export interface ErrorStats {
	readonly mape: number;
	readonly median: number;
	readonly p90: number;
	readonly worst: number;
	readonly worstFile: string;
	/** Sum of estimates over sum of exact counts, minus 1 (the corpus-wide bias). */
	readonly totalBias: number;
}

/** The benchmark's result. */
export interface EstimatorBenchResult {
	readonly machine: MachineInfo;
	readonly backend: CoreBackend;
	readonly corpus: {
		readonly rule: string;
		readonly calibrationFiles: number;
		readonly heldoutFiles: number;
		readonly heldoutBytes: number;
		readonly heldoutTokens: number;
	};
	readonly error: { readonly estimator: ErrorStats; readonly charsOver4: ErrorStats };
	/** MB/s: per-file strings (encodeInto included), one large string, one large byte array, exact. */
	readonly throughput: {
		readonly estimatorStrings: number;
		readonly estimatorLargeString: number;
		readonly estimatorBytes: number;
		readonly exactEncoder: number;
	};
	readonly targets: {
		readonly mape: { readonly target: number; readonly value: number; readonly met: boolean };
		readonly mbPerS: { readonly target: number; readonly value: number; readonly met: boolean };
	};
}

type Encode = (text: string, options?: { disallowedSpecial?: Set<string> }) => number[];

async function loadExactEncoder(): Promise<Encode> {
	const specifier = "gpt-tokenizer/encoding/o200k_base";
	try {
		const mod = (await import(specifier)) as { encode: Encode };
		return mod.encode;
	} catch {
		throw new Error("the estimator benchmark needs the gpt-tokenizer devDependency (npm ci in a checkout)");
	}
}

function errorStats(rows: readonly { path: string; est: number; exact: number }[]): ErrorStats {
	const errors = rows.map((r) => ({ path: r.path, err: Math.abs(r.est - r.exact) / r.exact }));
	const sorted = errors.map((e) => e.err).sort((a, b) => a - b);
	const worst = errors.reduce((w, e) => (e.err > w.err ? e : w), errors[0] ?? { path: "", err: 0 });
	const sum = (f: (r: { est: number; exact: number }) => number) => rows.reduce((s, r) => s + f(r), 0);
	return {
		mape: sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length),
		median: median(sorted.length > 0 ? sorted : [0]),
		p90: sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))] ?? 0,
		worst: worst.err,
		worstFile: worst.path,
		totalBias:
			sum((r) => r.est) /
				Math.max(
					1,
					sum((r) => r.exact),
				) -
			1,
	};
}

/** MB/s of `run` over texts totalling `bytes`, repeated until `targetBytes`, median of repeats. */
function rate(bytes: number, targetBytes: number, repeats: number, run: () => void): number {
	const rounds = Math.max(1, Math.ceil(targetBytes / Math.max(1, bytes)));
	run(); // warm-up
	const rates: number[] = [];
	for (let r = 0; r < repeats; r++) {
		const t0 = performance.now();
		for (let i = 0; i < rounds; i++) run();
		rates.push((bytes * rounds) / ((performance.now() - t0) * 1e3));
	}
	return median(rates);
}

/** A held-out corpus file, read once: its text and its UTF-8 bytes. */
interface HeldoutFile {
	readonly path: string;
	readonly text: string;
	readonly bytes: Uint8Array;
}

/** Runs the estimator benchmark (a few seconds with the defaults). */
export async function runEstimatorBench(options: EstimatorBenchOptions = {}): Promise<EstimatorBenchResult> {
	const root = options.root ?? join(dirname(fileURLToPath(import.meta.url)), "..");
	const every = Math.max(1, Math.floor(options.sampleEvery ?? 1));
	const targetBytes = (options.throughputMB ?? 32) * 1e6;
	const repeats = Math.max(1, Math.floor(options.repeats ?? 5));
	const log = options.log ?? (() => {});
	const encode = await loadExactEncoder();
	const corpus = listCorpus({ root });
	const files = readHeldout(root, corpus, every);
	const totalBytes = files.reduce((s, f) => s + f.bytes.length, 0);
	log(`estimator: ${files.length} held-out files, ${(totalBytes / 1e6).toFixed(1)} MB; exact o200k_base counts`);
	const accuracy = measureError(files, totalBytes, encode);
	log("estimator: throughput");
	const speed = measureThroughput(files, totalBytes, targetBytes, repeats, log);
	const { estimator } = accuracy.error;
	return {
		machine: machineInfo(),
		backend: core().backend,
		corpus: {
			rule: CORPUS_RULE,
			calibrationFiles: corpus.filter((f) => f.split === "calibration").length,
			heldoutFiles: accuracy.files,
			heldoutBytes: totalBytes,
			heldoutTokens: accuracy.tokens,
		},
		error: accuracy.error,
		throughput: { ...speed, exactEncoder: accuracy.exactRate },
		targets: {
			mape: { target: TARGET_MAPE, value: estimator.mape, met: estimator.mape <= TARGET_MAPE },
			mbPerS: {
				target: TARGET_MB_PER_S,
				value: speed.estimatorStrings,
				met: speed.estimatorStrings >= TARGET_MB_PER_S,
			},
		},
	};
}

/** Every `every`th held-out file of the corpus, read from disk. */
function readHeldout(root: string, corpus: ReturnType<typeof listCorpus>, every: number): HeldoutFile[] {
	const heldout = corpus.filter((f) => f.split === "heldout").filter((_, i) => i % every === 0);
	if (heldout.length === 0) throw new Error(`no corpus files under ${join(root, "node_modules")}`);
	const decoder = new TextDecoder();
	return heldout.map((f) => {
		const bytes = new Uint8Array(readFileSync(join(root, f.path)));
		return { path: f.path, text: decoder.decode(bytes), bytes };
	});
}

/**
 * Exact counts of every file (timed: the exact encoder's rate), and the per-file error of estimateTokens and of
 * chars/4 against them over the files with at least one token.
 */
function measureError(
	files: readonly HeldoutFile[],
	totalBytes: number,
	encode: Encode,
): {
	error: EstimatorBenchResult["error"];
	exactRate: number;
	files: number;
	tokens: number;
} {
	const noSpecial = { disallowedSpecial: new Set<string>() };
	const t0 = performance.now();
	const exact = files.map((f) => encode(f.text, noSpecial).length);
	const exactRate = totalBytes / ((performance.now() - t0) * 1e3);
	const rows = files.map((f, i) => ({ path: f.path, exact: exact[i] ?? 0, text: f.text })).filter((r) => r.exact > 0);
	const estimator = errorStats(rows.map((r) => ({ ...r, est: estimateTokens(r.text) })));
	const charsOver4 = errorStats(rows.map((r) => ({ ...r, est: Math.round(r.text.length / 4) })));
	return { error: { estimator, charsOver4 }, exactRate, files: rows.length, tokens: exact.reduce((s, v) => s + v, 0) };
}

/** The estimator's MB/s per file, on one large string, and on one large byte array. */
function measureThroughput(
	files: readonly HeldoutFile[],
	totalBytes: number,
	targetBytes: number,
	repeats: number,
	log: (line: string) => void,
): Omit<EstimatorBenchResult["throughput"], "exactEncoder"> {
	const large = files.map((f) => f.text).join("\n");
	const largeBytes = new TextEncoder().encode(large);
	let sink = 0;
	const strings = rate(totalBytes, targetBytes, repeats, () => {
		for (const f of files) sink += estimateTokens(f.text);
	});
	const largeString = rate(largeBytes.length, targetBytes, repeats, () => {
		sink += estimateTokens(large);
	});
	const bytesRate = rate(largeBytes.length, targetBytes, repeats, () => {
		sink += estimateTokens(largeBytes);
	});
	if (sink < 0) log("unreachable");
	return { estimatorStrings: strings, estimatorLargeString: largeString, estimatorBytes: bytesRate };
}

const pct = (v: number) => `${(v * 100).toFixed(2)}%`;
const mbs = (v: number) => `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} MB/s`;

function table(head: string[], rows: string[][]): string[] {
	const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
	const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
	return [line(head), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

/** The result as Markdown tables headed by the machine line. */
export function renderEstimatorTable(r: EstimatorBenchResult): string {
	const m = r.machine;
	const errRow = (name: string, s: ErrorStats) => [
		name,
		pct(s.mape),
		pct(s.median),
		pct(s.p90),
		pct(s.worst),
		s.worstFile,
		pct(s.totalBias),
	];
	const t = r.throughput;
	return [
		`Node ${m.node}, ${m.cpu} x${m.cores}, ${m.platform}, ${m.date}`,
		`corpus: ${r.corpus.rule}`,
		`held out: ${r.corpus.heldoutFiles} files, ${(r.corpus.heldoutBytes / 1e6).toFixed(2)} MB, ${r.corpus.heldoutTokens} o200k_base tokens (calibration half: ${r.corpus.calibrationFiles} files)`,
		"",
		...table(
			["estimator (per-file error)", "MAPE", "median", "p90", "worst", "worst file", "total bias"],
			[errRow(`pi-fold estimateTokens (${r.backend})`, r.error.estimator), errRow("chars/4", r.error.charsOver4)],
		),
		"",
		...table(
			["throughput", "rate"],
			[
				["estimateTokens(string), per file (encodeInto included)", mbs(t.estimatorStrings)],
				["estimateTokens(string), one large string", mbs(t.estimatorLargeString)],
				["estimateTokens(Uint8Array), one large buffer", mbs(t.estimatorBytes)],
				["gpt-tokenizer o200k_base encode (exact)", mbs(t.exactEncoder)],
			],
		),
		"",
		`targets: MAPE <= ${pct(r.targets.mape.target)}: ${pct(r.targets.mape.value)} ${r.targets.mape.met ? "met" : "MISSED"}; ` +
			`>= ${r.targets.mbPerS.target} MB/s: ${mbs(r.targets.mbPerS.value)} ${r.targets.mbPerS.met ? "met" : "MISSED"}`,
		"",
	].join("\n");
}

const ESTIMATOR_BENCH_COMMAND = {
	name: "estimator",
	program: "npm exec -- node bench/estimator.ts",
	description:
		"Measures estimateTokens against exact o200k_base counts on the held-out half of the corpus, next to\n" +
		"chars/4, and its throughput next to the exact encoder's (`pi-fold bench` runs it too).",
	flags: {
		sample: {
			kind: "integer",
			value: "N",
			default: 1,
			min: 1,
			max: 100_000,
			help: "use every Nth held-out corpus file (1: all)",
		},
		json: { kind: "boolean", help: "print the results as JSON" },
	},
} satisfies CommandSpec;

// Run alone only when this very file is the entry point (not when bundled into the CLI).
const entry = process.argv[1];
if (entry !== undefined && import.meta.url.endsWith("/estimator.ts") && import.meta.url === pathToFileURL(entry).href) {
	const flags = scriptArgs(ESTIMATOR_BENCH_COMMAND, (f) => f);
	if (flags) {
		const log = (line: string) => process.stderr.write(`${line}\n`);
		const result = await runEstimatorBench({ sampleEvery: flags.sample, log });
		process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : renderEstimatorTable(result));
	}
}
