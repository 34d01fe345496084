// Why the fold store refused a stored source: SourceVerificationError names the caller's label (e.g.
// "fold f0123…"), both digests (actual null when there is no readable blob), and the path and what
// was wrong. Nothing unverified is ever returned with it. No I/O.

import { constants as bufferConstants } from "node:buffer";
import type { WholeFail } from "./source-read.ts";

/** Why a stored source was refused: absent, altered, unreadable, or refused unopened (not a regular file, wrong size). */
type SourceFailure = "missing" | "mismatch" | "unreadable" | "refused";

/** The largest source `read` returns: the longest string Node can hold (bytes >= characters). */
export const MAX_SOURCE_TEXT_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** A stored fold source failed verification (or is missing); nothing from it was returned. */
export class SourceVerificationError extends Error {
	override name = "SourceVerificationError";
	/** The caller's label, e.g. "fold f0123456789abcdef". */
	readonly label: string;
	/** The SHA-256 the source must have (its address). */
	readonly expected: string;
	/** The SHA-256 of what is on disk, or null when there is no readable blob. */
	readonly actual: string | null;
	readonly reason: SourceFailure;
	constructor(label: string, expected: string, actual: string | null, reason: SourceFailure, detail = "") {
		const found = actual ?? `none (blob ${reason === "mismatch" ? "unreadable" : reason})`;
		super(
			`${label}: stored source failed verification: expected sha256 ${expected}, actual sha256 ${found}` +
				`${detail ? ` (${detail})` : ""}; nothing from it was returned`,
		);
		this.label = label;
		this.expected = expected;
		this.actual = actual;
		this.reason = reason;
	}
}

export function refused(label: string, sha: string, fail: WholeFail): SourceVerificationError {
	return new SourceVerificationError(label, sha, fail.actual, fail.reason, fail.detail);
}
