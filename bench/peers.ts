// The peer set-ups pi-fold's verifier is measured against: verify a store (every blob hashed whole
// against its name) with node:crypto on one thread, node:crypto on N worker threads (the same pool,
// batching and largest-first scheduling as pi-fold, only the engine and the missing chunk tree
// differ: the best set-up a peer without a chunk tree could build), and hash-wasm on one thread.
// Each returns the number of blobs that failed (0 expected). Does its own file reads.

import { createHash, hash as cryptoHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { createSHA256, type IHasher } from "hash-wasm";
import type { VerifyPool } from "../src/verify/hash-pool.ts";
import type { Task } from "../src/verify/tasks.ts";

/** Blobs at or below this size are read whole; larger ones are streamed (both peers and pi-fold: 4 MiB). */
const SMALL = 4 * 1024 * 1024;
const READ = 1024 * 1024;

interface Listed {
	digest: string;
	path: string;
	size: number;
}

/** Lists the blobs of a store (sidecars skipped), as a peer would: readdir + stat. */
export function listBlobs(dir: string): Listed[] {
	const out: Listed[] = [];
	const root = join(dir, "sha256");
	for (const fan of readdirSync(root)) {
		for (const name of readdirSync(join(root, fan))) {
			if (name.length !== 64) continue;
			const path = join(root, fan, name);
			out.push({ digest: name, path, size: statSync(path).size });
		}
	}
	return out;
}

function streamHex(path: string, update: (b: Uint8Array) => void, buf: Uint8Array): void {
	const fd = openSync(path, "r");
	try {
		let pos = 0;
		for (;;) {
			const n = readSync(fd, buf, 0, buf.length, pos);
			if (n === 0) break;
			update(buf.subarray(0, n));
			pos += n;
		}
	} finally {
		closeSync(fd);
	}
}

/** Reads a whole small file into `buf` (reused, so the peer makes no garbage per blob). */
function readSmall(path: string, size: number, buf: Uint8Array): Uint8Array {
	const fd = openSync(path, "r");
	try {
		let done = 0;
		while (done < size) {
			const n = readSync(fd, buf, done, size - done, done);
			if (n === 0) break;
			done += n;
		}
		return buf.subarray(0, done);
	} finally {
		closeSync(fd);
	}
}

/** node:crypto, one thread: crypto.hash for small blobs, a createHash stream for large ones. */
export function nodeOneThread(dir: string): number {
	const buf = new Uint8Array(READ);
	const whole = new Uint8Array(SMALL);
	let bad = 0;
	for (const blob of listBlobs(dir)) {
		let hex: string;
		if (blob.size <= SMALL) hex = cryptoHash("sha256", readSmall(blob.path, blob.size, whole), "hex");
		else {
			const h = createHash("sha256");
			streamHex(blob.path, (b) => h.update(b), buf);
			hex = h.digest("hex");
		}
		if (hex !== blob.digest) bad++;
	}
	return bad;
}

let hashWasm: IHasher | undefined;

/** hash-wasm, one thread: one reused SHA-256 instance, init/update/digest per blob. */
export async function hashWasmOneThread(dir: string): Promise<number> {
	hashWasm ??= await createSHA256();
	const h = hashWasm;
	const buf = new Uint8Array(READ);
	const whole = new Uint8Array(SMALL);
	let bad = 0;
	for (const blob of listBlobs(dir)) {
		h.init();
		if (blob.size <= SMALL) h.update(readSmall(blob.path, blob.size, whole));
		else streamHex(blob.path, (b) => h.update(b), buf);
		if (h.digest("hex") !== blob.digest) bad++;
	}
	return bad;
}

/**
 * node:crypto on a pool of worker threads (kept warm across runs, like pi-fold's shared pool; the
 * calling thread only waits): small blobs in batches, large ones streamed whole, largest first.
 */
export async function nodeWorkers(dir: string, pool: VerifyPool): Promise<number> {
	const blobs = listBlobs(dir).sort((a, b) => b.size - a.size);
	const plans: { task: Task; digests: string[] }[] = [];
	const small: Listed[] = [];
	for (const blob of blobs) {
		if (blob.size > SMALL)
			plans.push({ task: { kind: "file", path: blob.path, readSize: READ, engine: "node" }, digests: [blob.digest] });
		else small.push(blob);
	}
	for (let i = 0; i < small.length; ) {
		const group: Listed[] = [];
		let bytes = 0;
		while (i < small.length && (group.length === 0 || bytes + (small[i] as Listed).size <= 8 * 1024 * 1024)) {
			const blob = small[i++] as Listed;
			group.push(blob);
			bytes += blob.size;
		}
		plans.push({
			task: {
				kind: "batch",
				paths: group.map((b) => b.path),
				maxBuffered: SMALL,
				engine: "node",
				streamEngine: "node",
				readSize: READ,
			},
			digests: group.map((b) => b.digest),
		});
	}
	let bad = 0;
	const { results } = await pool.runBatch(
		plans.map((p) => p.task),
		{ callerHelps: false },
	);
	plans.forEach((plan, k) => {
		const r = results[k] as { digests: Uint8Array };
		plan.digests.forEach((digest, i) => {
			if (Buffer.from(r.digests.subarray(i * 32, i * 32 + 32)).toString("hex") !== digest) bad++;
		});
	});
	return bad;
}

/** node:crypto single stream over one file (the baseline for one large blob). */
export function nodeStreamFile(path: string): string {
	const h = createHash("sha256");
	streamHex(path, (b) => h.update(b), new Uint8Array(READ));
	return h.digest("hex");
}

/** hash-wasm single stream over one file. */
export async function hashWasmStreamFile(path: string): Promise<string> {
	hashWasm ??= await createSHA256();
	const h = hashWasm;
	h.init();
	streamHex(path, (b) => h.update(b), new Uint8Array(READ));
	return h.digest("hex");
}
