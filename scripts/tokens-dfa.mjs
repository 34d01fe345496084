// Compiles the token estimator's piece model (assembly/tokens.ts: pieces and their feature
// costs) into a byte-level DFA with additive transition costs, the estimator's fast path. Each
// piece's cost is spread over its bytes as telescoping differences (cost of the piece so far after
// this byte minus before it), and the one-character lookahead of o200k's pre-tokenizer (a space or
// punctuation char that turns out to be a word's prefix, the last space of a run) is settled one
// byte late by correcting what was already added. Used by scripts/calibrate-tokens.mjs (which
// writes the tables into assembly/tokens-costs.generated.ts) and by tests (a JS reference run).

/** Fixed-point scale of the integer transition costs. */
export const DFA_SCALE = 1 << 20;

// Byte classes.
const L = 0;
const U = 1;
const D = 2;
const S = 3;
const H = 4;
const N = 5;
const P = 6;
const SL = 7;
const XL2 = 8;
const XL3 = 9;
const XS2 = 10;
const XS3 = 11;
const XS4 = 12;
const CONT = 13;
/** Classes per state row (padded to a power of two). */
export const DFA_CLASSES = 16;

/** The byte class of every byte value (256 entries). */
export function byteClasses() {
	const out = new Uint8Array(256);
	for (let b = 0; b < 256; b++) {
		let c = P;
		if (b >= 0x61 && b <= 0x7a) c = L;
		else if (b >= 0x41 && b <= 0x5a) c = U;
		else if (b >= 0x30 && b <= 0x39) c = D;
		else if (b === 0x20) c = S;
		else if (b === 0x09 || b === 0x0b || b === 0x0c) c = H;
		else if (b === 0x0a || b === 0x0d) c = N;
		else if (b === 0x2f) c = SL;
		else if (b < 0x80) c = P;
		else if (b < 0xc0) c = CONT;
		else if (b < 0xe0) c = b === 0xc2 ? XS2 : XL2;
		else if (b < 0xf0) c = b === 0xe2 || b === 0xee || b === 0xef ? XS3 : XL3;
		else c = XS4;
		out[b] = c;
	}
	return out;
}

const isLetter = (k) => k === L || k === U || k === XL2 || k === XL3;
const isPunct = (k) => k === P || k === SL || k === XS2 || k === XS3 || k === XS4;

/**
 * Builds the DFA for the fitted piece costs `c` (feature layout of assembly/tokens.ts).
 * Returns { next (state*16 per entry), cost (fixed point), end (per state), states, classes }.
 */
