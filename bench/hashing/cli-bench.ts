// `pi-fold bench --cli`: the commands timed as a user runs them, each run a fresh process, interleaved
// with their peers in one run (rounds in rotating order after a checked warm-up round; medians): on a
// mixed store, `pi-fold verify` against the node:crypto script on one thread (and `pi-fold verify
// --workers 0` against the same script: the one-thread target), the same script on as many threads
// as verify uses, `sha256sum -c`, and `openssl dgst` / `b3sum` when present; on one
// large file, `pi-fold hash` against the script, `sha256sum` and the others. Peak memory of verify
// and hash is measured in separate runs. The whole benchmark runs twice: as is, and with SHA-NI
// masked for OpenSSL (OPENSSL_ia32cap), which every contender using OpenSSL inherits. Everything is
// written to one temporary folder, removed at the end (also on Ctrl-C). Memory of the benchmark
// itself stays at a few MiB of data (hashing-data.ts writes in 4 MiB pieces). Does its own I/O.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nounFor } from "../../src/common/index.ts";
import { type MachineInfo, machineInfo, median, Prng } from "../data.ts";
import { writeMixedStore, writeRandomFile } from "./hashing-data.ts";
import { NODE_ONE_THREAD, NODE_THREADS, RSS_PRELOAD } from "./peer-scripts.ts";
import { available, type Contender, peakRss, runOnce } from "./processes.ts";

const MiB = 1024 * 1024;
/** The value docs/verifier.md gives for masking SHA-NI in OpenSSL (CPUID leaf 7 EBX bit 29). */
export const MASK_SHA_NI = ":~0x20000000";

/** Sizes, repeats and the CLI under test. */
export interface CliBenchOptions {
	/** Mixed store size in MiB (default 512). */
	storeMiB?: number;
	/** Single file size in MiB (default 1024). */
	fileMiB?: number;
	/** Timed runs per contender, median reported (default 5). */
	repeats?: number;
	/** The CLI to run (default: build/cli.js beside this bundle, or in the checkout). */
	cliBin?: string;
	/** Also run the pass with SHA-NI masked (default true). */
	masked?: boolean;
	/** Called after every process with the fraction done and what ran. */
	progress?: (fraction: number, what: string) => void;
}

/**
 * One contender's median, and its target when it has one: for a peer, ratio = peer time / pi-fold
 * time; for a pi-fold variant measured against a peer (`versus`), ratio = that peer's time / its time.
 */
export interface CliRow {
	label: string;
	ms: number;
	mbPerS: number;
	ratio?: number;
	target?: number;
	met?: boolean;
	/** The peer a pi-fold variant's ratio is taken against. */
	versus?: string;
}

export interface CliScenario {
	id: "store" | "file";
	title: string;
	bytes: number;
	rows: CliRow[];
}

/** Peak resident memory of one of pi-fold's commands, against its limit. */
export interface CliMemory {
	label: string;
	bytes: number;
	limit: number;
	met: boolean;
}

export interface CliPass {
	name: string;
	env: Record<string, string>;
	/** Threads `pi-fold verify` hashed on (the sharded peer uses as many). */
	threads: number;
	scenarios: CliScenario[];
	memory: CliMemory[];
}

export interface CliBenchResult {
	machine: MachineInfo;
	/** 1-minute load average when the timed runs started and when they ended (other work on the machine). */
	load: { start: number; end: number };
	cli: string;
	options: { storeMiB: number; fileMiB: number; repeats: number; blobs: number };
	passes: CliPass[];
}

/**
 * Targets per pass (ratios; rows without one are reported only). Store, as is: verify (its default
 * worker, two cores) at least 1.7x faster than the one-thread script, and `--workers 0` within 10% of
 * it (script time / its time >= 1 / 1.1).
 */
const TARGETS: Record<string, { store: Record<string, number>; file: Record<string, number> }> = {
	"as is": { store: { one: 1.7, one0: 1 / 1.1, threads: 1.0, sha256sum: 2 }, file: { one: 0.95, sha256sum: 1.5 } },
	"SHA-NI masked": { store: { one: 2 }, file: {} },
};
/** Peak memory limit of verify and hash (about 100 MB). */
export const CLI_RSS_LIMIT = 100 * 1000 * 1000;

function defaultCli(): string {
	const here = dirname(fileURLToPath(import.meta.url));
	for (const candidate of [join(here, "cli.js"), join(here, "..", "..", "build", "cli.js")])
		if (existsSync(candidate)) return candidate;
	throw new Error("bench --cli: no build/cli.js found; run npm run build, or pass --cli-bin FILE");
}

interface Timed extends Contender {
	key: string;
	check: (r: { status: number | null; stdout: string }) => boolean;
	/** A pi-fold variant: its ratio is this peer's time over its own (target key: the peer's + "0"). */
	versus?: string;
}

