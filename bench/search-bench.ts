// The search benchmark (issue 12): a deterministic store of fold sources (JSON Lines of tool results
// whose text comes from files under node_modules, a phrase planted in a few of them), searched by
// pi-fold (FoldStore.search: every blob read once, SHA-256-verified and scanned from the same bytes,
// on the search workers) and by `grep -F` (and `grep -F -i`, the same case rule as pi-fold's
// literal search) over the same blob files, in one run, round-robin, median of the repeats. Each
// pi-fold search runs in a child process so its peak RSS is its own; the same search over a quarter
// of the store shows memory does not grow with the store. Not a timed test:
// `npm run bench:search` (512 MiB) or `node bench/search-bench.ts --size 64`.

import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CommandSpec } from "../src/args/index.ts";
import { closeSearchPools, compileQuery, FoldStore } from "../src/store/index.ts";
import { writeBlob } from "../src/verify/index.ts";
import { scriptArgs } from "./command-line.ts";
import { machineInfo, median, Prng } from "./data.ts";
import { listCorpus } from "./estimator-corpus.ts";
import { listBlobs } from "./peers.ts";

const MB = 1024 * 1024;
/** The phrase planted in the store (mixed case, so only a case-insensitive search finds every copy). */
export const PLANTED = "Receipt for stage 4242: R4242-QX7ZPLANT";
const PATTERN = "receipt for stage 4242";
const SELF = fileURLToPath(import.meta.url);

const SEARCH_BENCH_COMMAND = {
	name: "bench:search",
	program: "npm run bench:search --",
	description:
		"Searches a deterministic store of fold sources with pi-fold (every blob SHA-256-verified) and with\n" +
		"grep -F and grep -F -i over the same blob files, round-robin, and prints the medians and peak memory.",
	flags: {
		size: { kind: "integer", value: "MiB", default: 512, min: 1, help: "size of the store of fold sources" },
		repeats: { kind: "integer", value: "N", default: 5, min: 1, help: "timed rounds per contender, median reported" },
		json: { kind: "boolean", help: "print the results as JSON" },
	},
} satisfies CommandSpec;

/** The search child's own command line: `--child DIR [--quarter] [--regex]` (runChild below writes it). */
function childArgs(argv: string[]): { dir: string; quarter: boolean; regex: boolean } {
	const { values } = parseArgs({
		args: argv,
		options: { child: { type: "string" }, quarter: { type: "boolean" }, regex: { type: "boolean" } },
	});
	return { dir: values.child as string, quarter: values.quarter === true, regex: values.regex === true };
}

/** One fold source: JSON lines of a user message and read results, about `bytes` long. */
function foldSource(texts: readonly string[], prng: Prng, bytes: number, plant: boolean, n: number): string {
	const lines: string[] = [JSON.stringify({ id: `u${n}`, message: { role: "user", content: `Stage ${n}: read on.` } })];
	let size = lines[0]?.length ?? 0;
	let k = 0;
	while (size < bytes) {
		let text = texts[prng.int(0, texts.length - 1)] as string;
		if (plant && k === 1) text = `${text.slice(0, 200)}\n${PLANTED.toUpperCase()}\n${text.slice(200)}`;
		const line = JSON.stringify({
			id: `e${n}x${k++}`,
			message: {
				role: "toolResult",
				toolCallId: `call_${n}_${k}`,
				toolName: "read",
				content: [{ type: "text", text }],
			},
		});
		lines.push(line);
		size += line.length + 1;
	}
	return `${lines.join("\n")}\n`;
}

/** Writes the store: 4 sources of 1/16 of the bytes each, the rest 32 KiB-2 MiB; 12 carry the phrase. */
async function buildStore(dir: string, bytes: number): Promise<number> {
	const prng = new Prng(0x5ea4c4);
	const { readFileSync } = await import("node:fs");
	const texts = listCorpus({ root: join(SELF, "..", "..") })
		.filter((f) => f.path.endsWith(".ts") || f.path.endsWith(".js") || f.path.endsWith(".md"))
		.slice(0, 400)
		.map((f) => readFileSync(join(SELF, "..", "..", f.path), "utf8"));
	let written = 0;
	let n = 0;
	while (written < bytes) {
		const size = n < 4 ? bytes / 16 : prng.int(32 * 1024, 2 * MB);
		const source = foldSource(texts, prng, Math.min(size, bytes - written + 1024), n % 37 === 5 && n < 450, n);
		await writeBlob(dir, Buffer.from(source, "utf8"), { durable: false });
		written += Buffer.byteLength(source);
		n++;
	}
	return n;
}

