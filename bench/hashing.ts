// The hashing benchmarks of pi-fold/verify, in process: every row times pi-fold and its peers side by
// side in one run (round-robin repeats, median), and states the target ratio (peer time / pi-fold
// time). Data is generated with a seeded PRNG and written in 4 MiB pieces (bench/hashing/hashing-data.ts) to
// a temporary folder that is removed afterwards (also on Ctrl-C), so the run's memory stays well
// under 300 MB. `threads` hashing threads each: pi-fold's calling thread plus threads - 1 workers, and
// the threaded peer's workers. Not a timed test: `pi-fold bench` (default 512 MB) or
// `npm exec -- node bench/run.ts --size 64`. The process-level benchmark is bench/hashing/cli-bench.ts.

import { createHash, hash as cryptoHash } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSHA256 } from "hash-wasm";
import { closeSharedPools, VerifyPool } from "../src/verify/hash-pool.ts";
import {
	createSha256,
	engineCalibration,
	readVerifiedRange,
	sha256Many,
	verifyBlob,
	verifyStore,
	writeBlobStream,
} from "../src/verify/index.ts";
import { collectGarbage, type MachineInfo, machineInfo, median, Prng } from "./data.ts";
import { prngPieces, writeMixedStore } from "./hashing/hashing-data.ts";
import { hashWasmOneThread, hashWasmStreamFile, nodeOneThread, nodeStreamFile, nodeWorkers } from "./peers.ts";

const MB = 1024 * 1024;

/** Sizes and repeats of one run; defaults are the full sizes. */
export interface HashingBenchOptions {
	/** Size of the mixed store in MiB (default 512). */
	storeMiB?: number;
	/** Size of the single large blob in MiB (default 512). */
	blobMiB?: number;
	/** Size of the single-stream buffer in MiB (default 64). */
	streamMiB?: number;
	/** Count of 2 KB messages (default 10,000) and of 64 B messages (default 131,072). */
	messages2k?: number;
	messages64?: number;
	/** Timed repeats per contender, median reported (default 5). */
	repeats?: number;
	/** Hashing threads of pi-fold (its calling thread plus workers) and of the threaded peer (default 2). */
	workers?: number;
	/** Progress lines (default none). */
	log?: (line: string) => void;
}

/** One contender's median time. */
export interface Timing {
	label: string;
	ms: number;
	mbPerS: number;
}

/** A target: pi-fold must be at least `min` times faster than `peer` (ratio = peer ms / pi-fold ms). */
export interface TargetCheck {
	peer: string;
	min: number;
	ratio: number;
	met: boolean;
}

export interface ScenarioResult {
	id: string;
	title: string;
	bytes: number;
	ours: Timing;
	peers: Timing[];
	targets: TargetCheck[];
	note?: string;
}

export interface HashingBenchResult {
	machine: MachineInfo;
	options: Required<Omit<HashingBenchOptions, "log">>;
	engine: ReturnType<typeof engineCalibration>;
	scenarios: ScenarioResult[];
}

type Runner = () => unknown;

/**
 * Runs each contender once to warm up, then `repeats` rounds; each round runs every contender once,
 * starting from a different one each round (so no contender always follows the same neighbour),
 * after a full garbage collection.
 * Returns the median ms per label.
 */
