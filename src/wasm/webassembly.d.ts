// The subset of the WebAssembly JS API pi-fold uses. @types/node does not declare it and lib.dom
// would pull every browser global into a Node project, so it is declared here.

declare namespace WebAssembly {
	interface Memory {
		readonly buffer: ArrayBuffer;
	}
	interface Instance {
		readonly exports: Record<string, unknown>;
	}
	interface Module {
		readonly __wasmModule?: never;
	}
	const Module: { new (bytes: BufferSource): Module };
	const Instance: { new (module: Module, imports?: Record<string, Record<string, unknown>>): Instance };
	function validate(bytes: BufferSource): boolean;
}

type BufferSource = ArrayBufferView<ArrayBuffer> | ArrayBuffer;
