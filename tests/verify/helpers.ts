// Small factories for verifier tests: temporary store directories, deterministic bytes, and
// in-place damage to blobs (which are 0444, so damage chmods first).

import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { deterministicBytes } from "../../src/wasm/index.ts";

const dirs: string[] = [];

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix = "pi-fold-test-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	dirs.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Deterministic pseudo-random bytes (the Wasm layer's xorshift generator). */
export function bytes(length: number, seed = 1): Uint8Array {
	return deterministicBytes(length, seed);
}

/** Flips one bit of the byte at `offset` of a (read-only) file. */
export function flipByte(path: string, offset: number): void {
	chmodSync(path, 0o644);
	const data = readFileSync(path);
	data[offset] = (data[offset] ?? 0) ^ 0x01;
	writeFileSync(path, data);
	chmodSync(path, 0o444);
}

/** Cuts a (read-only) file to its first `length` bytes. */
export function truncateTo(path: string, length: number): void {
	chmodSync(path, 0o644);
	writeFileSync(path, readFileSync(path).subarray(0, length));
	chmodSync(path, 0o444);
}

/** Small chunk-tree settings so tests exercise many chunks cheaply. */
export const SMALL_TREE = { chunkSize: 1024, treeMinBytes: 4096 } as const;
