// SHA-256 over the Wasm core: one-shot wasmSha256/wasmSha256Hex and the streaming WasmSha256 class
// with save/restore. They serve the hashing API (hash-api.ts) as its Wasm engine, and tests that pin
// a backend; everything else hashes through the API. The core holds one live stream at a time; each
// WasmSha256 keeps its state in JS while another hasher is live and swaps it back in on its next
// call, so any number of hashers can be used interleaved. Inputs larger than the core's input buffer
// are fed in pieces. Pure in-memory.

import type { HashInput } from "./hash-api.ts";
import { core, type LoadedCore } from "./load.ts";
import { type Sha256Views, sha256Views, stage, utf8Bound } from "./sha256-abi.ts";

let lastCore: LoadedCore | undefined;
let lastViews: Sha256Views | undefined;

/** Views of `using`, or of the shared core when omitted (cached for the hot path). */
export function viewsFor(using: LoadedCore | undefined): Sha256Views {
	const c = using ?? core();
	if (c === lastCore && lastViews !== undefined) return lastViews;
	lastCore = c;
	lastViews = sha256Views(c);
	return lastViews;
}

/** Stages `data` into the input buffer when it fits there; returns its byte length, or -1. */
function stageWhole(v: Sha256Views, data: HashInput): number {
	if (typeof data === "string") return utf8Bound(data.length) <= v.inputSize ? stage(v, data, v.inputPtr) : -1;
	if (!(data instanceof Uint8Array)) throw new TypeError("wasmSha256(): data must be a Uint8Array or a string");
	return data.length <= v.inputSize ? stage(v, data, v.inputPtr) : -1;
}

/** SHA-256 of `data` on the Wasm core: a new 32-byte array. `using` picks a core (default: the shared one). */
export function wasmSha256(data: HashInput, using?: LoadedCore): Uint8Array {
	const v = viewsFor(using);
	const n = stageWhole(v, data);
	if (n < 0) return new WasmSha256(v.core).update(data).digest();
	v.ex.sha256Digest(n);
	return v.bytes.slice(v.outputPtr, v.outputPtr + 32);
}

/** SHA-256 of `data` on the Wasm core as 64 lowercase hex characters. */
export function wasmSha256Hex(data: HashInput, using?: LoadedCore): string {
	const v = viewsFor(using);
	const n = stageWhole(v, data);
	if (n < 0) return new WasmSha256(v.core).update(data).digestHex();
	v.ex.sha256Digest(n);
	return v.buf.toString("hex", v.outputPtr, v.outputPtr + 32);
}

const MAGIC = [0x70, 0x66, 0x73, 0x68]; // "pfsh"
const HEADER = 40; // magic, ABI version (u32 LE), SHA-256 of the Wasm binary
const CHECK = 32; // trailing SHA-256 of everything before it

/** Size in bytes of a state from WasmSha256#saveState(). */
export const SHA256_STATE_BYTES = HEADER + 104 + CHECK;

function abiVersionOf(v: Sha256Views): number {
	return v.core.exports.abiVersion();
}

/**
 * Streaming SHA-256 on the Wasm core with a 64-bit byte counter. `update` may be called any number of times with
 * pieces of any size; `digest`/`digestHex` finish the hash (once). `saveState` captures the state
 * mid-stream; `WasmSha256.restore` continues from it in any later WasmSha256 served by the same Wasm build.
 */
export class WasmSha256 {
	readonly #v: Sha256Views;
	/** Saved core state while this hasher is not live; null means the initial state. */
	#state: Uint8Array | null = null;
	#finished = false;

	/** A fresh hasher on `using` (default: the shared core). */
	constructor(using?: LoadedCore) {
		this.#v = viewsFor(using);
	}

