// A fold's exact source and its content-derived id. The source is JSON Lines, one line per leaf
// entry ({"id":...,"message":...} exactly as Pi stored the message), so it restores byte for byte
// and pages readably; the id hashes the canonical form, so it ignores key order. Pure functions.

import type { TranscriptEntry } from "../transcript/index.ts";
import { canonicalJson } from "../transcript/index.ts";
import { sha256Hex } from "../wasm/index.ts";

/** Hex characters of the canonical SHA-256 kept in a fold id. */
const FOLD_ID_HEX = 16;

/** The exact source of a span: one JSON line per entry, in order, each ending in "\n". */
export function foldSource(leaves: readonly TranscriptEntry[]): string {
	let out = "";
	for (const leaf of leaves) out += `${JSON.stringify({ id: leaf.id, message: leaf.message })}\n`;
	return out;
}

/** Parses a fold source back into entries; throws naming the line when it is not one. */
export function parseFoldSource(source: string): TranscriptEntry[] {
	const lines = source.split("\n");
	if (lines.at(-1) === "") lines.pop();
	return lines.map((line, i) => {
		const value = JSON.parse(line) as { id?: unknown; message?: unknown };
		if (typeof value.id !== "string" || value.message === null || typeof value.message !== "object") {
			throw new Error(`fold source line ${i + 1} is not an {id, message} entry`);
		}
		return value as TranscriptEntry;
	});
}

/** The fold id of a span: same leaves (ids and content, any key order) give the same id. */
export function foldId(leaves: readonly TranscriptEntry[]): string {
	const canonical = canonicalJson(leaves.map((leaf) => ({ id: leaf.id, message: leaf.message })));
	return `f${sha256Hex(canonical).slice(0, FOLD_ID_HEX)}`;
}
