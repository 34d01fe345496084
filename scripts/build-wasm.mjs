// Compiles the Wasm core (assembly/) with AssemblyScript's compiler API, once per release target of
// asconfig.json (simd, scalar), into a folder of the caller's choice: build/ for the build, a temp
// folder for scripts/check-generated.mjs. The output is deterministic (same sources, same bytes).
//
// asc's `converge` option re-runs the optimizer until the binary stops shrinking; when the last extra
// round made it a few bytes larger it prints "Last converge was suboptimal." and keeps going. The line
// is informational (the result is still deterministic and self-tested at load), so it is filtered
// here; every other compiler message passes through to stderr.

import { join } from "node:path";
import asc from "assemblyscript/asc";

export const WASM_TARGETS = ["simd", "scalar"];

const QUIET = /^Last converge was suboptimal\.\r?\n?$/;

/** A write stream for asc that forwards to `target`, without the converge note. */
function filtered(target) {
	return {
		write(chunk) {
			const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
			if (!QUIET.test(text)) target.write(text);
			return true;
		},
	};
}

/** The .wasm path of a target's build inside `outDir`. */
export function wasmFile(outDir, target) {
	return join(outDir, `pi-fold-core.${target}.wasm`);
}

/**
 * Compiles every target into `outDir`: pi-fold-core.<target>.wasm and its text format .wat (always
 * into `outDir`: asconfig.json's own paths point into build/). Throws naming the target on an error.
 */
export async function compileCore(root, outDir) {
	for (const target of WASM_TARGETS) {
		const args = [
			join(root, "assembly/index.ts"),
			"--config",
			join(root, "asconfig.json"),
			"--target",
			target,
			"--outFile",
			wasmFile(outDir, target),
			"--textFile",
			join(outDir, `pi-fold-core.${target}.wat`),
		];
		const { error } = await asc.main(args, { stdout: filtered(process.stdout), stderr: filtered(process.stderr) });
		if (error) throw new Error(`asc (${target}): ${error.message}`);
	}
}