	/** Absorbs `data` (strings as UTF-8). */
	update(data: HashInput): this {
		if (this.#finished) throw new Error("WasmSha256.update() called after digest()");
		const v = this.#v;
		if (typeof data === "string") {
			if (utf8Bound(data.length) > v.inputSize) return this.update(Buffer.from(data, "utf8"));
			this.#acquire();
			v.ex.sha256Update(stage(v, data, v.inputPtr));
			return this;
		}
		if (!(data instanceof Uint8Array))
			throw new TypeError("WasmSha256.update(): data must be a Uint8Array or a string");
		this.#acquire();
		if (data.length <= v.inputSize) {
			v.bytes.set(data, v.inputPtr);
			v.ex.sha256Update(data.length);
			return this;
		}
		for (let off = 0; off < data.length; off += v.inputSize) {
			const piece = data.subarray(off, off + v.inputSize);
			v.bytes.set(piece, v.inputPtr);
			v.ex.sha256Update(piece.length);
		}
		return this;
	}

	/** Finishes the hash: a new 32-byte array. The hasher cannot be used afterwards. */
	digest(): Uint8Array {
		const v = this.#finish("digest");
		return v.bytes.slice(v.outputPtr, v.outputPtr + 32);
	}

	/** Finishes the hash: 64 lowercase hex characters. The hasher cannot be used afterwards. */
	digestHex(): string {
		const v = this.#finish("digestHex");
		return v.buf.toString("hex", v.outputPtr, v.outputPtr + 32);
	}

	/**
	 * The mid-stream state as SHA256_STATE_BYTES bytes, tagged with the ABI version and the SHA-256
	 * of the Wasm binary serving this hasher and checksummed. The hasher stays usable.
	 */
	saveState(): Uint8Array {
		if (this.#finished) throw new Error("WasmSha256.saveState() called after digest()");
		const v = this.#v;
		const out = new Uint8Array(SHA256_STATE_BYTES);
		out.set(MAGIC, 0);
		new DataView(out.buffer).setUint32(4, abiVersionOf(v), true);
		out.set(Buffer.from(v.core.binarySha256, "hex"), 8);
		out.set(this.#currentState(), HEADER);
		out.set(wasmSha256(out.subarray(0, HEADER + 104), v.core), HEADER + 104);
		return out;
	}

	/**
	 * A hasher continuing from `state` (from saveState()) on `using` (default: the shared core).
	 * Throws an error naming the problem when the state is malformed, garbled, or was saved by
	 * another Wasm build or ABI version.
	 */
	static restore(state: Uint8Array, using?: LoadedCore): WasmSha256 {
		const h = new WasmSha256(using);
		const v = h.#v;
		const where = "WasmSha256.restore()";
		if (!(state instanceof Uint8Array)) throw new TypeError(`${where}: state must be a Uint8Array`);
		if (state.length !== SHA256_STATE_BYTES)
			throw new Error(
				`${where}: state is ${state.length} bytes, expected ${SHA256_STATE_BYTES} (not a saved WasmSha256 state)`,
			);
		if (MAGIC.some((b, i) => state[i] !== b))
			throw new Error(`${where}: state does not start with the WasmSha256 state tag`);
		const check = wasmSha256(state.subarray(0, HEADER + 104), v.core);
		if (!check.every((b, i) => state[HEADER + 104 + i] === b))
			throw new Error(`${where}: state is garbled (its checksum does not match its contents)`);
		const abi = new DataView(state.buffer, state.byteOffset, state.length).getUint32(4, true);
		if (abi !== abiVersionOf(v))
			throw new Error(
				`${where}: state was saved under Wasm ABI version ${abi}, this core is version ${abiVersionOf(v)}`,
			);
		const binary = Buffer.from(state.subarray(8, HEADER)).toString("hex");
		if (binary !== v.core.binarySha256)
			throw new Error(
				`${where}: state was saved by a different Wasm build (binary ${binary.slice(0, 12)}…, this ${v.core.backend} build is ${v.core.binarySha256.slice(0, 12)}…)`,
			);
		h.#state = state.slice(HEADER, HEADER + 104);
		return h;
	}

	/** The 104 raw core state bytes of this hasher (a view into Wasm memory: copy before reuse). */
	#currentState(): Uint8Array {
		const v = this.#v;
		this.#acquire();
		v.ex.sha256SaveState();
		return v.bytes.subarray(v.statePtr, v.statePtr + v.stateSize);
	}

	#finish(call: string): Sha256Views {
		if (this.#finished) throw new Error(`WasmSha256.${call}() called after digest()`);
		this.#acquire();
		const v = this.#v;
		v.ex.sha256Final();
		v.owner = null;
		this.#finished = true;
		this.#state = null;
		return v;
	}

	/** Makes this hasher's state the core's live stream, saving the previous owner's. */
	#acquire(): void {
		const v = this.#v;
		if (v.owner === this) return;
		if (v.owner instanceof WasmSha256) v.owner.#release();
		if (this.#state === null) {
			v.ex.sha256Init();
		} else {
			v.bytes.set(this.#state, v.statePtr);
			v.ex.sha256RestoreState();
		}
		v.owner = this;
	}

	#release(): void {
		const v = this.#v;
		v.ex.sha256SaveState();
		this.#state = v.bytes.slice(v.statePtr, v.statePtr + v.stateSize);
		v.owner = null;
	}
}
