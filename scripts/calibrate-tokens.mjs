// Fits the token estimator's per-feature costs (assembly/tokens-costs.generated.ts) against exact o200k_base
// counts from gpt-tokenizer, on the calibration half of the corpus (bench/estimator-corpus.ts), and reports
// per-file error on both halves. Reads build/pi-fold-core.scalar.wasm (run `npm run build` first);
// with --write it rewrites assembly/tokens-costs.generated.ts (rendered by tokens-costs.mjs; then
// rebuild).
//
// Method: the Wasm scanner runs in trace mode and reports every piece it cuts (its bytes and its
// feature amounts); each piece is encoded alone with o200k_base to get its exact token count;
// costs are the weighted least-squares fit of piece tokens on piece features, each piece weighted
// 1/(pieces in its file) so every file counts equally, with a small ridge toward a prior so
// features the calibration set never shows keep a sensible value.
//
//   npm exec -- node scripts/calibrate-tokens.mjs [--write] [--doc]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { scriptArgs } from "../bench/command-line.ts";
import { CORPUS_RULE, listCorpus } from "../bench/estimator-corpus.ts";
import { renderTokenCosts, TOKEN_COSTS_FILE } from "./tokens-costs.mjs";
import { buildDfa, runDfa } from "./tokens-dfa.mjs";

const COMMAND = {
	name: "calibrate-tokens",
	program: "npm exec -- node scripts/calibrate-tokens.mjs",
	description:
		"Fits the token estimator's per-feature costs against exact o200k_base counts on the calibration half\n" +
		"of the corpus and reports the per-file error on both halves (needs build/, run npm run build first).",
	flags: {
		write: { kind: "boolean", help: `rewrite ${TOKEN_COSTS_FILE} with the fitted costs (then rebuild)` },
		doc: { kind: "boolean", help: "also print the fitted costs as the Markdown tables of docs/token-estimation.md" },
	},
};
const flags = scriptArgs(COMMAND, (f) => f);
if (!flags) process.exit();

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const CHUNK = 8192;
const RIDGE = 1e-3;
const noSpecial = { disallowedSpecial: new Set() };

const wasm = readFileSync(join(root, "build/pi-fold-core.scalar.wasm"));
const { exports: x } = new WebAssembly.Instance(new WebAssembly.Module(wasm), {
	env: {
		abort() {
			throw new Error("wasm abort");
		},
	},
});
const mem = new Uint8Array(x.memory.buffer);
const F = x.tokensFeatureCount();
const input = mem.subarray(x.tokensInputPtr(), x.tokensInputPtr() + x.tokensInputCapacity());

// Feature names and priors (layout of assembly/tokens.ts).
const names = [];
const prior = [];
const feature = (name, value) => {
	names.push(name);
	prior.push(value);
};
for (const p of ["", "_sp", "_pu"])
	for (const c of ["", "_Cap", "_CAPS"])
		for (let l = 0; l <= 24; l++) feature(`word${p}${c}_${l}${l === 24 ? "+" : ""}`, l <= 8 ? 1 : 1 + (l - 8) / 6);
feature("word_extra_letter", 0.2);
feature("xletter_2byte", 0.4);
feature("xletter_3byte", 0.8);
for (let l = 1; l <= 3; l++) feature(`digits_${l}`, 1);
for (const s of ["", "_sp"])
	for (let l = 1; l <= 9; l++) feature(`punct${s}_${l}${l === 9 ? "+" : ""}`, 1 + (l - 1) / 3);
feature("punct_extra_char", 0.05);
feature("punct_trail_char", 0.05);
feature("xsymbol_2byte", 1);
feature("xsymbol_3byte", 1);
feature("xsymbol_4byte", 1.5);
feature("ws_newline_piece", 1);
feature("ws_piece", 1);
if (names.length !== F) throw new Error(`feature layout mismatch: script ${names.length}, wasm ${F}`);