/** Warm-up round (checked), then `repeats` rounds in rotating order; median ms per key. */
function race(list: Timed[], repeats: number, env: Record<string, string>, tick: (what: string) => void) {
	const times = new Map<string, number[]>(list.map((c) => [c.key, []]));
	for (const c of list) {
		const r = runOnce(c, env, true);
		if (!c.check(r)) throw new Error(`bench --cli: ${c.label} failed its check (exit ${r.status}): ${r.stderr.trim()}`);
		tick(c.label);
	}
	for (let round = 0; round < repeats; round++)
		for (let k = 0; k < list.length; k++) {
			const c = list[(round + k) % list.length] as Timed;
			times.get(c.key)?.push(runOnce(c, env).ms);
			tick(c.label);
		}
	return new Map([...times].map(([key, ms]) => [key, median(ms)]));
}

function rows(list: Timed[], ms: Map<string, number>, bytes: number, targets: Record<string, number>): CliRow[] {
	const ours = ms.get("ours") as number;
	return list.map((c) => {
		const t = ms.get(c.key) as number;
		const row: CliRow = { label: c.label, ms: t, mbPerS: bytes / 1e6 / (t / 1e3) };
		if (c.key === "ours") return row;
		if (c.versus) row.versus = c.versus;
		row.ratio = c.versus ? (ms.get(c.versus) as number) / t : t / ours;
		const target = targets[c.versus ? `${c.versus}0` : c.key];
		if (target !== undefined) Object.assign(row, { target, met: row.ratio >= target });
		return row;
	});
}

/** The other tools present on this machine, for a list of files (args) or one file. */
function tools(files: string[], cwd?: string): Timed[] {
	const ok = (r: { status: number | null }) => r.status === 0;
	const out: Timed[] = [];
	if (available("openssl", ["version"]))
		out.push({
			key: "openssl",
			label: "openssl dgst -sha256",
			command: "openssl",
			args: ["dgst", "-sha256", ...files],
			...(cwd ? { cwd } : {}),
			check: ok,
		});
	if (available("b3sum"))
		out.push({
			key: "b3sum",
			label: "b3sum (BLAKE3, not SHA-256)",
			command: "b3sum",
			args: files,
			...(cwd ? { cwd } : {}),
			check: ok,
		});
	return out;
}

interface Setup {
	root: string;
	cli: string;
	store: string;
	list: string;
	paths: string[];
	file: string;
	digest: string;
	scripts: { one: string; threads: string; preload: string };
	repeats: number;
	storeBytes: number;
	fileBytes: number;
}

function storeContenders(s: Setup, threads: number): Timed[] {
	const ok = (r: { status: number | null }) => r.status === 0;
	const node = process.execPath;
	const list: Timed[] = [
		{
			key: "ours",
			label: "pi-fold verify",
			command: node,
			args: [s.cli, "verify", "--quiet", s.store],
			node: true,
			check: ok,
		},
		{ key: "one", label: "node:crypto script, 1 thread", command: node, args: [s.scripts.one, s.store], check: ok },
		{
			key: "threads",
			label: `node:crypto script, ${threads} worker ${nounFor(threads, "thread")}`,
			command: node,
			args: [s.scripts.threads, s.store, String(threads)],
			check: ok,
		},
		{
			key: "ours0",
			label: "pi-fold verify --workers 0",
			command: node,
			args: [s.cli, "verify", "--quiet", "--workers", "0", s.store],
			node: true,
			check: ok,
			versus: "one",
		},
	];
	if (available("sha256sum"))
		list.push({
			key: "sha256sum",
			label: "sha256sum -c",
			command: "sha256sum",
			args: ["--quiet", "-c", s.list],
			cwd: s.store,
			check: ok,
		});
	return [...list, ...tools(s.paths, s.store)];
}

function fileContenders(s: Setup): Timed[] {
	const digest = (r: { status: number | null; stdout: string }) => r.status === 0 && r.stdout.startsWith(s.digest);
	const node = process.execPath;
	const list: Timed[] = [
		{ key: "ours", label: "pi-fold hash", command: node, args: [s.cli, "hash", s.file], node: true, check: digest },
		{ key: "one", label: "node:crypto script, 1 thread", command: node, args: [s.scripts.one, s.file], check: digest },
	];
	if (available("sha256sum"))
		list.push({ key: "sha256sum", label: "sha256sum", command: "sha256sum", args: [s.file], check: digest });
	return [...list, ...tools([s.file])];
}

/** Threads verify hashes on: its --json report says how many workers it started besides its own thread. */
function verifyThreads(s: Setup, env: Record<string, string>): number {
	const r = runOnce(
		{ label: "pi-fold verify --json", command: process.execPath, args: [s.cli, "verify", "--json", s.store] },
		env,
		true,
	);
	if (r.status !== 0)
		throw new Error(`bench --cli: pi-fold verify failed on the benchmark store (exit ${r.status}): ${r.stderr.trim()}`);
	const workers = (JSON.parse(r.stdout) as { workers?: unknown }).workers;
	return typeof workers === "number" ? workers + 1 : 1;
}