export function buildDfa(c) {
	const W = (p, kase, len) => c[(p * 3 + kase) * 25 + Math.min(len, 24)] + Math.max(0, len - 24) * c[225];
	const PC = (sp, len) => c[231 + sp * 9 + Math.min(len, 9) - 1] + Math.max(0, len - 9) * c[249];
	const XL = (k) => c[k === XL2 ? 226 : 227];
	const XS = (k) => (k === XS2 || k === CONT ? c[251] : k === XS3 ? c[252] : k === XS4 ? c[253] : 0);
	const TRAIL = c[250];
	const WSNL = c[254];
	const WS = c[255];
	const DIG = [c[228], c[229], c[230]];

	const keys = [];
	const ids = new Map();
	const id = (key) => {
		let v = ids.get(key);
		if (v === undefined) {
			v = keys.length;
			ids.set(key, v);
			keys.push(key);
		}
		return v;
	};
	id("START");
	const wordStart = (p, k) => {
		if (k === L) return [W(p, 0, 1), `WL,${p},0,1`];
		if (k === U) return [W(p, 1, 1), `WU,${p},1`];
		return [W(p, 0, 0) + XL(k), `WU,${p},0`];
	};
	const startPiece = (k) => {
		if (isLetter(k)) return wordStart(0, k);
		if (k === D) return [DIG[0], "D,1"];
		if (isPunct(k) || k === CONT) return [PC(0, 1) + XS(k), "P,0,1"];
		if (k === S) return [0, "S,0,s1"];
		if (k === H) return [0, "S,0,h1"];
		return [WSNL, "S,1,0"]; // N
	};
	const add = (extra, [cost, key]) => [extra + cost, key];

	const transition = (key, k) => {
		const f = key.split(",");
		const kind = f[0];
		if (kind === "START") return startPiece(k);
		if (k === CONT) return [0, key];
		if (kind === "WU" || kind === "WL") {
			const p = Number(f[1]);
			const upper = kind === "WU";
			const len = Number(upper ? f[2] : f[3]);
			// Case: 0 no upper-case letter, 1 one, 2 more (in the upper-case run, all letters are upper).
			const kase = upper ? Math.min(len, 2) : Number(f[2]);
			const grow = (newCase) => (len >= 24 ? c[225] : W(p, newCase, len + 1) - W(p, kase, len));
			if (k === XL2 || k === XL3) return [XL(k), key];
			if (k === L) return [grow(kase), `WL,${p},${kase},${Math.min(len + 1, 24)}`];
			if (k === U && upper) return [grow(Math.min(len + 1, 2)), `WU,${p},${Math.min(len + 1, 24)}`];
			return startPiece(k);
		}
		if (kind === "D") {
			const j = Number(f[1]);
			if (k === D) return j < 3 ? [DIG[j] - DIG[j - 1], `D,${j + 1}`] : [DIG[0], "D,1"];
			return startPiece(k);
		}
		if (kind === "P") {
			const sp = Number(f[1]);
			const len = Number(f[2]);
			if (isPunct(k)) return [PC(sp, len + 1) - PC(sp, len) + XS(k), `P,${sp},${Math.min(len + 1, 9)}`];
			if (isLetter(k) && sp === 0 && len === 1) return add(-PC(0, 1), wordStart(2, k));
			if (k === N) return [TRAIL, "T"];
			return startPiece(k);
		}
		if (kind === "T") {
			if (k === N || k === SL) return [TRAIL, "T"];
			return startPiece(k);
		}
		// Whitespace run: S,<newline seen>,<pending tail: 0 | s1 | h1 | s2 | h2>.
		const nl = Number(f[1]);
		const b = f[2];
		if (k === S) return [0, `S,${nl},${b === "0" ? "s1" : "s2"}`];
		if (k === H) return [0, `S,${nl},${b === "0" ? "h1" : "h2"}`];
		if (k === N) return [nl ? 0 : WSNL, "S,1,0"];
		if (b === "0") return startPiece(k);
		const before = b === "s2" || b === "h2" ? WS : 0; // the run minus its last char
		const lastSpace = b === "s1" || b === "s2";
		if (isLetter(k)) return add(before, wordStart(lastSpace ? 1 : 2, k));
		if (isPunct(k) && lastSpace) return [before + PC(1, 1) + XS(k), "P,1,1"];
		return add(before + WS, startPiece(k));
	};

	const rows = [];
	for (let s = 0; s < keys.length; s++) {
		const row = [];
		for (let k = 0; k < DFA_CLASSES; k++) {
			if (k > CONT) {
				row.push([0, keys[s]]);
				continue;
			}
			const [cost, to] = transition(keys[s], k);
			row.push([cost, to]);
			id(to);
		}
		rows.push(row);
	}
	const states = keys.length;
	const next = new Uint16Array(states * DFA_CLASSES);
	const cost = new Int32Array(states * DFA_CLASSES);
	const end = new Int32Array(states);
	rows.forEach((row, s) => {
		row.forEach(([v, to], k) => {
			next[s * DFA_CLASSES + k] = (ids.get(to) ?? 0) * DFA_CLASSES;
			cost[s * DFA_CLASSES + k] = Math.round(v * DFA_SCALE);
		});
		const f = keys[s].split(",");
		end[s] = f[0] === "S" && f[2] !== "0" ? Math.round(WS * DFA_SCALE) : 0;
	});
	return { next, cost, end, states, classes: byteClasses() };
}

/** Reference run of a built DFA over bytes (tests): the unrounded estimate. */
export function runDfa(dfa, bytes) {
	let s = 0;
	let sum = 0;
	for (const b of bytes) {
		const idx = s + (dfa.classes[b] ?? 0);
		sum += dfa.cost[idx] ?? 0;
		s = dfa.next[idx] ?? 0;
	}
	return (sum + (dfa.end[s / DFA_CLASSES] ?? 0)) / DFA_SCALE;
}
