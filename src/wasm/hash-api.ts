// The one SHA-256 API of pi-fold: sha256 / sha256Hex (one message), sha256Many (independent
// messages), sha256Chunks (the chunks of a chunk tree) and createSha256 (a stream). Every caller uses
// it: the layers above import it from src/wasm/index.ts, and pi-fold/verify re-exports it.
//
// Each call is served by an engine: node:crypto, built in here, or the Wasm core's lanes, which
// engines.ts registers (src/wasm/index.ts loads it). A forced engine ("node" or "wasm") is always
// obeyed; "auto" (the default) is decided per shape of work by the chooser engines.ts registers from
// the machine's calibration, so a CPU without SHA-NI gets the Wasm lanes where they win. One-shot
// digests never trigger a calibration: they follow it once it is there, node:crypto before. A bundle
// that imports this file alone (`pi-fold hash`, the search worker) has neither the Wasm core nor a
// chooser: node:crypto serves it, the measured fastest single stream on every machine measured
// (docs/verifier.md). Pure in-memory work; no I/O.

import { createHash, hash as nodeHash } from "node:crypto";

/** Which engine serves a call: "auto" (the chooser's pick for the shape) or a forced one. */
export type EngineName = "auto" | "wasm" | "node";
/** An engine after "auto" is resolved for a shape. */
export type ConcreteEngine = "wasm" | "node";
/** Bytes, or a string hashed as its UTF-8 encoding (lone surrogates become U+FFFD). */
export type HashInput = Uint8Array | string;
/** Options of every hashing call: `engine` (default "auto"). */
export interface HashOptions {
	engine?: EngineName | undefined;
}

/** A streaming hasher as an engine provides it: raw bytes in, the 32-byte digest once. */
export interface StreamHasher {
	update(data: Uint8Array): StreamHasher;
	digest(): Uint8Array;
}

/** The Wasm core's side of each shape (registered by engines.ts). */
export interface WasmEngine {
	one(data: HashInput): Uint8Array;
	stream(): StreamHasher;
	many(inputs: readonly HashInput[]): Uint8Array[];
	chunks(data: Uint8Array, chunkSize: number): Uint8Array;
}

/** Which engine serves "auto", per shape (registered by engines.ts from the calibration). */
export interface EngineChooser {
	/** One message of `bytes` bytes; must not start a calibration. */
	one(bytes: number): ConcreteEngine;
	stream(): ConcreteEngine;
	/** `count` chunks of a chunk tree. */
	chunks(count: number): ConcreteEngine;
	/** A batch of `count` messages totalling `bytes`. */
	many(count: number, bytes: number): ConcreteEngine;
}

let wasm: WasmEngine | undefined;
let chooser: EngineChooser | undefined;

/** Makes the Wasm core an engine (engines.ts does, when src/wasm/index.ts is loaded). */
export function registerWasmEngine(engine: WasmEngine): void {
	wasm = engine;
}

/** Installs (or with undefined, removes) the chooser that serves "auto". */
export function setEngineChooser(next: EngineChooser | undefined): void {
	chooser = next;
}

function wasmEngine(): WasmEngine {
	if (!wasm) throw new Error("the Wasm hashing engine is not loaded (import src/wasm/index.ts, not hash-api.ts)");
	return wasm;
}

function forced(engine: EngineName | undefined): ConcreteEngine | undefined {
	return engine === "node" || engine === "wasm" ? engine : undefined;
}

/** The concrete engine for one stream / one file. */
export function streamEngine(engine?: EngineName): ConcreteEngine {
	return forced(engine) ?? chooser?.stream() ?? "node";
}

/** The concrete engine for `chunks` chunks of a chunk tree (a single chunk is a single stream). */
export function chunksEngine(engine?: EngineName, chunks = 4): ConcreteEngine {
	return forced(engine) ?? (chunks <= 1 ? streamEngine() : (chooser?.chunks(chunks) ?? "node"));
}

/** The concrete engine for a batch of `count` messages totalling `bytes`. */
export function manyEngine(engine: EngineName | undefined, count: number, bytes: number): ConcreteEngine {
	return forced(engine) ?? chooser?.many(count, bytes) ?? "node";
}

