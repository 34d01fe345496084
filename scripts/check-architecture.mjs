// Checks the architecture docs/design.md draws, read-only: (1) no import cycles among the project's
// TypeScript modules, type-only imports included (src/, bench/, tests/); (2) each layer of src/
// imports only the layers below it (the LAYERS table); (3) only the Pi adapter (src/pi) and the
// package entry import Pi; (4) nothing in src/ imports bench/ or tests/. Imports are read with
// TypeScript's own pre-processor. Run as a script (exit 1 on a violation) or import `checkArchitecture`.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Which layers each src/ layer may import (itself always). Order: bottom to top. */
export const LAYERS = {
	common: [],
	args: [],
	chart: ["common"],
	wasm: ["common"],
	verify: ["common", "wasm"],
	store: ["common", "wasm", "verify"],
	transcript: ["common"],
	lattice: ["common", "wasm", "transcript"],
	briefs: ["common", "transcript", "lattice"],
	state: ["common", "wasm", "transcript", "lattice", "briefs"],
	projection: ["common", "wasm", "transcript", "lattice"],
	policy: ["common", "wasm", "verify", "transcript", "lattice", "briefs", "state", "projection", "options"],
	options: ["common", "transcript", "projection"],
	runtime: [
		"common",
		"wasm",
		"verify",
		"store",
		"transcript",
		"lattice",
		"briefs",
		"state",
		"projection",
		"policy",
		"options",
	],
	simulate: [
		"common",
		"wasm",
		"transcript",
		"lattice",
		"briefs",
		"state",
		"projection",
		"policy",
		"options",
		"runtime",
		"store",
	],
	replay: [
		"common",
		"chart",
		"wasm",
		"transcript",
		"lattice",
		"briefs",
		"state",
		"projection",
		"policy",
		"options",
		"runtime",
		"store",
		"simulate",
	],
	pi: [
		"common",
		"wasm",
		"store",
		"transcript",
		"lattice",
		"briefs",
		"state",
		"projection",
		"policy",
		"options",
		"runtime",
	],
	cli: ["common", "args", "wasm", "verify", "store", "options", "chart", "replay"],
	"(entry)": ["pi", "options"],
};

/** Layers that may import Pi (`@earendil-works/*`). */
const PI_LAYERS = new Set(["pi", "(entry)"]);

function walk(dir, out = []) {
	for (const name of readdirSync(dir)) {
		if (name === "node_modules" || name === "results" || name.startsWith(".")) continue;
		const path = join(dir, name);
		if (statSync(path).isDirectory()) walk(path, out);
		else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
	}
	return out;
}

/** The src/ layer of a file, or null outside src/. */
export function layerOf(file) {
	const rel = relative(join(root, "src"), file);
	if (rel.startsWith("..")) return null;
	const parts = rel.split(sep);
	return parts.length === 1 ? "(entry)" : parts[0];
}

function importsOf(file) {
	const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
	return info.importedFiles.map((f) => f.fileName);
}

/** Every violation found, as lines naming the files; empty when the architecture holds. */
export function checkArchitecture(dirs = ["src", "bench", "tests"]) {
	const files = dirs.flatMap((d) => walk(join(root, d)));
	const graph = new Map();
	const problems = [];
	for (const file of files) {
		const edges = [];
		const layer = layerOf(file);
		for (const spec of importsOf(file)) {
			if (spec.startsWith("@earendil-works/") && layer !== null && !PI_LAYERS.has(layer))
				problems.push(`${relative(root, file)}: imports ${spec}, but only src/pi may import Pi`);
			if (!spec.startsWith(".")) continue;
			const target = resolve(dirname(file), spec);
			const targetLayer = layerOf(target);
			const rel = relative(root, target);
			if (layer !== null && (rel.startsWith(`bench${sep}`) || rel.startsWith(`tests${sep}`)))
				problems.push(`${relative(root, file)}: imports ${rel}; src/ must not import bench/ or tests/`);
			if (layer !== null && targetLayer !== null && targetLayer !== layer) {
				const allowed = LAYERS[layer];
				if (!allowed) problems.push(`${relative(root, file)}: layer src/${layer} is not in the LAYERS table`);
				else if (!allowed.includes(targetLayer))
					problems.push(`${relative(root, file)}: src/${layer} imports src/${targetLayer} (${rel}), which it may not`);
			}
			if (target.endsWith(".ts")) edges.push(target);
		}
		graph.set(file, edges);
	}
	for (const cycle of cycles(graph)) problems.push(`import cycle: ${cycle.map((f) => relative(root, f)).join(" -> ")}`);
	return problems;
}

/** Strongly connected components with more than one file (or a self-import), by Tarjan's algorithm. */
function cycles(graph) {
	let index = 0;
	const stack = [];
	const on = new Set();
	const idx = new Map();
	const low = new Map();
	const out = [];
	const visit = (v) => {
		idx.set(v, index);
		low.set(v, index++);
		stack.push(v);
		on.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!graph.has(w)) continue;
			if (!idx.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v), low.get(w)));
			} else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
		}
		if (low.get(v) !== idx.get(v)) return;
		const component = [];
		let w;
		do {
			w = stack.pop();
			on.delete(w);
			component.push(w);
		} while (w !== v);
		if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push([...component.reverse(), component[0]]);
	};
	for (const v of graph.keys()) if (!idx.has(v)) visit(v);
	return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const problems = checkArchitecture();
	for (const p of problems) console.error(p);
	if (problems.length > 0) process.exit(1);
	console.log("architecture: no import cycles, every layer imports only the layers below it, only src/pi imports Pi");
}
