// The engine chooser behind the hashing API (hash-api.ts): it registers the Wasm core as an engine
// and decides, per shape of work, which engine serves "auto". The choice is made by measurement,
// because it depends on the CPU: OpenSSL (node:crypto) uses the SHA extensions (SHA-NI) where the CPU
// has them and is then ~4x faster per byte than any Wasm code; without them, the Wasm core's 4 v128
// lanes beat it on independent inputs. So "auto" uses a calibration (lazily, on the thread that plans
// the work; verify's worker tasks always carry a concrete engine): from the calibration provider
// (pi-fold/verify installs its per-machine cache, src/verify/calibration-cache.ts), or measured here
// in ~20 ms, and picks per shape:
//
//   shape                              candidates                      decided by
//   one message / one stream / file    node createHash | wasm Sha256   64 KiB throughput
//   chunks of a chunk tree             node per chunk | wasm Chunks    4 x 64 KiB throughput
//   many independent messages          node crypto.hash each | wasm    per-call + per-byte cost model
//                                      sha256Many (one call, lanes)    of each, evaluated per batch
//   one short message                  the same cost model, for one message, once a calibration is
//                                      there (a one-shot digest never starts one: node:crypto before)
//
// bench/hashing.ts measures the same shapes at full size; docs/verifier.md records both.
// Loading this module registers both (src/wasm/index.ts loads it). Pure in-memory work; no file I/O.

import { createHash, hash as nodeHashOneShot } from "node:crypto";
import { type ConcreteEngine, registerWasmEngine, type StreamHasher, setEngineChooser } from "./hash-api.ts";
import { wasmSha256Chunks, wasmSha256Many } from "./multi.ts";
import { WasmSha256, wasmSha256 } from "./sha256.ts";
import { deterministicBytes } from "./sha256-abi.ts";

/** Cost model of digesting a batch of messages: ms per message and ms per byte. */
export interface BatchCost {
	perCall: number;
	perByte: number;
}

/** What calibration measured and chose. */
export interface EngineCalibration {
	stream: ConcreteEngine;
	chunks: ConcreteEngine;
	many: Record<ConcreteEngine, BatchCost>;
	/** Throughputs (MB/s) behind the choices, for reports. */
	measured: Record<string, number>;
}

/** Best-of-`rounds` wall time of `fn` in ms, after one warm-up call. */
function timeMs(fn: () => void, rounds: number): number {
	fn();
	let best = Number.POSITIVE_INFINITY;
	for (let i = 0; i < rounds; i++) {
		const start = performance.now();
		fn();
		best = Math.min(best, performance.now() - start);
	}
	return Math.max(best, 1e-6);
}

/** What the API's node:crypto path does for chunks and for many messages (so their cost is what is measured). */
function nodeChunks(data: Uint8Array, chunkSize: number): Uint8Array {
	const count = Math.ceil(data.length / chunkSize);
	const out = new Uint8Array(count * 32);
	for (let i = 0; i < count; i++)
		out.set(nodeHashOneShot("sha256", data.subarray(i * chunkSize, (i + 1) * chunkSize), "buffer"), i * 32);
	return out;
}

function nodeEach(inputs: readonly Uint8Array[]): Uint8Array[] {
	return inputs.map((input) => {
		const out = nodeHashOneShot("sha256", input, "buffer");
		return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
	});
}

/**
 * Measures both engines on small instances of each shape, best of `rounds` timings each (~10 ms at
 * the default 3, plus the Wasm core's first load; the per-machine cache measures with more rounds,
 * once, so a busy moment is less likely to pick the wrong engine for a month). Calls the engines
 * directly, never through the API (which would ask for this very calibration).
 */
