// Benchmark data written with bounded memory: the mixed store (4 large blobs holding 3/4 of the
// bytes; 8 folds as the fold store writes them, 400 entries of 0.5-16 KiB under their Merkle
// manifests; the rest 1-256 KiB; ~3,250 blobs at 512 MiB) and one large random file, both generated
// from the seeded PRNG in 4 MiB pieces (one reused buffer), so a 1 GiB file costs 4 MiB of memory,
// not 1 GiB. Does its own file I/O.

import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { buildFoldTree, writeBlob, writeBlobStream } from "../../src/verify/index.ts";
import type { Prng } from "../data.ts";

const PIECE = 4 * 1024 * 1024;

/** `bytes` of PRNG output in pieces of at most 4 MiB, one buffer reused (consume each before the next). */
export function* prngPieces(prng: Prng, bytes: number): Generator<Uint8Array> {
	const buf = new Uint8Array(Math.min(PIECE, Math.max(bytes, 1)));
	for (let left = bytes; left > 0; left -= buf.length) {
		const n = Math.min(buf.length, left);
		yield prng.fill(buf.subarray(0, n));
	}
}

/** What writeMixedStore wrote: blob count and every blob's path relative to the store (for sha256sum -c). */
export interface MixedStore {
	blobs: number;
	/** `sha256/<2 hex>/<64 hex>` of each blob. */
	paths: string[];
	/** Fold manifests among the blobs (roots), which `pi-fold verify` walks. */
	folds: number;
}

/** Folds in the mixed store, and entries per fold. */
const FOLDS = 8;
const FOLD_ENTRIES = 50;

/** A fold's entries as the fold store keeps them: one JSON line each, 0.5-16 KiB of text. */
function foldEntries(fold: number, prng: Prng): { id: string; data: Uint8Array }[] {
	return Array.from({ length: FOLD_ENTRIES }, (_, i) => {
		const size = Math.round(512 * 32 ** (prng.u32() / 2 ** 32));
		const content = Buffer.from(prng.bytes(Math.ceil((size * 3) / 4))).toString("base64");
		const id = `f${fold}e${i}`;
		const line = `${JSON.stringify({ type: "message", id, message: { role: "toolResult", content } })}\n`;
		return { id, data: Buffer.from(line, "utf8") };
	});
}

/**
 * Writes the deterministic mixed store: 4 large blobs holding 3/4 of `bytes`, FOLDS folds of
 * FOLD_ENTRIES entries under their manifests, the rest small (1-256 KiB).
 */
export async function writeMixedStore(dir: string, bytes: number, prng: Prng): Promise<MixedStore> {
	const large = Math.floor((bytes * 0.75) / 4);
	const paths: string[] = [];
	const rel = (digest: string) => `sha256/${digest.slice(0, 2)}/${digest}`;
	for (let i = 0; i < 4; i++) {
		const written = await writeBlobStream(dir, prngPieces(prng, large), { durable: false });
		paths.push(rel(written.digest));
	}
	let left = bytes - 4 * large;
	for (let f = 0; f < FOLDS; f++) {
		for (const data of buildFoldTree(`fold-${f}`, foldEntries(f, prng)).blobs.values()) {
			paths.push(rel((await writeBlob(dir, data, { durable: false })).digest));
			left -= data.length;
		}
	}
	while (left > 0) {
		const size = Math.min(left, Math.round(1024 * 256 ** (prng.u32() / 2 ** 32)));
		paths.push(rel((await writeBlob(dir, prng.bytes(size), { durable: false })).digest));
		left -= size;
	}
	return { blobs: paths.length, paths, folds: FOLDS };
}

/** Writes `bytes` of PRNG output to a new file at `path`; returns its SHA-256 (hex). */
export async function writeRandomFile(path: string, bytes: number, prng: Prng): Promise<string> {
	const handle = await open(path, "wx", 0o600);
	const hash = createHash("sha256");
	try {
		for (const piece of prngPieces(prng, bytes)) {
			hash.update(piece);
			let done = 0;
			while (done < piece.length) done += (await handle.write(piece, done, piece.length - done)).bytesWritten;
		}
	} finally {
		await handle.close();
	}
	return hash.digest("hex");
}
