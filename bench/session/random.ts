// Deterministic pseudo-random numbers for the plan: a seed string goes through SHA-256 into a 32-bit
// xorshift-multiply generator (mulberry32). Pure; the same seed always yields the same sequence.

import { createHash } from "node:crypto";

export interface Random {
	/** Uniform in [0, 1). */
	next(): number;
	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number;
	/** One element of a non-empty array. */
	pick<T>(items: readonly T[]): T;
	/** A new array, shuffled (Fisher-Yates). */
	shuffle<T>(items: readonly T[]): T[];
	/** `length` characters from an unambiguous upper-case alphabet. */
	code(length: number): string;
}

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function createRandom(seed: string): Random {
	let state = createHash("sha256").update(seed).digest().readUInt32LE(0);
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
	return {
		next,
		int,
		pick<T>(items: readonly T[]): T {
			if (items.length === 0) throw new Error("pick() called with an empty array");
			return items[int(0, items.length - 1)] as T;
		},
		shuffle<T>(items: readonly T[]): T[] {
			const out = [...items];
			for (let i = out.length - 1; i > 0; i--) {
				const j = int(0, i);
				[out[i], out[j]] = [out[j] as T, out[i] as T];
			}
			return out;
		},
		code(length: number): string {
			let s = "";
			for (let i = 0; i < length; i++) s += ALPHABET[int(0, ALPHABET.length - 1)];
			return s;
		},
	};
}
