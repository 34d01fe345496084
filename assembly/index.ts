// The pi-fold Wasm core: the module's public exports. Each file under assembly/ owns one job and
// its own static buffers (memory.data); this file only re-exports. The ABI is numbers only: JS
// writes bytes into a module's input buffer (pointer from an exported getter) and reads results
// from its output buffer. Nothing here allocates at run time (--runtime stub, fixed memory).

/** ABI version; bump when an export's meaning changes so saved state from another build is refused. */
export function abiVersion(): i32 {
	return 1;
}

export * from "./sha256";
export * from "./sha256x4";
export * from "./utf8";
export * from "./tokens";