/** Pieces of `bytes` with their feature amounts: [{ start, end, feats: [[f, amount]...] }]. */
function tracePieces(bytes) {
	const pieces = [];
	x.tokensReset();
	x.tokensTraceEnable(1);
	let base = 0;
	let pending = 0;
	let pos = 0;
	let start = 0;
	for (;;) {
		const take = Math.min(CHUNK - pending, bytes.length - pos);
		input.set(bytes.subarray(pos, pos + take), pending);
		pos += take;
		const len = pending + take;
		const final = pos >= bytes.length;
		const consumed = x.tokensScan(len, final ? 1 : 0);
		const count = x.tokensTraceCount();
		if (count < 0) throw new Error("trace overflow");
		const view = new Uint32Array(x.memory.buffer, x.tokensTracePtr(), count * 3);
		let current;
		for (let e = 0; e < count; e++) {
			const end = base + (view[e * 3] ?? 0);
			if (current === undefined || current.end !== end) {
				current = { start, end, feats: [] };
				pieces.push(current);
				start = end;
			}
			current.feats.push([view[e * 3 + 1], view[e * 3 + 2]]);
		}
		if (final) break;
		input.copyWithin(0, consumed, len);
		base += consumed;
		pending = len - consumed;
	}
	x.tokensTraceEnable(0);
	if (start !== bytes.length) throw new Error(`pieces cover ${start} of ${bytes.length} bytes`);
	return pieces;
}

function solve(a, b) {
	const n = b.length;
	for (let col = 0; col < n; col++) {
		let pivot = col;
		for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
		[a[col], a[pivot]] = [a[pivot], a[col]];
		[b[col], b[pivot]] = [b[pivot], b[col]];
		for (let r = col + 1; r < n; r++) {
			const factor = a[r][col] / a[col][col];
			if (factor === 0) continue;
			for (let c = col; c < n; c++) a[r][c] -= factor * a[col][c];
			b[r] -= factor * b[col];
		}
	}
	const out = new Array(n).fill(0);
	for (let r = n - 1; r >= 0; r--) {
		let s = b[r];
		for (let c = r + 1; c < n; c++) s -= a[r][c] * out[c];
		out[r] = s / a[r][r];
	}
	return out;
}

function stats(errors) {
	const abs = errors.map((e) => Math.abs(e.err)).sort((p, q) => p - q);
	const pick = (q) => abs[Math.min(abs.length - 1, Math.floor(q * abs.length))] ?? 0;
	const worst = errors.reduce((w, e) => (Math.abs(e.err) > Math.abs(w.err) ? e : w), errors[0]);
	const pct = (v) => `${(v * 100).toFixed(2)}%`;
	return `MAPE ${pct(abs.reduce((s, v) => s + v, 0) / abs.length)}  median ${pct(pick(0.5))}  p90 ${pct(pick(0.9))}  worst ${pct(Math.abs(worst.err))} (${worst.path})`;
}

const decoder = new TextDecoder();
const textEncoder = new TextEncoder();
const corpus = listCorpus({ root }).map((file) => {
	const text = decoder.decode(readFileSync(join(root, file.path)));
	return { ...file, text, bytes: textEncoder.encode(text) };
});
console.log(`corpus: ${CORPUS_RULE}`);
console.log(
	`files: ${corpus.filter((f) => f.split === "calibration").length} calibration, ${corpus.filter((f) => f.split === "heldout").length} held out`,
);