/** The child: one FoldStore search over the store (all blobs, or every 4th), timed; prints JSON. */
async function child(dir: string, quarter: boolean, regex: boolean): Promise<void> {
	const blobs = listBlobs(dir).filter((_, i) => !quarter || i % 4 === 0);
	const compiled = compileQuery({ pattern: regex ? "receipt for stage 42\\d+" : PATTERN, regex });
	if (!compiled.ok) throw new Error(compiled.error);
	const store = new FoldStore(dir);
	const targets = blobs.map((b) => ({ sha256: b.digest }));
	const times: number[] = [];
	let hits = 0;
	let failed = 0;
	for (let r = 0; r < 4; r++) {
		const start = performance.now();
		const run = await store.search(targets, compiled.query, { maxHits: 25, timeLimitMs: 60_000 });
		times.push(performance.now() - start);
		hits = run.results.reduce((sum, x) => sum + (x?.ok ? x.hitCount : 0), 0);
		failed = run.results.filter((x) => !x?.ok).length;
	}
	const bytes = blobs.reduce((sum, b) => sum + b.size, 0);
	const out = {
		cold: times[0],
		warm: median(times.slice(1)),
		hits,
		failed,
		bytes,
		maxRssKiB: process.resourceUsage().maxRSS,
	};
	process.stdout.write(`${JSON.stringify(out)}\n`);
	await closeSearchPools();
	process.exit(0);
}

function runChild(dir: string, flags: string[]) {
	const out = spawnSync(process.execPath, [SELF, "--child", dir, ...flags], { encoding: "utf8" });
	if (out.status !== 0) throw new Error(`search child failed: ${out.stderr}`);
	return JSON.parse(out.stdout.trim()) as {
		cold: number;
		warm: number;
		hits: number;
		failed: number;
		bytes: number;
		maxRssKiB: number;
	};
}

/** sha256sum over the blobs: verification alone, one process (what pi-fold's search does on top of it). */
function sha256sumMs(files: string[]): number {
	const start = performance.now();
	const out = spawnSync("sha256sum", files, { encoding: "utf8", maxBuffer: 64 * MB });
	if (out.status !== 0) throw new Error(`sha256sum failed: ${out.stderr}`);
	return performance.now() - start;
}

function grepMs(files: string[], flags: string[]): { ms: number; count: number } {
	const start = performance.now();
	const out = spawnSync("grep", [...flags, "-c", "--", PATTERN, ...files], { encoding: "utf8", maxBuffer: 64 * MB });
	const ms = performance.now() - start;
	const count = out.stdout.split("\n").reduce((sum, line) => sum + Number(line.split(":").at(-1) || 0), 0);
	return { ms, count };
}

