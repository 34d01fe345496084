// The shapes of a loaded Wasm core (its exports, backend and binary digest) and of a self-test,
// shared by the loader and the typed wrappers so neither imports the other for types. Types only.

/** Which compiled build of assembly/ is serving calls. */
export type CoreBackend = "simd" | "scalar";

/**
 * The raw exports of assembly/index.ts (numbers-only ABI) plus the module's memory (typed by the one
 * member used, so the published declarations need no WebAssembly globals from the consumer).
 */
export interface CoreExports {
	readonly memory: { readonly buffer: ArrayBuffer };
	abiVersion(): number;
	[name: string]: unknown;
}

/** A loaded core: its exports, which backend it is, and the SHA-256 of the binary serving it. */
export interface LoadedCore {
	readonly exports: CoreExports;
	readonly backend: CoreBackend;
	readonly binarySha256: string;
	/** Fresh byte view over the whole memory (memory is fixed-size, so views never detach). */
	readonly bytes: Uint8Array;
}

/** Self-tests run on a freshly instantiated core; return a message naming the failure, or null. */
export type CoreSelfTest = (core: LoadedCore) => string | null;
