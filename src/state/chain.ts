// Hash-chaining and keying of decision records. A record's digest is the SHA-256 of its canonical
// JSON without the `digest` and `mac` fields; `prev` names the digest of the record before it on the
// branch. A version 2 record also carries `kid`, the id of the key that signed it, and `mac`, an
// HMAC-SHA256 of its digest under that key: without the key, nobody can write a record replay
// accepts. The key itself lives outside the session (src/runtime/chain-key.ts reads it from the agent
// directory). Pure (node:crypto for the HMAC).

import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../transcript/index.ts";
import { sha256Hex } from "../wasm/index.ts";
import { type DecisionBody, type DecisionRecord, RECORD_VERSION } from "./records.ts";

/** Bytes of a chain key's secret. */
export const CHAIN_KEY_BYTES = 32;

/** A secret that signs and verifies records; `id` names it in records and messages (not secret). */
export interface ChainKey {
	readonly id: string;
	sign(digest: string): string;
	verify(digest: string, mac: string): boolean;
}

const MAC_DOMAIN = "pi-fold decision record v2\n";
const ID_DOMAIN = "pi-fold chain key id\n";

function hmacHex(secret: Uint8Array, text: string): string {
	return createHmac("sha256", secret).update(text, "utf8").digest("hex");
}

/** The key of `secret` (at least CHAIN_KEY_BYTES bytes). */
export function chainKeyOf(secret: Uint8Array): ChainKey {
	if (secret.byteLength < CHAIN_KEY_BYTES)
		throw new Error(`a chain key needs ${CHAIN_KEY_BYTES} bytes of secret, got ${secret.byteLength}`);
	const copy = Uint8Array.from(secret);
	return {
		id: hmacHex(copy, ID_DOMAIN).slice(0, 16),
		sign: (digest) => hmacHex(copy, MAC_DOMAIN + digest),
		verify: (digest, mac) => {
			const want = Buffer.from(hmacHex(copy, MAC_DOMAIN + digest), "hex");
			const got = Buffer.from(mac, "hex");
			return got.length === want.length && timingSafeEqual(got, want);
		},
	};
}

/** The digest a record must carry: SHA-256 of its canonical JSON with `digest` and `mac` left out. */
export function recordDigest(record: Omit<DecisionRecord, "digest"> | DecisionRecord): string {
	const { digest: _digest, mac: _mac, ...rest } = record as DecisionRecord;
	return sha256Hex(canonicalJson(rest));
}

/** Chains `body` after the record whose digest is `prev` (null for the first record), signed with `key`. */
export function chainRecord(body: DecisionBody, prev: string | null, key: ChainKey): DecisionRecord {
	const unsigned = { ...body, v: RECORD_VERSION, prev, kid: key.id } as Omit<DecisionRecord, "digest">;
	const digest = recordDigest(unsigned);
	return { ...unsigned, digest, mac: key.sign(digest) } as DecisionRecord;
}

/** What an adopt record commits to: the SHA-256 of the held records' digests, one per line, in order. */
export function heldDigest(digests: readonly string[]): string {
	return sha256Hex(digests.map((d) => `${d}\n`).join(""));
}
