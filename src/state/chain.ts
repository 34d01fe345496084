// Hash-chaining of decision records: a record's digest is the SHA-256 of its canonical JSON
// without the digest field, and `prev` names the digest of the record before it on the branch.
// Pure.

import { canonicalJson } from "../transcript/index.ts";
import { sha256Hex } from "../wasm/index.ts";
import { type DecisionBody, type DecisionRecord, RECORD_VERSION } from "./records.ts";

/** The digest a record must carry: SHA-256 of its canonical JSON with `digest` left out. */
export function recordDigest(record: Omit<DecisionRecord, "digest"> | DecisionRecord): string {
	const { digest: _digest, ...rest } = record as DecisionRecord;
	return sha256Hex(canonicalJson(rest));
}

/** Chains `body` after the record whose digest is `prev` (null for the first record). */
export function chainRecord(body: DecisionBody, prev: string | null): DecisionRecord {
	const unsigned = { ...body, v: RECORD_VERSION, prev } as Omit<DecisionRecord, "digest">;
	return { ...unsigned, digest: recordDigest(unsigned) } as DecisionRecord;
}
