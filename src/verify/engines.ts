// The one place that decides which SHA-256 implementation serves which shape of work. Everything
// else in verify/ calls these functions. The choice is made by measurement, because it depends on
// the CPU: OpenSSL (node:crypto) uses the SHA extensions (SHA-NI) where the CPU has them and is then
// ~4x faster per byte than any Wasm code; without them, the Wasm core's 4 v128 lanes beat it on
// independent inputs. So "auto" uses a calibration (lazily, on the thread that plans the work; worker
// tasks always carry a concrete engine): read from the per-machine cache (calibration-cache.ts), or
// measured in ~20 ms when there is no valid entry, and picks per shape:
//
//   shape                              candidates                      decided by
//   one message / one stream / file    node createHash | wasm Sha256   64 KiB throughput
//   chunks of a chunk tree             node per chunk | wasm Chunks    4 x 64 KiB throughput
//   many independent messages          node crypto.hash each | wasm    per-call + per-byte cost model
//                                      sha256Many (one call, lanes)    of each, evaluated per batch
//
// bench/hashing.ts measures the same shapes at full size; docs/verifier.md records both.
// Pure in-memory hashing; no file I/O.

import { createHash, hash as nodeHashOneShot } from "node:crypto";
import {
	deterministicBytes,
	Sha256 as WasmSha256,
	sha256Chunks as wasmChunks,
	sha256Many as wasmMany,
} from "../wasm/index.ts";
import type { EngineName } from "./verify-options.ts";

/** A concrete engine (after "auto" is resolved for a shape). */
export type ConcreteEngine = "wasm" | "node";

/** A streaming hasher: feed bytes, then take the 32-byte digest once. */
export interface StreamHasher {
	update(data: Uint8Array): StreamHasher;
	digest(): Uint8Array;
}

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

function toBytes(data: Uint8Array | string): Uint8Array {
	return typeof data === "string" ? Buffer.from(data, "utf8") : data;
}

function asU8(buf: Buffer): Uint8Array {
	return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function nodeDigest(data: Uint8Array | string): Uint8Array {
	return asU8(nodeHashOneShot("sha256", toBytes(data), "buffer"));
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

function nodeChunks(data: Uint8Array, chunkSize: number): Uint8Array {
	const count = Math.ceil(data.length / chunkSize);
	const out = new Uint8Array(count * 32);
	for (let i = 0; i < count; i++)
		out.set(nodeHashOneShot("sha256", data.subarray(i * chunkSize, (i + 1) * chunkSize), "buffer"), i * 32);
	return out;
}

/**
 * Measures both engines on small instances of each shape, best of `rounds` timings each (~10 ms at
 * the default 3, plus the Wasm core's first load; the per-machine cache measures with more rounds,
 * once, so a busy moment is less likely to pick the wrong engine for a month).
 */
export function measureEngines(rounds = 3): EngineCalibration {
	const time = (fn: () => void) => timeMs(fn, rounds);
	const data = deterministicBytes(256 * 1024, 0x2545f491);
	const quarter = data.subarray(0, 64 * 1024);
	const mbps = (bytes: number, ms: number) => bytes / 1e3 / ms;
	const streamNode = time(() => createHash("sha256").update(quarter).digest());
	const streamWasm = time(() => new WasmSha256().update(quarter).digest());
	const chunksNode = time(() => nodeChunks(data, 64 * 1024));
	const chunksWasm = time(() => wasmChunks(data, 64 * 1024));
	const costModel = (small: number, large: number): BatchCost => {
		// 512 messages of 64 B and 64 messages of 4 KiB: solve t = n * perCall + bytes * perByte.
		const perByte = Math.max(0, (large - small * (64 / 512)) / (64 * 4096 - 64 * 64));
		return { perCall: Math.max(0, (small - 512 * 64 * perByte) / 512), perByte };
	};
	const tiny = Array.from({ length: 512 }, (_, i) => data.subarray(i * 64, i * 64 + 64));
	const mid = Array.from({ length: 64 }, (_, i) => data.subarray(i * 4096, i * 4096 + 4096));
	const many = {
		node: costModel(
			time(() => tiny.map(nodeDigest)),
			time(() => mid.map(nodeDigest)),
		),
		wasm: costModel(
			time(() => wasmMany(tiny)),
			time(() => wasmMany(mid)),
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
 * Where the first engineCalibration() call gets its value: calibration-cache.ts installs the
 * per-machine cache when it is loaded (pi-fold/verify's index loads it). A worker thread, which only
 * runs tasks with concrete engines, never loads it; it would measure.
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

/** The concrete engine for one stream / one message / one file. */
export function streamEngine(engine?: EngineName): ConcreteEngine {
	return engine === "node" || engine === "wasm" ? engine : engineCalibration().stream;
}

/** The concrete engine for the chunks of a chunk tree (a single chunk is a single stream). */
export function chunksEngine(engine?: EngineName, chunks = 4): ConcreteEngine {
	if (engine === "node" || engine === "wasm") return engine;
	return chunks <= 1 ? engineCalibration().stream : engineCalibration().chunks;
}

/** The concrete engine for a batch of `count` messages totalling `bytes`. */
export function manyEngine(engine: EngineName | undefined, count: number, bytes: number): ConcreteEngine {
	if (engine === "node" || engine === "wasm") return engine;
	const { node, wasm } = engineCalibration().many;
	const wasmMs = count * wasm.perCall + bytes * wasm.perByte;
	return wasmMs < WASM_MARGIN * (count * node.perCall + bytes * node.perByte) ? "wasm" : "node";
}

/** One-shot digest of one message. */
export function digestOne(data: Uint8Array | string, engine?: EngineName): Uint8Array {
	// Small one-shot digests (names, sidecar checks) never trigger calibration: node unless forced.
	if (engine === "wasm") return new WasmSha256().update(toBytes(data)).digest();
	return nodeDigest(data);
}

/** A streaming hasher. */
export function createStreamHasher(engine?: EngineName): StreamHasher {
	if (streamEngine(engine) === "wasm") {
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
	const h = createHash("sha256");
	const self: StreamHasher = {
		update(data) {
			h.update(data);
			return self;
		},
		digest: () => asU8(h.digest()),
	};
	return self;
}

/** Independent digests of many messages, one per input, in order. */
export function digestMany(inputs: readonly (Uint8Array | string)[], engine?: EngineName): Uint8Array[] {
	let bytes = 0;
	if (engine !== "node" && engine !== "wasm") for (const input of inputs) bytes += input.length;
	if (manyEngine(engine, inputs.length, bytes) === "wasm") return wasmMany(inputs);
	return inputs.map(nodeDigest);
}

/** Digests of consecutive `chunkSize` chunks of `data` (the last may be short), concatenated (32 bytes each). */
export function digestChunks(data: Uint8Array, chunkSize: number, engine?: EngineName): Uint8Array {
	if (data.length === 0) return new Uint8Array(0);
	const chunks = Math.ceil(data.length / chunkSize);
	if (chunksEngine(engine, chunks) === "wasm") return wasmChunks(data, chunkSize);
	return nodeChunks(data, chunkSize);
}
