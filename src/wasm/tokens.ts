// Token estimation over the Wasm core (assembly/tokens.ts): an o200k_base-calibrated estimate of
// how many tokens a text costs, at memory speed. Strings go straight into the core's input buffer
// with TextEncoder.encodeInto (no intermediate copy); bytes are copied in. Input of any size is
// streamed through the 64 KiB buffer into the estimator DFA, whose state carries across chunks,
// so a string and its UTF-8 bytes always get the same count. Error and speed:
// docs/token-estimation.md.
// Pure in-memory work; no file or network I/O.

import { core, type LoadedCore } from "./load.ts";

/** The estimator's raw exports (numbers-only ABI of assembly/tokens.ts). */
interface TokenExports {
	tokensInputPtr(): number;
	tokensInputCapacity(): number;
	tokensRunReset(): void;
	tokensRun(len: number): void;
	tokensRunTotal(): number;
}

interface Estimator {
	readonly exports: TokenExports;
	readonly input: Uint8Array;
}

const estimators = new WeakMap<LoadedCore, Estimator>();
const encoder = new TextEncoder();

function estimatorFor(loaded: LoadedCore): Estimator {
	let estimator = estimators.get(loaded);
	if (estimator === undefined) {
		const exports = loaded.exports as unknown as TokenExports;
		const input = new Uint8Array(loaded.exports.memory.buffer, exports.tokensInputPtr(), exports.tokensInputCapacity());
		estimator = { exports, input };
		estimators.set(loaded, estimator);
	}
	return estimator;
}

function finish(exports: TokenExports, empty: boolean): number {
	if (empty) return 0;
	return Math.max(1, Math.round(exports.tokensRunTotal()));
}

function estimateString(estimator: Estimator, text: string): number {
	const { exports, input } = estimator;
	exports.tokensRunReset();
	let read = 0;
	while (read < text.length) {
		const result = encoder.encodeInto(read === 0 ? text : text.slice(read), input);
		read += result.read;
		exports.tokensRun(result.written);
	}
	return finish(exports, text.length === 0);
}

function estimateBytes(estimator: Estimator, bytes: Uint8Array): number {
	const { exports, input } = estimator;
	exports.tokensRunReset();
	for (let pos = 0; pos < bytes.length; pos += input.length) {
		const chunk = bytes.subarray(pos, pos + input.length);
		input.set(chunk);
		exports.tokensRun(chunk.length);
	}
	return finish(exports, bytes.length === 0);
}

/**
 * Estimated o200k_base token count of `text` (a string, or its UTF-8 bytes). Deterministic;
 * 0 for empty input and at least 1 otherwise. Calibrated per-file error and speed are measured by
 * bench/estimator.ts and recorded in docs/token-estimation.md.
 */
export function estimateTokens(text: string | Uint8Array): number {
	return estimateTokensWith(core(), text);
}

/** estimateTokens on a specific loaded core (tests and benchmarks run every backend). */
export function estimateTokensWith(loaded: LoadedCore, text: string | Uint8Array): number {
	const estimator = estimatorFor(loaded);
	return typeof text === "string" ? estimateString(estimator, text) : estimateBytes(estimator, text);
}