async function main(): Promise<void> {
	const args = scriptArgs(SEARCH_BENCH_COMMAND, (flags) => ({
		sizeMiB: flags.size,
		repeats: flags.repeats,
		json: flags.json,
	}));
	if (!args) return;
	const root = await mkdtemp(join(tmpdir(), "pi-fold-search-bench-"));
	const log = (line: string) => process.stderr.write(`${line}\n`);
	try {
		log(`writing a ${args.sizeMiB} MiB store of fold sources...`);
		const blobs = await buildStore(root, args.sizeMiB * MB);
		const files = listBlobs(root).map((b) => b.path);
		grepMs(files, ["-F"]); // warms the page cache for every contender
		const rounds: Record<string, number[]> = { pifold: [], grepF: [], grepFi: [], sha256sum: [] };
		let child0: ReturnType<typeof runChild> | undefined;
		let grepCount = 0;
		let grepiCount = 0;
		for (let r = 0; r < args.repeats; r++) {
			const pifold = runChild(root, []);
			child0 ??= pifold;
			rounds.pifold?.push(pifold.warm);
			const g = grepMs(files, ["-F"]);
			grepCount = g.count;
			rounds.grepF?.push(g.ms);
			const gi = grepMs(files, ["-F", "-i"]);
			grepiCount = gi.count;
			rounds.grepFi?.push(gi.ms);
			rounds.sha256sum?.push(sha256sumMs(files));
		}
		const regex = runChild(root, ["--regex"]);
		const quarter = runChild(root, ["--quarter"]);
		const ms = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, median(v)])) as Record<string, number>;
		const result = {
			machine: machineInfo(),
			store: { bytes: child0?.bytes ?? 0, blobs },
			pifold: { warmMs: ms.pifold, coldMs: child0?.cold, hits: child0?.hits, failed: child0?.failed },
			regexMs: regex.warm,
			grepF: { ms: ms.grepF, count: grepCount },
			grepFi: { ms: ms.grepFi, count: grepiCount },
			sha256sumMs: ms.sha256sum,
			ratioVsGrepF: (ms.pifold as number) / (ms.grepF as number),
			ratioVsGrepFi: (ms.pifold as number) / (ms.grepFi as number),
			memory: { fullStoreRssMiB: (child0?.maxRssKiB ?? 0) / 1024, quarterStoreRssMiB: quarter.maxRssKiB / 1024 },
			targetMs: 1500,
		};
		if (args.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
		else process.stdout.write(render(result));
	} finally {
		await rm(root, { recursive: true, force: true });
	}
}

function render(r: {
	machine: ReturnType<typeof machineInfo>;
	store: { bytes: number; blobs: number };
	pifold: {
		warmMs: number | undefined;
		coldMs: number | undefined;
		hits: number | undefined;
		failed: number | undefined;
	};
	regexMs: number;
	grepF: { ms: number | undefined; count: number };
	grepFi: { ms: number | undefined; count: number };
	sha256sumMs: number | undefined;
	ratioVsGrepF: number;
	ratioVsGrepFi: number;
	memory: { fullStoreRssMiB: number; quarterStoreRssMiB: number };
	targetMs: number;
}): string {
	const f = (n: number | undefined) => `${(n ?? 0).toFixed(0)} ms`;
	const mb = (r.store.bytes / 1e6).toFixed(0);
	const verdict = (r.pifold.warmMs ?? Number.POSITIVE_INFINITY) <= r.targetMs ? "met" : "MISSED";
	return [
		`Search over ${mb} MB of fold sources (${r.store.blobs} blobs), ${r.machine.cpu}, ${r.machine.cores} cores, Node ${r.machine.node}`,
		"",
		"| contender | time | notes |",
		"| --- | ---: | --- |",
		`| pi-fold search (literal, case-insensitive, every blob SHA-256-verified) | ${f(r.pifold.warmMs)} | ${r.pifold.hits} hits, ${r.pifold.failed} blobs failed; first search with cold workers ${f(r.pifold.coldMs)} |`,
		`| pi-fold search (regex) | ${f(r.regexMs)} | |`,
		`| grep -F (case-sensitive, no verification) | ${f(r.grepF.ms)} | ${r.grepF.count} matching lines |`,
		`| grep -F -i (case-insensitive, no verification) | ${f(r.grepFi.ms)} | ${r.grepFi.count} matching lines |`,
		`| sha256sum over the same blobs (verification alone, one process) | ${f(r.sha256sumMs)} | |`,
		"",
		`Ratio pi-fold / grep -F: ${r.ratioVsGrepF.toFixed(2)}x; pi-fold / grep -F -i: ${r.ratioVsGrepFi.toFixed(2)}x.`,
		`Target: <= ${r.targetMs} ms with verification: ${verdict}.`,
		`Peak RSS of the searching process: ${r.memory.fullStoreRssMiB.toFixed(0)} MiB over the whole store, ${r.memory.quarterStoreRssMiB.toFixed(0)} MiB over a quarter of it.`,
		"",
	].join("\n");
}

const argv = process.argv.slice(2);
if (argv[0] === "--child") {
	const { dir, quarter, regex } = childArgs(argv);
	await child(dir, quarter, regex);
} else await main();
