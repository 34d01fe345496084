// Deterministic benchmark data (a seeded xorshift128 PRNG, so every run hashes the same bytes), the
// machine description printed beside every result table, and a garbage collection between
// scenarios. Pure, except machineInfo() reading os and collectGarbage() driving V8.

import { cpus } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A seeded PRNG (xorshift128): `u32()` and `fill(bytes)`; the same seed gives the same stream. */
export class Prng {
	private a: number;
	private b: number;
	private c: number;
	private d: number;

	constructor(seed: number) {
		this.a = seed >>> 0 || 1;
		this.b = 0x9e3779b9;
		this.c = 0x243f6a88;
		this.d = 0xb7e15162;
		for (let i = 0; i < 16; i++) this.u32();
	}

	u32(): number {
		let t = this.d;
		const s = this.a;
		this.d = this.c;
		this.c = this.b;
		this.b = s;
		t ^= t << 11;
		t ^= t >>> 8;
		this.a = (t ^ s ^ (s >>> 19)) >>> 0;
		return this.a;
	}

	/** Uniform integer in [min, max]. */
	int(min: number, max: number): number {
		return min + (this.u32() % (max - min + 1));
	}

	/** Fills `bytes` with PRNG output (4 bytes per step). */
	fill(bytes: Uint8Array): Uint8Array {
		const words = Math.floor(bytes.length / 4);
		const view = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
		if (bytes.byteOffset % 4 !== 0) {
			for (let i = 0; i < bytes.length; i++) bytes[i] = this.u32() & 0xff;
			return bytes;
		}
		for (let i = 0; i < words; i++) view[i] = this.u32();
		for (let i = words * 4; i < bytes.length; i++) bytes[i] = this.u32() & 0xff;
		return bytes;
	}

	bytes(length: number): Uint8Array {
		return this.fill(new Uint8Array(length));
	}
}

/** The machine a benchmark ran on. */
export interface MachineInfo {
	node: string;
	openssl: string;
	cpu: string;
	cores: number;
	platform: string;
	date: string;
}

export function machineInfo(): MachineInfo {
	const list = cpus();
	return {
		node: process.version,
		openssl: process.versions.openssl ?? "unknown",
		cpu: list[0]?.model.trim() ?? "unknown",
		cores: list.length,
		platform: `${process.platform}-${process.arch}`,
		date: new Date().toISOString(),
	};
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[mid] as number)
		: ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

let gc: (() => void) | undefined;

/**
 * Runs a full garbage collection (between benchmark scenarios, so one scenario's garbage neither
 * lands in the next one's timings nor adds to its memory peak). Exposes V8's gc() on first use.
 */
export function collectGarbage(): void {
	if (!gc) {
		setFlagsFromString("--expose-gc");
		gc = runInNewContext("gc") as () => void;
	}
	gc();
}
