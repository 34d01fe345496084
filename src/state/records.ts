// The durable decision log's record shapes, as zod schemas: every decision pi-fold makes (fold,
// mark, unmark, expand, refold, protect, unprotect, rebrief, reboundary, commit, and the human's
// adopt) is one small record in a Pi `custom` session entry, validated on replay. Records are
// hash-chained (each carries the digest of the previous record on its branch) and, from record
// version 2, keyed: each carries the id of the key that signed it and an HMAC of its digest
// (chain.ts), so an edited, reordered or forged record is refused by name. Version 1 records (an
// older pi-fold's, unkeyed) still parse; replay holds them until the human adopts them. Pure.

import { z } from "zod";
import { BRIEF_MAX_CHARS, LINES_IN_USE_MAX_CHARS, NAME_INDEX_MAX_CHARS } from "../briefs/index.ts";
import { FOLD_READS_MAX, READ_PATH_MAX_CHARS } from "../lattice/index.ts";

/** Version of every record pi-fold writes: keyed (`kid` and `mac`). Replay refuses unknown versions by name. */
export const RECORD_VERSION = 2;
/** The unkeyed records an older pi-fold wrote: parsed, held until adopted. */
const LEGACY_RECORD_VERSION = 1;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, "expected 64 lowercase hex characters");
/** A key id: 16 lowercase hex characters derived from the key (chain.ts). */
const keyIdSchema = z.string().regex(/^[0-9a-f]{16}$/, "expected a key id of 16 lowercase hex characters");
const foldIdSchema = z.string().regex(/^f[0-9a-f]{16}$/, "expected a fold id like f0123456789abcdef");

/** A file read a fold holds (optional on fold records: records written before issue 12 have none). */
const fileReadSchema = z.strictObject({
	entry: z.string().min(1),
	path: z.string().min(1).max(READ_PATH_MAX_CHARS),
	sha256: hex64,
	lines: z.tuple([z.number().int().positive(), z.number().int().nonnegative()]).readonly().optional(),
});

export const foldRecordSchema = z.strictObject({
	id: foldIdSchema,
	kind: z.enum(["tools", "chapter", "span", "consolidation", "result"]),
	origin: z.enum(["agent", "ladder"]),
	leafIds: z.array(z.string().min(1)).min(1).readonly(),
	sourceSha256: hex64,
	sourceBytes: z.number().int().nonnegative(),
	brief: z.string().min(1).max(BRIEF_MAX_CHARS),
	briefSource: z.enum(["agent", "deterministic", "model", "supplied"]),
	names: z.string().min(1).max(NAME_INDEX_MAX_CHARS).optional(),
	inUse: z.string().min(1).max(LINES_IN_USE_MAX_CHARS).optional(),
	reads: z.array(fileReadSchema).max(FOLD_READS_MAX).readonly().optional(),
});

/** Who a decision came from: the agent's tool, the automatic ladder, the human's command. */
const actorSchema = z.enum(["agent", "ladder", "human"]);
export type Actor = z.infer<typeof actorSchema>;

const protectTarget = z.union([
	z.strictObject({ entryIds: z.array(z.string().min(1)).min(1) }),
	z.strictObject({ foldId: foldIdSchema }),
]);

/** Chain fields of a version 1 record: version, the previous record's digest, its own digest. */
const legacyChain = { v: z.literal(LEGACY_RECORD_VERSION), prev: hex64.nullable(), digest: hex64 };
/** Chain fields of a version 2 record: those, plus the signing key's id and the HMAC of the digest. */
const chain = { v: z.literal(RECORD_VERSION), prev: hex64.nullable(), digest: hex64, kid: keyIdSchema, mac: hex64 };