export function measureEngines(rounds = 3): EngineCalibration {
	const time = (fn: () => void) => timeMs(fn, rounds);
	const data = deterministicBytes(256 * 1024, 0x2545f491);
	const quarter = data.subarray(0, 64 * 1024);
	const mbps = (bytes: number, ms: number) => bytes / 1e3 / ms;
	const streamNode = time(() => createHash("sha256").update(quarter).digest());
	const streamWasm = time(() => new WasmSha256().update(quarter).digest());
	const chunksNode = time(() => nodeChunks(data, 64 * 1024));
	const chunksWasm = time(() => wasmSha256Chunks(data, 64 * 1024));
	const costModel = (small: number, large: number): BatchCost => {
		// 512 messages of 64 B and 64 messages of 4 KiB: solve t = n * perCall + bytes * perByte.
		const perByte = Math.max(0, (large - small * (64 / 512)) / (64 * 4096 - 64 * 64));
		return { perCall: Math.max(0, (small - 512 * 64 * perByte) / 512), perByte };
	};
	const tiny = Array.from({ length: 512 }, (_, i) => data.subarray(i * 64, i * 64 + 64));
	const mid = Array.from({ length: 64 }, (_, i) => data.subarray(i * 4096, i * 4096 + 4096));
	const many = {
		node: costModel(
			time(() => nodeEach(tiny)),
			time(() => nodeEach(mid)),
		),
		wasm: costModel(
			time(() => wasmSha256Many(tiny)),
			time(() => wasmSha256Many(mid)),
		),
	};
	return {
		stream: streamWasm < WASM_MARGIN * streamNode ? "wasm" : "node",
		chunks: chunksWasm < WASM_MARGIN * chunksNode ? "wasm" : "node",
		many,
		measured: {
			streamNode: mbps(quarter.length, streamNode),
			streamWasm: mbps(quarter.length, streamWasm),
			chunksNode: mbps(data.length, chunksNode),
			chunksWasm: mbps(data.length, chunksWasm),
		},
	};
}

/**
 * The Wasm core is chosen only when it is clearly faster (at most 85% of node:crypto's time): it
 * costs what the throughput numbers do not show (its load, ~13 MB per thread that uses it), and a
 * near tie decided by noise would otherwise flip between runs.
 */
export const WASM_MARGIN = 0.85;

let calibration: EngineCalibration | undefined;
let provider: () => EngineCalibration = measureEngines;

/**
 * Where the first engineCalibration() call gets its value: pi-fold/verify's calibration-cache.ts
 * installs the per-machine cache when it is loaded. Without it (a worker thread, which only runs tasks
 * with concrete engines, or a process that never loads pi-fold/verify) the calibration is measured.
 */
export function setCalibrationProvider(fn: () => EngineCalibration): void {
	provider = fn;
}

/** The process-wide calibration: from the provider on first use, or whatever setEngineCalibration set. */
export function engineCalibration(): EngineCalibration {
	calibration ??= provider();
	return calibration;
}

/** Replaces (or with undefined, resets) the calibration; for tests and reproducible benchmarks. */
export function setEngineCalibration(value: EngineCalibration | undefined): void {
	calibration = value;
}

function manyChoice(c: EngineCalibration, count: number, bytes: number): ConcreteEngine {
	const { node, wasm } = c.many;
	const wasmMs = count * wasm.perCall + bytes * wasm.perByte;
	return wasmMs < WASM_MARGIN * (count * node.perCall + bytes * node.perByte) ? "wasm" : "node";
}

function wasmStream(): StreamHasher {
	const h = new WasmSha256();
	const self: StreamHasher = {
		update(data) {
			h.update(data);
			return self;
		},
		digest: () => h.digest(),
	};
	return self;
}

registerWasmEngine({
	one: (data) => wasmSha256(data),
	stream: wasmStream,
	many: wasmSha256Many,
	chunks: wasmSha256Chunks,
});
setEngineChooser({
	one: (bytes) => (calibration ? manyChoice(calibration, 1, bytes) : "node"),
	stream: () => engineCalibration().stream,
	chunks: () => engineCalibration().chunks,
	many: (count, bytes) => manyChoice(engineCalibration(), count, bytes),
});