function runPass(s: Setup, name: string, env: Record<string, string>, tick: (what: string) => void): CliPass {
	const targets = TARGETS[name] ?? { store: {}, file: {} };
	const threads = verifyThreads(s, env);
	tick("pi-fold verify --json");
	const store = storeContenders(s, threads);
	const file = fileContenders(s);
	const storeMs = race(store, s.repeats, env, tick);
	const fileMs = race(file, s.repeats, env, tick);
	const memory: CliMemory[] = [];
	for (const c of [store[0], file[0]] as Timed[]) {
		let peak = 0;
		for (let i = 0; i < 2; i++) {
			peak = Math.max(peak, peakRss(c, env, s.scripts.preload, s.root));
			tick(`${c.label} (memory)`);
		}
		memory.push({ label: c.label, bytes: peak, limit: CLI_RSS_LIMIT, met: peak <= CLI_RSS_LIMIT });
	}
	const blobs = s.paths.length.toLocaleString("en-US");
	return {
		name,
		env,
		threads,
		scenarios: [
			{
				id: "store",
				title: `verify a ${s.storeBytes / MiB} MiB store (${blobs} blobs), pi-fold on ${threads} ${nounFor(threads, "thread")}`,
				bytes: s.storeBytes,
				rows: rows(store, storeMs, s.storeBytes, targets.store),
			},
			{
				id: "file",
				title: `hash one ${s.fileBytes / MiB} MiB file`,
				bytes: s.fileBytes,
				rows: rows(file, fileMs, s.fileBytes, targets.file),
			},
		],
		memory,
	};
}

async function setUp(root: string, o: Required<Omit<CliBenchOptions, "progress">>): Promise<Setup> {
	const prng = new Prng(0x5eed);
	const store = join(root, "store");
	const mixed = await writeMixedStore(store, o.storeMiB * MiB, prng);
	const list = join(root, "SHA256SUMS");
	writeFileSync(list, mixed.paths.map((p) => `${p.slice(p.lastIndexOf("/") + 1)}  ${p}\n`).join(""));
	const file = join(root, "large.bin");
	const digest = await writeRandomFile(file, o.fileMiB * MiB, prng);
	const scripts = {
		one: join(root, "peer-node.mjs"),
		threads: join(root, "peer-node-threads.mjs"),
		preload: join(root, "rss.mjs"),
	};
	writeFileSync(scripts.one, NODE_ONE_THREAD);
	writeFileSync(scripts.threads, NODE_THREADS);
	writeFileSync(scripts.preload, RSS_PRELOAD);
	mkdirSync(join(root, "cache"));
	const common = { root, cli: o.cliBin, store, list, paths: mixed.paths, file, digest, scripts };
	return { ...common, repeats: o.repeats, storeBytes: o.storeMiB * MiB, fileBytes: o.fileMiB * MiB };
}

/** Runs both passes of the process-level benchmark and removes everything it wrote. */
export async function runCliBench(options: CliBenchOptions = {}): Promise<CliBenchResult> {
	const o = {
		storeMiB: options.storeMiB ?? 512,
		fileMiB: options.fileMiB ?? 1024,
		repeats: options.repeats ?? 5,
		cliBin: options.cliBin ?? defaultCli(),
		masked: options.masked ?? true,
	};
	const root = mkdtempSync(join(tmpdir(), "pi-fold-bench-cli-"));
	const cleanup = () => rmSync(root, { recursive: true, force: true });
	const onSignal = (signal: NodeJS.Signals) => {
		cleanup();
		process.kill(process.pid, signal);
	};
	process.once("SIGINT", onSignal);
	process.once("SIGTERM", onSignal);
	try {
		options.progress?.(0, "writing the benchmark data");
		const s = await setUp(root, o);
		const passes: [string, Record<string, string>][] = [["as is", {}]];
		if (o.masked) passes.push(["SHA-NI masked", { OPENSSL_ia32cap: MASK_SHA_NI }]);
		const perPass = 1 + (storeContenders(s, 2).length + fileContenders(s).length) * (o.repeats + 1) + 4;
		let done = 0;
		const tick = (what: string) => options.progress?.(++done / (perPass * passes.length), what);
		const env = { PI_FOLD_CACHE_DIR: join(root, "cache") };
		const start = loadavg()[0] ?? 0;
		const results = passes.map(([name, extra]) => runPass(s, name, { ...env, ...extra }, tick));
		const load = { start, end: loadavg()[0] ?? 0 };
		return { machine: machineInfo(), load, cli: o.cliBin, options: { ...o, blobs: s.paths.length }, passes: results };
	} finally {
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
		cleanup();
	}
}
