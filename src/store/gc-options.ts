// The options of the fold store's garbage collection (gc.ts), validated by zod: how long an
// unreferenced blob is kept (the retention, in days; 14 by default, git's gc.pruneExpire of two weeks,
// so a blob a live session wrote a moment ago and has not yet recorded is never removed), whether to
// remove (a dry run by default), the store folder's name inside the sessions folder, and the clock
// (for tests). Pure.

import { z } from "zod";

/** Days an unreferenced blob is kept by default (as git keeps unreachable objects two weeks). */
export const DEFAULT_RETENTION_DAYS = 14;

const gcOptionsSchema = z
	.object({
		/** Unreferenced blobs modified less than this many days ago are kept. 0 removes them all (unsafe beside a live session). */
		retentionDays: z.number().min(0).max(36_500).default(DEFAULT_RETENTION_DAYS),
		/** Remove what is unreferenced (after verifying what stays); false lists it only. */
		apply: z.boolean().default(false),
		/** The store's folder inside the sessions folder. */
		storeDirName: z
			.string()
			.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "must be a plain folder name")
			.default("pi-fold-store"),
		/** The time gc runs at, in ms since the epoch (default: now). */
		now: z.number().int().nonnegative().optional(),
	})
	.strict();

export type GcOptions = z.input<typeof gcOptionsSchema>;
type ResolvedGcOptions = z.output<typeof gcOptionsSchema>;

/** The options, checked; throws a TypeError naming what is wrong. */
export function parseGcOptions(options: GcOptions | undefined): ResolvedGcOptions {
	const parsed = gcOptionsSchema.safeParse(options ?? {});
	if (!parsed.success) {
		const what = parsed.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; ");
		throw new TypeError(`gc options: ${what}`);
	}
	return parsed.data;
}