const variants = [
	/** A fold the runtime applies at the next commit (immediate scheduling). */
	z.strictObject({ kind: z.literal("fold"), actor: actorSchema, fold: foldRecordSchema }),
	/** A pending mark (epoch scheduling): moves no byte until a commit applies it. */
	z.strictObject({ kind: z.literal("mark"), actor: actorSchema, topUp: z.boolean(), fold: foldRecordSchema }),
	/** Withdraws a pending mark; `note` says why when pi-fold dropped it (its entries were compacted away). */
	z.strictObject({
		kind: z.literal("unmark"),
		actor: actorSchema,
		foldId: foldIdSchema,
		note: z.string().min(1).max(200).optional(),
	}),
	z.strictObject({ kind: z.literal("expand"), actor: actorSchema, foldId: foldIdSchema }),
	z.strictObject({ kind: z.literal("refold"), actor: actorSchema, foldId: foldIdSchema }),
	z.strictObject({ kind: z.literal("protect"), actor: actorSchema, target: protectTarget }),
	z.strictObject({ kind: z.literal("unprotect"), actor: actorSchema, target: protectTarget }),
	z.strictObject({
		kind: z.literal("rebrief"),
		actor: actorSchema,
		foldId: foldIdSchema,
		brief: z.string().min(1).max(BRIEF_MAX_CHARS),
		briefSource: z.enum(["agent", "deterministic", "model", "supplied"]),
	}),
	/** Dissolve a fold back to raw (`foldIds` of one), or merge adjacent folds into `fold`. */
	z.strictObject({
		kind: z.literal("reboundary"),
		actor: actorSchema,
		op: z.enum(["dissolve", "merge"]),
		foldIds: z.array(foldIdSchema).min(1),
		fold: foldRecordSchema.optional(),
	}),
	/** A commit: the one moment the window changes. Lists what it applied, by whom, and why. */
	z.strictObject({
		kind: z.literal("commit"),
		actor: actorSchema,
		seq: z.number().int().positive(),
		reason: z.string().min(1).max(400),
		applied: z.array(foldIdSchema),
		agentMarks: z.array(foldIdSchema),
		topUpMarks: z.array(foldIdSchema),
		refused: z.array(z.strictObject({ foldId: foldIdSchema, reason: z.string() })),
		edits: z.array(z.strictObject({ targetId: z.string().min(1), action: z.enum(["brief", "omit", "restore"]) })),
		/** What forced the commit whatever its economics (absent: it paid for itself, or landed decisions). */
		force: z.enum(["budget", "price tier", "expand", "cold cache", "rescue", "oversize"]).optional(),
		/** Expanded folds a rescue over the budget folded again (named in `reason` too). */
		retaken: z.array(foldIdSchema).optional(),
		/** Cost scheduling: what the commit was predicted to cost and save (provider tokens, dollars). */
		prediction: z
			.strictObject({
				rewriteTokens: z.number().int().nonnegative(),
				freedTokens: z.number().int().nonnegative(),
				windowAfterTokens: z.number().int(),
				rewriteUsd: z.number().nonnegative(),
				savingPerRequestUsd: z.number().nonnegative(),
				breakEvenRequests: z.number().int().nonnegative().nullable(),
			})
			.optional(),
	}),
	/**
	 * The human vouches for the records replay holds (unkeyed, or signed with another key): `count` of
	 * them, whose digests hash (heldDigest in chain.ts) to `held`. Only a human command writes it.
	 */
	z.strictObject({
		kind: z.literal("adopt"),
		actor: z.literal("human"),
		count: z.number().int().positive(),
		held: hex64,
	}),
] as const;

const bodySchema = z.discriminatedUnion("kind", [...variants]);
const chainSchema = z.looseObject(chain);
const legacyChainSchema = z.looseObject(legacyChain);
const versionSchema = z.looseObject({ v: z.union([z.literal(LEGACY_RECORD_VERSION), z.literal(RECORD_VERSION)]) });

/** A decision before it is chained (what callers create). */
export type DecisionBody = z.infer<typeof bodySchema>;
/** A chained decision as stored in a custom entry's `data` (`kid` and `mac` exactly in version 2). */
export type DecisionRecord = DecisionBody & {
	readonly v: 1 | 2;
	readonly prev: string | null;
	readonly digest: string;
	readonly kid?: string;
	readonly mac?: string;
};

/** Validates a stored record: version, chain fields, then the decision itself (no unknown fields anywhere). */
export function parseDecisionRecord(data: unknown): DecisionRecord {
	const { v } = versionSchema.parse(data);
	if (v === LEGACY_RECORD_VERSION) {
		const { v: _v, prev, digest, ...rest } = legacyChainSchema.parse(data);
		return { ...bodySchema.parse(rest), v, prev, digest };
	}
	const { v: _v, prev, digest, kid, mac, ...rest } = chainSchema.parse(data);
	return { ...bodySchema.parse(rest), v, prev, digest, kid, mac };
}

/** Validates a decision body before it is chained and written (the decision log's `chain`). */
export function parseDecisionBody(data: unknown): DecisionBody {
	return bodySchema.parse(data);
}
