// Test helpers for the store: temporary folders (removed after each test), a deterministic mixed
// ASCII / multi-byte UTF-8 text, and in-place damage of read-only (0444) files.

import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const dirs: string[] = [];

export function tempDir(prefix = "pi-fold-store-test-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	dirs.push(dir);
	return dir;
}

afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Deterministic text mixing 1-, 2-, 3- and 4-byte UTF-8 characters, about `bytes` long. */
export function mixedText(bytes: number, seed = 7): string {
	const alphabet = ["a", "b", " ", "\n", "é", "ß", "€", "語", "😀", "{", '"', "z"];
	let x = seed;
	let out = "";
	let size = 0;
	while (size < bytes) {
		x = (x * 1103515245 + 12345) >>> 0;
		const ch = alphabet[x % alphabet.length] as string;
		out += ch;
		size += Buffer.byteLength(ch);
	}
	return out;
}

/** Rewrites a read-only file through `edit`, restoring mode 0444. */
export function damage(path: string, edit: (data: Buffer) => Buffer): void {
	chmodSync(path, 0o644);
	writeFileSync(path, edit(readFileSync(path)));
	chmodSync(path, 0o444);
}

/** Flips one bit at `offset`. */
export function flipAt(path: string, offset: number): void {
	damage(path, (data) => {
		data[offset] = (data[offset] ?? 0) ^ 0x01;
		return data;
	});
}

/** Every file under `dir`, relative, recursively. */
export function filesUnder(dir: string): string[] {
	const out: string[] = [];
	const walk = (rel: string) => {
		for (const name of readdirSync(join(dir, rel))) {
			const r = rel ? `${rel}/${name}` : name;
			if (statSync(join(dir, r)).isDirectory()) walk(r);
			else out.push(r);
		}
	};
	walk("");
	return out.sort();
}

/** Every directory under `dir` (including it), absolute. */
export function dirsUnder(dir: string): string[] {
	const out = [dir];
	for (const name of readdirSync(dir)) {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) out.push(...dirsUnder(p));
	}
	return out;
}