function toBytes(data: HashInput): Uint8Array {
	return typeof data === "string" ? Buffer.from(data, "utf8") : data;
}

function checkInput(fn: string, data: unknown): void {
	if (typeof data !== "string" && !(data instanceof Uint8Array))
		throw new TypeError(`${fn}(): data must be a Uint8Array or a string`);
}

function nodeDigest(data: HashInput): Uint8Array {
	const out = nodeHash("sha256", data, "buffer");
	return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

function oneEngine(data: HashInput, options: HashOptions | undefined): ConcreteEngine {
	return forced(options?.engine) ?? chooser?.one(data.length) ?? "node";
}

/** Lowercase hex of bytes. */
function hexOf(bytes: Uint8Array): string {
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** SHA-256 of bytes or a string (UTF-8), as 32 bytes. */
export function sha256(data: HashInput, options?: HashOptions): Uint8Array {
	checkInput("sha256", data);
	return oneEngine(data, options) === "wasm" ? wasmEngine().one(data) : nodeDigest(data);
}

/** SHA-256 of bytes or a string (UTF-8), as 64 lowercase hex characters. */
export function sha256Hex(data: HashInput, options?: HashOptions): string {
	checkInput("sha256Hex", data);
	return oneEngine(data, options) === "wasm" ? hexOf(wasmEngine().one(data)) : nodeHash("sha256", data, "hex");
}

/** Independent SHA-256 digests of many messages, one per input, in order (across the Wasm lanes where they win). */
export function sha256Many(inputs: readonly HashInput[], options?: HashOptions): Uint8Array[] {
	let bytes = 0;
	for (let i = 0; i < inputs.length; i++) {
		const input = inputs[i];
		if (typeof input !== "string" && !(input instanceof Uint8Array))
			throw new TypeError(`sha256Many(): input ${i} is not a Uint8Array or a string`);
		bytes += input.length;
	}
	if (manyEngine(options?.engine, inputs.length, bytes) === "wasm") return wasmEngine().many(inputs);
	return inputs.map(nodeDigest);
}

/**
 * Digests of consecutive `chunkSize`-byte chunks of `data` (the last may be short), concatenated,
 * 32 bytes each; an empty buffer has none.
 */
export function sha256Chunks(data: Uint8Array, chunkSize: number, options?: HashOptions): Uint8Array {
	if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)
		throw new RangeError(`sha256Chunks(): chunkSize must be a positive integer, got ${chunkSize}`);
	if (data.length === 0) return new Uint8Array(0);
	const count = Math.ceil(data.length / chunkSize);
	if (chunksEngine(options?.engine, count) === "wasm") return wasmEngine().chunks(data, chunkSize);
	const out = new Uint8Array(count * 32);
	for (let i = 0; i < count; i++)
		out.set(nodeHash("sha256", data.subarray(i * chunkSize, (i + 1) * chunkSize), "buffer"), i * 32);
	return out;
}

/** A streaming SHA-256: `update()` any number of times, then `digest()` or `digestHex()` once. */
export interface Sha256Hasher {
	update(data: HashInput): Sha256Hasher;
	digest(): Uint8Array;
	digestHex(): string;
}

function nodeStream(): StreamHasher {
	const h = createHash("sha256");
	const self: StreamHasher = {
		update(data) {
			h.update(data);
			return self;
		},
		digest() {
			const out = h.digest();
			return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
		},
	};
	return self;
}

/** A streaming hasher on the engine that serves one stream. */
export function createSha256(options?: HashOptions): Sha256Hasher {
	const inner = streamEngine(options?.engine) === "wasm" ? wasmEngine().stream() : nodeStream();
	let done = false;
	const hasher: Sha256Hasher = {
		update(data) {
			if (done) throw new Error("Sha256Hasher.update() called after digest()");
			checkInput("Sha256Hasher.update", data);
			inner.update(toBytes(data));
			return hasher;
		},
		digest() {
			if (done) throw new Error("Sha256Hasher.digest() called twice");
			done = true;
			return inner.digest();
		},
		digestHex() {
			return hexOf(hasher.digest());
		},
	};
	return hasher;
}
