// One stored decision record checked on its own, before replay links it into the chain: its schema,
// its own digest, and its tag. A record is trusted when its HMAC verifies with this agent directory's
// key; held when it is intact but cannot be verified here (an older pi-fold's unkeyed version 1
// record, or one signed with another key: another machine or agent directory); refused otherwise,
// with a reason naming what is wrong. Pure.

import { type ChainKey, recordDigest } from "./chain.ts";
import { type DecisionRecord, parseDecisionRecord } from "./records.ts";

type CheckedRecord =
	| { readonly status: "trusted"; readonly record: DecisionRecord }
	| { readonly status: "held"; readonly record: DecisionRecord; readonly why: string }
	| { readonly status: "refused"; readonly reason: string };

/** A zod error (or anything thrown) as one line naming each bad field. */
export function describeError(error: unknown): string {
	if (
		error &&
		typeof error === "object" &&
		"issues" in error &&
		Array.isArray((error as { issues: unknown[] }).issues)
	) {
		const issues = (error as { issues: { path: PropertyKey[]; message: string }[] }).issues;
		return issues.map((i) => `${i.path.map(String).join(".") || "(record)"}: ${i.message}`).join("; ");
	}
	return error instanceof Error ? error.message : String(error);
}

const short = (hex: string) => `${hex.slice(0, 12)}…`;

/** Checks one record's schema, digest and tag against `key` (null: no key, nothing is trusted). */
export function checkRecord(data: unknown, key: ChainKey | null): CheckedRecord {
	let record: DecisionRecord;
	try {
		record = parseDecisionRecord(data);
	} catch (error) {
		return { status: "refused", reason: `malformed decision record: ${describeError(error)}` };
	}
	const expected = recordDigest(record);
	if (expected !== record.digest)
		return {
			status: "refused",
			reason: `${record.kind} record was altered: its digest is ${short(record.digest)}, its content hashes to ${short(expected)}`,
		};
	if (record.v === 1 || record.kid === undefined || record.mac === undefined)
		return { status: "held", record, why: `unkeyed ${record.kind} record (record version 1, an older pi-fold's)` };
	if (key === null)
		return { status: "held", record, why: `${record.kind} record signed with key ${record.kid}; no key to verify it` };
	if (record.kid !== key.id)
		return {
			status: "held",
			record,
			why: `${record.kind} record signed with another key (${record.kid}; this agent directory's key is ${key.id}): written in another agent directory or on another machine, or altered`,
		};
	if (!key.verify(record.digest, record.mac))
		return {
			status: "refused",
			reason: `${record.kind} record was altered: its tag does not verify with this agent directory's key ${key.id}`,
		};
	return { status: "trusted", record };
}