async function race(contenders: Record<string, Runner>, repeats: number): Promise<Record<string, number>> {
	const entries = Object.entries(contenders);
	const times: Record<string, number[]> = {};
	for (const [label, run] of entries) {
		await run();
		times[label] = [];
	}
	for (let r = 0; r < repeats; r++) {
		for (let k = 0; k < entries.length; k++) {
			const [label, run] = entries[(r + k) % entries.length] as [string, Runner];
			collectGarbage(); // no run pays for the previous one's garbage, and it never piles up
			const start = performance.now();
			await run();
			times[label]?.push(performance.now() - start);
		}
	}
	return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

function scenario(
	id: string,
	title: string,
	bytes: number,
	ms: Record<string, number>,
	ours: string,
	targets: Record<string, number>,
): ScenarioResult {
	const timing = (label: string): Timing => {
		const t = ms[label] as number;
		return { label, ms: t, mbPerS: bytes / 1e6 / (t / 1e3) };
	};
	const oursT = timing(ours);
	const peers = Object.keys(ms)
		.filter((k) => k !== ours)
		.map(timing);
	const checks = peers.map((p) => {
		const ratio = p.ms / oursT.ms;
		const min = targets[p.label] ?? 0;
		return { peer: p.label, min, ratio, met: ratio >= min };
	});
	return { id, title, bytes, ours: oursT, peers, targets: checks };
}

function check(ok: boolean, what: string): void {
	if (!ok) throw new Error(`benchmark self-check failed: ${what}`);
}

type Sizes = Required<Omit<HashingBenchOptions, "log">>;

interface Ctx {
	o: Sizes;
	root: string;
	prng: Prng;
	log: (line: string) => void;
	/** pi-fold's options (threads = its calling thread + workers). */
	ours: { workers: number; minParallelBytes: number };
}

/** 1. A mixed store, end to end. */
async function storeScenario(c: Ctx): Promise<ScenarioResult> {
	const { o } = c;
	c.log(`writing a ${o.storeMiB} MiB mixed store...`);
	const storeDir = join(c.root, "store");
	const { blobs } = await writeMixedStore(storeDir, o.storeMiB * MB, c.prng);
	c.log(`verifying the store (${blobs} blobs)...`);
	const threaded = `node:crypto ${o.workers} workers`;
	// Both threaded set-ups keep their workers warm across repeats (pi-fold's is its shared pool).
	const peerPool = new VerifyPool(o.workers);
	let storeMs: Record<string, number>;
	try {
		storeMs = await race(
			{
				"pi-fold verifyStore": async () => check((await verifyStore(storeDir, c.ours)).ok, "store ok"),
				[threaded]: async () => check((await nodeWorkers(storeDir, peerPool)) === 0, "peer"),
				"node:crypto 1 thread": () => check(nodeOneThread(storeDir) === 0, "peer"),
				"hash-wasm 1 thread": async () => check((await hashWasmOneThread(storeDir)) === 0, "peer"),
			},
			o.repeats,
		);
	} finally {
		await peerPool.close();
	}
	await rm(storeDir, { recursive: true, force: true });
	const title = `verify a ${o.storeMiB} MiB store (${blobs} blobs: 4 large, 8 folds, rest 1-256 KiB)`;
	return scenario("store", title, o.storeMiB * MB, storeMs, "pi-fold verifyStore", {
		[threaded]: 1.1,
		"node:crypto 1 thread": 2,
		"hash-wasm 1 thread": 4,
	});
}

/** 2. One large blob, and 3. a bounded peek inside it. */
async function blobScenarios(c: Ctx): Promise<ScenarioResult[]> {
	const { o } = c;
	c.log(`writing one ${o.blobMiB} MiB blob...`);
	const blobDir = join(c.root, "blob");
	const written = await writeBlobStream(blobDir, prngPieces(c.prng, o.blobMiB * MB), { durable: false });
	c.log("verifying the blob...");
	const ours = "pi-fold verifyBlob (chunk tree)";
	const blobMs = await race(
		{
			[ours]: async () => check((await verifyBlob(blobDir, written.digest, { workers: c.ours.workers })).ok, "blob ok"),
			"node:crypto single stream": () => check(nodeStreamFile(written.path) === written.digest, "peer"),
			"hash-wasm single stream": async () => check((await hashWasmStreamFile(written.path)) === written.digest, "peer"),
		},
		o.repeats,
	);
	c.log("peeking 64 KB...");
	const peeks: number[] = [];
	for (let i = 0; i < 41; i++) {
		const offset = c.prng.int(0, o.blobMiB * MB - 65536);
		const start = performance.now();
		const r = readVerifiedRange(blobDir, written.digest, offset, 65536);
		peeks.push(performance.now() - start);
		check(r.bytes.length === 65536, "peek length");
	}
	await rm(blobDir, { recursive: true, force: true });
	await closeSharedPools(); // the threads' memory goes back before the in-memory scenarios
	const peekMs = median(peeks.slice(1));
	const wholeMs = blobMs[ours] as number;
	const whole = "pi-fold verifyBlob (whole blob)";
	return [
		scenario("blob", `verify one ${o.blobMiB} MiB blob`, o.blobMiB * MB, blobMs, ours, {
			"node:crypto single stream": 2,
		}),
		{
			id: "peek",
			title: `bounded 64 KB peek inside the ${o.blobMiB} MiB blob (median of 40 offsets)`,
			bytes: 65536,
			ours: { label: "pi-fold readVerifiedRange", ms: peekMs, mbPerS: 65536 / 1e6 / (peekMs / 1e3) },
			peers: [{ label: whole, ms: wholeMs, mbPerS: (o.blobMiB * MB) / 1e6 / (wholeMs / 1e3) }],
			targets: [{ peer: whole, min: 100, ratio: wholeMs / peekMs, met: wholeMs / peekMs >= 100 }],
		},
	];
}

/** 4. Many small messages, digested one each, and 5. a plain single stream over a buffer (report only). */
async function memoryScenarios(c: Ctx): Promise<ScenarioResult[]> {
	const { o } = c;
	const hw = await createSHA256();
	const out: ScenarioResult[] = [];
	for (const [count, size, min] of [
		[o.messages2k, 2048, 1.5],
		[o.messages64, 64, 4],
	] as const) {
		const pool = c.prng.bytes(count * size);
		const messages = Array.from({ length: count }, (_, i) => pool.subarray(i * size, (i + 1) * size));
		const ms = await race(
			{
				"pi-fold sha256Many": () => sha256Many(messages),
				"node:crypto crypto.hash each": () => {
					for (const m of messages) cryptoHash("sha256", m, "buffer");
				},
				"hash-wasm each": () => {
					for (const m of messages) hw.init().update(m).digest("binary");
				},
			},
			Math.max(o.repeats, 7),
		);
		const title = `${count} x ${size} B messages, one digest each`;
		out.push(
			scenario(`messages-${size}`, title, count * size, ms, "pi-fold sha256Many", {
				"node:crypto crypto.hash each": min,
			}),
		);
	}
	// One stream of streamMiB, fed from a 4 MiB buffer (the bytes need not all be in memory at once).
	const piece = c.prng.bytes(Math.min(4 * MB, o.streamMiB * MB));
	const feeds = Math.ceil((o.streamMiB * MB) / piece.length);
	const feed = (update: (b: Uint8Array) => void) => {
		for (let i = 0; i < feeds; i++) update(piece);
	};
	const streamMs = await race(
		{
			"pi-fold Wasm Sha256": () => {
				const h = createSha256({ engine: "wasm" });
				feed((b) => h.update(b));
				h.digest();
			},
			"node:crypto": () => {
				const h = createHash("sha256");
				feed((b) => h.update(b));
				h.digest();
			},
			"hash-wasm": () => {
				hw.init();
				feed((b) => hw.update(b));
				hw.digest("binary");
			},
		},
		o.repeats,
	);
	const title = `single stream over ${feeds * (piece.length / MB)} MiB (report only)`;
	const st = scenario("stream", title, o.streamMiB * MB, streamMs, "pi-fold Wasm Sha256", {});
	st.note = "no target: the product hashes single streams with whichever engine calibration picks";
	return [...out, st];
}

/** Runs every hashing benchmark once and returns the results (see HashingBenchOptions for sizes). */
export async function runHashingBench(options: HashingBenchOptions = {}): Promise<HashingBenchResult> {
	const o: Sizes = {
		storeMiB: options.storeMiB ?? 512,
		blobMiB: options.blobMiB ?? 512,
		streamMiB: options.streamMiB ?? 64,
		messages2k: options.messages2k ?? 10_000,
		messages64: options.messages64 ?? 131_072,
		repeats: options.repeats ?? 5,
		workers: options.workers ?? 2,
	};
	const engine = engineCalibration();
	const root = await mkdtemp(join(tmpdir(), "pi-fold-bench-"));
	const onSignal = (signal: NodeJS.Signals) => {
		rmSync(root, { recursive: true, force: true });
		process.kill(process.pid, signal);
	};
	process.once("SIGINT", onSignal);
	process.once("SIGTERM", onSignal);
	const c: Ctx = {
		o,
		root,
		prng: new Prng(0x5eed),
		log: options.log ?? (() => {}),
		ours: { workers: Math.max(0, o.workers - 1), minParallelBytes: 0 },
	};
	try {
		const scenarios = [await storeScenario(c)];
		collectGarbage();
		scenarios.push(...(await blobScenarios(c)));
		collectGarbage();
		scenarios.push(...(await memoryScenarios(c)));
		return { machine: machineInfo(), options: o, engine, scenarios };
	} finally {
		process.off("SIGINT", onSignal);
		process.off("SIGTERM", onSignal);
		await closeSharedPools();
		await rm(root, { recursive: true, force: true });
	}
}