const xtx = Array.from({ length: F }, () => new Float64Array(F));
const xty = new Float64Array(F);
const cache = new Map();
let pieceCount = 0;
for (const file of corpus) {
	file.hist = new Float64Array(F);
	const pieces = tracePieces(file.bytes);
	const w = 1 / Math.max(1, pieces.length);
	for (const piece of pieces) {
		for (const [f, amount] of piece.feats) file.hist[f] += amount;
		if (file.split !== "calibration") continue;
		pieceCount++;
		const text = decoder.decode(file.bytes.subarray(piece.start, piece.end));
		let tokens = cache.get(text);
		if (tokens === undefined) {
			tokens = encode(text, noSpecial).length;
			cache.set(text, tokens);
		}
		for (const [f, a] of piece.feats) {
			xty[f] += w * a * tokens;
			for (const [g, b] of piece.feats) xtx[f][g] += w * a * b;
		}
	}
	file.exact = encode(file.text, noSpecial).length;
}
// Per-letter/char costs beyond the last length bucket have floors: the corpus has few over-long
// runs, and a negative fit would make a huge run (a long identifier, a wall of letters) cheap.
// A first fit is free; any such cost below its floor is pinned to the floor and the rest refitted.
const floors = new Map([
	[names.indexOf("word_extra_letter"), 0.2],
	[names.indexOf("punct_extra_char"), 0.05],
]);
function fitCosts(pins) {
	const ridge = (i) => (pins.has(i) ? 1e9 : RIDGE);
	const target = (i) => pins.get(i) ?? prior[i] ?? 0;
	const a = xtx.map((row, i) => Array.from(row, (v, j) => v + (i === j ? ridge(i) : 0)));
	const b = Array.from(xty, (v, i) => v + ridge(i) * target(i));
	return solve(a, b);
}
// Non-ASCII letters have ceilings at their priors: the corpus is almost all ASCII, so a handful of
// files (a Macedonian locale table, say) can drive a per-letter cost far above what o200k charges
// (Cyrillic runs about 4 letters a token), which would overestimate whole languages and make the
// fence and the ladder act early. Any such cost above its ceiling is pinned to it.
const ceilings = new Map([
	[names.indexOf("xletter_2byte"), 0.4],
	[names.indexOf("xletter_3byte"), 0.8],
]);
const free = fitCosts(new Map());
const pins = new Map([
	...[...floors].filter(([i, floor]) => (free[i] ?? 0) < floor),
	...[...ceilings].filter(([i, ceiling]) => (free[i] ?? 0) > ceiling),
]);
const costs = (pins.size > 0 ? fitCosts(pins) : free).map((c) => Math.round(c * 1e4) / 1e4);
if (costs.some((c) => c < 0)) throw new Error("a fitted cost is negative");
console.log(`pieces: ${pieceCount} (calibration), ${cache.size} distinct`);

for (const split of ["calibration", "heldout"]) {
	const files = corpus.filter((f) => f.split === split && f.exact > 0);
	const est = files.map((f) => ({
		path: f.path,
		err: (f.hist.reduce((s, v, i) => s + v * costs[i], 0) - f.exact) / f.exact,
	}));
	const base = files.map((f) => ({ path: f.path, err: (Math.round(f.text.length / 4) - f.exact) / f.exact }));
	console.log(`${split.padEnd(11)} estimator ${stats(est)}`);
	console.log(`${"".padEnd(11)} chars/4   ${stats(base)}`);
}

const dfa = buildDfa(costs);
let disagree = 0;
for (const f of corpus) {
	const piece = f.hist.reduce((sum, v, i) => sum + v * costs[i], 0);
	if (Math.abs(runDfa(dfa, f.bytes) - piece) > 0.5) disagree++;
}
console.log(`DFA: ${dfa.states} states; differs from the piece model by > 0.5 token on ${disagree} files`);

const file = renderTokenCosts(names.map((name, i) => ({ name, cost: costs[i] })));
if (flags.doc) {
	// Markdown tables of the fitted costs (pasted into docs/token-estimation.md).
	const f = (i) => costs[i].toFixed(3);
	const heads = [];
	for (const p of ["none", "space", "other"]) for (const c of ["lower", "Cap", "CAPS"]) heads.push(`${p}/${c}`);
	const out = [`| ASCII letters | ${heads.join(" | ")} |`, `|---|${heads.map(() => "---").join("|")}|`];
	for (let l = 0; l <= 24; l++)
		out.push(`| ${l}${l === 24 ? "+" : ""} | ${heads.map((_, h) => f(h * 25 + l)).join(" | ")} |`);
	out.push("", "| punctuation chars | no leading space | leading space |", "|---|---|---|");
	const pBase = names.indexOf("punct_1");
	for (let l = 1; l <= 9; l++)
		out.push(`| ${l}${l === 9 ? "+" : ""} | ${f(pBase + l - 1)} | ${f(pBase + 9 + l - 1)} |`);
	out.push("", "| per-unit cost | value |", "|---|---|");
	for (let i = names.indexOf("word_extra_letter"); i < F; i++)
		if (!names[i].startsWith("punct_") || names[i].includes("char")) out.push(`| ${names[i]} | ${f(i)} |`);
	console.log(out.join("\n"));
}
if (flags.write) {
	writeFileSync(join(root, TOKEN_COSTS_FILE), file);
	console.log(`wrote ${TOKEN_COSTS_FILE}; run \`npm run build\` to rebuild the core`);
} else {
	console.log(names.map((n, i) => `${n}=${costs[i]}`).join(" "));
}
